"""Record helpers that only tests and benchmarks need: kept out of the package.

`rebuild_ratings` replays the rounds between people with its own Elo, as a check on
the ratings `save_match` keeps.

`rebuild_standings` recomputes both standings tables from the rounds with a plain
loop, as a check that what `save_round` keeps up to date round by round agrees with
the rounds (the source of truth), and to finish a database a benchmark filled with
rounds by hand.
"""

from __future__ import annotations

import contextlib
import sqlite3
from decimal import ROUND_HALF_UP, Decimal
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


def rebuild_ratings(path: Path) -> dict[str, tuple[int, int]]:
    """Every rated player's (rating, games) replayed from the rounds between people, in the
    order kept (their ids), by a plain Elo written apart from the package's.

    Which rounds are rated is decided here again from the columns (a room, two different
    keys, a move played) and must agree with the stored `rated`.
    """
    ratings: dict[str, tuple[int, int]] = {}
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute(
            "SELECT kind, x_player, o_player, moves, result, left_by, rated FROM matches"
            " ORDER BY id"
        ).fetchall()
    for kind, x, o, moves, result, left_by, rated in rows:
        rule = kind == "room" and x is not None and o is not None and x != o and moves != ""
        assert bool(rated) == rule, (kind, x, o, moves, rated)
        if not rule:
            continue
        (rx, gx), (ro, go) = ratings.get(x, (1200, 0)), ratings.get(o, (1200, 0))
        if result == "abandoned":
            score = 0.0 if left_by == "X" else 1.0
        else:
            score = {"X": 1.0, "O": 0.0, "draw": 0.5}[result]
        change = 32.0 * (score - 1.0 / (1.0 + 10.0 ** ((ro - rx) / 400.0)))
        points = int(Decimal(change).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        ratings[x], ratings[o] = (rx + points, gx + 1), (ro - points, go + 1)
    return ratings


def stored_ratings(path: Path) -> dict[str, tuple[int, int]]:
    """The ratings table as kept: player -> (rating, games)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT player, rating, games FROM ratings").fetchall()
    return {player: (rating, games) for player, rating, games in rows}
