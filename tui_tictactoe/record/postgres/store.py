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
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import TYPE_CHECKING, Any, TypeVar, cast

from tui_tictactoe.record.failures import Failure, NewerSchema
from tui_tictactoe.record.people import People
from tui_tictactoe.record.postgres.connection import classify, connect, reason, transaction, where
from tui_tictactoe.record.postgres.schema import (
    ADD_TO_BOARD_STANDING,
    ADD_TO_STANDING,
    INSERT_ROUND,
    ensure_schema,
    schema_version,
)
from tui_tictactoe.record.rounds import SAVE_PLAYER
from tui_tictactoe.record.store import Connection, Record

if TYPE_CHECKING:
    import psycopg

    from tui_tictactoe.record.rounds import PreparedRound

T = TypeVar("T")


class PostgresPeople(People):
    """Rounds between people (`people.py`'s methods) as this database keeps them: the
    time a timestamp, the moves an array, a save a savepoint."""

    MATCH_COLUMNS = (
        """id, to_char(ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), kind,"""
        " board_size, x_player, x_name, o_player, o_name, first, array_to_string(moves, ','),"
        " result, left_by, x_gain, rated, cause"
    )

    def _stored_moves(self, keys: tuple[int, ...]) -> Any:
        return list(keys)  # smallint[]

    def _saving_match(self, conn: Any) -> AbstractContextManager[Any]:
        """A savepoint in the operation's transaction: a round kept already undoes the
        ratings rows the save locked (and a newcomer's placeholder) with it."""
        return conn.transaction()  # type: ignore[no-any-return]


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

    @property
    def available(self) -> bool:
        """The record is in use, and the server was reached at the last try (False while it
        cannot be: `stats` says so rather than show nothing; the next operation tries again)."""
        return self._enabled and not self._unreachable

    # -- the dialect: the methods of `Record` run unchanged on these ------------

    ROUND_COLUMNS = (
        """id, to_char(played_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), player,"""
        " display_name, board_size, difficulty, symbol, first, array_to_string(moves, ','),"
        " result, took_back"
    )
    """A kept round's columns as the SQLite file keeps them: the time as UTC text, the moves
    as `5,1,9`."""

    def _query(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, its `?` marks made psycopg's (the record's own
        statements have no other `?` and no `%`)."""
        cursor = conn.execute(statement.replace("?", "%s"), params)
        return cursor.fetchall() if cursor.description else []

    def _writing(self, conn: Any) -> AbstractContextManager[None]:
        return nullcontext()  # every operation is one transaction already (`_run`)

    def _run(self, operation: Callable[[Connection], T], fallback: T, lost: str) -> T:
        """`Record._run`, each operation one transaction with its waits bounded."""

        def in_transaction(conn: Connection) -> T:
            with transaction(cast("psycopg.Connection[Any]", conn)):  # this class's own kind
                return operation(conn)

        return super()._run(in_transaction, fallback, lost)

    def _save_round(self, prepared: PreparedRound, round_key: str | None = None) -> bool:
        """The round once (by its key) and, only then, its standings, in one transaction."""
        key = round_key or str(uuid.uuid4())  # the same on the retry after a dropped link
        row = (key, *prepared[:7], list(prepared.moves), prepared.result, prepared.took_back)

        def write(conn: Connection) -> bool:
            import psycopg

            with cast(
                "psycopg.Connection[Any]", conn
            ).transaction():  # a savepoint, to undo the standings of a round kept
                # The standings row first: its lock orders this player's saves.
                conn.execute(ADD_TO_STANDING, prepared.standing)
                conn.execute(ADD_TO_BOARD_STANDING, prepared.standing)
                if conn.execute(INSERT_ROUND, row).fetchone() is None:
                    raise psycopg.Rollback  # kept already: count nothing twice
                self._query(conn, SAVE_PLAYER, (prepared.player, prepared.display_name))
            return True

        return self._run(write, False, "this round was not recorded")

    PEOPLE = PostgresPeople

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
        self._conn = conn
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
