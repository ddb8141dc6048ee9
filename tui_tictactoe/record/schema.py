"""The record's tables, and the migrations that bring an older file up to date.

`PRAGMA user_version` is the number of migration steps a file has had. A file
with more steps than this program knows was written by a newer program: it is
refused and left untouched (`NewerSchema`). A file with none and tables of its own
is another program's database (`Foreign`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

from .failures import Foreign, NewerSchema

if TYPE_CHECKING:
    import sqlite3

MIGRATIONS: tuple[tuple[str | Callable[[sqlite3.Connection], object], ...], ...] = (
    # 0 -> 1: the first schema. Difficulty is checked in Python, not by the table,
    # so a new level does not need a table rebuild.
    (
        """CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            played_at TEXT NOT NULL,
            player TEXT NOT NULL,
            display_name TEXT NOT NULL,
            board_size INTEGER NOT NULL,
            difficulty TEXT NOT NULL,
            symbol TEXT NOT NULL CHECK (symbol IN ('X', 'O')),
            first TEXT NOT NULL CHECK (first IN ('human', 'ai')),
            moves TEXT NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'abandoned')),
            took_back INTEGER NOT NULL CHECK (took_back IN (0, 1))
        )""",
        # recent_rounds(player): the player's rounds in the order played (the rowid).
        "CREATE INDEX rounds_by_player ON rounds (player)",
        # Per player and level, kept by save_round in the round's own transaction, so
        # stats and the leaderboard read a few rows instead of every round (a query
        # over 100,000 rounds took ~0.6 s). The rounds stay the source of truth: a
        # migration that changes what is counted rebuilds this from them.
        """CREATE TABLE standings (
            player TEXT NOT NULL,
            difficulty TEXT NOT NULL,
            wins INTEGER NOT NULL,
            losses INTEGER NOT NULL,
            draws INTEGER NOT NULL,
            abandoned INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            clean_wins INTEGER NOT NULL,
            PRIMARY KEY (player, difficulty)
        ) WITHOUT ROWID""",
        """CREATE TABLE players (
            player TEXT PRIMARY KEY,
            display_name TEXT NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE settings (
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (player, name)
        ) WITHOUT ROWID""",
    ),
)
"""Schema migrations: step i takes `PRAGMA user_version` i to i + 1. Append, never edit.

A step is SQL statements and Python callables (for what SQL cannot say, such as
recomputing the standings from the rounds after a change to what is counted), run
in order, and every step still to run goes in one transaction. The schema's
version is the length of this list (`schema_version()`), read when used, so a test
can add a step.
"""


def schema_version() -> int:
    """The schema this program writes: the number of migration steps it knows."""
    return len(MIGRATIONS)


def check_version(conn: sqlite3.Connection) -> int:
    """The schema version; NewerSchema or Foreign if this program must not touch it."""
    if not conn.in_transaction:
        # One snapshot for both reads: between two, another process may migrate.
        conn.execute("BEGIN")
        try:
            return check_version(conn)
        finally:
            conn.execute("COMMIT")
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > schema_version():
        raise NewerSchema(version)
    if version == 0:
        tables = sorted(
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        )
        if tables:
            raise Foreign(f"not a tui-tictactoe record (tables: {', '.join(tables)})")
    return version


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema to `schema_version()`, in one transaction (other processes may race)."""
    with write_transaction(conn, migrating=True):
        version = check_version(conn)  # again, under the write lock
        for step in MIGRATIONS[version:]:
            for statement in step:
                if callable(statement):
                    statement(conn)
                else:
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {schema_version()}")


@contextmanager
def write_transaction(conn: sqlite3.Connection, *, migrating: bool = False) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock first, so the busy timeout applies.

    Unless migrating, a schema newer than this program's (another version migrated
    the file while this one ran) is refused before anything is written.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        if not migrating:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > schema_version():
                raise NewerSchema(version)
        yield
    except BaseException:
        if conn.in_transaction:
            with suppress(Exception):
                conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
