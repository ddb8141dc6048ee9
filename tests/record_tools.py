"""Record helpers that only tests and benchmarks need: kept out of the package.

`rebuild_standings` recomputes the standings table from the rounds with a plain
loop, as a check that what `save_round` keeps up to date round by round agrees with
the rounds (the source of truth), and to finish a database a benchmark filled with
rounds by hand.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from tui_tictactoe.record import RESULTS


def rebuild_standings(path: Path) -> None:
    """Standings from scratch, in one transaction: each player's and level's rounds in order.

    On its own connection, beside any `Record` using the file (WAL: a reader there
    sees the new standings on its next call).
    """
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=5.0)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        standings: dict[tuple[str, str], list[int]] = {}
        rows = conn.execute("SELECT player, difficulty, result, took_back FROM rounds ORDER BY id")
        for player, difficulty, result, took_back in rows:
            # wins, losses, draws, abandoned, streak, best_streak, clean_wins
            standing = standings.setdefault((player, difficulty), [0] * 7)
            standing[RESULTS.index(result)] += 1
            if result in ("win", "draw") and not took_back:
                standing[4] += 1
                standing[5] = max(standing[5], standing[4])
                standing[6] += result == "win"
            else:
                standing[4] = 0
        conn.execute("DELETE FROM standings")
        conn.executemany(
            "INSERT INTO standings (player, difficulty, wins, losses, draws, abandoned, streak,"
            " best_streak, clean_wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*key, *numbers) for key, numbers in standings.items()],
        )
        conn.execute("COMMIT")
