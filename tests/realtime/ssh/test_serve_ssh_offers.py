"""The draw offer over real SSH: ann offers with `d`, bob's screen asks "ann offers a
draw: y/n"; `n` (or any other key) declines, one offer a move, a move clears it; `y`
ends the round as a draw on every screen, a spectator's too, kept once in the record as
an agreed draw and rated as a draw. A draw offered on one's own turn says it is still
one's move (the clock runs), and every answer is heard on every screen, the asker's too
(issue 35)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import test_serve_ssh
from record_tools import run_sql
from test_serve_ssh_rooms import (
    ANN_KEY,
    BOB_KEY,
    FINGERPRINT,
    enter,
    hub_of,
    new_room,
    record_of,
    until,
)

from tui_tictactoe.rooms.limits import RoomLimits

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


async def test_an_offer_on_ones_turn_and_every_answer_on_every_screen(host: Any) -> None:
    hosted = await host(
        rooms=True, room_limits=RoomLimits(move_time=20.0)
    )  # the clock shown from the start
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.matches(r"Your turn \(O\): \d+ s left\.")
    bob.send("1")
    await ann.matches(r"Your turn \(X\): \d+ s left\.")

    ann.send("d")  # on her own turn: her move still, her clock runs
    await ann.matches(r"You offered a draw\. Your turn: you play X · you: \d+ s left")
    assert "waiting for bob" not in ann.text
    await bob.matches(r"ann offers a draw: y/n · ann: \d+ s left")
    await carol.matches(r"ann offers a draw · ann: \d+ s left")
    bob.send("n")
    await ann.matches(r"bob declined the draw\. Your turn \(X\): \d+ s left\.")
    await bob.matches(r"You declined the draw\. ann \(X\): \d+ s left\.")
    await carol.matches(r"bob declined the draw\. ann \(X\): \d+ s left\.")

    ann.send("3")
    await ann.matches(r"bob \(O\): \d+ s left\.")
    assert "declined" not in ann.text  # a move: the answer is old news
    ann.send("u")
    await bob.shows("ann asks to take back 3: y/n")
    bob.send("y")
    await ann.matches(r"bob agreed to the take-back\. Your turn \(X\): \d+ s left\.")
    await bob.matches(r"You agreed to the take-back\. ann \(X\): \d+ s left\.")
    await carol.matches(r"bob agreed to the take-back\. ann \(X\): \d+ s left\.")
    assert hub_of(hosted).view(code).moves == (5, 1)
    ann.send("9")
    await bob.matches(r"Your turn \(O\): \d+ s left\.")
    bob.send("d")  # his own turn: a draw offered, then ann's answer heard
    await ann.shows("bob offers a draw: y/n")
    ann.send("x")  # any other key declines
    await bob.matches(r"ann declined the draw\. Your turn \(O\): \d+ s left\.")


async def test_a_draw_offered_declined_offered_again_and_taken(host: Any, tmp_path: Path) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")

    ann.send("d")
    await bob.shows("ann offers a draw: y/n")
    await ann.shows("You offered a draw: waiting for bob.")
    await carol.shows("ann offers a draw.")
    bob.send("n")
    await ann.shows("Waiting for bob (O).")
    assert hub_of(hosted).view(code).offer is None
    ann.send("d")  # one offer a move
    await ann.shows("One offer a move: play on, then offer again.")
    bob.send("1")  # the move that gives ann her offer again
    await ann.shows("bob played 1. Your turn: you play X.")
    ann.send("d")
    await bob.shows("ann offers a draw: y/n")
    bob.send("y")
    for session in (ann, bob, carol):
        await session.shows("Draw agreed.")
    view = hub_of(hosted).view(code)
    assert (view.result, view.agreed, view.moves, view.score) == ("draw", True, (5, 1), (0, 0, 1))

    record = record_of(tmp_path)
    try:  # kept once (both players' sessions save it) as an agreed draw, rated as a draw
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[ANN_KEY]))
        rounds = record.people.rounds(FINGERPRINT[BOB_KEY])
        assert [(r.result, r.moves, r.rated) for r in rounds] == [("draw", (5, 1), True)]
        assert run_sql(record, "SELECT result, agreed FROM matches") == [("draw", 1)]
        ratings = {entry.player: (entry.rating, entry.games) for entry in record.people.ratings()}
        assert ratings == {FINGERPRINT[ANN_KEY]: (1200, 1), FINGERPRINT[BOB_KEY]: (1200, 1)}
    finally:
        record.close()
