"""The player's lifetime record and settings, kept in one SQLite file.

Everything that touches the database lives here, behind `Record`, so a shared
PostgreSQL for several servers would be a second backend of this module rather
than a change to the app. The app, the command line and the SSH server use:

    record = Record.open()            # never raises; Record.disabled() for --no-record
    record.settings(player)           # {"symbol": "O", "theme": "nord", ...}
    record.save_round(player, ...)    # True once committed
    record.stats(player), record.recent_rounds(player), record.leaderboard()
    record.take_notice()              # a one-time message for the status line, or None

The game must never crash because of its record: every public method catches
database and file-system errors, degrades (a damaged file is moved aside and a
new one started; an unusable one means playing without a record) and leaves a
notice. Invalid arguments are the caller's bug and raise ValueError.

`sqlite3` and `platformdirs` are imported on first use, not with this module:
the app's start-up budget is tight and `import sqlite3` alone costs several ms.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .controller.options import BOARDS
from .engine.board import SYMBOLS
from .engine.strategies import DIFFICULTIES
from .identity import displayable

if TYPE_CHECKING:
    import sqlite3
    from datetime import datetime

APP_NAME = "tui-tictactoe"
DATA_DIR_ENV = "TUI_TICTACTOE_DATA_DIR"
DATABASE_NAME = "record.sqlite3"

RESULTS: tuple[str, ...] = ("win", "loss", "draw", "abandoned")
"""A round's result from the player's side; `abandoned`: left unfinished for a new round."""
STARTERS: tuple[str, ...] = ("human", "ai")
"""Who started a round; the same values as `GameOptions.first`."""

BUSY_TIMEOUT = 5.0
"""Seconds a writer waits for another process's transaction (SSH sessions, two terminals)."""

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
`_rebuild_standings` after a change to what is counted), run in order, and every
step still to run goes in one transaction. The schema's version is the length of
this list (`schema_version()`), read when used, so a test can add a step.
"""


def schema_version() -> int:
    """The schema this program writes: the number of migration steps it knows."""
    return len(MIGRATIONS)


# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB = 5, 6, 11, 13, 26
_MAGIC = b"SQLite format 3\x00"

# One round added to its player's standing at its level. In an UPDATE every
# expression reads the row as it was, so `streak + 1` is the streak before plus this round.
_ADD_TO_STANDING = """
INSERT INTO standings (player, difficulty, wins, losses, draws, abandoned, streak,
                       best_streak, clean_wins)
VALUES (:player, :difficulty, :win, :loss, :draw, :abandoned, :unbeaten, :unbeaten, :clean_win)
ON CONFLICT (player, difficulty) DO UPDATE SET
    wins = wins + :win,
    losses = losses + :loss,
    draws = draws + :draw,
    abandoned = abandoned + :abandoned,
    streak = CASE WHEN :unbeaten THEN streak + 1 ELSE 0 END,
    best_streak = MAX(best_streak, CASE WHEN :unbeaten THEN streak + 1 ELSE 0 END),
    clean_wins = clean_wins + :clean_win
"""

_LEADERS = """
SELECT standings.player, COALESCE(players.display_name, standings.player), standings.{column}
FROM standings LEFT JOIN players ON players.player = standings.player
WHERE standings.difficulty = ? AND standings.{column} > 0
ORDER BY standings.{column} DESC, standings.player
LIMIT ?
"""


# -- where the record lives ------------------------------------------------------


def data_dir() -> Path:
    """The directory of the record: `$TUI_TICTACTOE_DATA_DIR`, else the platform's data dir."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def database_path() -> Path:
    """The record's database file (it need not exist yet)."""
    return data_dir() / DATABASE_NAME


# -- what the record holds ----------------------------------------------------------


class RoundRecord(NamedTuple):
    """One finished round, with its moves, so the stats screen can replay it."""

    id: int
    played_at: str  # UTC, ISO 8601
    player: str
    display_name: str
    board_size: int
    difficulty: str
    symbol: str  # the player's
    first: str  # who started: "human" (the player) or "ai"
    moves: tuple[int, ...]  # cell keys (1 = top-left, reading order), both sides, in order
    result: str  # from the player's side: one of RESULTS
    took_back: bool  # the player took a move back during the round


