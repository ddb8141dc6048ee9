"""`LazyHub`: a `RoomHub` that connects on first use, in the event loop that uses it.

A hub reached over a socket (`SocketHub.connect()`) is made in an event loop, and the
game's loop is Textual's, which starts inside `App.run()`: the command layer cannot
connect before it. It hands the app a `LazyHub(connect)` instead, and the first call
connects (once, whoever calls first); a failed connection is retried on the next call.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from .hub import RoomHub
from .view import Person, RoomSummary, RoomView, SeatName, Ticket


class LazyHub:
    """Every `RoomHub` call, on the hub `connect()` gives (`Refused` if it cannot)."""

    def __init__(self, connect: Callable[[], Awaitable[RoomHub]]) -> None:
        self._connect = connect
        self._hub: RoomHub | None = None
        self._lock: asyncio.Lock | None = None

    async def hub(self) -> RoomHub:
        """The connected hub (connecting now if no call has yet)."""
        if self._hub is None:
            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                if self._hub is None:
                    self._hub = await self._connect()
        return self._hub

    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        return await (await self.hub()).create(who, size, first, public)

    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        return await (await self.hub()).join(code, who, token)

    async def watch(self, code: str, who: Person) -> Ticket:
        return await (await self.hub()).watch(code, who)

    async def set_public(self, ticket: Ticket, public: bool) -> None:
        await (await self.hub()).set_public(ticket, public)

    async def set_watching(self, ticket: Ticket, watching: bool) -> None:
        await (await self.hub()).set_watching(ticket, watching)

    async def move(self, ticket: Ticket, cell: int, generation: int) -> None:
        await (await self.hub()).move(ticket, cell, generation)

    async def rematch(self, ticket: Ticket) -> None:
        await (await self.hub()).rematch(ticket)

    async def leave(self, ticket: Ticket) -> None:
        await (await self.hub()).leave(ticket)

    async def drop(self, ticket: Ticket) -> None:
        await (await self.hub()).drop(ticket)

    async def updates(self, ticket: Ticket) -> AsyncIterator[RoomView]:
        async for view in (await self.hub()).updates(ticket):
            yield view

    async def rooms(self) -> list[RoomSummary]:
        return await (await self.hub()).rooms()
