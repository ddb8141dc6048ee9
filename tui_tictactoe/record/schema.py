"""The record's tables, the statements that keep its standings, and the migrations
that bring an older file up to date.

`PRAGMA user_version` is the number of migration steps a file has had. A file
with more steps than this program knows was written by a newer program: it is
refused and left untouched (`NewerSchema`). A file with none and tables of its own
is another program's database (`Foreign`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

from tui_tictactoe.record.failures import Foreign, NewerSchema
from tui_tictactoe.record.moderation import MODERATION_TABLES, now_text, rekeyed_owners
from tui_tictactoe.record.rounds import add_round_statement

if TYPE_CHECKING:
    import sqlite3


def _standings_from_rounds_2(conn: sqlite3.Connection) -> None:
    """Step 2's rebuild: both standings tables of schema 2 recomputed from the rounds.

    Part of a migration step, so it is never edited: it writes exactly the columns of
    schema 2. The rounds are replayed in the order played (their ids), as `save_round`
    counts them one by one.
    """
    outcome = {result: column for column, result in enumerate(("win", "loss", "draw", "abandoned"))}
    # wins, losses, draws, abandoned, take_backs, streak, best_streak, clean_wins
    by_level: dict[tuple[object, ...], list[int]] = {}
    by_board: dict[tuple[object, ...], list[int]] = {}
    for player, size, level, result, took_back in conn.execute(
        "SELECT player, board_size, difficulty, result, took_back FROM rounds ORDER BY id"
    ):
        unbeaten = result in ("win", "draw") and not took_back
        for counts in (
            by_level.setdefault((player, level), [0] * 8),
            by_board.setdefault((player, size, level), [0] * 8),
        ):
            if result in outcome:  # a CHECK of the table: always
                counts[outcome[result]] += 1
            counts[4] += bool(took_back)
            counts[5] = counts[5] + 1 if unbeaten else 0
            counts[6] = max(counts[6], counts[5])
            counts[7] += unbeaten and result == "win"
    numbers = "wins, losses, draws, abandoned, take_backs, streak, best_streak, clean_wins"
    conn.execute("DELETE FROM standings")
    conn.executemany(
        f"INSERT INTO standings (player, difficulty, {numbers}) VALUES ({', '.join('?' * 10)})",
        [(*key, *counts) for key, counts in by_level.items()],
    )
    conn.execute("DELETE FROM board_standings")
    conn.executemany(
        f"INSERT INTO board_standings (player, board_size, difficulty, {numbers})"
        f" VALUES ({', '.join('?' * 11)})",
        [(*key, *counts) for key, counts in by_board.items()],
    )


def _name_skeletons_7(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT name, player, since FROM name_owners").fetchall()
    conn.execute("DELETE FROM name_owners")
    conn.executemany(
        "INSERT INTO name_owners (name, player, since) VALUES (?, ?, ?)",
        rekeyed_owners(rows, now_text()),
    )


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
    # 1 -> 2: standings per board as well (a streak on 4x4 is not one on 3x3), and the
    # rounds with a take-back counted. `standings` stays: all boards together, its
    # streaks running across boards. Both are rebuilt from the rounds.
    (
        "ALTER TABLE standings ADD COLUMN take_backs INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE board_standings (
            player TEXT NOT NULL,
            board_size INTEGER NOT NULL,
            difficulty TEXT NOT NULL,
            wins INTEGER NOT NULL,
            losses INTEGER NOT NULL,
            draws INTEGER NOT NULL,
            abandoned INTEGER NOT NULL,
            take_backs INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            clean_wins INTEGER NOT NULL,
            PRIMARY KEY (player, board_size, difficulty)
        ) WITHOUT ROWID""",
        _standings_from_rounds_2,
    ),
    # 2 -> 3: rounds between people (hot seat and rooms), and the Elo rating of each
    # person who played a rated one (`record/people.py` keeps both). Nothing to rebuild:
    # no earlier schema had rounds between people.
    (
        # A seat's player is its key (NULL: a guest); names as given, cleaned when shown.
        # `round_key` is the caller's: a save retried after a lost acknowledgement is kept
        # once. `x_gain` is X's Elo points from the round (O's are minus that; 0 unrated).
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            round_key TEXT NOT NULL UNIQUE,
            ended_at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('hotseat', 'room')),
            board_size INTEGER NOT NULL,
            x_player TEXT,
            x_name TEXT NOT NULL,
            o_player TEXT,
            o_name TEXT NOT NULL,
            first TEXT NOT NULL CHECK (first IN ('X', 'O')),
            moves TEXT NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('X', 'O', 'draw', 'abandoned')),
            left_by TEXT CHECK (left_by IN ('X', 'O')),
            rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
            x_gain INTEGER NOT NULL,
            CHECK ((result = 'abandoned') = (left_by IS NOT NULL)),
            CHECK (rated = 1 OR x_gain = 0)
        )""",
        "CREATE INDEX matches_by_x ON matches (x_player)",
        "CREATE INDEX matches_by_o ON matches (o_player)",
        # Updated with the round that moves it, in that round's transaction.
        """CREATE TABLE ratings (
            player TEXT PRIMARY KEY,
            display_name TEXT NOT NULL,
            rating INTEGER NOT NULL,
            games INTEGER NOT NULL CHECK (games >= 0)
        ) WITHOUT ROWID""",
        "CREATE INDEX ratings_by_rating ON ratings (rating DESC, games DESC, player)",
    ),
    # 3 -> 4: a draw agreed between the players mid-round (a room's draw offer taken), kept
    # as a draw (rated as one) that says it was agreed. Rounds kept before were played out.
    (
        "ALTER TABLE matches ADD COLUMN agreed INTEGER NOT NULL DEFAULT 0"
        " CHECK (agreed IN (0, 1) AND (agreed = 0 OR result = 'draw'))",
    ),
    # 4 -> 5: a room's round ended early (issue 31): on "time" (the winner is `result`)
    # or "claimed" from a player who left (abandoned); and the moves taken back by
    # consent in it. Rounds kept before ended on the board, with no take-back.
    (
        "ALTER TABLE matches ADD COLUMN cause TEXT CHECK (cause IS NULL"
        " OR (cause = 'time' AND result IN ('X', 'O'))"
        " OR (cause = 'claimed' AND result = 'abandoned'))",
        "ALTER TABLE matches ADD COLUMN take_backs INTEGER NOT NULL DEFAULT 0"
        " CHECK (take_backs >= 0)",
    ),
    # 5 -> 6: moderation (`moderation.py`): the servers' live sessions, the admin's orders
    # to them, the shared deny entries, every admin action, names set by the admin, and
    # which key owns a name. Times are UTC ISO text, in both backends alike.
    tuple(statement.format(id="INTEGER PRIMARY KEY") for statement in MODERATION_TABLES),
    # 6 -> 7: names owned compared by their confusables skeleton (issue 35), `since` their
    # owner's last use (a name unused for long lapses): every owned name rekeyed, used now.
    (_name_skeletons_7,),
)
"""Schema migrations: step i takes `PRAGMA user_version` i to i + 1. Append, never edit.

