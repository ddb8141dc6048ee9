"""`RoomHub`: the interface every backend of the rooms implements.

Two backends: `MemoryHub`, in the `serve-ssh` process that its sessions reach over a
local socket, and `PostgresHub`, on PostgreSQL for several hosts. Both keep each room's
whole state and apply every change under one rule: a move names the generation it was made in and is
refused if the room has moved on since, so no move lands twice or on a stale board.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from .view import Person, RoomSummary, RoomView, SeatName, Ticket


class RoomHub(Protocol):
    """Every call either does what it says or raises `view.Refused` with the reason."""

    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        """A new room with a fresh code, `who` in seat X; `first` starts round 1. Private
        unless `public` (listed in the lobby). Refused past the rooms per address, the
        rooms in all, or (public) the lobby names per address a minute."""
        ...

    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        """The free seat of room `code`, or `who`'s own seat back (same key, or `token`)
        while its grace runs. Refused: no such room, or both seats taken."""
        ...

    async def watch(self, code: str, who: Person) -> Ticket:
        """A spectator's place in room `code` (refused past the room's spectator cap, and
        as no room at all if its players turned watching off)."""
        ...

    async def set_public(self, ticket: Ticket, public: bool) -> None:
        """The room listed in the lobby or not: its creator's choice alone."""
        ...

    async def set_watching(self, ticket: Ticket, watching: bool) -> None:
        """Spectators allowed or not (a player's choice); off sends the present ones away."""
        ...

    async def move(self, ticket: Ticket, cell: int, generation: int) -> None:
        """Play `cell` for the ticket's seat. Refused, changing nothing: not a player,
        not their turn, the round is over, the cell is taken, or `generation` is old."""
        ...

    async def rematch(self, ticket: Ticket) -> None:
        """This player wants the next round; with both asking it starts, the other first."""
        ...

    async def leave(self, ticket: Ticket) -> None:
        """Gone for good (q): a round in progress is abandoned by this seat."""
        ...

    async def drop(self, ticket: Ticket) -> None:
        """The link went down: the seat waits out its grace, then as `leave`."""
        ...

    def updates(self, ticket: Ticket) -> AsyncIterator[RoomView]:
        """The room now, then again after every change, until the ticket leaves."""
        ...

    async def rooms(self) -> list[RoomSummary]:
        """The public rooms someone may enter (a free seat, or watching on), for the
        lobby; private rooms are never listed."""
        ...
