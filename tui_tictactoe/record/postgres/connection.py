"""Connecting to the record's PostgreSQL database, and what each of its failures means.

`psycopg` (3) is imported here, on first use, and only when a `postgresql://` URL is
set: the plain game never loads it. Every wait is bounded: `connect_timeout` for the
connection, `statement_timeout` and `lock_timeout` (set in each transaction, so they
hold behind a PgBouncer in transaction mode) in place of SQLite's busy timeout.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tui_tictactoe.record.failures import Failure, NewerSchema

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT = 3
"""Seconds to reach the server before the operation is given up (libpq's minimum is 2)."""
STATEMENT_TIMEOUT_MS = 3000
"""A statement running longer is cancelled: this operation is lost, the game goes on."""
LOCK_TIMEOUT_MS = 3000
"""A row lock (another host saving the same player's round) waited on no longer than this."""


class MissingDriver(Exception):
    """psycopg is not installed: the `postgres` extra was not."""


def connect(url: str) -> psycopg.Connection:
    """A new connection in autocommit mode: every operation opens its own `transaction`.

    Statements are never prepared on the server (`prepare_threshold=None`), as a
    PgBouncer in transaction mode may hand each transaction another server connection.
    """
    try:
        import psycopg
    except ImportError as error:
        raise MissingDriver(str(error)) from error
    return psycopg.connect(
        url,
        autocommit=True,
        connect_timeout=CONNECT_TIMEOUT,
        prepare_threshold=None,
        application_name="tui-tictactoe",
    )


@contextmanager
def transaction(conn: psycopg.Connection, timeout_ms: int | None = None) -> Iterator[None]:
    """One transaction at READ COMMITTED, its waits bounded (by `timeout_ms` if given, else
    `STATEMENT_TIMEOUT_MS` and `LOCK_TIMEOUT_MS`); rolled back if anything fails."""
    with conn.transaction():
        conn.execute(
            "SELECT set_config('statement_timeout', %s, true), set_config('lock_timeout', %s, true)",
            (f"{timeout_ms or STATEMENT_TIMEOUT_MS}ms", f"{timeout_ms or LOCK_TIMEOUT_MS}ms"),
        )
        yield


def where(url: str) -> str:
    """The database a URL names, for a notice: `host:port/dbname`, never the password."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(url)
    except Exception:  # no psycopg, or a URL it cannot read: name no part of it
        return "the PostgreSQL database"
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"{host}{port}/{parts.get('dbname') or parts.get('user') or ''}"


# SQLSTATEs by what the record does about them (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_BUSY = {
    "57014": "a statement took too long",  # query_canceled: statement_timeout
    "55P03": "a lock was held too long",  # lock_not_available: lock_timeout
    "40001": "a serialization failure",
    "40P01": "a deadlock",
}
_FULL = {"53100"}  # disk_full
_UNREACHABLE_CLASSES = ("08", "57P")  # connection exceptions; shutdown, cannot connect now


def classify(error: BaseException) -> Failure | None:
    """What `error` means for the record; None: not a failure of the database (a bug)."""
    if isinstance(error, NewerSchema):
        return Failure.NEWER
    if isinstance(error, MissingDriver):
        return Failure.OTHER
    import psycopg  # loaded already: every other error reaching here came after connecting

    if not isinstance(error, psycopg.Error):
        return None
    state = error.sqlstate or ""
    if state in _BUSY:
        return Failure.BUSY
    if state in _FULL:
        return Failure.FULL
    if state.startswith(_UNREACHABLE_CLASSES) or state in ("53300", "53200"):
        return Failure.UNREACHABLE  # too many connections, out of memory: not now
    if not state and isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError)):
        return Failure.UNREACHABLE  # libpq's own: refused, timed out, the connection lost
    return Failure.OTHER


def reason(error: BaseException) -> str:
    """The error in a few words, for a notice: libpq's first line, without the server's
    address details repeated."""
    if isinstance(error, MissingDriver):
        return 'psycopg is not installed: pip install "tui-tictactoe[postgres]"'
    text = str(error).strip().splitlines()
    first = text[0] if text else type(error).__name__
    state = getattr(error, "sqlstate", None)
    return _BUSY.get(state, first) if state else first
