"""`PostgresRecord`: the record in a PostgreSQL database that several hosts share.

Chosen by `Record.open()` when `$TUI_TICTACTOE_DATABASE_URL` is a `postgresql://`
URL. The same public methods, values and contract as the SQLite `Record` it builds
on: it never raises, and degrades with a notice. A server that cannot be reached
loses the operation at hand, said once until it is back, and the record stays on; a
dropped connection is reopened once per operation; a newer schema means playing
without a record.

A round is saved in one transaction that takes its player's standings row first (the
upsert locks it), so two hosts saving rounds of one player are serialised on that
row, the streak arithmetic reads the committed value and round ids follow that
order. Each save carries a `round_key` made here: a save retried after its commit's
acknowledgement was lost inserts nothing and counts nothing.
"""

from __future__ import annotations

import uuid
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from .failures import Failure, NewerSchema
from .pg_connection import classify, connect, reason, transaction, where
from .pg_schema import (
    ADD_TO_BOARD_STANDING,
    ADD_TO_STANDING,
    INSERT_ROUND,
    LEADERS_PG,
    ROUND_COLUMNS,
    ensure_schema,
    schema_version,
)
from .schema import STANDING_NUMBERS
from .store import Record
from .validation import settings_to_store, valid_settings
from .values import (
    LEADERBOARD_BOARD,
    Leaderboard,
    LeaderEntry,
    RoundRecord,
    Stats,
    empty_stats,
    stats_from_rows,
)

if TYPE_CHECKING:
    import psycopg

    from .rounds import PreparedRound


