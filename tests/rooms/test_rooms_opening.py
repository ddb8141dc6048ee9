"""Hostile quick matches (issue 35) on both hubs (`MemoryHub`, `PostgresHub` on a real
PostgreSQL, the same injected clock): a matched room counts against both players'
addresses, an empty one closes at once, one address never pairs with itself (nor rates
itself), the first move and the first reply are timed (past them: no game, the staller
out, the other back in the queue with its old place), and declines, stalls and leaves
before the first move are counted per address and per key."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
import test_rooms_hub
from room_tools import game_of, view
from test_rooms_hub import Clock, Hub, look, maybe, refused

from tui_tictactoe.record.people import is_rated
from tui_tictactoe.rooms import matching
from tui_tictactoe.rooms.keeping import RoundKeeper
from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.matching import Place
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.status import room_state
from tui_tictactoe.rooms.view import Person, Refused, Ticket

clock = test_rooms_hub.clock
OPENING = 30.0
MALLORY = Person("mallory", "SHA256:mallory", "10.6.6.6")
MALLORY_TOO = Person("mallory2", "SHA256:mallory2", "10.6.6.6")  # another key, one address
NET = Person("net", "SHA256:net", "2001:db8:1:2::/64")  # one IPv6 /64, as counted
NET_TOO = Person("net2", "SHA256:net2", "2001:db8:1:2::/64")


def victim(i: int) -> Person:
    return Person(f"v{i}", f"SHA256:v{i}", f"10.0.1.{i}")


@pytest.fixture(params=["memory", "postgres"])
async def hub(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[Hub]:
    """Each backend: 2 rooms an address, 6 in all, a 30 s opening, on the test's clock."""
    options: dict[str, Any] = {
        "clock": clock,
        "rng": random.Random(7),
    }
    limits = replace(UNTIMED, max_rooms=6, rooms_per_address=2, opening_time=OPENING)
    if request.param == "memory":
        yield MemoryHub(limits, **options)
        return
    async with PostgresHub(request.getfixturevalue("pg_url"), limits, **options) as pg_hub:
        yield pg_hub


async def seat_of(hub: Hub, place: Place) -> Ticket | None:
    ticket: Ticket | None = (await hub.queue_poll(place)).ticket
    return ticket


async def matched(hub: Hub, one: Person, two: Person) -> tuple[Place, Ticket, Place, Ticket]:
    """`one` waits, `two` comes: their places and seats (`one` rated lower: X)."""
    a = await hub.queue_join(one, 3, 1200)
    b = await hub.queue_join(two, 3, 1250)
    x, o = await seat_of(hub, a), await seat_of(hub, b)
    assert x is not None and o is not None and x.code == o.code, (x, o)
    assert (x.seat, o.seat) == ("X", "O")
    return a, x, b, o


async def gone(hub: Hub, code: str) -> bool:
    try:
        return (await look(hub, code)).closed
    except Refused:
        return True


async def wait_polling(hub: Hub, clock: Clock, seconds: float, *places: Place) -> None:
    """`seconds` pass, each place asked about every second (as a session does)."""
    for _ in range(int(seconds)):
        clock.now += 1
        for place in places:
            await hub.queue_poll(place)
    await maybe(hub.expire())


# -- 2. the room cap ------------------------------------------------------------------


async def test_a_matched_room_counts_against_both_players_addresses(hub: Hub) -> None:
    """The attack: mallory pairs with stranger after stranger. Each room counts against
    her address (it has no opener), so past 2 she gets no place, opens no room, and
    the other addresses still pair."""
    for i in range(2):
        await matched(hub, MALLORY, victim(i))
    reason = await refused(hub.queue_join(MALLORY, 3, 1200))
    assert "This address has 2 rooms open" in reason
    assert "2 rooms open" in await refused(hub.create(MALLORY, 3, "X"))
    assert "2 rooms open" in await refused(hub.queue_join(MALLORY_TOO, 4, 1200))
    await matched(hub, victim(5), victim(6))  # the server has rooms for everyone else


