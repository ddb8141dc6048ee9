"""The record's tables on PostgreSQL, the statements that keep its standings, and the
migrations, which hosts starting together run once.

The version is a one-row `schema_version` table. `MIGRATIONS` is this backend's own
list of steps (the SQLite file has its own, in `schema`): step i takes version i to
i + 1; append, never edit. Several hosts share one database and are upgraded one by
one, old and new side by side, so a step only adds (columns, tables); a removal waits
for a later release. A database of a newer version is refused (`NewerSchema`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tui_tictactoe.record.failures import NewerSchema
from tui_tictactoe.record.moderation import MODERATION_TABLES, now_text, rekeyed_owners
from tui_tictactoe.record.postgres.connection import transaction
from tui_tictactoe.record.rounds import STANDING_KEYS, add_round_statement

if TYPE_CHECKING:
    import psycopg

MIGRATION_LOCK = 0x7474_7400_0001
"""The advisory lock a migration runs under (a number: PostgreSQL's locks are named so)."""
MIGRATION_TIMEOUT_MS = 60_000
"""A migration may wait for another host's and rewrite tables: longer than one operation."""


def _name_skeletons_6(conn: psycopg.Connection) -> None:
    rows = conn.execute("SELECT name, player, since FROM name_owners").fetchall()
    conn.execute("DELETE FROM name_owners")
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO name_owners (name, player, since) VALUES (%s, %s, %s)",
            rekeyed_owners(rows, now_text()),
        )