class PostgresRecord(Record, schemes=("postgresql", "postgres")):
    """The record of every player of every host sharing one PostgreSQL database.

    Safe to share between threads (one connection behind the lock), processes and
    hosts (row locks, one transaction per operation).
    """

    def __init__(self, url: str) -> None:
        """Use `Record.open()` (or `PostgresRecord.open_url`); this does no I/O."""
        super().__init__(None)
        self.url = url
        self.where = where(url)
        self._enabled = True
        self._unreachable = False  # told already: said once until the server is back

    @classmethod
    def open_url(cls, url: str) -> Record:
        """The record at `url`, connected now (or at the next operation); never raises."""
        record = cls(url)
        with record._lock:
            record._connect()
        return record

    # -- writes -----------------------------------------------------------------

    def _save_round(self, prepared: PreparedRound, round_key: str | None = None) -> bool:
        """The round once (by its key) and, only then, its standings, in one transaction."""
        key = round_key or str(uuid.uuid4())  # the same on the retry after a dropped link
        row = (key, *prepared[:7], list(prepared.moves), prepared.result, prepared.took_back)

        def write(conn: psycopg.Connection) -> bool:
            import psycopg

            with transaction(conn):
                # The standings row first: its lock orders this player's saves.
                conn.execute(ADD_TO_STANDING, prepared.standing)
                conn.execute(ADD_TO_BOARD_STANDING, prepared.standing)
                if conn.execute(INSERT_ROUND, row).fetchone() is None:
                    raise psycopg.Rollback  # kept already: count nothing twice
                conn.execute(
                    "INSERT INTO players (player, display_name) VALUES (%s, %s)"
                    " ON CONFLICT (player) DO UPDATE SET display_name = excluded.display_name",
                    (prepared.player, prepared.display_name),
                )
            return True

        return self._run(write, False, "this round was not recorded")

    def save_settings(
        self,
        player: str | None,
        *,
        symbol: str | None = None,
        first: str | None = None,
        difficulty: str | None = None,
        alternate: bool | None = None,
        theme: str | None = None,
        board: str | None = None,
    ) -> bool:
        """Remember the given settings (None: leave as is) in one transaction."""
        values = settings_to_store(
            {
                "symbol": symbol,
                "first": first,
                "difficulty": difficulty,
                "alternate": alternate,
                "board": board,
                "theme": theme,
            }
        )
        if player is None:
            return False

        def write(conn: psycopg.Connection) -> bool:
            with transaction(conn), conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO settings (player, name, value) VALUES (%s, %s, %s)"
                    " ON CONFLICT (player, name) DO UPDATE SET value = excluded.value",
                    [(player, name, value) for name, value in sorted(values.items())],
                )
            return True

        return self._run(write, False, "the settings were not saved")

    # -- reads ------------------------------------------------------------------

    def settings(self, player: str | None) -> dict[str, Any]:
        """The player's saved settings: only those saved and still valid."""
        if player is None:
            return {}

        def read(conn: psycopg.Connection) -> dict[str, Any]:
            with transaction(conn):
                rows = conn.execute(
                    "SELECT name, value FROM settings WHERE player = %s", (player,)
                ).fetchall()
            return valid_settings(dict(rows))  # type: ignore[arg-type]

        return self._run(read, {}, "the settings could not be read")

    def stats(self, player: str | None, display_name: str | None = None) -> Stats:
        """The player's record per board and difficulty, and per difficulty on all boards."""
        if player is None:
            return empty_stats("guest", display_name)

        def read(conn: psycopg.Connection) -> Stats:
            with transaction(conn):
                name_row = conn.execute(
                    "SELECT display_name FROM players WHERE player = %s", (player,)
                ).fetchone()
                by_level = conn.execute(
                    f"SELECT difficulty, {STANDING_NUMBERS} FROM standings WHERE player = %s",
                    (player,),
                ).fetchall()
                by_board = conn.execute(
                    f"SELECT board_size, difficulty, {STANDING_NUMBERS} FROM board_standings"
                    " WHERE player = %s",
                    (player,),
                ).fetchall()
            name = display_name or (name_row[0] if name_row else player)
            return stats_from_rows(player, name, by_level, by_board)

        return self._run(read, empty_stats(player, display_name), "the record could not be read")

    def recent_rounds(self, player: str | None, limit: int = 10) -> list[RoundRecord]:
        """The player's latest rounds, newest first, with their moves."""
        if player is None:
            return []

        def read(conn: psycopg.Connection) -> list[RoundRecord]:
            with transaction(conn):
                rows = conn.execute(
                    f"SELECT {ROUND_COLUMNS} FROM rounds WHERE player = %s"
                    " ORDER BY id DESC LIMIT %s",
                    (player, limit),
                ).fetchall()
            return [
                RoundRecord._make((*head, tuple(moves), result, took_back))
                for *head, moves, result, took_back in rows
            ]

        return self._run(read, [], "the record could not be read")

    def leaderboard(self, limit: int = 10, board_size: int = LEADERBOARD_BOARD) -> Leaderboard:
        """The top `limit` players on one board: best unbeaten streak on hard, most wins on
        medium."""

        def read(conn: psycopg.Connection) -> Leaderboard:
            with transaction(conn):
                streaks = conn.execute(
                    LEADERS_PG.format(column="best_streak"), (board_size, "hard", limit)
                ).fetchall()
                wins = conn.execute(
                    LEADERS_PG.format(column="clean_wins"), (board_size, "medium", limit)
                ).fetchall()
            return Leaderboard([LeaderEntry(*r) for r in streaks], [LeaderEntry(*r) for r in wins])

        return self._run(read, Leaderboard([], []), "the leaderboard could not be read")

    # -- failures ---------------------------------------------------------------

    def _connect(self) -> None:
        """Connect and bring the schema up to date; else as `_failed` decides."""
        conn = None
        try:
            conn = connect(self.url)
            ensure_schema(conn)
        except Exception as error:
            if conn is not None:
                with suppress(Exception):
                    conn.close()
            self._failed(error, first_try=False, lost=None)
            return
        self._conn = conn  # type: ignore[assignment]  # the base class names SQLite's
        if self._unreachable:
            self._unreachable = False
            self.notice = f"The record's database {self.where} is back: rounds are kept again."

    def _failed(self, error: Exception, *, first_try: bool, lost: str | None) -> bool:
        """React to a failure (the one place that does): True to try once more, on a new
        connection, when the one in use was dropped."""
        failure = classify(error)
        if failure is None:
            raise error  # a bug, not the database's fault
        if failure is Failure.UNREACHABLE:
            dropped = self._conn is not None
            self.close()
            if dropped and first_try and lost is not None:
                return True
            self._out_of_reach(reason(error))
        elif failure is Failure.NEWER:
            assert isinstance(error, NewerSchema)
            self._refuse_newer(error.version)
        elif failure is Failure.BUSY:
            self.notice = f"The record's database is busy ({reason(error)}): {lost or 'not now'}."
        elif failure is Failure.FULL:
            self.notice = f"The record's database is full: {lost or 'not now'}."
        elif lost is not None:
            self._disable(f"The record failed ({reason(error)}): {lost}")
        else:
            self._disable(f"Cannot use the record's database {self.where} ({reason(error)})")
        return False

    def _out_of_reach(self, why: str) -> None:
        """Said once, until the server is reached again: every round until then is lost."""
        if not self._unreachable:
            self._unreachable = True
            self.notice = (
                f"The record's database {self.where} cannot be reached ({why}): rounds are"
                " not kept until it is back; the game plays on."
            )

    def _refuse_newer(self, version: int) -> None:
        self.close()
        self._enabled = False
        self.notice = (
            f"The record's database {self.where} was set up by a newer tui-tictactoe (schema"
            f" {version}, this one knows up to {schema_version()}); it is left untouched and"
            " this game is not recorded."
        )
