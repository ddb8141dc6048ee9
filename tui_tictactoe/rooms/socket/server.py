"""`HubServer`: one `RoomHub` served to the game processes over a local socket.

`serve-ssh` keeps its rooms in one hub in its own process; each session's game runs
in a process of its own and reaches the hub through an AF_UNIX stream socket (see
`client.SocketHub`). The socket sits in a directory only the server's user may
enter (mode 0700, checked if it exists) and a peer of another user is turned away.

Every connection is bounded: a frame's size (`wire.MAX_REQUEST`) before it is read, a
frame begun must be whole within `frame_timeout`, a connection must send a valid frame
at least every `idle_timeout` (clients ping), a write the peer will not take within
`write_timeout` ends it, and it holds at most `MAX_TICKETS` places and `MAX_STREAMS`
update streams. Anything else (bad JSON, a wrong shape) closes that connection with a
logged reason, never more. A connection that closes without `leave` is a `drop` for
every ticket it still holds: that is how a game process that dies (its SSH link went
down, or it was killed) reaches the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.matching import Place, QueueState
from tui_tictactoe.rooms.socket import wire
from tui_tictactoe.rooms.socket.directory import (
    SOCKET_NAME,
    make_directory,
    remove_directory,
    sweep_orphans,
)
from tui_tictactoe.rooms.view import Refused, RoomView, Ticket

IDLE_TIMEOUT = 60.0
"""Seconds a connection may send nothing (a client pings every third of this)."""
FRAME_TIMEOUT = 10.0
"""Seconds from a frame's first byte to its last."""
WRITE_TIMEOUT = 30.0
MAX_CONNECTIONS = 1024
MAX_TICKETS = 16
"""Places (seats or spectators) one connection may hold: a game holds one."""
MAX_STREAMS = 16
MAX_PATH = 107
"""Bytes of an AF_UNIX path on Linux, without its final NUL."""
_READ_CHUNK = 4096
_FAILED = "The room server failed to answer that: try again."
_MAKES_TICKETS = ("create", "join", "watch", "queue_join")


class HubWatch(Protocol):
    """Who watches the traffic (the server's metrics, `servers.ops.room_watch`): told of each
    request before the hub answers it, each view sent and each stream's end; it must not
    block (it runs on the hub's loop)."""

    def asked(self, op: str, args: tuple[Any, ...]) -> None: ...

    def sent(self, ticket: Ticket, view: RoomView) -> None: ...

    def stream_ended(self, ticket: Ticket) -> None: ...


