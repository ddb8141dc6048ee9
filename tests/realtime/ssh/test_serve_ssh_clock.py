"""The move clock and consent over real SSH (asyncssh clients, real game processes):
a mover's time running out on every screen and in the record, on one host and across
two on PostgreSQL (the deadline is the room's, so both hosts end the round alike); a
take-back asked with `u`, declined and taken; a round claimed from a player who left,
also from one who leaves and comes back again and again (time away adds up); fair play (a player watching their own round gets no analysis). The clock is short
(`--move-time 5`), so nothing waits a minute; every wait is for a screen."""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path
from typing import Any

import test_serve_ssh
from record_tools import run_sql
from test_serve_ssh_hosts import listening_port, processes, serve_ssh
from test_serve_ssh_rooms import (
    ANN_KEY,
    BOB_KEY,
    FINGERPRINT,
    enter,
    hub_of,
    new_room,
    record_of,
    same_board_as_the_hub,
    seated,
    until,
)

from tui_tictactoe.record import Record
from tui_tictactoe.rooms.limits import RoomLimits

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
processes = processes  # the fixture: servers started as processes, killed at the end
LOST_ON_TIME = "bob ran out of time: ann wins!"


def ratings(record: Record) -> dict[str, tuple[int, int]]:
    return {entry.player: (entry.rating, entry.games) for entry in record.people.ratings()}


async def test_a_clock_running_out_on_both_screens_and_in_the_record(
    host: Any, tmp_path: Path
) -> None:
    hosted = await host(rooms=True, room_limits=RoomLimits(move_time=5.0))
    ann, code = await new_room(hosted.port, key=ANN_KEY)
    bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(hosted.port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")  # no clock before the first move
    ann.send("5")
    await bob.matches(r"Your turn \(O\): [0-5] s left\.")  # counted down on every screen
    await ann.matches(r"bob \(O\): [0-5] s left\.")
    for session in (ann, bob, carol):
        await session.shows(LOST_ON_TIME)
    view = hub_of(hosted).view(code)
    assert (view.result, view.cause, view.moves, view.score) == ("X", "time", (5,), (1, 0, 0))

    record = record_of(tmp_path)
    try:  # kept once as a loss on time, rated as a win for ann
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[BOB_KEY]))
        assert run_sql(record, "SELECT result, cause, moves FROM matches") == [("X", "time", "5")]
        assert ratings(record) == {FINGERPRINT[ANN_KEY]: (1216, 1), FINGERPRINT[BOB_KEY]: (1184, 1)}
    finally:
        record.close()


async def test_a_take_back_declined_then_asked_again_next_move_and_taken(
    host: Any, tmp_path: Path
) -> None:
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port, key=ANN_KEY)
    bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(hosted.port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    await ann.shows("u Undo?")  # her move: hers to ask back

    ann.send("u")
    await bob.shows("ann asks to take back 5: y/n")
    await ann.shows("You asked to take back 5: waiting for bob.")
    await carol.shows("ann asks to take back 5.")
    bob.send("n")
    await ann.shows("Waiting for bob (O).")
    ann.send("u")  # one request a move
    await ann.shows("One offer a move: play on, then offer again.")
    assert hub_of(hosted).view(code).moves == (5,)

    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")
    bob.send("u")
    await ann.shows("bob asks to take back 1: y/n")
    ann.send("y")
    await bob.shows("ann agreed to the take-back. Your turn: you play O.")  # 1 undone
    view = hub_of(hosted).view(code)
    assert (view.moves, view.take_backs) == ((5,), 1)
    for session in (ann, bob, carol):
        await same_board_as_the_hub(session, view)

    bob.send("3")
    await ann.shows("bob played 3. Your turn: you play X.")
    ann.send("d")  # end the round (a draw agreed) to see it kept with its take-back
    await bob.shows("ann offers a draw: y/n")
    bob.send("y")
    await ann.shows("Draw agreed.")
    record = record_of(tmp_path)
    try:
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[ANN_KEY]))
        kept = run_sql(record, "SELECT result, moves, take_backs FROM matches")
        assert kept == [("draw", "5,3", 1)]
    finally:
        record.close()


