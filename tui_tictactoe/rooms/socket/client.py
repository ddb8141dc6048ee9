"""`SocketHub`: the `RoomHub` of a game process, reached over the hub server's socket.

A game that `serve-ssh` runs finds the socket in the environment (`wire.ENV_VAR`) and
connects once, from its own process (a connection shared across a fork would not end
when one of the processes dies, and the hub would never hear of the drop). Every call
is one request and its reply; `updates` is a stream the server pushes, kept newest-only
here as in the hub. What the server says is checked by `wire` like anything read from
a socket. A server that goes away, answers late or breaks the wire makes every call
(and every stream) raise `Refused` with a sentence for the status line.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
from collections.abc import AsyncGenerator
from typing import Any

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.matching import Place, QueueState
from tui_tictactoe.rooms.operations import OPERATIONS
from tui_tictactoe.rooms.socket import wire
from tui_tictactoe.rooms.view import Person, Refused, RoomSummary, RoomView, SeatName, Ticket

GONE = "The room server is gone."
NO_SERVER = "No room server is running here."
LATE = "The room server did not answer in time."
REPLY_TIMEOUT = 10.0
PING_INTERVAL = 20.0
"""A third of the server's idle timeout (`server.IDLE_TIMEOUT`)."""
_READ_CHUNK = 65536
_ANSWERS: dict[str, type | tuple[type, ...]] = {
    "none": type(None),
    "ticket": Ticket,
    "rooms": list,
    "place": Place,
    "queue": QueueState,
}
"""What a reply to each kind of operation must carry (`Operation.answer`)."""


class _Stream:
    """One `updates` stream: the newest view not yet taken, and how the stream ended."""

    def __init__(self) -> None:
        self.view: RoomView | None = None
        self.ended = False
        self.error: Refused | None = None
        self.signal = asyncio.Event()

    def put(self, view: RoomView) -> None:
        self.view = view
        self.signal.set()

    def end(self, error: Refused | None = None) -> None:
        self.ended, self.error = True, error
        self.signal.set()

    async def next(self) -> RoomView | None:
        """The next view; None once the stream has ended; `Refused` if it failed."""
        while True:
            if self.view is not None:
                view, self.view = self.view, None
                return view
            if self.ended:
                if self.error is not None:
                    raise self.error
                return None
            self.signal.clear()
            await self.signal.wait()


