"""Take back (`u`) in a real terminal: the installed command in a pty, read through pyte.

The keys go in one write each (a burst, as over SSH); waits poll the emulated
screen, never sleep. The record goes to the test's own data directory (conftest).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from pty_terminal import START_TIMEOUT, Terminal


@pytest.fixture
def term() -> Iterator[Terminal]:
    terminal = Terminal("--seed", "3")
    try:
        terminal.wait_until(
            "the empty board and the human to move",
            lambda: "Your turn: you play X." in terminal.text and terminal.locate_board(),
            START_TIMEOUT,
        )
        yield terminal
    finally:
        terminal.close()


def status_line(term: Terminal) -> str:
    """The status line's two lines, the state of play and the note under it, joined (read
    as text: how the marks are drawn does not matter)."""
    found = [
        line.strip()
        for line in term.lines
        if re.search(r"Your turn|Took back|Nothing to take back|already taken|Quit and", line)
    ]
    return " / ".join(found)


def ai_played(term: Terminal) -> int:
    """The cell key of the AI's reply, once the status says it."""
    term.wait_until("the AI's reply", lambda: "AI played" in status_line(term), 15)
    match = re.search(r"AI played (\d)", status_line(term))
    assert match, term.text
    return int(match.group(1))


def test_u_takes_back_the_move_and_the_reply_in_a_real_terminal(term: Terminal) -> None:
    term.send("5")
    reply = ai_played(term)
    term.send("u")
    said = f"Took back your 5 and the AI's {reply}."
    # A frame can arrive in pieces: the status line and the score line are waited for alike.
    term.wait_until(
        f"{said!r} and 'Take-backs 1'",
        lambda: said in status_line(term) and "Take-backs 1" in term.text,
        15,
    )
    # Both cells are free again: the AI's cell can be played, then the centre.
    term.send(str(reply))
    assert ai_played(term) != reply
    assert "already taken" not in term.text
    assert term.traceback() is None
    term.send("q")  # mid-round: asked first
    term.wait_for_text("Quit and abandon this round?")
    assert term.quit("y") == 0


def test_u_before_any_move_says_why_in_a_real_terminal(term: Terminal) -> None:
    term.send("u")
    term.wait_for_text("Nothing to take back")
    term.send("5", "u")  # one write, as over SSH: `u` does not wait for the AI
    term.wait_until("the X taken back", lambda: "Took back your 5" in status_line(term), 15)
    term.send("5")  # the centre is free again
    ai_played(term)
    assert "already taken" not in term.text
    assert term.traceback() is None
