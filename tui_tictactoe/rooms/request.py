"""What a session asks of the rooms when it starts, and where others reach this server.

The command layer turns `--room new`, `--join CODE [--seat TOKEN]`, `--watch CODE` and
`--match` into a `RoomRequest` for the app; with a hub and no room option the app shows the
lobby. `serve-ssh` names its own address in the environment (`ROOM_ADDRESS_ENV`) so
that a room can show the exact line a friend types.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Literal, NamedTuple

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.view import Person, SeatName, Ticket

ROOM_ADDRESS_ENV = "TUI_TICTACTOE_ROOM_ADDRESS"
"""Set by serve-ssh for its games: "HOST PORT", the address players ssh to."""
ROOM_URL_ENV = "TUI_TICTACTOE_ROOM_URL"
"""Set by serve-web for its games: the page's address (`--public-url`), which a room names
for a friend instead (`?join=CODE`); a guest's seat is kept by the tab (its session storage)."""
SEAT_META = "tictactoe_seat"
"""The type of the meta message a game under serve-web writes on taking or leaving a seat
(`{"type": SEAT_META, "code": CODE, "token": TOKEN}`, both "" on leaving): the server
hands it to the tab, which keeps it so that a reload gets the seat back."""
ROOMS_KEPT_ENV = "TUI_TICTACTOE_ROOMS_KEPT"
"""Set ("1") by serve-ssh for its games when its rooms outlive it (`--database-url`: another
host goes on with them); unset, the rooms are in the server's memory and end with it."""
PLAYER_ADDRESS_ENV = "TUI_TICTACTOE_PLAYER_ADDRESS"
"""Set by serve-ssh for its games: the client's address as the per-address rules count it
(`addresses.counting_key`: an IPv6 client's network); wrong codes are limited by it."""
DEFAULT_PORT = 2222
UNKNOWN_HOST = "HOST"
_HOST_LIMIT = 253  # the longest DNS name
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]_")
_URL_LIMIT = 200
_URL_CHARS = _HOST_CHARS | frozenset("/%~")

Kind = Literal["lobby", "new", "join", "watch", "match"]


class RoomRequest(NamedTuple):
    """What the app does first with a hub: show the lobby, create a room (of `size`,
    `first` starting, listed in the lobby if `public`), join `code` (with a guest's seat
    `token`), watch `code`, or wait for a quick match on a board of `size`."""

    kind: Kind = "lobby"
    code: str = ""
    token: str = ""
    size: int = 3
    first: SeatName = "X"
    public: bool = False


class RoomsEntry(NamedTuple):
    """How a session comes to the rooms, as one value for the app: the `hub`, who this
    session is there (`person`; None: this process's identity), where it asked to go first
    (`request`; None: the lobby) and the hub's `clock` (None: the wall clock)."""

    hub: RoomHub
    person: Person | None = None
    request: RoomRequest | None = None
    clock: Callable[[], float] | None = None


class RoomAddress(NamedTuple):
    """Where players reach this server; `HOST` and 2222 when the server did not say. `url`:
    a serve-web page's address (`ROOM_URL_ENV`), which friends open instead."""

    host: str = UNKNOWN_HOST
    port: int = DEFAULT_PORT
    url: str = ""

    def command(self, arguments: str) -> str:
        """The whole line to type: `ssh -t -p PORT HOST -- ARGUMENTS`; for a page, its
        address with the room's parameter (`--join CODE`: `URL/?join=CODE`)."""
        if self.url:
            option, _, value = arguments.partition(" ")
            return f"{self.url}/?{option.removeprefix('--')}={value}"
        return f"ssh -t -p {self.port} {self.host} -- {arguments}"


def room_address(environ: Mapping[str, str] | None = None) -> RoomAddress:
    """The address in `ROOM_ADDRESS_ENV`, checked (a host name's characters, a port
    1-65535); anything else gives the placeholders. A page's address (`ROOM_URL_ENV`:
    http(s)://, a host's characters and a path) is named instead, when valid."""
    env = os.environ if environ is None else environ
    url = env.get(ROOM_URL_ENV, "")
    url = url.rstrip("/") if len(url) <= _URL_LIMIT else ""
    scheme, colon, rest = url.partition("://")
    if scheme in ("http", "https") and colon and rest and set(rest) <= _URL_CHARS:
        return RoomAddress(url=url)
    words = env.get(ROOM_ADDRESS_ENV, "")[: _HOST_LIMIT + 8].split()
    if len(words) != 2:
        return RoomAddress()
    host, port = words
    if not host or len(host) > _HOST_LIMIT or not set(host) <= _HOST_CHARS:
        return RoomAddress()
    if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        return RoomAddress()
    return RoomAddress(host, int(port))


def rooms_kept(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this game's rooms outlive its server (`ROOMS_KEPT_ENV`)."""
    return (os.environ if environ is None else environ).get(ROOMS_KEPT_ENV) == "1"


async def enter(hub: RoomHub, request: RoomRequest, who: Person) -> Ticket:
    """Ask `hub` for what `request` names (not the lobby); `Refused` with the hub's reason."""
    if request.kind == "new":
        return await hub.create(who, request.size, request.first, request.public)
    if request.kind == "join":
        return await hub.join(request.code, who, request.token)
    if request.kind == "watch":
        return await hub.watch(request.code, who)
    raise ValueError("the lobby and the queue are not rooms")
