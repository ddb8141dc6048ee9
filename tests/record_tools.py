"""Record helpers that only tests and benchmarks need: kept out of the package.

`rebuild_standings` recomputes both standings tables from the rounds with a plain
loop, as a check that what `save_round` keeps up to date round by round agrees with
the rounds (the source of truth), and to finish a database a benchmark filled with
rounds by hand.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from tui_tictactoe.record import RESULTS

NUMBERS = "wins, losses, draws, abandoned, take_backs, streak, best_streak, clean_wins"


def rebuild_standings(path: Path) -> None:
    """Standings from scratch, in one transaction: each player's rounds in order, per level
    on all boards (`standings`) and per board and level (`board_standings`).

    On its own connection, beside any `Record` using the file (WAL: a reader there
    sees the new standings on its next call).
    """
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=5.0)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        by_level: dict[tuple[str, str], list[int]] = {}
        by_board: dict[tuple[str, int, str], list[int]] = {}
        rows = conn.execute(
            "SELECT player, board_size, difficulty, result, took_back FROM rounds ORDER BY id"
        )
        for player, size, difficulty, result, took_back in rows:
            count(by_level.setdefault((player, difficulty), [0] * 8), result, took_back)
            count(by_board.setdefault((player, size, difficulty), [0] * 8), result, took_back)
        conn.execute("DELETE FROM standings")
        conn.executemany(
            f"INSERT INTO standings (player, difficulty, {NUMBERS}) VALUES ({', '.join('?' * 10)})",
            [(*key, *numbers) for key, numbers in by_level.items()],
        )
        conn.execute("DELETE FROM board_standings")
        conn.executemany(
            f"INSERT INTO board_standings (player, board_size, difficulty, {NUMBERS})"
            f" VALUES ({', '.join('?' * 11)})",
            [(*key, *numbers) for key, numbers in by_board.items()],
        )
        conn.execute("COMMIT")


def count(standing: list[int], result: str, took_back: int) -> None:
    """One round added to [wins, losses, draws, abandoned, take_backs, streak, best_streak,
    clean_wins]."""
    standing[RESULTS.index(result)] += 1
    standing[4] += took_back
    if result in ("win", "draw") and not took_back:
        standing[5] += 1
        standing[6] = max(standing[6], standing[5])
        standing[7] += result == "win"
    else:
        standing[5] = 0