class SocketHub(RoomHub):
    """A `RoomHub` whose rooms live in the hub server. `SocketHub(path)` connects on its
    first call (once, whoever calls first; a failed connection is tried again on the
    next call), in the event loop that makes it: the game's loop is Textual's, which
    starts inside `App.run()`. `connect()` makes one and connects at once."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        reply_timeout: float = REPLY_TIMEOUT,
        ping_interval: float = PING_INTERVAL,
    ) -> None:
        self.path = path
        self.reply_timeout = reply_timeout
        self.ping_interval = ping_interval
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._opening: asyncio.Lock | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._streams: dict[int, _Stream] = {}
        self._write_lock = asyncio.Lock()
        self._gone: str | None = None  # why calls are refused from now on
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    async def connect(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        reply_timeout: float = REPLY_TIMEOUT,
        ping_interval: float = PING_INTERVAL,
    ) -> SocketHub:
        """Connect to the socket at `path`, or at the one the environment names
        (`wire.ENV_VAR`); `Refused` if there is none or it does not answer."""
        hub = cls(path, reply_timeout=reply_timeout, ping_interval=ping_interval)
        await hub.open()
        return hub

    async def open(self) -> None:
        """Connected from now on (at once if it is already); `Refused` if it cannot be."""
        if self._writer is not None:
            return
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._writer is not None:
                return
            where = self.path if self.path is not None else os.environ.get(wire.ENV_VAR, "")
            if not where:
                raise Refused(NO_SERVER)
            try:
                async with asyncio.timeout(self.reply_timeout):
                    reader, writer = await asyncio.open_unix_connection(os.fspath(where))
            except (OSError, TimeoutError):
                raise Refused(NO_SERVER) from None
            self._reader, self._writer = reader, writer
            self._tasks = [
                asyncio.create_task(self._read(reader)),
                asyncio.create_task(self._ping(self.ping_interval)),
            ]

    async def __aenter__(self) -> SocketHub:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection: the server counts every ticket not left as dropped."""
        self._end("The connection to the room server is closed.")
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- the RoomHub interface: each call a request of `operations.OPERATIONS` --------

    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        return await self._ticket("create", who, size, first, public)

    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        return await self._ticket("join", code, who, token)

    async def watch(self, code: str, who: Person) -> Ticket:
        return await self._ticket("watch", code, who)

    async def set_public(self, ticket: Ticket, public: bool) -> None:
        await self._call("set_public", ticket, public)

    async def seat_call(self, ticket: Ticket, op: str, *args: object) -> None:
        await self._call(op, ticket, *args)

    async def queue_join(self, who: Person, size: int, rating: int) -> Place:
        value = await self._call("queue_join", who, size, rating)
        assert isinstance(value, Place)  # checked by `_call` against the table
        return value

    async def queue_poll(self, place: Place) -> QueueState:
        value = await self._call("queue_poll", place)
        assert isinstance(value, QueueState)  # checked by `_call` against the table
        return value

    async def queue_leave(self, place: Place) -> None:
        await self._call("queue_leave", place)

    async def queue_decline(self, place: Place) -> None:
        await self._call("queue_decline", place)

    async def leave(self, ticket: Ticket) -> None:
        await self._call("leave", ticket)

    async def drop(self, ticket: Ticket) -> None:
        await self._call("drop", ticket)

    async def updates(self, ticket: Ticket) -> AsyncGenerator[RoomView, None]:
        stream = _Stream()
        ident = await self._send("updates", (ticket,), stream)
        try:
            while (view := await stream.next()) is not None:
                yield view
        finally:
            self._streams.pop(ident, None)
            if not stream.ended and self._gone is None:
                with contextlib.suppress(Refused):  # stopped early: the server forgets it
                    await self._send("stop", (ident,))

    async def rooms(self) -> list[RoomSummary]:
        value = await self._call("rooms")
        assert isinstance(value, list)  # checked by `_call` against the table
        return value

    # -- inside ---------------------------------------------------------------------

    async def _ticket(self, op: str, *args: Any) -> Ticket:
        value = await self._call(op, *args)
        assert isinstance(value, Ticket)  # checked by `_call` against the table
        return value

    async def _call(self, op: str, *args: Any) -> Any:
        """Send one request and wait for its reply (the value the operation answers
        with, or `Refused`); any other answer breaks the link."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        ident = await self._send(op, args, future)
        try:
            async with asyncio.timeout(self.reply_timeout):
                value = await future
        except TimeoutError:
            raise Refused(LATE) from None
        finally:
            self._pending.pop(ident, None)
        answer = OPERATIONS[op].answer if op in OPERATIONS else "none"
        if not isinstance(value, _ANSWERS[answer]):
            raise self._broken()
        return value

    async def _send(
        self, op: str, args: tuple[Any, ...], waiter: asyncio.Future[Any] | _Stream | None = None
    ) -> int:
        """Write request `op`; its reply (or stream) goes to `waiter`. Returns its id."""
        if self._gone is not None:
            raise Refused(self._gone)
        await self.open()
        ident = next(self._ids)
        try:
            frame = wire.encode(
                wire.request_to_json(wire.Request(ident, op, args)), wire.MAX_REQUEST
            )
        except wire.WireError as error:  # the caller's arguments: the server would refuse them
            raise Refused(str(error)) from None
        if isinstance(waiter, _Stream):
            self._streams[ident] = waiter
        elif waiter is not None:
            self._pending[ident] = waiter
        try:
            async with self._write_lock:
                assert self._writer is not None  # open
                self._writer.write(frame)
                await self._writer.drain()
        except (OSError, RuntimeError):
            self._end(GONE)
            raise Refused(GONE) from None
        return ident

    def _broken(self) -> Refused:
        """The server answered with something else: the link cannot be trusted."""
        self._end(GONE)
        return Refused(GONE)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Hand each message from the server to its waiter, until the server goes."""
        decoder = wire.FrameDecoder(wire.server_message_from_json, wire.MAX_REPLY)
        try:
            while chunk := await reader.read(_READ_CHUNK):
                for message in decoder.feed(chunk):
                    self._deliver(message)
        except (OSError, wire.WireError):
            pass
        finally:
            self._end(GONE)

    def _deliver(self, message: wire.Reply | wire.Push) -> None:
        stream = self._streams.get(message.id)
        if isinstance(message, wire.Push):
            if stream is not None:
                stream.put(message.room)
            return
        refusal = None if message.refused is None else Refused(message.refused)
        if stream is not None:
            del self._streams[message.id]
            stream.end(refusal)
            return
        future = self._pending.get(message.id)
        if future is None or future.done():
            return  # a reply nobody waits for any more (it came too late)
        if refusal is not None:
            future.set_exception(refusal)
        else:
            future.set_result(message.value)

    async def _ping(self, interval: float) -> None:
        """Keep the connection open through the server's idle timeout."""
        with contextlib.suppress(Refused):
            while True:
                await asyncio.sleep(interval)
                await self._call("ping")

    def _end(self, reason: str) -> None:
        """From now on every call is refused with `reason`; waiting calls and streams too."""
        if self._gone is None:
            self._gone = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(Refused(self._gone))
        self._pending.clear()
        for stream in self._streams.values():
            stream.end(Refused(self._gone))
        self._streams.clear()
        if self._writer is not None:
            self._writer.transport.abort()
        pinger = self._tasks[1] if self._tasks else None
        if pinger is not None and pinger is not asyncio.current_task():
            pinger.cancel()