async def test_a_place_waits_while_its_address_is_at_its_cap(hub: Hub) -> None:
    """A place taken before the address reached its cap is not paired past it."""
    await hub.create(MALLORY, 3, "X")
    early = await hub.queue_join(MALLORY, 3, 1200)
    await hub.create(MALLORY, 4, "X")  # now at 2
    stranger = await hub.queue_join(victim(1), 3, 1200)
    assert await seat_of(hub, early) is None and await seat_of(hub, stranger) is None


async def test_an_empty_matched_room_closes_at_once(hub: Hub) -> None:
    """Both links gone before the first move: the room closes now, not after the grace,
    and no longer counts against anyone."""
    for i in range(2):
        _, x, _, o = await matched(hub, MALLORY, victim(i))
        await hub.drop(x)
        assert not await gone(hub, x.code)  # one link left: the room waits
        await hub.drop(o)
        assert await gone(hub, x.code)
    await matched(hub, MALLORY, victim(3))  # her rooms are gone: she may play again


# -- 3. pairing oneself -----------------------------------------------------------------


@pytest.mark.parametrize("one, two", [(MALLORY, MALLORY_TOO), (NET, NET_TOO)])
async def test_one_address_never_pairs_with_itself(
    hub: Hub, clock: Clock, one: Person, two: Person
) -> None:
    a = await hub.queue_join(one, 3, 1200)
    clock.now += 1
    b = await hub.queue_join(two, 3, 1200)
    assert await seat_of(hub, a) is None and await seat_of(hub, b) is None
    clock.now += 1
    c = await hub.queue_join(victim(1), 3, 1200)
    x, o = await seat_of(hub, a), await seat_of(hub, c)
    assert x is not None and o is not None and x.code == o.code  # the oldest, with another
    assert await seat_of(hub, b) is None


async def test_a_room_of_one_address_is_not_rated(hub: Hub) -> None:
    """Two keys of one person at one table (a room joined by its code): the view says so
    and the round is kept unrated."""
    ann = await hub.create(MALLORY, 3, "X")
    bob = await hub.join(ann.code, MALLORY_TOO)
    keeper = RoundKeeper()
    for cell, ticket in ((1, ann), (4, bob), (2, ann), (5, bob), (3, ann)):
        keeper.ended(await look(hub, ann.code))
        await hub.move(ticket, cell, (await look(hub, ann.code)).generation)
    view = await look(hub, ann.code)
    assert view.unrated and view.result == "X"
    match = keeper.ended(view)
    assert match is not None and match.unrated and not is_rated(match)
    other = await hub.create(victim(1), 3, "X")
    await hub.join(other.code, MALLORY)
    assert not (await look(hub, other.code)).unrated


# -- 3. the first move has a clock ------------------------------------------------------


async def test_no_first_move_aborts_the_round_and_the_partner_queues_again(
    hub: Hub, clock: Clock
) -> None:
    a, x, b, _o = await matched(hub, MALLORY, victim(1))
    view = await look(hub, x.code)
    assert view.matched and view.deadline == clock.now + OPENING and view.to_move == "X"
    await wait_polling(hub, clock, OPENING - 1, a, b)
    assert not await gone(hub, x.code)
    await wait_polling(hub, clock, 1, b)
    assert await gone(hub, x.code)  # aborted: no game, nothing to rate
    with pytest.raises(Refused, match="no longer in the queue"):
        await hub.queue_poll(a)  # the staller is out
    assert await hub.queue_poll(b) == ((1, 0, 0, 0), None)  # the other waits again
    c = await hub.queue_join(victim(2), 3, 1250)  # rated as bob: who waited longer is X
    again = await seat_of(hub, b)
    assert again is not None and again.seat == "X"  # its old place: it waited longer
    assert (await seat_of(hub, c)) is not None


