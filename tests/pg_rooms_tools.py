"""Rooms on PostgreSQL in tests: players, a follower of a hub's views, a round played and
waited on; shared by the hosts' tests and PgBouncer's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TypedDict

import pytest

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.view import Person, Refused, RoomView, SeatName, Ticket

WAIT = 30.0  # seconds: generous, the machine is shared


class Clocks(TypedDict, total=False):
    """A `PostgresHub` host's clocks a test sets (its keyword arguments of the same names)."""

    heartbeat: float
    host_timeout: float
    reread: float


class HostTimings(Clocks, total=False):
    """The clocks, and whether the host listens."""

    listen: bool


ANN = Person("ann", "SHA256:ann", "10.0.0.1")


BOB = Person("bob", "SHA256:bob", "10.0.0.2")


CAROL = Person("carol", "SHA256:carol", "10.0.0.3")


DAVE = Person("dave", "", "10.0.0.4")


@pytest.fixture(autouse=True)
async def followers_ended() -> AsyncIterator[None]:
    """Every follower's task is over when its test is (none left for the garbage
    collector to find pending)."""
    yield
    for follower in Follower.every:
        follower.task.cancel()
    await asyncio.gather(*(f.task for f in Follower.every), return_exceptions=True)
    Follower.every.clear()


class Follower:
    """Every view one ticket's `updates` gives, read by a task of its own (until the
    stream ends, or its hub is gone: `ended` says why)."""

    every: list[Follower] = []  # noqa: RUF012  # ended by `followers_ended`

    def __init__(self, hub: RoomHub, ticket: Ticket) -> None:
        self.views: list[RoomView] = []
        self.ended = ""
        self.task = asyncio.create_task(self._read(hub, ticket))
        Follower.every.append(self)

    async def _read(self, hub: RoomHub, ticket: Ticket) -> None:
        try:
            async for view in hub.updates(ticket):
                self.views.append(view)
        except Refused as refused:
            self.ended = refused.reason

    @property
    def last(self) -> RoomView | None:
        return self.views[-1] if self.views else None

    async def until(self, wanted: Callable[[RoomView], bool]) -> RoomView:
        """The first newest view that is `wanted` (waiting for it)."""
        await eventually(lambda: self.last is not None and wanted(self.last))
        assert self.last is not None
        return self.last


def moves_are(count: int) -> Callable[[RoomView], bool]:
    return lambda view: len(view.moves) == count


def view_is(expected: RoomView) -> Callable[[RoomView], bool]:
    return lambda view: view == expected


def round_begun(number: int) -> Callable[[RoomView], bool]:
    """Round `number` is on, no move made in it yet."""
    return lambda view: view.round == number and not view.moves


async def eventually(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.02)


async def play_round(
    cells: list[int], players: Mapping[str, tuple[RoomHub, Ticket, Follower]], done: int = 0
) -> None:
    """Play `cells` in turn after `done` moves, each mover moving on the view its own
    host gave it (so every move first crossed from the other host)."""
    for count, cell in enumerate(cells, start=done):
        seen = await players["X"][2].until(moves_are(count))
        mover = seen.to_move
        assert mover is not None
        hub, ticket, follower = players[mover]

        def to_move(view: RoomView, n: int = count, m: SeatName = mover) -> bool:
            return len(view.moves) == n and view.to_move == m

        view = await follower.until(to_move)
        await hub.move(ticket, cell, view.generation)
