"""Snapshots of the stats screen (`s`) and a replay, from a fixed record, in UTC, as a fixed user.

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from support import SIZE, play

from tui_tictactoe.record import FinishedRound, Record

ROUNDS = (
    ("hard", "human", (5, 1, 9, 3, 2, 8, 4, 6, 7), "draw", False),
    ("hard", "ai", (5, 1, 9, 3, 7), "loss", False),
    ("easy", "human", (1, 4, 2, 5, 3), "win", True),
    ("medium", "human", (1, 2, 5, 9, 7, 3, 4), "win", False),
    ("medium", "ai", (5, 1), "abandoned", False),
)


# Then, for the snapshot of two boards: 4x4 rounds (moves are 4x4 keys, 1-16).
ROUNDS_4X4 = (
    ("medium", "human", (6, 1, 7, 2, 8, 3, 5), "win", False),
    ("hard", "ai", (6, 7, 11, 10), "abandoned", True),
    ("medium", "ai", (1, 6, 16, 7, 2, 8, 3, 5), "loss", False),
)


def keep(rounds: tuple[tuple[str, str, tuple[int, ...], str, bool], ...], board: int) -> None:
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC) + timedelta(hours=board - 3)
    with Record.open() as record:
        for minute, (difficulty, first, moves, result, took_back) in enumerate(rounds):
            assert record.save_round(
                "ada",
                FinishedRound(
                    difficulty=difficulty,
                    symbol="X",
                    first=first,
                    moves=moves,
                    result=result,
                    took_back=took_back,
                    board_size=board,
                    played_at=start + timedelta(minutes=7 * minute),
                ),
            )


@pytest.fixture
def fixed_record(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LOGNAME", "ada")  # getpass.getuser() reads it first
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    keep(ROUNDS, 3)
    yield
    monkeypatch.undo()
    time.tzset()


def test_stats_screen(snap_compare, make_app, fixed_record) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("s"))


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_stats_screen_of_two_boards(snap_compare, make_app, fixed_record, size) -> None:
    """A table of the two boards played, each heading its levels played (3x3: easy, medium,
    hard; 4x4: medium, hard), columns in line; the last rounds name their board."""
    keep(ROUNDS_4X4, 4)
    assert snap_compare(make_app(), terminal_size=size, run_before=play("s"))


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


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_review_of_a_4x4_replay(snap_compare, make_app, fixed_record, size) -> None:
    """`v` in the replay of the newest round (4x4, the AI first: 1 6 16 7 2 8 3 5, a loss):
    every move judged, the blunders with their lines."""
    keep(ROUNDS_4X4, 4)
    assert snap_compare(make_app(), terminal_size=size, run_before=play("s", "enter", "v"))


def test_review_of_a_6x6_replay(snap_compare, make_app, fixed_record) -> None:
    """6x6 at its least size: what nothing proves said "not proven", never a blunder."""
    keep((("hard", "human", (15, 16, 22, 21), "abandoned", False),), 6)
    assert snap_compare(make_app(), terminal_size=(60, 18), run_before=play("s", "enter", "v"))
