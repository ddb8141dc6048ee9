"""The quick-match queue of every hub: `MemoryHub` (on an injected clock), the same over
the socket (`SocketHub` through `HubServer`), and `PostgresHub`, two of them on one
real database racing to pair the same places: no place is ever paired twice."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.matching import Place
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.socket.server import HubServer
from tui_tictactoe.rooms.view import Person, Refused, Ticket

ANN = Person("ann", "SHA256:ann", "10.0.0.1")
BOB = Person("bob", "SHA256:bob", "10.0.0.2")
CAROL = Person("carol", "SHA256:carol", "10.0.0.3")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def paired(hub: RoomHub, place: Place) -> Ticket:
    """The seat `place` is paired into (asked as a waiting session asks)."""
    for _ in range(400):
        state = await hub.queue_poll(place)
        if state.ticket is not None:
            return state.ticket
        await asyncio.sleep(0.05)
    raise AssertionError("never paired")


async def test_two_players_are_paired_into_a_new_private_room_lower_rating_as_x() -> None:
    hub = MemoryHub(clock=Clock())
    ann = await hub.queue_join(ANN, 3, 1300)
    state = await hub.queue_poll(ann)
    assert state.waiting == (1, 0, 0, 0) and state.ticket is None
    bob = await hub.queue_join(BOB, 3, 1250)
    a, b = (await hub.queue_poll(ann)).ticket, (await hub.queue_poll(bob)).ticket
    assert a is not None and b is not None and a.code == b.code
    assert (a.seat, b.seat) == ("O", "X")  # bob is rated lower: X, and X starts
    view = hub.view(a.code)
    assert not view.public and view.first == "X" and view.to_move == "X"
    assert [s.person.name for s in view.seats if s.person] == ["bob", "ann"]
    await hub.move(b, 5, view.generation)
    assert hub.view(a.code).moves == (5,)
    assert (await hub.queue_poll(ann)).ticket == a  # the same seat through the decline window
    assert await hub.rooms() == []  # never listed


async def test_boards_and_far_ratings_wait_until_the_window_widens() -> None:
    clock = Clock()
    hub = MemoryHub(clock=clock)
    ann = await hub.queue_join(ANN, 3, 1200)
    bob = await hub.queue_join(BOB, 4, 1200)
    carol = await hub.queue_join(CAROL, 3, 1450)
    assert (await hub.queue_poll(carol)) == ((2, 1, 0, 0), None)
    for _ in range(3):  # 250 apart: not while ann has waited under 15 s (window 100 + 2 * 50)
        clock.now += 4
        states = [await hub.queue_poll(place) for place in (bob, carol, ann)]
        assert all(state.ticket is None for state in states)
    clock.now += 4  # 16 s: window 250
    assert (await hub.queue_poll(ann)).ticket is not None
    assert (await hub.queue_poll(bob)) == ((0, 1, 0, 0), None)


async def test_leaving_and_a_silent_place_leave_the_queue() -> None:
    clock = Clock()
    hub = MemoryHub(replace(UNTIMED, place_timeout=10), clock=clock)
    ann = await hub.queue_join(ANN, 3, 1200)
    await hub.queue_leave(ann)
    await hub.queue_leave(ann)  # idempotent
    with pytest.raises(Refused, match="no longer in the queue"):
        await hub.queue_poll(ann)
    bob = await hub.queue_join(BOB, 3, 1200)
    clock.now += 11  # bob's session died: nobody asked
    carol = await hub.queue_join(CAROL, 3, 1200)
    assert (await hub.queue_poll(carol)) == ((1, 0, 0, 0), None)
    with pytest.raises(Refused):
        await hub.queue_poll(bob)


async def test_places_are_counted_per_address_and_in_all() -> None:
    hub = MemoryHub(replace(UNTIMED, places_per_address=2, max_places=3), clock=Clock())
    await hub.queue_join(ANN, 3, 1200)
    await hub.queue_join(ANN, 3, 2000)
    with pytest.raises(Refused, match="Already 2 places"):
        await hub.queue_join(ANN._replace(name="ann2"), 3, 3000)
    await hub.queue_join(BOB, 5, 100)
    with pytest.raises(Refused, match="queues are full"):
        await hub.queue_join(CAROL, 4, 1200)
    with pytest.raises(Refused, match="board"):
        await hub.queue_join(CAROL, 7, 1200)


async def test_a_pair_told_to_one_side_only_sends_it_back_when_the_other_leaves() -> None:
    """Not an empty private room: the room is aborted, ann waits again, first."""
    hub = MemoryHub(clock=Clock())
    ann = await hub.queue_join(ANN, 3, 1200)
    bob = await hub.queue_join(BOB, 3, 1200)
    ticket = (await hub.queue_poll(ann)).ticket
    assert ticket is not None
    await hub.queue_leave(bob)  # bob's game went before it heard
    with pytest.raises(Refused, match="no room"):
        hub.view(ticket.code)
    assert await hub.queue_poll(ann) == ((1, 0, 0, 0), None)


@pytest.fixture
async def socket_hub() -> AsyncIterator[tuple[MemoryHub, HubServer]]:
    hub = MemoryHub()
    async with HubServer(hub, log=lambda _: None) as server:
        yield hub, server


async def test_the_queue_over_the_socket_and_a_closed_connection_leaves_it(
    socket_hub: tuple[MemoryHub, HubServer],
) -> None:
    hub, server = socket_hub
    async with SocketHub(server.path) as ann_link, SocketHub(server.path) as bob_link:
        ann = await ann_link.queue_join(ANN, 4, 1200)
        gone = SocketHub(server.path)
        dead = await gone.queue_join(CAROL, 5, 1200)
        assert (await ann_link.queue_poll(ann)).waiting == (0, 1, 1, 0)
        await gone.close()  # carol's game died: her place goes with its connection
        for _ in range(200):
            if (await ann_link.queue_poll(ann)).waiting == (0, 1, 0, 0):
                break
            await asyncio.sleep(0.02)
        assert (await ann_link.queue_poll(ann)).waiting == (0, 1, 0, 0)
        with pytest.raises(Refused):
            await hub.queue_poll(dead)
        bob = await bob_link.queue_join(BOB, 4, 1250)
        a, b = await paired(ann_link, ann), await paired(bob_link, bob)
        assert a.code == b.code and {a.seat, b.seat} == {"X", "O"}
        x = a if a.seat == "X" else b
        await (ann_link if x is a else bob_link).move(x, 1, hub.view(x.code).generation)
        assert hub.view(x.code).moves == (1,)
        with pytest.raises(Refused):
            await bob_link.queue_poll(Place("x" * 17, 9))  # a board no queue has


# -- PostgreSQL ------------------------------------------------------------------------


@pytest.fixture
async def two_hubs(pg_url: str) -> AsyncIterator[tuple[PostgresHub, PostgresHub]]:
    one = PostgresHub(pg_url, listen=False, log=lambda _: None)
    two = PostgresHub(pg_url, listen=False, log=lambda _: None)
    await one.start()
    await two.start()
    try:
        yield one, two
    finally:
        await one.shutdown()
        await two.shutdown()


async def test_two_hosts_pair_across_the_database(
    two_hubs: tuple[PostgresHub, PostgresHub],
) -> None:
    one, two = two_hubs
    ann = await one.queue_join(ANN, 3, 1400)
    assert (await one.queue_poll(ann)).waiting == (1, 0, 0, 0)
    bob = await two.queue_join(BOB, 3, 1350)
    a, b = await paired(one, ann), await paired(two, bob)
    assert a.code == b.code and (a.seat, b.seat) == ("O", "X")
    view = await two.view(b.code)
    assert not view.public and view.to_move == "X"
    await two.move(b, 5, view.generation)
    assert (await one.view(a.code)).moves == (5,)
    assert (await one.queue_poll(ann)).ticket == a


async def test_pg_places_are_counted_per_address_and_leave(pg_url: str) -> None:
    hub = PostgresHub(
        pg_url, replace(UNTIMED, places_per_address=1, max_places=2), listen=False, log=print
    )
    async with hub:
        ann = await hub.queue_join(ANN, 3, 1200)
        with pytest.raises(Refused, match="Already 1 places"):
            await hub.queue_join(ANN, 4, 1200)
        await hub.queue_join(BOB, 5, 1200)
        with pytest.raises(Refused, match="queues are full"):
            await hub.queue_join(CAROL, 4, 1200)
        await hub.queue_leave(ann)
        with pytest.raises(Refused):
            await hub.queue_poll(ann)
        assert (await hub.queue_poll(await hub.queue_join(CAROL, 6, 1200))).waiting == (0, 0, 1, 1)


async def test_pg_a_silent_place_expires(pg_url: str) -> None:
    clock = Clock()
    hub = PostgresHub(
        pg_url, replace(UNTIMED, place_timeout=10), listen=False, clock=clock, log=print
    )
    async with hub:
        ann = await hub.queue_join(ANN, 3, 1200)
        clock.now += 11
        bob = await hub.queue_join(BOB, 3, 1200)
        assert (await hub.queue_poll(bob)) == ((1, 0, 0, 0), None)
        with pytest.raises(Refused):
            await hub.queue_poll(ann)


async def test_two_hubs_racing_never_pair_a_place_twice(
    two_hubs: tuple[PostgresHub, PostgresHub],
) -> None:
    """Rounds of places joined on both hosts at once and polled from both at once."""
    rng = random.Random(31)
    hubs = two_hubs
    for round_ in range(8):
        people = [Person(f"p{round_}x{i}", f"SHA256:{round_}.{i}", "") for i in range(8)]
        places = await asyncio.gather(
            *(
                hubs[i % 2].queue_join(who, 3, rng.randint(1150, 1250))
                for i, who in enumerate(people)
            )
        )
        tickets = await asyncio.gather(*(paired(hubs[i % 2], p) for i, p in enumerate(places)))
        rooms: dict[str, list[str]] = {}
        for ticket in tickets:
            rooms.setdefault(ticket.code, []).append(ticket.seat or "?")
        assert len(rooms) == 4, rooms
        assert all(sorted(seats) == ["O", "X"] for seats in rooms.values()), rooms


# -- declining a match -------------------------------------------------------------------


async def declined_on(hubs: tuple[RoomHub, RoomHub], clock: Clock | None = None) -> None:
    """ann (on the first hub) declines the pair with bob (on the second): the room
    closes, ann is out, bob waits again and pairs with the next player (dave); a second
    decline, or one after the room's first move, is refused."""
    one, two = hubs
    ann = await one.queue_join(ANN, 3, 1200)
    bob = await two.queue_join(BOB, 3, 1200)
    a, b = await paired(one, ann), await paired(two, bob)
    assert (await two.queue_poll(bob)).ticket == b  # the same seat through the window
    await one.queue_decline(ann)
    with pytest.raises(Refused, match="no match to decline"):
        await one.queue_decline(ann)
    state = await two.queue_poll(bob)
    assert state.ticket is None and state.waiting == (1, 0, 0, 0)
    with pytest.raises(Refused):
        await one.queue_poll(ann)  # ann is out of the queue
    with pytest.raises(Refused):
        await two.move(b, 1, 1)  # the room is gone
    if clock is not None:
        clock.now += 1
    dave = await one.queue_join(CAROL._replace(name="dave", key="SHA256:dave"), 3, 1200)
    bob_again = await paired(two, bob)
    dave_seat = await paired(one, dave)
    assert bob_again.code == dave_seat.code != a.code
    x, hub = (bob_again, two) if bob_again.seat == "X" else (dave_seat, one)
    view = hub.view(x.code)  # type: ignore[attr-defined]  # MemoryHub's, or PostgresHub's
    view = await view if isinstance(hub, PostgresHub) else view
    await hub.move(x, 5, view.generation)
    with pytest.raises(Refused, match="game has begun"):
        await one.queue_decline(dave)


async def test_memory_a_declined_match_sends_the_partner_back_to_the_head() -> None:
    clock = Clock()
    hub = MemoryHub(clock=clock)
    await declined_on((hub, hub), clock)


async def test_memory_the_decline_window_ends() -> None:
    clock = Clock()
    hub = MemoryHub(clock=clock)
    ann = await hub.queue_join(ANN, 3, 1200)
    bob = await hub.queue_join(BOB, 3, 1200)
    a, b = await paired(hub, ann), await paired(hub, bob)
    clock.now += 16
    with pytest.raises(Refused, match="no match to decline"):
        await hub.queue_decline(ann)
    assert (await hub.queue_poll(bob)).ticket == b  # kept through the opening
    x, o = (a, b) if a.seat == "X" else (b, a)
    await hub.move(x, 5, hub.view(x.code).generation)
    await hub.move(o, 1, hub.view(x.code).generation)
    with pytest.raises(Refused, match="no longer in the queue"):
        await hub.queue_poll(bob)  # the game is on: the places are gone


async def test_pg_a_declined_match_sends_the_partner_back_to_the_head(
    two_hubs: tuple[PostgresHub, PostgresHub],
) -> None:
    await declined_on(two_hubs)
