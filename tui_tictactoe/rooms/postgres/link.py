"""The room hub's connections to PostgreSQL: a few for its transactions, one that listens.

A change is one transaction sent in two flights (psycopg's pipeline mode, `Link.change`):
BEGIN and the reads it decides on, then the writes with COMMIT; a read is one flight
(`Link.read`). Each transaction has a connection of its own, so rooms do not queue behind
each other's transactions.

`psycopg` (3) is imported here, on first use: a hub without a database URL never loads
it. Every failure of the database becomes a `Refused` with a sentence a player can act
on (the server is down, busy, or failed), so a session says why and the hub goes on; the
next call connects again. Statement and lock waits are bounded in each transaction (so
they hold behind a PgBouncer in transaction mode, as the record's).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from tui_tictactoe.record.failures import Failure
from tui_tictactoe.record.postgres.connection import CONNECT_TIMEOUT, MissingDriver, classify
from tui_tictactoe.rooms.view import Refused

if TYPE_CHECKING:
    import psycopg

STATEMENT_TIMEOUT_MS = 3000
LOCK_TIMEOUT_MS = 3000
POOL_SIZE = 4
"""Connections of a hub's link: a few rooms' transactions at once, not one at a time."""
LISTEN_RETRY = 1.0
"""Seconds between attempts to listen again after the listening connection broke."""

R = TypeVar("R")
W = TypeVar("W")
Reads = Callable[["psycopg.AsyncConnection"], Awaitable[Callable[[], Awaitable[R]]]]
"""Queues its statements (pipeline mode: nothing is sent yet) and returns what fetches
their results (sending the flight if it has not gone yet)."""
Write = Callable[["psycopg.AsyncConnection", R], Awaitable[W]]
"""Queues the writes decided from what was read; its value is the change's."""
_BEGIN = {False: "BEGIN", True: "BEGIN ISOLATION LEVEL REPEATABLE READ"}
_TIMEOUTS = "SELECT set_config('statement_timeout', %s, true), set_config('lock_timeout', %s, true)"
_TIMEOUT_VALUES = (f"{STATEMENT_TIMEOUT_MS}ms", f"{LOCK_TIMEOUT_MS}ms")

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
    """The hub's working connections: a few (`size`), each used by one task at a time,
    so a slow transaction of one room does not hold up the others; each is connected
    (again) on its next use after it broke."""

    def __init__(self, url: str, size: int = POOL_SIZE) -> None:
        self.url = url
        self.size = size
        self._idle: asyncio.LifoQueue[_Slot] = asyncio.LifoQueue()  # warm connections first
        for _ in range(size):
            self._idle.put_nowait(_Slot())

    @asynccontextmanager
    async def session(self) -> AsyncIterator[psycopg.AsyncConnection]:
        """A connection, for this task alone; a database failure inside is `Refused`."""
        async with self._slot() as slot, _refused():
            conn, _ = await slot.connection(self.url)
            yield conn

    @asynccontextmanager
    async def transaction(self, repeatable: bool = False) -> AsyncIterator[psycopg.AsyncConnection]:
        """One transaction (READ COMMITTED, or REPEATABLE READ to read several tables as
        of one moment), its waits bounded, rolled back if anything fails.

        A connection kept from before that fails to begin (the server restarted since) is
        replaced and the transaction begun again: nothing was sent but BEGIN, so this is
        safe, and the first call after the database is back is not refused for nothing.
        """
        async with self._slot() as slot, _refused(), contextlib.AsyncExitStack() as stack:
            conn, fresh = await slot.connection(self.url)
            try:
                await stack.enter_async_context(conn.transaction())
            except Exception as error:
                if fresh or not conn.broken or refusal(error) is None:
                    raise
                conn, _ = await slot.connection(self.url)
                await stack.enter_async_context(conn.transaction())
            if repeatable:
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            await conn.execute(_TIMEOUTS, _TIMEOUT_VALUES)
            yield conn

    async def read(self, reads: Reads[R], repeatable: bool = False) -> R:
        """`reads` in one transaction sent in one flight (pipeline mode): BEGIN, the
        statements `reads` queues, COMMIT; then its results."""
        result: R = await self._batch(reads, None, repeatable)
        return result

    async def change(self, reads: Reads[R], write: Write[R, W]) -> W:
        """A change in two flights (pipeline mode): BEGIN and the statements `reads`
        queues (locks taken there), their results; then `write(conn, results)` queues the
        writes, and they go with the COMMIT. Nothing is batched across a decision."""
        result: W = await self._batch(reads, write, False)
        return result

    async def _batch(self, reads: Reads[R], write: Write[R, W] | None, repeatable: bool) -> Any:
        """A kept connection found broken in the first flight (the server restarted) is
        replaced and the flight sent again: it wrote nothing, so this is safe."""
        async with self._slot() as slot, _refused():
            for again in (False, True):
                conn, fresh = await slot.connection(self.url)
                read_back = False
                try:
                    async with conn.pipeline():  # its end sends what is queued, and waits
                        await conn.execute(_BEGIN[repeatable])
                        await conn.execute(_TIMEOUTS, _TIMEOUT_VALUES)
                        fetch = await reads(conn)
                        if write is not None:
                            got = await fetch()  # the first flight
                            read_back = True
                            done = await write(conn, got)
                        await conn.execute("COMMIT")
                    return done if write is not None else await fetch()
                except BaseException as error:
                    await slot.discard()  # its state is unknown: a fresh one next time
                    if read_back or again or fresh or not conn.broken:
                        raise
                    if not isinstance(error, Exception) or refusal(error) is None:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover

    @asynccontextmanager
    async def _slot(self) -> AsyncIterator[_Slot]:
        slot = await self._idle.get()
        try:
            yield slot
        finally:
            self._idle.put_nowait(slot)

    async def close(self) -> None:
        """Every connection closed (waiting for those in use to be given back)."""
        slots = [await self._idle.get() for _ in range(self.size)]
        for slot in slots:
            await slot.discard()
            self._idle.put_nowait(slot)


class _Slot:
    """One of the link's connections, or None until it is first needed."""

    def __init__(self) -> None:
        self.conn: psycopg.AsyncConnection | None = None

    async def connection(self, url: str) -> tuple[psycopg.AsyncConnection, bool]:
        """The connection (made again if it broke), and whether it was made just now."""
        conn = self.conn
        if conn is not None and not (conn.closed or conn.broken):
            return conn, False
        await self.discard()
        self.conn = await connect(url)
        return self.conn, True

    async def discard(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


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