async def test_the_player_left_behind_claims_the_round_after_half_the_grace(
    host: Any, tmp_path: Path
) -> None:
    hosted = await host(rooms=True, room_limits=RoomLimits(reconnect_grace=10.0))
    ann, bob, code = await seated(hosted.port)
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")
    bob.conn.close()
    await ann.matches(r"bob left: waiting \d+ s; c claims it in [1-5] s\.")
    assert "c Claim" not in ann.text
    await ann.matches(r"bob left: c claims the round, or wait [0-5] s\.")
    await ann.shows("c Claim")
    ann.send("c")
    await ann.shows("bob left: ann claimed the round.")
    view = hub_of(hosted).view(code)
    assert (view.result, view.left_by, view.cause) == ("abandoned", "O", "claimed")
    record = record_of(tmp_path)
    try:  # bob's loss, as if his grace had run out
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[ANN_KEY]))
        kept = run_sql(record, "SELECT result, left_by, cause FROM matches")
        assert kept == [("abandoned", "O", "claimed")]
        assert ratings(record) == {FINGERPRINT[ANN_KEY]: (1216, 1), FINGERPRINT[BOB_KEY]: (1184, 1)}
    finally:
        record.close()


async def test_a_player_who_keeps_leaving_and_coming_back_stalls_no_round(host: Any) -> None:
    """Issue 35: bob, not to move, drops and comes back, away `ABSENCE` s each time (and
    the time his return takes): ann could never play. Each absence alone is shorter than
    half the grace, but the grace is the round's: by his second absence (his third at
    most, with slow returns) ann may claim, and claims."""
    grace, absence = 12.0, 3.0
    hosted = await host(rooms=True, room_limits=RoomLimits(reconnect_grace=grace))
    ann, bob, code = await seated(hosted.port)
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")
    hub = hub_of(hosted)
    claimed_in = None
    for leaving in range(1, 6):
        bob.conn.close()
        await until("bob away", lambda: not hub.view(code).seats[1].present)
        await ann.matches(r"bob left: ")
        end = time.monotonic() + absence
        while time.monotonic() < end and "c claims the round" not in ann.text:
            await asyncio.sleep(0.05)
        if "c claims the round" in ann.text:
            claimed_in = leaving
            break
        bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
        await bob.shows("Waiting for ann (X).")
        await ann.shows("bob played 1. Your turn: you play X.")
    assert claimed_in is not None and claimed_in <= 3, ann.text
    ann.send("c")
    await ann.shows("bob left: ann claimed the round.")
    view = hub.view(code)
    assert (view.result, view.left_by, view.cause, view.moves) == (
        "abandoned",
        "O",
        "claimed",
        (5, 1),
    )


async def test_a_player_watching_their_own_round_gets_no_analysis(host: Any) -> None:
    hosted = await host(rooms=True)
    ann, bob, code = await seated(hosted.port)
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    peek = await enter(hosted.port, f"--watch {code}", "ann", ANN_KEY)  # her key, watching
    await peek.shows("bob to play.")
    peek.send("a")
    await peek.shows("Analysis is off while you play in this room.")
    carol = await enter(hosted.port, f"--watch {code}", "carol", local="127.0.0.3")
    await carol.shows("bob to play.")
    carol.send("a")  # anyone else watching has it
    await carol.shows("Analysis on: every empty cell's verdict.")


async def test_across_two_hosts_the_clock_runs_out_the_same(
    pg_url: str, host: Any, processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    key = tmp_path / "host_key"
    args = ["--port", "0", "--database-url", pg_url, "--host-key", str(key)]
    a = serve_ssh([*args, "--move-time", "5"], tmp_path / "a")
    processes.append(a)
    port_a, _ = await listening_port(a)
    hosted = await host(
        rooms=True, database_url=pg_url, host_key=key, room_limits=RoomLimits(move_time=5.0)
    )
    ann, code = await new_room(port_a, key=ANN_KEY)  # made on A: the room's clock is A's
    bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    dave = await enter(hosted.port, f"--watch {code}", "dave", local="127.0.0.4")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.matches(r"Your turn \(O\): [0-5] s left\.")
    for session in (ann, bob, dave):
        await session.shows(LOST_ON_TIME)
    view = await hosted.server.rooms.hub.view(code)
    assert (view.result, view.cause, view.score) == ("X", "time", (1, 0, 0))

    record = Record.open_url(pg_url)
    try:  # once, though both hosts sweep and both players' sessions save it
        ann_fp, bob_fp = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
        await until("the round kept", lambda: len(record.people.rounds(bob_fp)) == 1)
        await until("the round kept", lambda: len(record.people.rounds(ann_fp)) == 1)
        assert ratings(record) == {ann_fp: (1216, 1), bob_fp: (1184, 1)}
    finally:
        record.close()
