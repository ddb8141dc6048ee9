"""The rooms of `serve-ssh`: one hub on the server's event loop, served to the games
over a private AF_UNIX socket (`HubServer`), and what each game is told of it.

The hub is a `MemoryHub`, or with a database URL (`--database-url`) a `PostgresHub`, so
that several hosts on one database are one world (docs/hosting.md, "Beyond one machine");
psycopg is imported only then. A database that cannot be used at start-up stops the
server from starting (`DatabaseUnusable`, from `database`, which `serve-web` shares): a
host without its rooms' database would be a world of its own, which players could not tell.

Each SSH session's game is a process of its own (forked by the fork server, or
spawned) and connects to the socket from there, after the fork: a link that drops
ends that process, the kernel closes its socket, and the hub counts it as a drop.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.record.location import DATABASE_URL_ENV
from tui_tictactoe.record.moderation import LiveSession
from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.limits import options as room_limit_options
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import ROOM_ADDRESS_ENV, ROOMS_KEPT_ENV
from tui_tictactoe.rooms.socket.server import HubServer, HubServerError
from tui_tictactoe.rooms.socket.wire import ENV_VAR as HUB_ENV
from tui_tictactoe.rooms.view import Refused
from tui_tictactoe.servers.database import (
    DatabaseUnusable,
    check_scheme,
    database_environment,
    shown_url,
)
from tui_tictactoe.servers.games.command import printable

__all__ = [
    "DATABASE_URL_ENV",
    "DatabaseUnusable",
    "RoomService",
    "database_environment",
    "friend_address",
    "shown_url",
]

if TYPE_CHECKING:
    from tui_tictactoe.rooms.postgres.hub import PostgresHub


def friend_address(host: str, port: int, public: tuple[str, int | None] | None) -> str:
    """Where a room tells players to ssh, as "HOST PORT" (`ROOM_ADDRESS_ENV`):
    `--public-address` (its port, else the one listened on), else the listening host
    (localhost for a loopback address, this machine's name when listening on every
    address, which players may not be able to resolve: then say --public-address)."""
    if public is not None:
        return f"{public[0]} {public[1] or port}"
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname() or "HOST"
    elif host in ("127.0.0.1", "::1"):
        host = "localhost"
    return f"{host} {port}"


def room_limits(args: argparse.Namespace) -> RoomLimits:
    """The hub's limits from either server's options: every `RoomLimits` field with an
    option, by its name; the others their defaults. No --max-rooms: --max-sessions (a room
    is a session or two)."""
    given = {name: getattr(args, name) for name in room_limit_options()}
    given["max_rooms"] = given.get("max_rooms") or args.max_sessions
    return RoomLimits(**given)


class RoomSettings(Protocol):
    """What `RoomService.of` reads of the server's settings (`ssh.server.Settings`, frozen:
    read-only here too)."""

    @property
    def room_limits(self) -> RoomLimits: ...
    @property
    def database_url(self) -> str | None: ...
    @property
    def listen_url(self) -> str | None: ...
    @property
    def database_connections(self) -> int | None: ...


class RoomService:
    """The hub and its socket, from the server's start to its stop."""

    @classmethod
    def of(cls, settings: RoomSettings, log: Callable[[str], None]) -> RoomService:
        """The service `settings` ask for (serve-ssh's options)."""
        return cls(
            settings.room_limits,
            log,
            settings.database_url,
            settings.listen_url,
            connections=settings.database_connections,
        )

    def __init__(
        self,
        limits: RoomLimits,
        log: Callable[[str], None],
        database_url: str | None = None,
        listen_url: str | None = None,
        connections: int | None = None,
        server: str = "serve-ssh",
    ) -> None:
        """`limits`: the hub's, whole (`rooms.limits`); `server`: the log's name for it."""
        self.server_name = server
        self.database_url = database_url
        self.postgres: PostgresHub | None = None
        if database_url is None:
            self.hub: MemoryHub | PostgresHub = MemoryHub(limits)
        else:
            from tui_tictactoe.rooms.postgres.hub import PostgresHub  # psycopg only for a database
            from tui_tictactoe.rooms.postgres.link import POOL_SIZE

            self.postgres = PostgresHub(
                database_url,
                limits,
                listen_url=listen_url,
                log=log,
                connections=POOL_SIZE if connections is None else connections,
            )
            self.hub = self.postgres
        self.server = HubServer(self.hub, log=log)
        self._closing: set[asyncio.Task[None]] = set()  # `close_room`s under way
        self.log = log
        self.environment: dict[str, str] = {}
        """What every game's environment gets: the socket's path and the friend's address."""

    async def start(self) -> bool:
        """Serve the hub; False (said once in the log) if its socket cannot be served
        safely: the server then runs without rooms. Raises `DatabaseUnusable` if the
        database cannot be reached or its tables are newer than this program."""
        if self.postgres is not None:
            await self._start_database(self.postgres)
        try:
            path = await self.server.start()
        except (HubServerError, OSError) as error:
            self.log(f"{PROG} {self.server_name}: no rooms ({error})")
            if self.postgres is not None:
                await self.postgres.shutdown()
            return False
        self.environment[HUB_ENV] = str(path)
        if self.postgres is not None:  # the rooms go on through the other hosts
            self.environment[ROOMS_KEPT_ENV] = "1"
        return True

    def listening(self, address: str) -> None:
        """The address players reach, once the port is known (`friend_address`)."""
        self.environment[ROOM_ADDRESS_ENV] = address

    async def _start_database(self, hub: PostgresHub) -> None:
        from tui_tictactoe.rooms.postgres.schema import NewerRoomSchema

        assert self.database_url is not None
        shown = shown_url(self.database_url)
        check_scheme(self.database_url)
        try:
            await hub.start()
        except (Refused, NewerRoomSchema) as error:
            await hub.shutdown()
            raise DatabaseUnusable(f"cannot use the database {shown}: {error}") from None

    def held_seats(self, host: str) -> list[LiveSession]:
        """A row for `admin list` per seat held for a player whose link dropped (kind
        `away`; its session is `CODE-SEAT`): a room both players left, waiting out their
        grace, has no live session to be seen by. On PostgreSQL every host publishes every
        host's held seats (as of its last beat), and `admin list` shows each once."""
        return [
            LiveSession(
                host,
                f"{code}-{seat}",
                printable(who.name) or "-",
                who.key or None,
                who.address,
                code,
                "away",
                "-",
            )
            for code, seat, who in self.hub.away_seats()
        ]

    def close_room(self, code: str) -> bool:
        """`admin end ROOM` for a room no session is in: closed, its seats freed (on
        PostgreSQL in a task of its own, as the order is carried out in the loop)."""
        if self.postgres is None:
            return isinstance(self.hub, MemoryHub) and self.hub.close(code)
        task = asyncio.create_task(self._close(self.postgres, code))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return True

    async def _close(self, hub: PostgresHub, code: str) -> None:
        try:
            await hub.close(code)
        except Refused as error:  # the database out of reach: the admin may end it again
            self.log(f"{PROG} {self.server_name}: room {code} not closed ({error})")

    async def stop(self) -> None:
        """With a `MemoryHub`: close every room (their screens are told), then every
        connection. With a `PostgresHub`: every connection first, then the hub marks this
        host's players away (the rooms go on, through the other hosts). The socket and
        its directory are removed."""
        if self.postgres is not None:
            await self.server.stop()
            await self.postgres.shutdown()
            return
        await self.hub.shutdown()
        await self.server.stop()
