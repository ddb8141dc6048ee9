"""The room hub's connections to PostgreSQL: one for its transactions, one that listens.

`psycopg` (3) is imported here, on first use: a hub without a database URL never loads
it. Every failure of the database becomes a `Refused` with a sentence a player can act
on (the server is down, busy, or failed), so a session says why and the hub goes on; the
next call connects again. Statement and lock waits are bounded in each transaction (so
they hold behind a PgBouncer in transaction mode, as the record's).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from ..record.failures import Failure
from ..record.pg_connection import CONNECT_TIMEOUT, MissingDriver, classify
from .view import Refused

if TYPE_CHECKING:
    import psycopg

STATEMENT_TIMEOUT_MS = 3000
LOCK_TIMEOUT_MS = 3000
LISTEN_RETRY = 1.0
"""Seconds between attempts to listen again after the listening connection broke."""

UNREACHABLE = "The room database cannot be reached: try again in a moment."
BUSY = "The room database is busy: try again."
FAILED = "The room database failed to answer that: try again."


async def connect(url: str) -> psycopg.AsyncConnection:
    """A new connection in autocommit mode (each change opens its own transaction), its
    statements never prepared on the server (a pooler may switch server connections)."""
    try:
        import psycopg
    except ImportError as error:
        raise MissingDriver(str(error)) from error
    return await psycopg.AsyncConnection.connect(
        url,
        autocommit=True,
        connect_timeout=CONNECT_TIMEOUT,
        prepare_threshold=None,
        application_name="tui-tictactoe-rooms",
    )


def refusal(error: BaseException) -> Refused | None:
    """What a failure of the database means for a player; None: not the database's."""
    if isinstance(error, MissingDriver):
        return Refused('The room database needs psycopg: pip install "tui-tictactoe[postgres]".')
    failure = classify(error)
    if failure is None:
        return None
    if failure is Failure.UNREACHABLE:
        return Refused(UNREACHABLE)
    if failure is Failure.BUSY:
        return Refused(BUSY)
    return Refused(FAILED)


class Link:
    """The hub's one working connection, used by one task at a time (an asyncio lock),
    connected again on the next use after it broke."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.AsyncConnection | None = None
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def session(self) -> AsyncIterator[psycopg.AsyncConnection]:
        """The connection, for this task alone; a database failure inside is `Refused`."""
        async with self._lock, _refused():
            conn, _ = await self._connection()
            yield conn

    @asynccontextmanager
    async def transaction(self, repeatable: bool = False) -> AsyncIterator[psycopg.AsyncConnection]:
        """One transaction (READ COMMITTED, or REPEATABLE READ to read several tables as
        of one moment), its waits bounded, rolled back if anything fails.

        A connection kept from before that fails to begin (the server restarted since) is
        replaced and the transaction begun again: nothing was sent but BEGIN, so this is
        safe, and the first call after the database is back is not refused for nothing.
        """
        async with self._lock, _refused(), contextlib.AsyncExitStack() as stack:
            conn, fresh = await self._connection()
            try:
                await stack.enter_async_context(conn.transaction())
            except Exception as error:
                if fresh or not conn.broken or refusal(error) is None:
                    raise
                conn, _ = await self._connection()
                await stack.enter_async_context(conn.transaction())
            if repeatable:
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            await conn.execute(
                "SELECT set_config('statement_timeout', %s, true),"
                " set_config('lock_timeout', %s, true)",
                (f"{STATEMENT_TIMEOUT_MS}ms", f"{LOCK_TIMEOUT_MS}ms"),
            )
            yield conn

    async def _connection(self) -> tuple[psycopg.AsyncConnection, bool]:
        """The connection (made again if it broke), and whether it was made just now."""
        conn = self._conn
        if conn is not None and not (conn.closed or conn.broken):
            return conn, False
        self._conn = None
        self._conn = await connect(self.url)
        return self._conn, True

    async def close(self) -> None:
        async with self._lock:
            if self._conn is not None:
                await self._conn.close()
                self._conn = None


@asynccontextmanager
async def _refused() -> AsyncIterator[None]:
    """A failure of the database inside, as `Refused` with its sentence."""
    try:
        yield
    except Exception as error:
        refused = refusal(error)
        if refused is None:
            raise
        raise refused from error


async def listen(
    url: str, channel: str, heard: Callable[[str], None], listening: Callable[[], None]
) -> None:
    """LISTEN on `channel` for as long as the task runs: `heard(payload)` for each
    notification, `listening()` each time listening (re)starts, since notifications sent
    while the connection was down are lost and the caller must read again."""
    from psycopg import sql

    while True:
        try:
            conn = await connect(url)
            async with conn:
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                listening()
                async for note in conn.notifies():
                    heard(note.payload)
        except Exception as error:
            if refusal(error) is None:
                raise
        await asyncio.sleep(LISTEN_RETRY)
