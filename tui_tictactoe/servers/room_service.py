"""The rooms of `serve-ssh`: one `MemoryHub` on the server's event loop, served to the
games over a private AF_UNIX socket (`HubServer`), and what each game is told of it.

Each SSH session's game is a process of its own (forked by the fork server, or
spawned) and connects to the socket from there, after the fork: a link that drops
ends that process, the kernel closes its socket, and the hub counts it as a drop.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from ..commands.play_options import PROG
from ..rooms.hub_server import HubServer, HubServerError
from ..rooms.memory_hub import MemoryHub
from ..rooms.request import ROOM_ADDRESS_ENV
from ..rooms.wire import ENV_VAR as HUB_ENV


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


class RoomService:
    """The hub and its socket, from the server's start to its stop."""

    def __init__(
        self, reconnect_grace: float, max_spectators: int, log: Callable[[str], None]
    ) -> None:
        self.hub = MemoryHub(reconnect_grace=reconnect_grace, max_spectators=max_spectators)
        self.server = HubServer(self.hub, log=log)
        self.log = log
        self.environment: dict[str, str] = {}
        """What every game's environment gets: the socket's path and the friend's address."""

    async def start(self) -> bool:
        """Serve the hub; False (said once in the log) if it cannot start safely: the
        server then runs without rooms."""
        try:
            path = await self.server.start()
        except (HubServerError, OSError) as error:
            self.log(f"{PROG} serve-ssh: no rooms ({error})")
            return False
        self.environment[HUB_ENV] = str(path)
        return True

    def listening(self, address: str) -> None:
        """The address players reach, once the port is known (`friend_address`)."""
        self.environment[ROOM_ADDRESS_ENV] = address

    async def stop(self) -> None:
        """Close every room (their screens are told), then every connection; the socket
        and its directory are removed."""
        await self.hub.shutdown()
        await self.server.stop()
