"""`RoomHub`: the interface every backend of the rooms implements, and what they share.

Two backends keep rooms: `MemoryHub`, in the `serve-ssh` process that its sessions reach
over a local socket, and `PostgresHub`, on PostgreSQL for several hosts; `SocketHub` is
a game process's hub, the server's reached over the socket. Every call a seat holder
makes on their room (a move, a rematch, an offer, its answer, watching) is written here
once: it names its operation (`operations.OPERATIONS`), and each hub's `seat_call` loads
the room, applies that operation's rule (`room.Room`), stores and sends the result
(or, over the socket, sends the request). A move names the generation it was made in
and is refused if the position has moved on since, so no move lands twice or on a
stale board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator

from tui_tictactoe.rooms.matching import Place, QueueState
from tui_tictactoe.rooms.view import OfferKind, Person, RoomSummary, RoomView, SeatName, Ticket


class RoomHub(ABC):
    """Every call either does what it says or raises `view.Refused` with the reason."""

    @abstractmethod
    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        """A new room with a fresh code, `who` in seat X; `first` starts round 1. Private
        unless `public` (listed in the lobby). Refused past the rooms per address, the
        rooms in all, or (public) the lobby names per address a minute."""

    @abstractmethod
    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        """The free seat of room `code`, or `who`'s own seat back (same key, or `token`)
        while its grace runs. Refused: no such room, or both seats taken."""

    @abstractmethod
    async def watch(self, code: str, who: Person) -> Ticket:
        """A spectator's place in room `code` (refused past the room's spectator cap, and
        as no room at all if its players turned watching off)."""

    @abstractmethod
    async def set_public(self, ticket: Ticket, public: bool) -> None:
        """The room listed in the lobby or not: its creator's choice alone."""

    @abstractmethod
    async def leave(self, ticket: Ticket) -> None:
        """Gone for good (q): a round in progress is abandoned by this seat."""

    @abstractmethod
    async def drop(self, ticket: Ticket) -> None:
        """The link went down: the seat waits out its grace, then as `leave`."""

    @abstractmethod
    def updates(self, ticket: Ticket) -> AsyncIterator[RoomView]:
        """The room now, then again after every change, until the ticket leaves."""

    @abstractmethod
    async def rooms(self) -> list[RoomSummary]:
        """The public rooms someone may enter (a free seat, or watching on), for the
        lobby; private rooms are never listed."""

    @abstractmethod
    async def queue_join(self, who: Person, size: int, rating: int) -> Place:
        """A place in the quick-match queue of board `size` (see `matching`). Refused
        past the places per address or in all, the address's rooms, or its declines."""

    @abstractmethod
    async def queue_poll(self, place: Place) -> QueueState:
        """How the queues stand, and the seat `place` was paired into (the same answer
        until the pair's decline window and its room's opening end, then the place is gone;
        no seat again if the room was aborted and the place waits again); also the
        place's heartbeat. Refused if the place is gone."""

    @abstractmethod
    async def queue_leave(self, place: Place) -> None:
        """Out of the queue (idempotent); a place paired but not yet told leaves its seat."""

    @abstractmethod
    async def queue_decline(self, place: Place) -> None:
        """Decline the pair `place` was made into (`matching.DECLINE_WINDOW`): the room
        is aborted (`Room.abort`), the decline counted, and the partner's place goes back
        to the head of the queue. Refused after the window or once the room's first move
        is played."""

    @abstractmethod
    async def seat_call(self, ticket: Ticket, op: str, *args: object) -> None:
        """Operation `op` (a row of `operations.OPERATIONS` with a rule) for the place
        `ticket` holds, with `args`: the rule applied to the room, or `Refused`."""

    # -- a seat holder's calls: each names its operation ------------------------------

    async def set_watching(self, ticket: Ticket, watching: bool) -> None:
        """Spectators allowed or not (a player's choice); off sends the present ones away."""
        await self.seat_call(ticket, "set_watching", watching)

    async def move(self, ticket: Ticket, cell: int, generation: int) -> None:
        """Play `cell` for the ticket's seat. Refused, changing nothing: not a player,
        not their turn, the round is over, the cell is taken, or `generation` is old."""
        await self.seat_call(ticket, "move", cell, generation)

    async def rematch(self, ticket: Ticket) -> None:
        """This player wants the next round; with both asking it starts, the other first."""
        await self.seat_call(ticket, "rematch")

    async def offer(self, ticket: Ticket, kind: OfferKind = "draw") -> None:
        """Offer the other player `kind` (a draw): it waits in the room (`RoomView.offer`)
        for their answer; one offer a seat per move, and any move clears it."""
        await self.seat_call(ticket, "offer", kind)

    async def answer(self, ticket: Ticket, yes: bool) -> None:
        """Answer the other player's offer: yes does it (a draw ends the round, agreed;
        a take-back undoes the last move)."""
        await self.seat_call(ticket, "answer", yes)

    async def claim(self, ticket: Ticket) -> None:
        """Claim the round of an opponent whose link dropped, after half the grace."""
        await self.seat_call(ticket, "claim")