class HubServerError(Exception):
    """The server cannot start safely (an unsafe directory, a path too long)."""


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HubServer:
    """Serves `hub` on the socket `path` (None: a new private directory in the temp dir).

    `await start()`, then give `path` to the game processes (`wire.ENV_VAR`); `await
    stop()` ends every connection, their streams and the listener, and removes the
    socket (and the directory, if the server made it). Also an async context manager.
    """

    def __init__(
        self,
        hub: RoomHub,
        path: str | os.PathLike[str] | None = None,
        *,
        idle_timeout: float = IDLE_TIMEOUT,
        frame_timeout: float = FRAME_TIMEOUT,
        write_timeout: float = WRITE_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        log: Callable[[str], None] = _log_to_stderr,
    ) -> None:
        self.hub = hub
        self._asked = None if path is None else Path(path)
        self.path: Path | None = None
        self.idle_timeout = idle_timeout
        self.frame_timeout = frame_timeout
        self.write_timeout = write_timeout
        self.max_connections = max_connections
        self.log = log
        self.connections: dict[asyncio.Task[None], socket.socket] = {}
        self.watch: HubWatch | None = None
        self._games: dict[_Connection, int] = {}  # each connection's game process (pid)
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._made_dir: Path | None = None

    async def __aenter__(self) -> HubServer:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.stop()

    async def start(self) -> Path:
        """Listen; the socket's path is returned (and kept in `path`). Without a path asked
        for, the directories of servers killed before their `stop` go first (`directory`)."""
        path = self._asked
        if path is None:
            sweep_orphans()  # silently, as a stale socket below: "listening" stays the first line
            self._made_dir = make_directory()
            path = self._made_dir / SOCKET_NAME
        if len(os.fsencode(path)) > MAX_PATH:
            if self._made_dir is not None:  # a $TMPDIR too deep: nothing is left in it
                remove_directory(self._made_dir)
                self._made_dir = None
            raise HubServerError(f"The socket path {str(path)!r} is too long for AF_UNIX.")
        self._private_directory(path.parent)
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(path).st_mode):
                os.unlink(path)  # left by a server that did not stop
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(os.fspath(path))
            os.chmod(path, 0o600)
            listener.listen(128)
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        self._listener = listener
        self._accepting = asyncio.create_task(self._accept(listener))
        self.path = path
        return path

    def _private_directory(self, directory: Path) -> None:
        """Make `directory` (mode 0700), or check that it is ours and closed to others."""
        try:
            directory.mkdir(mode=0o700)
            os.chmod(directory, 0o700)  # whatever the umask
            self._made_dir = directory
        except FileExistsError:
            pass
        info = os.lstat(directory)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            raise HubServerError(
                f"{directory} must be a directory of this user that no one else may enter (0700)."
            )

    async def stop(self) -> None:
        """Close the listener and every connection (their tickets count as dropped), wait
        for all their tasks, and remove the socket (and the directory the server made)."""
        if self._accepting is not None:
            self._accepting.cancel()
            await asyncio.gather(self._accepting, return_exceptions=True)
            self._accepting = None
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        held = dict(self.connections)
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
        for conn in held.values():  # a task cancelled before it began never closed its own
            conn.close()
        self.connections.clear()
        if self.path is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        if self._made_dir is not None:
            remove_directory(self._made_dir)
            self._made_dir = None

    async def _accept(self, listener: socket.socket) -> None:
        """Take each new connection: a task of its own, known to `stop` from the start."""
        loop = asyncio.get_running_loop()
        while True:
            conn, _ = await loop.sock_accept(listener)
            refusal = self._refusal(conn)
            if refusal:
                self.log(f"room hub: refused a connection: {refusal}")
                conn.close()
                continue
            self.connections[asyncio.create_task(self._serve(conn))] = conn

    async def _serve(self, conn: socket.socket) -> None:
        task = asyncio.current_task()
        served: _Connection | None = None
        try:
            reader, writer = await asyncio.open_unix_connection(sock=conn)
            served = _Connection(self, reader, writer)
            pid = _peer(conn)[0]
            if pid is not None:
                self._games[served] = pid
            await served.run()
        finally:
            conn.close()
            if served is not None:
                self._games.pop(served, None)
            if task in self.connections:
                del self.connections[task]

    def rooms_by_game(self) -> dict[int, set[str]]:
        """The rooms each game process (by pid) holds a place in now: what `serve-ssh`'s
        admin sees of a session's rooms (the game, not the server, enters them)."""
        rooms: dict[int, set[str]] = {}
        for served, pid in self._games.items():
            rooms.setdefault(pid, set()).update(ticket.code for ticket in served.tickets)
        return rooms

    def _refusal(self, conn: socket.socket) -> str:
        """Why this connection is turned away at once ("" if it is not)."""
        if len(self.connections) >= self.max_connections:
            return f"already {self.max_connections} connections"
        uid = _peer(conn)[1]
        if uid is not None and uid != os.geteuid():
            return f"a process of user {uid}"
        return ""


