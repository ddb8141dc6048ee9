"""`Record`: the lifetime record and settings of every player on this machine.

Every public method catches the failures of the file (`failures.classify` says
what each one means, `Record._failed` reacts to it, nowhere else) and degrades
rather than raise: a damaged file is moved aside and a new one started, a full
disk or a busy file loses one operation, anything else means playing without a
record. Each leaves a notice for the status line. Invalid arguments are the
caller's bug and raise ValueError.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from tui_tictactoe.record.failures import Failure, NewerSchema, classify, reason
from tui_tictactoe.record.location import DATABASE_URL_ENV, database_path, database_url
from tui_tictactoe.record.moderation import Moderation
from tui_tictactoe.record.people import People
from tui_tictactoe.record.rounds import SAVE_PLAYER, PreparedRound, prepare_round, round_record
from tui_tictactoe.record.schema import (
    ADD_TO_BOARD_STANDING,
    ADD_TO_STANDING,
    LEADERS,
    STANDING_NUMBERS,
    schema_version,
    write_transaction,
)
from tui_tictactoe.record.sqlite_file import move_aside, open_database
from tui_tictactoe.record.validation import settings_to_store, valid_settings
from tui_tictactoe.record.values import (
    LEADERBOARD_BOARD,
    FinishedRound,
    Leaderboard,
    LeaderEntry,
    RoundRecord,
    Stats,
    empty_stats,
    stats_from_rows,
)

if TYPE_CHECKING:
    import sqlite3

T = TypeVar("T")


class Connection(Protocol):
    """What the record's shared methods use of a database connection: `sqlite3`'s and
    psycopg's both fit, so `PostgresRecord` runs `Record`'s methods unchanged (only
    `_query`, `_writing`, `_run` and `_connect` are each backend's own)."""

    def execute(self, statement: str, params: Any = ..., /) -> Any: ...

    def close(self) -> None: ...


class _Hooks:
    """A record's dialect (`_run`, `_query`, `_writing`) as its parts read it (`Access`):
    looked up at each call, so a backend's own hooks are the ones its parts run on."""

    def __init__(self, record: Record) -> None:
        self._record = record

    def run(self, operation: Callable[[Any], T], fallback: T, lost: str) -> T:
        return self._record._run(operation, fallback, lost)

    def query(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._record._query(conn, statement, params)

    def writing(self, conn: Any) -> AbstractContextManager[None]:
        return self._record._writing(conn)


class Record:
    """The record of every player on this machine, and their settings.

    Safe to share between threads (one connection behind a lock) and between
    processes (SQLite's locking, WAL mode, a busy timeout). Two parts it owns keep the
    rest, on its hooks: `people` (rounds between people and their ratings, `people.py`)
    and `moderation` (what the admin and the servers tell each other, who owns a name,
    `moderation.py`). A `Record` that cannot use its file is still a `Record`: reads
    give empty answers, writes return False, and `notice` says why.
    """

    PEOPLE: ClassVar[type[People]] = People
    """The kind of `people` part: a backend that keeps a round between people otherwise
    has its own (`PostgresPeople`)."""

    def __init__(self, path: Path | None, *, max_pages: int | None = None) -> None:
        """Use `Record.open()` or `Record.disabled()`; this does no I/O."""
        self.path = path
        self.notice: str | None = None
        self.max_pages = max_pages  # a size cap in pages: a full database is a full disk
        self._conn: Connection | None = None
        self._lock = threading.RLock()
        self._enabled = path is not None
        hooks = _Hooks(self)
        self.moderation = Moderation(hooks)
        self.people = self.PEOPLE(hooks, self.moderation.with_owners)

    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, *, max_pages: int | None = None
    ) -> Record:
        """The record at `path` (default: `database_path()`), opened now; never raises.

        Without a `path`, `$TUI_TICTACTOE_DATABASE_URL` (a `postgresql://` URL) picks the
        backend registered for its scheme (`postgres.store`) instead of the SQLite file.
        """
        url = database_url() if path is None else None
        if url is not None:
            return cls.open_url(url)
        try:
            where = Path(path) if path is not None else database_path()
        except Exception as error:  # a platformdirs failure, a bad environment value
            record = cls(None)
            record.notice = f"No place for the record ({reason(error)}): playing without one."
            return record
        record = cls(where, max_pages=max_pages)
        with record._lock:
            record._connect()
        return record

    _backends: ClassVar[dict[str, type[Record]]] = {}

    def __init_subclass__(cls, *, schemes: tuple[str, ...] = (), **kwargs: Any) -> None:
        """A backend for database URLs (`class PostgresRecord(Record, schemes=(...))`)
        registers itself, so its module builds on this one without an import circle."""
        super().__init_subclass__(**kwargs)
        for scheme in schemes:
            Record._backends[scheme] = cls

    @classmethod
    def open_url(cls, url: str) -> Record:
        """The record at a database URL, by the backend of its scheme; never raises."""
        backend = Record._backends.get(url.partition(":")[0].lower())
        if backend is None:
            return cls.disabled(
                f"{DATABASE_URL_ENV} names no database this tui-tictactoe can use (it takes a"
                " postgresql:// URL): playing without a record."
            )
        return backend.open_url(url)

    @classmethod
    def disabled(cls, notice: str | None = None) -> Record:
        """A record that reads nothing and writes nothing (`--no-record`)."""
        record = cls(None)
        record.notice = notice
        return record

    @property
    def available(self) -> bool:
        """Writes are attempted (False: playing without a record)."""
        return self._enabled

    def take_notice(self) -> str | None:
        """The pending notice, once: the caller shows it in the status line."""
        with self._lock:
            notice, self.notice = self.notice, None
            return notice

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with suppress(Exception):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> Record:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writes -----------------------------------------------------------------

    def save_round(self, player: str | None, finished: FinishedRound) -> bool:
        """Record a finished round in one transaction; True once it is committed.

        Committed means durable (WAL with `synchronous=FULL`): a round reported
        saved survives a crash of the process and of the machine. A guest
        (`player` None) is not recorded. ValueError for an invalid argument.
        """
        prepared = prepare_round(player, finished)
        if prepared is None:
            return False
        return self._save_round(prepared)

    def _save_round(self, prepared: PreparedRound) -> bool:
        """The round and its standings in one transaction (each backend its own)."""
        row = (*prepared[:7], ",".join(map(str, prepared.moves)), prepared.result)

        def write(conn: Connection) -> bool:
            with self._writing(conn):
                conn.execute(
                    "INSERT INTO rounds (played_at, player, display_name, board_size,"
                    " difficulty, symbol, first, moves, result, took_back)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*row, int(prepared.took_back)),
                )
                conn.execute(ADD_TO_STANDING, prepared.standing)
                conn.execute(ADD_TO_BOARD_STANDING, prepared.standing)
                conn.execute(SAVE_PLAYER, (prepared.player, prepared.display_name))
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
        bell: bool | None = None,
    ) -> bool:
        """Remember the given settings (None: leave as is) in one transaction.

        True once committed; False for a guest or without a record.
        """
        values = settings_to_store(
            {
                "symbol": symbol,
                "first": first,
                "difficulty": difficulty,
                "alternate": alternate,
                "board": board,
                "theme": theme,
                "bell": bell,
            }
        )
        if player is None:
            return False

        def write(conn: Connection) -> bool:
            with self._writing(conn):
                for key, value in sorted(values.items()):
                    self._query(
                        conn,
                        "INSERT INTO settings (player, name, value) VALUES (?, ?, ?)"
                        " ON CONFLICT (player, name) DO UPDATE SET value = excluded.value",
                        (player, key, value),
                    )
            return True

        return self._run(write, False, "the settings were not saved")

    # -- reads ------------------------------------------------------------------

    def settings(self, player: str | None) -> dict[str, Any]:
        """The player's saved settings: only those saved and still valid.

        Keys: symbol, first, difficulty, board (str), alternate, bell (bool), theme (str). The
        caller merges them over its defaults, and command-line flags over them.
        """
        if player is None:
            return {}

        def read(conn: Connection) -> dict[str, Any]:
            rows = self._query(conn, "SELECT name, value FROM settings WHERE player = ?", (player,))
            return valid_settings(dict(rows))

        return self._run(read, {}, "the settings could not be read")

    def stats(self, player: str | None, display_name: str | None = None) -> Stats:
        """The player's record per board and difficulty, and per difficulty on all boards."""
        if player is None:
            return empty_stats("guest", display_name)

        def read(conn: Connection) -> Stats:
            names = self._query(
                conn, "SELECT display_name FROM players WHERE player = ?", (player,)
            )
            by_level = self._query(
                conn,
                f"SELECT difficulty, {STANDING_NUMBERS} FROM standings WHERE player = ?",
                (player,),
            )
            by_board = self._query(
                conn,
                f"SELECT board_size, difficulty, {STANDING_NUMBERS} FROM board_standings"
                " WHERE player = ?",
                (player,),
            )
            name = display_name or (names[0][0] if names else player)
            return stats_from_rows(player, name, by_level, by_board)

        return self._run(read, empty_stats(player, display_name), "the record could not be read")

    def recent_rounds(self, player: str | None, limit: int = 10) -> list[RoundRecord]:
        """The player's latest rounds, newest first, with their moves."""
        if player is None:
            return []

        def read(conn: Connection) -> list[RoundRecord]:
            rows = self._query(
                conn,
                f"SELECT {self.ROUND_COLUMNS} FROM rounds WHERE player = ? ORDER BY id DESC LIMIT ?",
                (player, limit),
            )
            return [round_record(row) for row in rows]

        return self._run(read, [], "the record could not be read")

    def leaderboard(self, limit: int = 10, board_size: int = LEADERBOARD_BOARD) -> Leaderboard:
        """The top `limit` players on one board: best unbeaten streak on hard, most wins on
        medium."""

        def read(conn: Connection) -> Leaderboard:
            streaks = self._query(
                conn, LEADERS.format(column="best_streak"), (board_size, "hard", limit)
            )
            wins = self._query(
                conn, LEADERS.format(column="clean_wins"), (board_size, "medium", limit)
            )
            return Leaderboard(
                self.moderation.with_owners(conn, [LeaderEntry(*row) for row in streaks]),
                self.moderation.with_owners(conn, [LeaderEntry(*row) for row in wins]),
            )

        return self._run(read, Leaderboard([], []), "the leaderboard could not be read")

    # -- the backend's dialect ----------------------------------------------------

    ROUND_COLUMNS = (
        "id, played_at, player, display_name, board_size, difficulty, symbol, first, moves,"
        " result, took_back"
    )
    """A kept round's columns, as `round_record` reads them (a backend may convert some)."""

    def _query(self, conn: Connection, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, whose parameters are marked `?`: the methods above
        are written once, and a backend with other marks overrides this."""
        rows: list[Any] = conn.execute(statement, params).fetchall()
        return rows

    def _writing(self, conn: Connection) -> AbstractContextManager[None]:
        """The transaction a write runs in (here the write lock first: `write_transaction`)."""
        return write_transaction(cast("sqlite3.Connection", conn))  # this class's own kind

    # -- failures ---------------------------------------------------------------

    def _run(self, operation: Callable[[Connection], T], fallback: T, lost: str) -> T:
        """`operation(connection)`, or `fallback` with a notice if the record fails.

        A damaged file is moved aside and the operation tried once more on a new one.
        """
        with self._lock:
            for first_try in (True, False):
                if not self._enabled:
                    return fallback
                if self._conn is None:
                    self._connect()
                    if self._conn is None:
                        return fallback
                try:
                    return operation(self._conn)
                except Exception as error:
                    if not self._failed(error, first_try=first_try, lost=lost):
                        return fallback
            return fallback

    def _connect(self) -> None:
        """Open the file, moving a damaged one aside once; else as `_failed` decides.

        A busy database (another process recovering it, say) is not a failure: the
        record stays on and the next call tries again.
        """
        assert self.path is not None
        for first_try in (True, False):
            try:
                self._conn = open_database(self.path, self.max_pages)
                return
            except Exception as error:
                if not self._failed(error, first_try=first_try, lost=None):
                    return

    def _failed(self, error: Exception, *, first_try: bool, lost: str | None) -> bool:
        """React to a failure (the one place that does): True to try again on a new file.

        `lost` says what an operation loses; None while opening the file, where a full
        disk, like anything but a busy file, means playing without a record.
        """
        failure = classify(error)
        if failure is None:
            raise error  # a bug, not the file's fault
        if failure is Failure.NEWER:  # a newer program wrote it, or migrated it meanwhile
            assert isinstance(error, NewerSchema)
            self._refuse_newer(error.version)
        elif failure is Failure.DAMAGED and first_try:
            self.close()
            return self._move_aside(reason(error))
        elif failure is Failure.BUSY:
            doing = "holds it)" if lost is None else f"is writing): {lost}"
            self.notice = f"The record is busy (another tui-tictactoe {doing}."
        elif failure is Failure.FULL and lost is not None:
            self.notice = f"The disk is full: {lost}. The record kept so far is intact."
        elif lost is not None:
            self._disable(f"The record failed ({reason(error)}): {lost}")
        else:
            self._disable(f"Cannot use the record {self.path} ({self._why_unusable(error)})")
        return False

    def _why_unusable(self, error: Exception) -> str:
        assert self.path is not None
        if not os.access(self.path.parent, os.W_OK):
            return f"the directory {self.path.parent} is read-only"
        return reason(error)

    def _disable(self, why: str) -> None:
        self.close()
        self._enabled = False
        self.notice = f"{why}; playing without a record."

    def _refuse_newer(self, version: int) -> None:
        self.close()
        self._enabled = False
        self.notice = (
            f"The record {self.path} was written by a newer tui-tictactoe (schema"
            f" {version}, this one knows up to {schema_version()}); it is left"
            " untouched and this game is not recorded."
        )

    def _move_aside(self, why: str) -> bool:
        """Move the damaged file aside, with a notice; False (disabled) if it cannot be."""
        assert self.path is not None
        try:
            aside = move_aside(self.path)
        except OSError as error:
            self._disable(
                f"The record {self.path} is damaged and could not be moved aside ({reason(error)})"
            )
            return False
        if aside is not None:  # else another process moved it aside first
            self.notice = (
                f"The record {self.path.name} was unusable ({why}): it was moved aside to"
                f" {aside.name} and a new record started."
            )
        return True