MIGRATIONS: tuple[tuple[str | Callable[[psycopg.Connection], object], ...], ...] = (
    # 0 -> 1: the SQLite file's schema 2 (rounds, standings per level and per board,
    # players, settings) with ids from an identity, times with a zone, moves as an array
    # and a `round_key` made by the client, so a save retried after a lost commit
    # acknowledgement is kept once. Difficulty is checked in Python, as in SQLite.
    (
        """CREATE TABLE rounds (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            round_key uuid NOT NULL UNIQUE,
            played_at timestamptz NOT NULL,
            player text NOT NULL,
            display_name text NOT NULL,
            board_size smallint NOT NULL CHECK (board_size > 0),
            difficulty text NOT NULL,
            symbol text NOT NULL CHECK (symbol IN ('X', 'O')),
            first text NOT NULL CHECK (first IN ('human', 'ai')),
            moves smallint[] NOT NULL CHECK (array_ndims(moves) IS NULL OR array_ndims(moves) = 1),
            result text NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'abandoned')),
            took_back boolean NOT NULL
        )""",
        # recent_rounds(player): the player's latest rounds, newest first.
        "CREATE INDEX rounds_by_player ON rounds (player, id DESC)",
        *(
            f"""CREATE TABLE {table} (
                player text NOT NULL,
                {board}
                difficulty text NOT NULL,
                wins integer NOT NULL CHECK (wins >= 0),
                losses integer NOT NULL CHECK (losses >= 0),
                draws integer NOT NULL CHECK (draws >= 0),
                abandoned integer NOT NULL CHECK (abandoned >= 0),
                take_backs integer NOT NULL CHECK (take_backs >= 0),
                streak integer NOT NULL CHECK (streak >= 0),
                best_streak integer NOT NULL CHECK (best_streak >= streak),
                clean_wins integer NOT NULL CHECK (clean_wins >= 0),
                PRIMARY KEY ({", ".join(STANDING_KEYS[table])})
            )"""
            for table, board in (
                ("standings", ""),
                ("board_standings", "board_size smallint NOT NULL CHECK (board_size > 0),"),
            )
        ),
        # The leaderboard: the best of one board and level.
        "CREATE INDEX leaders_by_streak ON board_standings (board_size, difficulty, best_streak DESC)",
        "CREATE INDEX leaders_by_wins ON board_standings (board_size, difficulty, clean_wins DESC)",
        "CREATE TABLE players (player text PRIMARY KEY, display_name text NOT NULL)",
        """CREATE TABLE settings (
            player text NOT NULL,
            name text NOT NULL,
            value text NOT NULL,
            PRIMARY KEY (player, name)
        )""",
    ),
    # 1 -> 2: the SQLite file's schema 3, rounds between people and their Elo ratings
    # (`people.py` keeps both, in one transaction). `round_key` is text, as the caller may
    # make any key `check_match` accepts (`new_round_key` makes a UUID); `rated` a boolean.
    (
        """CREATE TABLE matches (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            round_key text NOT NULL UNIQUE CHECK (length(round_key) BETWEEN 1 AND 100),
            ended_at timestamptz NOT NULL,
            kind text NOT NULL CHECK (kind IN ('hotseat', 'room')),
            board_size smallint NOT NULL CHECK (board_size > 0),
            x_player text,
            x_name text NOT NULL,
            o_player text,
            o_name text NOT NULL,
            first text NOT NULL CHECK (first IN ('X', 'O')),
            moves smallint[] NOT NULL CHECK (array_ndims(moves) IS NULL OR array_ndims(moves) = 1),
            result text NOT NULL CHECK (result IN ('X', 'O', 'draw', 'abandoned')),
            left_by text CHECK (left_by IN ('X', 'O')),
            rated boolean NOT NULL,
            x_gain integer NOT NULL,
            CHECK ((result = 'abandoned') = (left_by IS NOT NULL)),
            CHECK (rated OR x_gain = 0)
        )""",
        # `People.rounds(player)` and `People.stats(player)`: the rounds of either seat.
        "CREATE INDEX matches_by_x ON matches (x_player, id DESC)",
        "CREATE INDEX matches_by_o ON matches (o_player, id DESC)",
        # Written with the round that moves it, in that round's transaction; a row with no
        # rated round yet (games 0) is only ever seen by that transaction.
        """CREATE TABLE ratings (
            player text PRIMARY KEY,
            display_name text NOT NULL,
            rating integer NOT NULL,
            games integer NOT NULL CHECK (games >= 0)
        )""",
        "CREATE INDEX ratings_by_rating ON ratings (rating DESC, games DESC, player)",
    ),
    # 2 -> 3: the SQLite file's schema 4, a draw agreed mid-round (`Match.agreed`).
    (
        "ALTER TABLE matches ADD COLUMN agreed boolean NOT NULL DEFAULT false,"
        " ADD CONSTRAINT matches_agreed CHECK (NOT agreed OR result = 'draw')",
    ),
    # 3 -> 4: the SQLite file's schema 5, a round's cause ("time", "claimed") and its
    # take-backs (`Match.cause`, `Match.take_backs`).
    (
        "ALTER TABLE matches ADD COLUMN cause text CHECK (cause IS NULL"
        " OR (cause = 'time' AND result IN ('X', 'O'))"
        " OR (cause = 'claimed' AND result = 'abandoned')),"
        " ADD COLUMN take_backs integer NOT NULL DEFAULT 0 CHECK (take_backs >= 0)",
    ),
    # 4 -> 5: the SQLite file's schema 6, moderation (`moderation.py`): the same tables,
    # times as UTC ISO text so that one set of statements serves both backends.
    tuple(
        statement.format(id="bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        for statement in MODERATION_TABLES
    ),
    # 5 -> 6: the SQLite file's schema 7, owned names keyed by their confusables skeleton,
    # each used now (`moderation.rekeyed_owners`).
    (_name_skeletons_6,),
)
"""Schema migrations: step i takes `schema_version.version` i to i + 1. Append, never edit.

A step is SQL statements and Python callables (given the connection), run in order;
every step still to run goes in one transaction. Read when used, so a test can add one.
"""


def _parameter(name: str) -> str:
    return f"%({name})s"


ADD_TO_STANDING = add_round_statement("standings", _parameter, "GREATEST")
ADD_TO_BOARD_STANDING = add_round_statement("board_standings", _parameter, "GREATEST")
INSERT_ROUND = """
INSERT INTO rounds (round_key, played_at, player, display_name, board_size, difficulty,
                    symbol, first, moves, result, took_back)
VALUES (%s, %s::timestamptz, %s, %s, %s, %s, %s, %s, %s::smallint[], %s, %s)
ON CONFLICT (round_key) DO NOTHING
RETURNING id
"""
"""A round, once: a retried save (the same `round_key`) inserts nothing and returns no id."""


def schema_version() -> int:
    """The schema this program writes: the number of migration steps it knows."""
    return len(MIGRATIONS)


def stored_version(conn: psycopg.Connection) -> int:
    """The database's schema version, 0 for a database the record has never used."""
    exists = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not (exists and exists[0]):
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def ensure_schema(conn: psycopg.Connection) -> None:
    """Bring the database to `schema_version()`; NewerSchema if it is newer.

    A database already current costs one read. Otherwise the steps run in one
    transaction under an advisory lock: hosts starting together wait for the first,
    then find the work done.
    """
    version = stored_version(conn)
    if version > schema_version():
        raise NewerSchema(version)
    if version == schema_version():
        return
    with transaction(conn, timeout_ms=MIGRATION_TIMEOUT_MS):
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),"
            " version integer NOT NULL CHECK (version >= 0))"
        )
        conn.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")
        version = stored_version(conn)  # again, under the lock
        if version > schema_version():
            raise NewerSchema(version)
        for step in MIGRATIONS[version:]:
            for statement in step:
                if callable(statement):
                    statement(conn)
                else:
                    conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = %s", (schema_version(),))
