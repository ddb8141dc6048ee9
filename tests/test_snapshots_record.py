"""Snapshots of the stats screen (`s`) and a replay, from a fixed record, in UTC, as a fixed user.

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from support import SIZE, play

from tui_tictactoe.record import Record

ROUNDS = (
    ("hard", "human", (5, 1, 9, 3, 2, 8, 4, 6, 7), "draw", False),
    ("hard", "ai", (5, 1, 9, 3, 7), "loss", False),
    ("easy", "human", (1, 4, 2, 5, 3), "win", True),
    ("medium", "human", (1, 2, 5, 9, 7, 3, 4), "win", False),
    ("medium", "ai", (5, 1), "abandoned", False),
)


@pytest.fixture
def fixed_record(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LOGNAME", "ada")  # getpass.getuser() reads it first
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    with Record.open() as record:
        for minute, (difficulty, first, moves, result, took_back) in enumerate(ROUNDS):
            assert record.save_round(
                "ada",
                difficulty=difficulty,
                symbol="X",
                first=first,
                moves=moves,
                result=result,
                took_back=took_back,
                played_at=start + timedelta(minutes=7 * minute),
            )
    yield
    monkeypatch.undo()
    time.tzset()


def test_stats_screen(snap_compare, make_app, fixed_record) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("s"))


# The second newest round (medium, X first, 1 2 5 9 7 3 4: a win): its third move, then its end.
REPLAY = ("s", "down", "enter")


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_replay_mid_round(snap_compare, make_app, fixed_record, size) -> None:
    """The game's own board: two X and an O, the move just played (5) in a square border,
    each empty cell's verdict for O under it, the one best move (9) reversed."""
    keys = (*REPLAY, "right", "right", "space")
    assert snap_compare(make_app(), terminal_size=size, run_before=play(*keys))


def test_replay_at_the_end(snap_compare, make_app, fixed_record) -> None:
    """The last position: the winning line (1 4 7) as the game shows it, no verdicts left."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play(*REPLAY, "end"))
