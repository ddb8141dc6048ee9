"""The bell for your turn (issue 31) over real SSH: the BEL byte a player's client receives.

Two players in a room on a real `serve-ssh`, each a real asyncssh client whose every byte
is kept (`SSHTerminal.output`): each gets exactly one BEL (0x07) when it becomes their turn,
none for the other's turn, a resize's redraw or a spectator's view. The new-game dialog's
"Turn bell" row turns it off; the record keeps that for the player's key, and the next
run's room is silent. No fixed sleeps: each wait is for text on a screen.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import test_serve_ssh
from test_serve_ssh import STEP_TIMEOUT
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, Session, enter, new_room, until

from tui_tictactoe.record import Record
from tui_tictactoe.ui.turn_bell import TurnBell

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop

BEL = b"\x07"
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
"""An operating system command, which BEL may end (Textual's pointer shape, OSC 22): no bell."""


TITLE = re.compile(rb"\x1b\]2;([^\x07\x1b]*)\x07")


def titles(session: Session) -> list[str]:
    """The window titles the game set on the player's terminal (OSC 2), in order."""
    return [title.decode() for title in TITLE.findall(bytes(session.term.output))]


def bells(session: Session) -> int:
    """The bells the player's terminal rings: BEL bytes outside OSC sequences."""
    return OSC.sub(b"", bytes(session.term.output)).count(BEL)


async def test_each_turn_rings_once_and_nothing_else_rings(host: Any) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    assert bells(ann) == 0  # alone in the room: nobody's turn yet
    bob = await enter(port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    await bob.shows("Waiting for ann (X).")
    await until("ann's bell", lambda: bells(ann) == 1)
    ann.term.resize(90, 28)  # a redraw of the same turn: no second bell
    await ann.shows(f"Room {code}")
    await carol.shows("ann to play.")
    for mover, other, cell, rung in ((ann, bob, 1, 1), (bob, ann, 4, 2), (ann, bob, 2, 2)):
        mover.send(str(cell))
        name, mark = ("ann", "O") if mover is ann else ("bob", "X")
        await other.shows(f"{name} played {cell}. Your turn: you play {mark}.")
        await until(f"{other}'s bell", lambda other=other, rung=rung: bells(other) == rung)
    await carol.shows("ann played 2. bob to play.")
    assert (bells(ann), bells(bob), bells(carol)) == (2, 2, 0)
    bob.send("right")  # a key that plays nothing: the view redrawn, no turn changed
    ann.term.resize(80, 24)
    await ann.shows("Waiting for bob (O).")
    assert (bells(ann), bells(bob), bells(carol)) == (2, 2, 0)


async def test_the_window_title_says_whose_turn_and_is_given_back(host: Any) -> None:
    """Issue 31: "Your turn · Room ABCD" in the window's title on one's turn, the room's
    code otherwise; a spectator's never says "Your turn"; leaving gives the terminal its
    own title back (XTWINOPS pop)."""
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.3")
    mine, room = f"Your turn · Room {code}", f"Room {code}"
    await until("ann's title", lambda: titles(ann)[-1:] == [mine])
    await until("bob's title", lambda: titles(bob)[-1:] == [room])
    ann.send("1")
    await until("bob's turn", lambda: titles(bob)[-1:] == [mine])
    await until("ann's turn over", lambda: titles(ann)[-1:] == [room])
    await until("carol's title", lambda: titles(carol)[-1:] == [room])
    assert titles(ann) == [room, mine, room]  # each written once, when it changed
    assert mine not in titles(carol)
    assert bytes(ann.term.output).count(b"\x1b[22;2t") == 1  # the terminal's own, pushed
    ann.send("q", "y")
    assert await ann.term.wait_closed() == 0
    assert bytes(ann.term.output).count(b"\x1b[23;2t") == 1  # and given back


async def test_the_dialog_turns_the_bell_off_and_the_record_keeps_it(
    host: Any, tmp_path: Path
) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    game = await enter(port, "--difficulty easy", "ann", ANN_KEY)  # a game against the AI
    await game.shows("Your turn")
    game.send("n")
    await game.shows("Turn bell")
    game.send(*["down"] * 6, "left")  # to the last row, from yes to no
    await game.shows("New game")
    game.send("enter")
    await until("the dialog closed", lambda: "Turn bell" not in game.text)
    record = Record.open()
    try:
        await until(
            "the setting kept", lambda: record.settings(FINGERPRINT[ANN_KEY]).get("bell") is False
        )
    finally:
        record.close()
    game.send("q")
    await game.term.wait_closed(STEP_TIMEOUT)

    ann, code = await new_room(port, key=ANN_KEY)  # the next run: the record's setting
    bob = await enter(port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    await ann.shows("Your turn: you play X.")
    ann.send("1")
    await bob.shows("ann played 1. Your turn: you play O.")
    await until("bob's bell", lambda: bells(bob) == 1)  # bob's is on (the default)
    bob.send("4")
    await ann.shows("bob played 4. Your turn: you play X.")
    assert bells(ann) == 0


def test_a_turn_rings_once_however_often_it_is_shown() -> None:
    rung: list[int] = []
    bell = TurnBell(lambda: rung.append(1))
    assert [bell.ring_for(turn) for turn in ("A", "A", "B", "B", "A")] == [
        True,
        False,
        True,
        False,
        True,
    ]
    bell.enabled = False
    assert not bell.ring_for("C") and len(rung) == 3
