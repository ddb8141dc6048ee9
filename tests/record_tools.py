"""Record helpers that only tests and benchmarks need: kept out of the package.

`rebuild_ratings` replays the rounds between people with its own Elo, as a check on
the ratings `save_match` keeps.

`rebuild_standings` (`rebuild_standings_pg` for PostgreSQL) recomputes both standings
tables from the rounds with a plain loop, as a check that what `save_round` keeps up to
date round by round agrees with
the rounds (the source of truth), and to finish a database a benchmark filled with
rounds by hand.
"""

from __future__ import annotations

import contextlib
import sqlite3
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from tui_tictactoe.record import RESULTS, Match, PostgresRecord, Record, Seat

NUMBERS = "wins, losses, draws, abandoned, take_backs, streak, best_streak, clean_wins"


def rebuild_standings(path: Path) -> None:
    """Standings from scratch, in one transaction: each player's rounds in order, per level
    on all boards (`standings`) and per board and level (`board_standings`).

    On its own connection, beside any `Record` using the file (WAL: a reader there
    sees the new standings on its next call).
    """
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=5.0)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        _rewrite(conn, "?", conn.execute(ROUNDS_IN_ORDER).fetchall())
        conn.execute("COMMIT")


def rebuild_standings_pg(url: str) -> None:
    """`rebuild_standings` for a PostgreSQL record: the same replay, the same tables."""
    import psycopg

    with psycopg.connect(url) as conn, conn.transaction():
        conn.execute("LOCK TABLE rounds IN SHARE MODE")
        _rewrite(conn, "%s", conn.execute(ROUNDS_IN_ORDER).fetchall())


ROUNDS_IN_ORDER = "SELECT player, board_size, difficulty, result, took_back FROM rounds ORDER BY id"


def _rewrite(conn: Any, mark: str, rounds: list[tuple[Any, ...]]) -> None:
    """Both standings tables replaced by a replay of `rounds` (`mark`: the dialect's
    parameter)."""
    by_level: dict[tuple[str, str], list[int]] = {}
    by_board: dict[tuple[str, int, str], list[int]] = {}
    for player, size, difficulty, result, took_back in rounds:
        count(by_level.setdefault((player, difficulty), [0] * 8), result, int(took_back))
        count(by_board.setdefault((player, size, difficulty), [0] * 8), result, int(took_back))
    for table, key, rows in (
        ("standings", "player, difficulty", by_level),
        ("board_standings", "player, board_size, difficulty", by_board),
    ):
        conn.execute(f"DELETE FROM {table}")
        columns = len(key.split(",")) + 8
        for row_key, numbers in rows.items():
            conn.execute(
                f"INSERT INTO {table} ({key}, {NUMBERS}) VALUES ({', '.join([mark] * columns)})",
                (*row_key, *numbers),
            )


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


def run_sql(record: Record, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """A statement on the record's own connection, for a test to look or to meddle, in
    either backend (`?` marks its parameters)."""
    if isinstance(record, PostgresRecord):
        statement = statement.replace("?", "%s")
    record._connect() if record._conn is None else None
    cursor = record._conn.execute(statement, params)  # type: ignore[union-attr]
    return [tuple(row) for row in cursor.fetchall()] if cursor.description else []


def rebuild(record: Record) -> None:
    """`rebuild_standings` or `rebuild_standings_pg`, whichever the record is kept in."""
    if isinstance(record, PostgresRecord):
        rebuild_standings_pg(record.url)
    else:
        assert record.path is not None
        rebuild_standings(record.path)


def empty_record(record: Record) -> None:
    """Every table of the record emptied, the ids started again (between hypothesis examples
    on one PostgreSQL database)."""
    run_sql(record, "DELETE FROM rounds")
    for table in ("standings", "board_standings", "players", "settings", "matches", "ratings"):
        run_sql(record, f"DELETE FROM {table}")


def _people_rows(where: Path | str, statement: str) -> list[tuple[Any, ...]]:
    """The rows of `statement` on a connection of its own to the SQLite file at `where`, or
    to the PostgreSQL database whose URL it is; `{moves}` in it reads the moves as `5,1,9`."""
    if isinstance(where, str):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            query = statement.format(moves="array_to_string(moves, ',')")
            return conn.execute(query).fetchall()
    with contextlib.closing(sqlite3.connect(where)) as conn:
        return conn.execute(statement.format(moves="moves")).fetchall()


def where_kept(record: Record) -> Path | str:
    """The record's SQLite file, or its PostgreSQL database's URL."""
    if isinstance(record, PostgresRecord):
        return record.url
    assert record.path is not None
    return record.path


def rebuild_ratings(where: Path | str) -> dict[str, tuple[int, int]]:
    """Every rated player's (rating, games) replayed from the rounds between people, in the
    order kept (their ids), by a plain Elo written apart from the package's; `where`: the
    SQLite file or the PostgreSQL URL (`where_kept`).

    Which rounds are rated is decided here again from the columns (a room, two different
    keys, a move played) and must agree with the stored `rated`.
    """
    ratings: dict[str, tuple[int, int]] = {}
    rows = _people_rows(
        where,
        "SELECT kind, x_player, o_player, {moves}, result, left_by, rated FROM matches ORDER BY id",
    )
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


def stored_ratings(where: Path | str) -> dict[str, tuple[int, int]]:
    """The ratings table as kept: player -> (rating, games)."""
    rows = _people_rows(where, "SELECT player, rating, games FROM ratings")
    return {player: (rating, games) for player, rating, games in rows}


ANN = Seat("ann", "SHA256:annannannannannann")


BOB = Seat("bob", "SHA256:bobbobbobbobbobbob")


def people_rounds(me: Seat) -> tuple[Match, ...]:
    """In the order played: a win against ann, a draw with bob, a loss to ann on 4x4, a
    round bob left, a hot seat round."""
    return (
        Match(me, ANN, "room", 3, "X", (1, 4, 2, 5, 3), "X", None, "one"),
        Match(BOB, me, "room", 3, "X", (1, 2, 3, 5, 4, 6, 8, 7, 9), "draw", None, "two"),
        Match(ANN, me, "room", 4, "X", (1, 5, 2, 6, 3, 7, 4), "X", None, "three"),
        Match(BOB, me, "room", 3, "O", (5, 1), "abandoned", "X", "four"),
        Match(me, me, "hotseat", 3, "X", (1, 4, 2, 5, 3), "X", None, "five"),
    )
