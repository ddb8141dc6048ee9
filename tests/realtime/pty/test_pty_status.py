"""Issue 21 in a real terminal: the status line holds the state of play, notes show under
it, and every empty cell shows the number the messages call it by.

The installed command runs in a pty (pexpect), read through the pyte emulator (see
pty_terminal.py), at 80x24 and at the minimum size, 60x18 (4x4: 60x19), on 3x3 and 4x4. The same
in Pilot, with more cases, is test_app_status.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from pty_terminal import START_TIMEOUT, STEP_TIMEOUT, VERTICALS, Terminal

ANALYSIS_TIMEOUT = 60.0  # the 4x4 overlay's 14 exact searches, on a loaded machine
BORDERS = re.compile(f"[{VERTICALS}]")
YOUR_TURN = "Your turn: you play X."


def numbers_shown(term: Terminal) -> list[int]:
    """The numbers drawn inside cells, in reading order: the text between two cell
    sides that is a number and nothing else."""
    shown = []
    for line in term.lines:
        parts = BORDERS.split(line)
        shown += [int(part) for part in parts[1:-1] if part.strip().isdigit()]
    return shown


def line_with(term: Terminal, text: str) -> int | None:
    """The screen row showing `text` whole on one line, or None."""
    found = term.find(text)
    return None if found is None else found[0]


def ai_played(term: Terminal) -> int:
    term.wait_until("the AI's reply", lambda: "AI played" in term.text, STEP_TIMEOUT)
    match = re.search(r"AI played (\d+)\. Your turn: you play X\.", term.text)
    assert match, term.text
    return int(match.group(1))


@pytest.fixture(params=[(24, 80), (18, 60)], ids=["80x24", "60x18"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    rows_cols: tuple[int, int] = request.param
    return rows_cols


@pytest.fixture
def started() -> Iterator[list[Terminal]]:
    terms: list[Terminal] = []
    yield terms
    for term in terms:
        term.close()


def start(started: list[Terminal], size: tuple[int, int], board: int) -> Terminal:
    rows, cols = size
    if board == 4:
        rows = max(rows, 19)  # 4x4's least height: whole cells need a row more than 3x3
    term = Terminal("--board", str(board), "--seed", "3", rows=rows, cols=cols)
    started.append(term)
    cells = list(range(1, board * board + 1))
    term.wait_until(
        "the board with every cell's number, and the human to move",
        lambda: YOUR_TURN in term.text and numbers_shown(term) == cells,
        START_TIMEOUT,
    )
    return term


def test_3x3_status_and_cell_numbers_in_a_real_terminal(started, size) -> None:
    term = start(started, size, 3)
    term.send("5")
    reply = ai_played(term)
    free = [key for key in range(1, 10) if key not in (5, reply)]
    term.wait_until("the two played cells without numbers", lambda: numbers_shown(term) == free, 5)
    state = f"AI played {reply}. {YOUR_TURN}"
    term.send("5")  # taken: the note comes under the state, which stays
    note = "Cell 5 is already taken by X."
    term.wait_for_text(note)
    at = line_with(term, state)
    assert at is not None and line_with(term, note) == at + 1, term.text
    term.send("h")  # the hint replaces the note, never the state
    term.wait_for_text("Hint: cell ")
    assert line_with(term, state) == at and note not in term.text, term.text
    assert term.traceback() is None


def test_4x4_status_says_the_ais_move_with_the_analysis_on_in_a_real_terminal(
    started, size
) -> None:
    term = start(started, size, 4)
    term.send("a")  # the analysis on: it fills in while the game goes on
    term.wait_until("the analysis under way", lambda: "analys" in term.lines[0], STEP_TIMEOUT)
    term.send("enter")  # the cursor starts on cell 11
    reply = ai_played(term)
    state = f"AI played {reply}. {YOUR_TURN}"
    term.wait_until(
        "the analysis of the new position done",
        lambda: "analysis done" in term.lines[0] and state in term.text,
        ANALYSIS_TIMEOUT,
    )
    assert line_with(term, state) is not None, term.text  # the AI's move, whole
    shown = numbers_shown(term)
    assert shown == [key for key in range(1, 17) if key not in (11, reply)], term.text
    term.send("5")  # a digit plays nothing on 4x4: it says how to play there
    note = "On 4x4 use the arrows and Enter: digits play 3x3 only."
    term.wait_for_text(note)
    at = line_with(term, state)
    assert at is not None and line_with(term, note) == at + 1, term.text
    assert term.traceback() is None