class DifficultyStats(NamedTuple):
    """A player's record at one difficulty.

    `streak` is the current unbeaten run (wins and draws, up to the latest round
    at this level), `best_streak` the longest ever. A loss, an abandoned round or a
    round with a move taken back ends a streak: walking away from, or undoing, a
    lost position must not keep it alive. Wins, losses and draws count every round,
    taken back or not; abandoned rounds are counted apart.
    """

    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def rounds(self) -> int:
        return self.wins + self.losses + self.draws + self.abandoned


class Stats(NamedTuple):
    """A player's lifetime record: every difficulty of `DIFFICULTIES`, always all of them.

    `rounds` counts every round kept, abandoned ones included.
    """

    player: str
    display_name: str
    rounds: int
    by_difficulty: dict[str, DifficultyStats]


FINGERPRINT = "SHA256:"
"""How serve-ssh's players (their SSH key's fingerprint) begin."""
FINGERPRINT_SHOWN = 8
"""Characters of a fingerprint shown after a player's name on the leaderboard."""


class LeaderEntry(NamedTuple):
    player: str
    display_name: str
    value: int

    @property
    def label(self) -> str:
        """The name, and for a player known by a key the start of its fingerprint: SSH
        user names are whatever the client says, so two "alice"s must look different."""
        name = shown_name(self.display_name, self.player)
        if not self.player.startswith(FINGERPRINT):
            return name
        shown = len(FINGERPRINT) + FINGERPRINT_SHOWN
        short = self.player if len(self.player) <= shown else self.player[:shown] + "…"
        short = displayable(short, shown + 1)
        return short if name == displayable(self.player) else f"{name} ({short})"


class Leaderboard(NamedTuple):
    """For the server: best unbeaten streaks against hard, most wins on medium.

    Both count only rounds played without a take-back: it is a competition.
    """

    hard_streaks: list[LeaderEntry]
    medium_wins: list[LeaderEntry]


def shown_name(display_name: str, player: str) -> str:
    """A stored name as it may be shown (names are the clients' choice, and were stored
    uncleaned before): nothing to show in it, and the player is shown by its key."""
    return displayable(display_name, empty="") or displayable(player)


def empty_stats(player: str, display_name: str | None = None) -> Stats:
    by_difficulty = {level: DifficultyStats() for level in DIFFICULTIES}
    return Stats(player, display_name or player, 0, by_difficulty)


def stats_json(stats: Stats) -> str:
    """The `tui-tictactoe stats --json` object (one line)."""
    import json

    by_difficulty = {
        level: {
            "wins": numbers.wins,
            "losses": numbers.losses,
            "draws": numbers.draws,
            "streak": numbers.streak,
            "best_streak": numbers.best_streak,
        }
        for level, numbers in stats.by_difficulty.items()
    }
    return json.dumps(
        {"player": stats.player, "rounds": stats.rounds, "by_difficulty": by_difficulty}
    )


RECENT_ROUNDS = 10
"""Rounds listed by the stats screen and `tui-tictactoe stats`, newest first."""
ROUND_COLUMNS = ("When", "Level", "You", "First", "Result", "Moves", "Undo")
"""What a listed round shows: when, the level, the player's symbol, who started, the
result, the number of moves, and whether a move was taken back."""


def round_cells(round_: RoundRecord) -> tuple[str, ...]:
    """A round as the stats screen and `stats` list it, under ROUND_COLUMNS."""
    return (
        _local_time(round_.played_at),
        round_.difficulty,
        round_.symbol,
        "you" if round_.first == "human" else "AI",
        round_.result,
        str(len(round_.moves)),
        "yes" if round_.took_back else "",
    )