async def test_no_first_reply_aborts_it_too_the_replier_out(hub: Hub, clock: Clock) -> None:
    a, x, b, _o = await matched(hub, victim(1), MALLORY)
    await wait_polling(hub, clock, 10, a, b)
    await hub.move(x, 5, (await look(hub, x.code)).generation)
    view = await look(hub, x.code)
    assert view.deadline == clock.now + OPENING and view.to_move == "O"  # the reply's own
    await wait_polling(hub, clock, OPENING, a)
    assert await gone(hub, x.code)
    with pytest.raises(Refused):
        await hub.queue_poll(b)
    assert (await hub.queue_poll(a)).ticket is None


async def test_after_the_reply_the_opening_is_over(hub: Hub, clock: Clock) -> None:
    a, x, _b, o = await matched(hub, victim(1), victim(2))
    await hub.move(x, 5, (await look(hub, x.code)).generation)
    await hub.move(o, 1, (await look(hub, x.code)).generation)
    assert (await look(hub, x.code)).deadline is None  # this hub has no move clock
    await wait_polling(hub, clock, 2 * OPENING)
    assert not await gone(hub, x.code)
    with pytest.raises(Refused):
        await hub.queue_poll(a)  # the places ended with the window and the opening


# -- 3. declines as a weapon ------------------------------------------------------------


async def test_a_partner_leaving_before_the_first_move_sends_the_other_back(hub: Hub) -> None:
    a, x, b, o = await matched(hub, victim(1), MALLORY)
    await hub.leave(o)
    assert await gone(hub, x.code)
    assert (await hub.queue_poll(a)).ticket is None  # waiting, not in an empty room
    with pytest.raises(Refused):
        await hub.queue_poll(b)


async def test_declines_are_counted_per_address_and_per_key(hub: Hub, clock: Clock) -> None:
    """Mallory declines strangers in turn: past `DECLINES` she waits, from her address,
    and with her key from another address; the victim is first again each time."""
    first = await hub.queue_join(victim(0), 3, 1200)
    for _ in range(matching.DECLINES):
        place = await hub.queue_join(MALLORY, 3, 1200)
        await hub.queue_poll(first)
        assert await seat_of(hub, place) is not None
        await hub.queue_decline(place)
        assert (await hub.queue_poll(first)).ticket is None
        clock.now += 1
    reason = await refused(hub.queue_join(MALLORY, 3, 1200))
    assert "Too many matches declined or left: wait" in reason
    moved = MALLORY._replace(address="10.7.7.7")
    assert "Too many matches declined" in await refused(hub.queue_join(moved, 3, 1200))
    assert "declined" in await refused(hub.queue_join(MALLORY_TOO, 3, 1200))
    clock.now += matching.DECLINE_PERIOD
    await hub.queue_join(MALLORY, 3, 1200)  # the period over


# -- what the screens say ----------------------------------------------------------------


def test_the_opening_is_counted_down_for_everyone_and_the_abort_said() -> None:
    """Every line fits the board's 57 columns; the abort says who is where now."""
    opening = view(matched=True, deadline=27.0)
    lines = {
        "X": "Your turn: you play X. 27 s, or no game.",
        "O": "Waiting for ann (X): 27 s, or no game.",
        None: "ann to play: 27 s, or no game.",
    }
    for seat, line in lines.items():
        assert room_state(game_of(seat, opening), 0.0).text == line
    reply = view((5,), matched=True, deadline=40.0)
    assert room_state(game_of("O", reply), 10.5).text == (
        "ann played 5. Your turn: you play O. 30 s, or no game."
    )
    over = view((5, 1), matched=True)  # the reply came: the opening is over
    assert room_state(game_of("X", over), 0.0).text == "bob played 1. Your turn: you play X."
    aborted = view((5,), matched=True, closed=True, aborted_by="O")
    said = {seat: room_state(game_of(seat, aborted), 0.0).text for seat in ("X", "O", None)}
    assert said == {
        "O": "You did not play in time: no game, and out of the queue.",
        "X": "bob did not play: no game. Back to the queue.",
        None: "bob did not play: no game.",
    }
    assert all(len(text) <= 57 for text in (*lines.values(), *said.values()))