def _peer(conn: socket.socket) -> tuple[int | None, int | None]:
    """The process id and user id of a connection's peer (None where the system has no
    SO_PEERCRED)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None, None
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _ = struct.unpack("3i", creds)
    return pid, uid


class _Connection:
    """One game process's connection: its requests in order, its update streams, and
    the tickets it holds (dropped when it goes)."""

    def __init__(
        self, server: HubServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.tickets: set[Ticket] = set()
        self.places: set[Place] = set()  # quick-match places: left when the game goes
        self.streams: dict[int, asyncio.Task[None]] = {}
        self._write_lock = asyncio.Lock()
        self._decoder = wire.FrameDecoder(wire.request_from_json, wire.MAX_REQUEST)

    async def run(self) -> None:
        try:
            await self._read()
        except wire.WireError as error:
            self.server.log(f"room hub: closed a connection: {error}")
        except TimeoutError:
            self.server.log("room hub: closed a connection that sent nothing whole in time")
        except OSError:
            pass  # the peer went away mid-read or mid-write: a drop like any other
        finally:
            await self._close()

    async def _read(self) -> None:
        """Frames in order until end of file; each request is answered before the next."""
        loop = asyncio.get_running_loop()
        frame_began: float | None = None
        while True:
            if frame_began is None:
                deadline = loop.time() + self.server.idle_timeout
            else:
                deadline = frame_began + self.server.frame_timeout
            async with asyncio.timeout_at(deadline):
                chunk = await self.reader.read(_READ_CHUNK)
            if not chunk:
                return
            requests = self._decoder.feed(chunk)
            if requests or frame_began is None:
                frame_began = loop.time() if self._decoder.partial else None
            for request in requests:
                await self._handle(request)

    async def _handle(self, request: wire.Request) -> None:
        op, args = request.op, request.args
        if op == "updates":
            if len(self.streams) >= MAX_STREAMS:
                await self._reply(wire.Reply(request.id, refused="Too many rooms to follow."))
            else:
                self._open_stream(request.id, args[0])
            return
        if op == "stop":
            task = self.streams.get(args[0])
            if task is not None:
                task.cancel()
            await self._reply(wire.Reply(request.id))
            return
        if op == "ping":
            await self._reply(wire.Reply(request.id))
            return
        if op in _MAKES_TICKETS and len(self.tickets) + len(self.places) >= MAX_TICKETS:
            await self._reply(wire.Reply(request.id, refused="This game holds too many places."))
            return
        if self.server.watch is not None:
            self.server.watch.asked(op, args)
        try:
            value = await getattr(self.server.hub, op)(*args)
        except Refused as refused:
            if op == "queue_poll":
                self.places.discard(args[0])  # the place is gone
            await self._reply(wire.Reply(request.id, refused=refused.reason))
            return
        except Exception as error:  # a broken hub: this request fails, not the server
            self.server.log(f"room hub: {op} failed: {type(error).__name__}")
            await self._reply(wire.Reply(request.id, refused=_FAILED))
            return
        self._hold(op, args, value)
        await self._reply(wire.Reply(request.id, value))

    def _hold(self, op: str, args: tuple[Any, ...], value: object) -> None:
        """What this connection holds after `op`: its tickets and queue places."""
        if isinstance(value, Ticket):
            self.tickets.add(value)
        elif isinstance(value, Place):
            self.places.add(value)
        elif isinstance(value, QueueState) and value.ticket is not None:
            self.places.discard(args[0])  # paired: the place became a seat
            self.tickets.add(value.ticket)
        elif isinstance(value, QueueState):
            self.places.add(args[0])  # waiting (again, after a decline): left if the game goes
        elif op in ("leave", "drop"):
            self.tickets.discard(args[0])
        elif op in ("queue_leave", "queue_decline"):
            self.places.discard(args[0])

    def _open_stream(self, ident: int, ticket: Ticket) -> None:
        if ident in self.streams:
            raise wire.WireError("A stream's id was used again.")
        task = asyncio.create_task(self._stream(ident, ticket))
        self.streams[ident] = task
        task.add_done_callback(lambda _: self.streams.pop(ident, None))

    async def _stream(self, ident: int, ticket: Ticket) -> None:
        """Push every view the hub gives for `ticket`, then the reply that ends it."""
        watch = self.server.watch
        try:
            async for view in self.server.hub.updates(ticket):
                await self._send(wire.push_to_json(wire.Push(ident, view)))
                if watch is not None:
                    watch.sent(ticket, view)
            end = wire.Reply(ident)
        except Refused as refused:
            end = wire.Reply(ident, refused=refused.reason)
        except (OSError, TimeoutError):
            self.writer.transport.abort()  # the read loop then ends and cleans up
            return
        except Exception as error:  # a broken hub, or a view the wire does not carry
            self.server.log(f"room hub: updates failed: {type(error).__name__}")
            end = wire.Reply(ident, refused=_FAILED)
        finally:
            if watch is not None:
                watch.stream_ended(ticket)
        try:
            await self._reply(end)
        except (OSError, TimeoutError):
            self.writer.transport.abort()

    async def _reply(self, reply: wire.Reply) -> None:
        try:
            obj = wire.reply_to_json(reply)
        except wire.WireError as error:  # the hub's answer does not fit the wire
            self.server.log(f"room hub: an answer the wire does not carry: {error}")
            obj = wire.reply_to_json(wire.Reply(reply.id, refused=_FAILED))
        await self._send(obj)

    async def _send(self, obj: dict[str, Any]) -> None:
        frame = wire.encode(obj, wire.MAX_REPLY)
        async with self._write_lock:
            self.writer.write(frame)
            async with asyncio.timeout(self.server.write_timeout):
                await self.writer.drain()

    async def _close(self) -> None:
        """End the streams, close the socket, then drop every ticket still held."""
        streams = list(self.streams.values())
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        self.writer.transport.abort()
        for ticket in list(self.tickets):
            try:
                await self.server.hub.drop(ticket)
            except Exception as error:  # one bad drop must not keep the others
                self.server.log(f"room hub: drop failed: {type(error).__name__}")
        self.tickets.clear()
        for place in list(self.places):  # a game gone while waiting leaves the queue
            try:
                await self.server.hub.queue_leave(place)
            except Exception as error:
                self.server.log(f"room hub: queue_leave failed: {type(error).__name__}")
        self.places.clear()