def format_stats(stats: Stats, rounds: Sequence[RoundRecord] = ()) -> str:
    """`tui-tictactoe stats`: the table per difficulty, then the rounds (the latest first)."""
    header = ("difficulty", "wins", "losses", "draws", "abandoned", "streak", "best streak")
    rows = [header]
    for level, numbers in stats.by_difficulty.items():
        rows.append((level, *(str(number) for number in numbers)))  # fields in header order
    count = "1 round" if stats.rounds == 1 else f"{stats.rounds} rounds"
    lines = [f"{shown_name(stats.display_name, stats.player)}: {count}", *_table(rows, left=1), ""]
    if rounds:
        listed = [ROUND_COLUMNS, *(round_cells(round_) for round_ in rounds)]
        lines += ["Last rounds, newest first:", *_table(listed, left=len(ROUND_COLUMNS))]
    else:
        lines.append("No rounds kept yet.")
    return "\n".join(lines)


def _table(rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Rows in columns two spaces apart: the first `left` flush left, the rest right."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if column < left else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def _local_time(played_at: str) -> str:
    """A round's time in the local time zone, short: `11-23 14:05`."""
    from datetime import datetime

    try:
        return (
            datetime.fromisoformat(played_at.replace("Z", "+00:00"))
            .astimezone()
            .strftime("%m-%d %H:%M")
        )
    except ValueError:
        return played_at[:11]


# -- the record ------------------------------------------------------------------


class Record:
    """The record of every player on this machine, and their settings.

    Safe to share between threads (one connection behind a lock) and between
    processes (SQLite's locking, WAL mode, a busy timeout). A `Record` that cannot
    use its file is still a `Record`: reads give empty answers, writes return False,
    and `notice` says why.
    """

    def __init__(self, path: Path | None, *, max_pages: int | None = None) -> None:
        """Use `Record.open()` or `Record.disabled()`; this does no I/O."""
        self.path = path
        self.notice: str | None = None
        self.max_pages = max_pages  # a size cap in pages: a full database is a full disk
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._enabled = path is not None

    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, *, max_pages: int | None = None
    ) -> Record:
        """The record at `path` (default: `database_path()`), opened now; never raises."""
        try:
            where = Path(path) if path is not None else database_path()
        except Exception as error:  # a platformdirs failure, a bad environment value
            record = cls(None)
            record.notice = f"No place for the record ({_reason(error)}): playing without one."
            return record
        record = cls(where, max_pages=max_pages)
        with record._lock:
            record._connect()
        return record

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

    def save_round(
        self,
        player: str | None,
        *,
        difficulty: str,
        symbol: str,
        first: str,
        moves: Sequence[int],
        result: str,
        took_back: bool = False,
        display_name: str | None = None,
        board_size: int = 3,
        played_at: datetime | None = None,
    ) -> bool:
        """Record a finished round in one transaction; True once it is committed.

        Committed means durable (WAL with `synchronous=FULL`): a round reported
        saved survives a crash of the process and of the machine. A guest
        (`player` None) is not recorded. ValueError for an invalid argument.
        """
        _check_choice("difficulty", difficulty, DIFFICULTIES)
        _check_choice("symbol", symbol, SYMBOLS)
        _check_choice("first", first, STARTERS)
        _check_choice("result", result, RESULTS)
        if not isinstance(board_size, int) or board_size < 1:
            raise ValueError(f"board_size must be a positive whole number, not {board_size!r}")
        cells = board_size * board_size
        keys = tuple(moves)
        if any(not isinstance(key, int) or not 1 <= key <= cells for key in keys):
            raise ValueError(f"moves must be cell keys from 1 to {cells}, not {keys!r}")
        if player is None:
            return False
        name = display_name or player
        when = _utc_iso(played_at)
        row = (
            when,
            player,
            name,
            board_size,
            difficulty,
            symbol,
            first,
            ",".join(map(str, keys)),
            result,
            int(bool(took_back)),
        )
        unbeaten = result in ("win", "draw") and not took_back
        standing = {
            "player": player,
            "difficulty": difficulty,
            **{outcome: int(result == outcome) for outcome in RESULTS},
            "unbeaten": int(unbeaten),
            "clean_win": int(result == "win" and not took_back),
        }

        def write(conn: sqlite3.Connection) -> bool:
            with _write_transaction(conn):
                conn.execute(
                    "INSERT INTO rounds (played_at, player, display_name, board_size,"
                    " difficulty, symbol, first, moves, result, took_back)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
                conn.execute(_ADD_TO_STANDING, standing)
                _upsert_player(conn, player, name)
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
        """Remember the given settings (None: leave as is) in one transaction.

        True once committed; False for a guest or without a record.
        """
        values: dict[str, str] = {}
        if symbol is not None:
            values["symbol"] = _check_choice("symbol", symbol, SYMBOLS)
        if first is not None:
            values["first"] = _check_choice("first", first, STARTERS)
        if difficulty is not None:
            values["difficulty"] = _check_choice("difficulty", difficulty, DIFFICULTIES)
        if alternate is not None:
            if not isinstance(alternate, bool):
                raise ValueError(f"alternate must be True or False, not {alternate!r}")
            values["alternate"] = "1" if alternate else "0"
        if board is not None:
            values["board"] = _check_choice("board", board, BOARDS)
        if theme is not None:
            if not isinstance(theme, str) or not theme:
                raise ValueError(f"theme must be a theme's name, not {theme!r}")
            values["theme"] = theme
        if player is None:
            return False

        def write(conn: sqlite3.Connection) -> bool:
            with _write_transaction(conn):
                conn.executemany(
                    "INSERT INTO settings (player, name, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (player, name) DO UPDATE SET value = excluded.value",
                    [(player, key, value) for key, value in values.items()],
                )
            return True

        return self._run(write, False, "the settings were not saved")

    def rebuild_standings(self) -> bool:
        """Recompute every player's standings from the rounds, in one transaction.

        For a migration that changes what is counted, for rounds imported by other
        means, and as a check: the result equals what `save_round` keeps up to date.
        """

        def write(conn: sqlite3.Connection) -> bool:
            with _write_transaction(conn):
                _rebuild_standings(conn)
            return True

        return self._run(write, False, "the statistics were not rebuilt")

    # -- reads ------------------------------------------------------------------

    def settings(self, player: str | None) -> dict[str, Any]:
        """The player's saved settings: only those saved and still valid.

        Keys: symbol, first, difficulty, board (str), alternate (bool), theme (str). The
        caller merges them over its defaults, and command-line flags over them.
        """
        if player is None:
            return {}

        def read(conn: sqlite3.Connection) -> dict[str, Any]:
            rows = conn.execute(
                "SELECT name, value FROM settings WHERE player = ?", (player,)
            ).fetchall()
            return _valid_settings(dict(rows))

        return self._run(read, {}, "the settings could not be read")

    def stats(self, player: str | None, display_name: str | None = None) -> Stats:
        """The player's record per difficulty, computed from every round kept."""
        if player is None:
            return empty_stats("guest", display_name)

        def read(conn: sqlite3.Connection) -> Stats:
            name_row = conn.execute(
                "SELECT display_name FROM players WHERE player = ?", (player,)
            ).fetchone()
            by_difficulty = {level: DifficultyStats() for level in DIFFICULTIES}
            rounds = 0
            for level, *numbers in conn.execute(
                "SELECT difficulty, wins, losses, draws, abandoned, streak, best_streak"
                " FROM standings WHERE player = ?",
                (player,),
            ):
                standing = DifficultyStats(*numbers)
                rounds += standing.rounds
                if level in by_difficulty:
                    by_difficulty[level] = standing
            name = display_name or (name_row[0] if name_row else player)
            return Stats(player, name, rounds, by_difficulty)

        return self._run(read, empty_stats(player, display_name), "the record could not be read")

    def recent_rounds(self, player: str | None, limit: int = 10) -> list[RoundRecord]:
        """The player's latest rounds, newest first, with their moves."""
        if player is None:
            return []

        def read(conn: sqlite3.Connection) -> list[RoundRecord]:
            rows = conn.execute(
                "SELECT id, played_at, player, display_name, board_size, difficulty, symbol,"
                " first, moves, result, took_back FROM rounds WHERE player = ?"
                " ORDER BY id DESC LIMIT ?",
                (player, limit),
            ).fetchall()
            return [_round_record(row) for row in rows]

        return self._run(read, [], "the record could not be read")

    def leaderboard(self, limit: int = 10) -> Leaderboard:
        """The top `limit` players: best unbeaten streak on hard, most wins on medium."""

        def read(conn: sqlite3.Connection) -> Leaderboard:
            streaks = conn.execute(_LEADERS.format(column="best_streak"), ("hard", limit))
            wins = conn.execute(_LEADERS.format(column="clean_wins"), ("medium", limit))
            return Leaderboard(
                [LeaderEntry(*row) for row in streaks.fetchall()],
                [LeaderEntry(*row) for row in wins.fetchall()],
            )

        return self._run(read, Leaderboard([], []), "the leaderboard could not be read")

    # -- failure handling -------------------------------------------------------

    def _run(self, operation: Any, fallback: Any, lost: str) -> Any:
        """`operation(connection)`, or `fallback` with a notice if the record fails.

        A damaged file is moved aside and the operation tried once more on a fresh
        one; a full disk or a busy database loses only this operation; anything
        else means playing without a record from now on.
        """
        import sqlite3

        with self._lock:
            for attempt in range(2):
                conn = self._connection()
                if conn is None:
                    return fallback
                try:
                    return operation(conn)
                except _NewerSchema as newer:  # a newer program migrated it meanwhile
                    self._refuse_newer(newer.version)
                    return fallback
                except (sqlite3.Error, OSError) as error:
                    kind = _kind(error)
                    if kind == "corrupt" and attempt == 0:
                        self._recover(_reason(error))
                        continue
                    if kind == "full":
                        self.notice = f"The disk is full: {lost}. The record kept so far is intact."
                    elif kind == "busy":
                        self.notice = (
                            f"The record is busy (another tui-tictactoe is writing): {lost}."
                        )
                    else:
                        self._disable(f"The record failed ({_reason(error)}): {lost}")
                    return fallback
            return fallback

    def _connection(self) -> sqlite3.Connection | None:
        if not self._enabled:
            return None
        if self._conn is None:
            self._connect()
        return self._conn

    def _disable(self, why: str) -> None:
        self.close()
        self._enabled = False
        self.notice = f"{why}; playing without a record."

    def _connect(self) -> None:
        """Open the file, moving a damaged one aside once; disable on any other failure.

        A busy database (another process recovering it, say) is not a failure: the
        record stays on and the next call tries again.
        """
        import sqlite3

        assert self.path is not None
        for attempt in range(2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                damage = _damage(self.path)
                if damage is not None:
                    if attempt:
                        break
                    self._move_aside(damage)
                    continue
                if not os.path.lexists(self.path):
                    _create_database(self.path)
                self._conn = self._open_connection(self.path)
                return
            except _NewerSchema as newer:
                self._refuse_newer(newer.version)
                return
            except (sqlite3.Error, OSError, _Foreign) as error:
                self.close()
                kind = _kind(error)
                if kind == "corrupt" and attempt == 0:
                    try:
                        self._move_aside(_reason(error))
                    except OSError as move_error:
                        self._disable(
                            f"The record {self.path} is damaged and could not be moved"
                            f" aside ({_reason(move_error)})"
                        )
                        return
                    continue
                if kind == "busy":
                    self.notice = "The record is busy (another tui-tictactoe holds it)."
                    return
                reason = _reason(error)
                if not os.access(self.path.parent, os.W_OK):
                    reason = f"the directory {self.path.parent} is read-only"
                self._disable(f"Cannot use the record {self.path} ({reason})")
                return
        self._disable(f"Cannot start a new record at {self.path}")

    def _refuse_newer(self, version: int) -> None:
        self.close()
        self._enabled = False
        self.notice = (
            f"The record {self.path} was written by a newer tui-tictactoe (schema"
            f" {version}, this one knows up to {schema_version()}); it is left"
            " untouched and this game is not recorded."
        )

    def _open_connection(self, path: Path) -> sqlite3.Connection:
        """A connection in WAL mode with the current schema; _NewerSchema if it is newer.

        `mode=rw`: an existing file only. A new database is made by `_create_database`,
        never here, so no process ever sees a half-made one.
        """
        import sqlite3

        conn = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode=rw",
            uri=True,
            timeout=BUSY_TIMEOUT,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            # Read before anything writes: a newer schema or another program's
            # database must not be touched at all.
            version = _check_version(conn)
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode != "wal":
                    raise sqlite3.OperationalError(f"cannot use WAL mode (journal mode {mode})")
            # FULL: in WAL mode, NORMAL can lose the last commits on a power cut.
            conn.execute("PRAGMA synchronous = FULL")
            if self.max_pages is not None:
                conn.execute(f"PRAGMA max_page_count = {int(self.max_pages)}")
            if version < schema_version():
                _migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _recover(self, reason: str) -> None:
        """The open file turned out damaged: move it aside and start afresh."""
        self.close()
        try:
            self._move_aside(reason)
        except OSError as error:
            self._disable(
                f"The record {self.path} is damaged and could not be moved aside ({_reason(error)})"
            )
            return
        self._connect()

    def _move_aside(self, reason: str) -> None:
        """Rename the damaged file (and its WAL) to `<name>.corrupt-<UTC time>`, intact."""
        from datetime import UTC, datetime

        assert self.path is not None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 1
        while os.path.lexists(aside):
            number += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
        try:
            os.rename(self.path, aside)
        except FileNotFoundError:
            return  # another process moved it aside first
        # Its WAL holds committed rounds too: keep it beside the file, where SQLite
        # looks for it, so the moved copy opens with everything it had.
        for suffix in ("-wal", "-shm"):
            companion = Path(f"{self.path}{suffix}")
            if os.path.lexists(companion):
                with suppress(OSError):
                    os.rename(companion, Path(f"{aside}{suffix}"))
        self.notice = (
            f"The record {self.path.name} was unusable ({reason}): it was moved aside to"
            f" {aside.name} and a new record started."
        )


class _Foreign(Exception):
    """Another program's SQLite database where the record should be: not ours to change."""


class _NewerSchema(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def _check_version(conn: sqlite3.Connection) -> int:
    """The schema version; _NewerSchema or _Foreign if this program must not touch it."""
    if not conn.in_transaction:
        # One snapshot for both reads: between two, another process may migrate.
        conn.execute("BEGIN")
        try:
            return _check_version(conn)
        finally:
            conn.execute("COMMIT")
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > schema_version():
        raise _NewerSchema(version)
    if version == 0:
        tables = sorted(
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        )
        if tables:
            raise _Foreign(f"not a tui-tictactoe record (tables: {', '.join(tables)})")
    return version


def _create_database(path: Path) -> None:
    """Make a new record at `path` whole, or find that another process just did.

    Built under a temporary name (WAL mode, the current schema, closed: complete on
    disk) and published with a hard link, which fails if `path` exists, so processes
    starting together never share a half-made database. SQLite switching a brand-new
    file to WAL mode under several processes at once fails in ways that look like
    corruption, which would move a good record aside.
    """
    import sqlite3

    _remove_leftovers(path)
    building = path.with_name(f"{path.name}.new-{os.getpid()}-{threading.get_ident()}")
    _remove_database(building)
    try:
        conn = sqlite3.connect(building, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            _migrate(conn)
        finally:
            conn.close()  # checkpoints: the file alone now holds the schema
        try:
            os.link(building, path)
        except FileExistsError:
            pass  # another process was first: use its record
        except OSError:  # no hard links here (some network or FAT file systems)
            if not os.path.lexists(path):
                os.replace(building, path)
        _sync_directory(path.parent)
    finally:
        _remove_database(building)


def _remove_database(path: Path) -> None:
    for name in (str(path), f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        with suppress(FileNotFoundError):
            os.unlink(name)


def _remove_leftovers(path: Path) -> None:
    """Half-built databases of creators that were killed (their process is gone)."""
    for leftover in path.parent.glob(f"{path.name}.new-*"):
        pid = leftover.name.removeprefix(f"{path.name}.new-").split("-")[0]
        if not pid.isdigit() or leftover.name.endswith(("-wal", "-shm", "-journal")):
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _remove_database(leftover)
        except OSError:
            pass  # alive, or not ours to ask about


def _sync_directory(directory: Path) -> None:
    """Make a new directory entry durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema to `schema_version()`, in one transaction (other processes may race)."""
    with _write_transaction(conn, migrating=True):
        version = _check_version(conn)  # again, under the write lock
        for step in MIGRATIONS[version:]:
            for statement in step:
                if callable(statement):
                    statement(conn)
                else:
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {schema_version()}")


@contextmanager
def _write_transaction(conn: sqlite3.Connection, *, migrating: bool = False) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock first, so the busy timeout applies.

    Unless migrating, a schema newer than this program's (another version migrated
    the file while this one ran) is refused before anything is written.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        if not migrating and conn.execute("PRAGMA user_version").fetchone()[0] > schema_version():
            raise _NewerSchema(conn.execute("PRAGMA user_version").fetchone()[0])
        yield
    except BaseException:
        if conn.in_transaction:
            with suppress(Exception):
                conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _rebuild_standings(conn: sqlite3.Connection) -> None:
    """Standings from scratch: the rounds of each player and level, in the order played."""
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


def _upsert_player(conn: sqlite3.Connection, player: str, name: str) -> None:
    conn.execute(
        "INSERT INTO players (player, display_name) VALUES (?, ?)"
        " ON CONFLICT (player) DO UPDATE SET display_name = excluded.display_name",
        (player, name),
    )


def _damage(path: Path) -> str | None:
    """Why the file at `path` is not a usable SQLite database, from its header alone.

    Checked before SQLite opens it, because SQLite writes to a file while it opens
    it (WAL mode) and the damaged file must be moved aside byte-for-byte. None: no
    file, or nothing wrong that the header shows.
    """
    if not os.path.lexists(path):
        return None
    if path.is_dir():
        return "a directory is in its place"
    if not path.is_file():
        return "not a regular file"
    try:
        with open(path, "rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError as error:
        return f"unreadable: {_reason(error)}"
    if not header:
        # SQLite would make it a database in place, which is unsafe with several
        # processes starting at once; moved aside, it is replaced whole.
        return "empty"
    if not (header.startswith(_MAGIC) or _MAGIC.startswith(header)):
        return "not a database"
    if len(header) < 100:
        return "truncated"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return "not a database (bad header)"
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return None  # the file may legitimately lag its WAL (a checkpoint cut short)
    pages = int.from_bytes(header[28:32], "big")
    pages_valid = header[24:28] == header[92:96]
    if size % page_size or (pages_valid and size < pages * page_size):
        return "truncated"
    return None


def _kind(error: BaseException) -> str:
    """corrupt, full, busy or other: what a failure means for the record."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        primary = code & 0xFF
        if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            return "corrupt"
        if primary == _SQLITE_FULL:
            return "full"
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return "busy"
        return "other"
    if isinstance(error, OSError):
        import errno

        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return "full"
        return "other"
    if isinstance(error, _Foreign):
        return "corrupt"
    return "other"


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower() if error.strerror[:1].isupper() else error.strerror
    return str(error) or type(error).__name__


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value  # type: ignore[return-value]


def _valid_settings(stored: dict[str, str]) -> dict[str, Any]:
    """The stored settings this program understands; anything else is ignored, not an error."""
    settings: dict[str, Any] = {}
    for name, allowed in (
        ("symbol", SYMBOLS),
        ("first", STARTERS),
        ("difficulty", DIFFICULTIES),
        ("board", BOARDS),
    ):
        if stored.get(name) in allowed:
            settings[name] = stored[name]
    if stored.get("alternate") in ("0", "1"):
        settings["alternate"] = stored["alternate"] == "1"
    if stored.get("theme"):
        settings["theme"] = stored["theme"]
    return settings


def _round_record(row: tuple[Any, ...]) -> RoundRecord:
    *head, moves, result, took_back = row
    try:
        keys = tuple(int(key) for key in moves.split(",")) if moves else ()
    except (AttributeError, ValueError):
        keys = ()  # a hand-edited row: show the round without its replay
    return RoundRecord(*head, keys, result, bool(took_back))


def _utc_iso(when: datetime | None) -> str:
    from datetime import UTC, datetime

    moment = when if when is not None else datetime.now(UTC)
    if moment.tzinfo is None:
        raise ValueError("played_at must carry a time zone")
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