A step is SQL statements and Python callables (for what SQL cannot say, such as
recomputing the standings from the rounds after a change to what is counted), run
in order, and every step still to run goes in one transaction. The schema's
version is the length of this list (`schema_version()`), read when used, so a test
can add a step.
"""


# How `save_round` adds one round to its player's standings, in the round's own
# transaction: at its level on all boards, and at its level on its board (the statement
# is shared with the PostgreSQL backend: `rounds.add_round_statement`).
ADD_TO_STANDING = add_round_statement("standings", ":{}".format, "MAX")
ADD_TO_BOARD_STANDING = add_round_statement("board_standings", ":{}".format, "MAX")
STANDING_NUMBERS = "wins, losses, draws, abandoned, take_backs, streak, best_streak"
"""A standing's numbers in `DifficultyStats` order."""

LEADERS = """
SELECT board_standings.player, COALESCE(players.display_name, board_standings.player),
       board_standings.{column}
FROM board_standings LEFT JOIN players ON players.player = board_standings.player
WHERE board_standings.board_size = ? AND board_standings.difficulty = ?
  AND board_standings.{column} > 0
ORDER BY board_standings.{column} DESC, board_standings.player
LIMIT ?
"""
"""The top players of one board and level by `column` (best_streak or clean_wins)."""


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
