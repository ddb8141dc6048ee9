"""The room hub, rule by rule: create, join, watch, moves, rematch, leave, drop and its
grace, updates, the lobby, caps and wrong codes. Every rule test runs against both
backends, `MemoryHub` and `PostgresHub` (a real PostgreSQL database per test, on the
same injected clock: the hub's time is the test's, so graces run out when the test says).
Seeded randomness, so every run is the same; the random sequences are in
test_rooms_hub_properties.py, what only one backend does at the end of this file and in
test_rooms_pg_hosts.py."""

from __future__ import annotations

import asyncio
import inspect
import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.view import Person, Refused, RoomView, Ticket

ANN = Person("ann", "SHA256:ann", "10.0.0.1")
BOB = Person("bob", "SHA256:bob", "10.0.0.2")
CAROL = Person("carol", "SHA256:carol", "10.0.0.3")
GUEST = Person("guest", "", "10.0.0.4")
Hub = Any  # MemoryHub | PostgresHub: the interface plus view() and expire()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["memory", "postgres"])
async def hub(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[Hub]:
    """Each backend in turn, with the same options, seed and clock."""
    options: dict[str, Any] = {
        "clock": clock,
        "rng": random.Random(1),
    }
    limits = replace(UNTIMED, max_spectators=2, max_rooms=3)
    if request.param == "memory":
        yield MemoryHub(limits, **options)
        return
    async with PostgresHub(request.getfixturevalue("pg_url"), limits, **options) as pg_hub:
        yield pg_hub


async def maybe(result: Any) -> Any:
    """`MemoryHub`'s view() and expire() answer at once; `PostgresHub`'s are awaited."""
    return await result if inspect.isawaitable(result) else result


async def look(hub: Hub, code: str) -> RoomView:
    """The room as the hub has it now."""
    view = await maybe(hub.view(code))
    assert isinstance(view, RoomView)
    return view


async def following(hub: RoomHub, ticket: Ticket) -> tuple[list[RoomView], asyncio.Task[None]]:
    """A reader of `ticket`'s updates that has its first view (so it is registered)."""
    stream = hub.updates(ticket)
    seen = [await anext(stream)]

    async def follow() -> None:
        async for view in stream:
            seen.append(view)

    return seen, asyncio.create_task(follow())


async def refused(call) -> str:
    with pytest.raises(Refused) as caught:
        await call
    return caught.value.reason


async def pair(hub: Hub, size: int = 3, first: str = "X") -> tuple[Ticket, Ticket]:
    ann = await hub.create(ANN, size, first)
    bob = await hub.join(ann.code, BOB)
    return ann, bob


async def play(hub: Hub, tickets: dict[str, Ticket], *cells: int) -> RoomView:
    """Play `cells` in turn, each by the seat whose turn it is."""
    code = next(iter(tickets.values())).code
    for cell in cells:
        view = await look(hub, code)
        assert view.to_move is not None
        await hub.move(tickets[view.to_move], cell, view.generation)
    return await look(hub, code)


# -- create and join ---------------------------------------------------------


async def test_create_seats_the_creator_in_x_with_a_secret_token(hub: Hub) -> None:
    ticket = await hub.create(ANN, 4, "O")
    assert ticket.seat == "X" and len(ticket.token) == 16
    view = await look(hub, ticket.code)
    assert (view.size, view.first, view.round, view.moves, view.result) == (4, "O", 1, (), None)
    assert view.seats[0].person == ANN._replace(address="")  # no one sees an address
    assert view.seats[0].present and view.seats[1].person is None
    assert view.to_move == "O"


async def test_codes_are_unique_and_tokens_differ(clock: Clock) -> None:
    hub = MemoryHub(clock=clock, rng=random.Random(3))
    tickets = [await hub.create(Person(f"p{n}"), 3, "X") for n in range(300)]
    assert len({t.code for t in tickets}) == 300
    assert len({t.token for t in tickets}) == 300


@pytest.mark.parametrize(("size", "first"), [(2, "X"), (7, "X"), ("3", "X"), (3, "Z")])
async def test_create_refuses_other_boards_and_starters(hub: Hub, size, first) -> None:
    assert await refused(hub.create(ANN, size, first))


async def test_the_room_cap(hub: Hub) -> None:
    for _ in range(3):
        await hub.create(ANN, 3, "X")
    assert "all the rooms it can hold" in await refused(hub.create(ANN, 3, "X"))


async def test_join_takes_the_free_seat_by_the_code_as_typed(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    typed = " ".join(ann.code.lower())
    bob = await hub.join(typed, BOB)
    assert bob.seat == "O" and bob.code == ann.code and bob.token != ann.token
    view = await look(hub, ann.code)
    assert view.seats[1].person == BOB._replace(address="") and view.generation == 2


async def test_a_full_room_says_so_and_offers_to_watch(hub: Hub) -> None:
    ann, _ = await pair(hub)
    reason = await refused(hub.join(ann.code, CAROL))
    assert reason == (f"Room {ann.code} is full: watch it with --watch {ann.code}.")
    for token in ("not-a-seat-token", "é" * 16, ann.token * 5, ann.token[:-1]):
        assert "is full" in await refused(hub.join(ann.code, GUEST, token=token))


async def test_unknown_and_malformed_codes(hub: Hub) -> None:
    assert await refused(hub.join("ABCD", BOB)) == "There is no room ABCD: check the code."
    assert "letters only" in await refused(hub.join("AB1D", BOB))
    assert "no room" in await refused(hub.watch("abcd", BOB))


async def test_wrong_codes_are_limited_per_address(hub: Hub, clock: Clock) -> None:
    ann = await hub.create(ANN, 3, "X")
    wrong = "ZZZZ" if ann.code != "ZZZZ" else "YYYY"
    for _ in range(5):
        assert "no room" in await refused(hub.join(wrong, GUEST))
        clock.now += 2
    # The limit holds even for the right code, or it would still tell codes apart.
    # The first was at 100, it is 110 now.
    assert await refused(hub.join(ann.code, GUEST)) == "Too many wrong codes: wait 50 s."
    assert await refused(hub.watch(ann.code, GUEST)) == "Too many wrong codes: wait 50 s."
    assert (await hub.watch(ann.code, CAROL)).seat is None  # another address
    clock.now += 49.5
    assert "wait 1 s" in await refused(hub.join(ann.code, GUEST))
    clock.now += 0.5
    assert (await hub.join(ann.code, GUEST)).seat == "O"


async def test_malformed_codes_are_not_counted(hub: Hub) -> None:
    for _ in range(20):
        await refused(hub.join("AB1D", GUEST))
    assert "no room" in await refused(hub.join("ZZZZ", GUEST))


# -- watching ------------------------------------------------------------------


async def test_spectators_are_counted_and_capped(hub: Hub) -> None:
    ann, _ = await pair(hub)
    one = await hub.watch(ann.code, CAROL)
    await hub.watch(ann.code, GUEST)
    assert one.seat is None and one.token
    assert (await look(hub, ann.code)).watchers == 2
    assert "as many spectators as it takes (2)" in await refused(hub.watch(ann.code, CAROL))
    await hub.leave(one)
    assert (await look(hub, ann.code)).watchers == 1
    await hub.watch(ann.code, CAROL)


async def test_spectators_cannot_play_or_ask_for_a_rematch(hub: Hub) -> None:
    ann, _ = await pair(hub)
    carol = await hub.watch(ann.code, CAROL)
    generation = (await look(hub, ann.code)).generation
    assert "only the players play" in await refused(hub.move(carol, 1, generation))
    assert "only the players" in await refused(hub.rematch(carol))
    assert (await look(hub, ann.code)).generation == generation


# -- moves ---------------------------------------------------------------------


async def test_a_whole_round_to_a_win(hub: Hub) -> None:
    ann, bob = await pair(hub)
    view = await play(hub, {"X": ann, "O": bob}, 1, 4, 2, 5, 3)
    assert view.moves == (1, 4, 2, 5, 3)
    assert (view.result, view.score, view.to_move) == ("X", (1, 0, 0), None)


async def test_a_draw_and_o_winning_when_o_starts(hub: Hub) -> None:
    ann, bob = await pair(hub)
    view = await play(hub, {"X": ann, "O": bob}, 1, 2, 3, 5, 4, 6, 8, 7, 9)
    assert (view.result, view.score) == ("draw", (0, 0, 1))
    ann, bob = await pair(hub, first="O")
    view = await play(hub, {"X": ann, "O": bob}, 1, 4, 2, 5, 3)
    assert (view.result, view.score) == ("O", (0, 1, 0))


async def test_big_boards_win_with_four_in_a_row(hub: Hub) -> None:
    ann, bob = await pair(hub, size=5)
    view = await play(hub, {"X": ann, "O": bob}, 1, 6, 2, 7, 3, 8)
    assert view.result is None  # three in a row is not enough on 5x5
    view = await play(hub, {"X": ann, "O": bob}, 4)
    assert view.result == "X"


async def test_6x6_rooms_win_with_five_in_a_row(hub: Hub) -> None:
    """A 6x6 room is stored (on PostgreSQL past the size CHECK of schema step 5) and
    plays five in a row: four on a diagonal is not enough, the fifth wins."""
    ann, bob = await pair(hub, size=6)
    assert (await look(hub, ann.code)).size == 6
    view = await play(hub, {"X": ann, "O": bob}, 1, 2, 8, 3, 15, 4, 22)
    assert view.result is None  # 1, 8, 15, 22: four on the long diagonal
    view = await play(hub, {"X": ann, "O": bob}, 5, 29)
    assert view.result == "X" and view.moves[-1] == 29


async def test_every_refused_move_says_why_and_changes_nothing(hub: Hub) -> None:
    ann, bob = await pair(hub)
    code = ann.code
    gen = (await look(hub, code)).generation
    assert await refused(hub.move(bob, 1, gen)) == "Not your turn: ann plays X."
    await hub.move(ann, 5, gen)
    gen = (await look(hub, code)).generation
    assert await refused(hub.move(ann, 1, gen)) == "Not your turn: bob plays O."
    assert await refused(hub.move(bob, 5, gen)) == "Cell 5 is taken: pick an empty one."
    for cell in (0, 10, -1, 10**30, "5", 5.0, True, None):
        assert "cells go from 1 to 9" in await refused(hub.move(bob, cell, gen))
    for stale in (gen - 1, gen + 1, "7", None):
        assert "The board changed" in await refused(hub.move(bob, 1, stale))
    assert (await look(hub, code)).generation == gen and (await look(hub, code)).moves == (5,)


async def test_a_move_is_never_played_twice(hub: Hub) -> None:
    ann, bob = await pair(hub)
    gen = (await look(hub, ann.code)).generation
    await hub.move(ann, 1, gen)
    assert await refused(hub.move(ann, 1, gen)) == "Not your turn: bob plays O."
    await hub.move(bob, 2, gen + 1)
    # ann's first move sent again, now that it is her turn: the board has moved on.
    assert "The board changed" in await refused(hub.move(ann, 1, gen))
    assert "The board changed" in await refused(hub.move(ann, 3, gen))
    assert (await look(hub, ann.code)).moves == (1, 2)


async def test_a_spectator_arriving_does_not_make_a_move_stale(hub: Hub) -> None:
    ann, _bob = await pair(hub)
    gen = (await look(hub, ann.code)).generation
    await hub.watch(ann.code, CAROL)
    await hub.move(ann, 1, gen)
    assert (await look(hub, ann.code)).moves == (1,)


async def test_no_move_before_the_second_player_or_after_the_end(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    gen = (await look(hub, ann.code)).generation
    reason = await refused(hub.move(ann, 1, gen))
    assert reason == f"Waiting for a second player: give them the code {ann.code}."
    bob = await hub.join(ann.code, BOB)
    await play(hub, {"X": ann, "O": bob}, 1, 4, 2, 5, 3)
    gen = (await look(hub, ann.code)).generation
    assert "round is over" in await refused(hub.move(bob, 9, gen))


# -- rematch -------------------------------------------------------------------


async def test_rematch_needs_both_and_the_other_starts(hub: Hub) -> None:
    ann, bob = await pair(hub)
    assert "still on" in await refused(hub.rematch(ann))
    await play(hub, {"X": ann, "O": bob}, 1, 4, 2, 5, 3)
    await hub.rematch(ann)
    view = await look(hub, ann.code)
    assert view.rematch == ("X",) and view.round == 1 and view.result == "X"
    await hub.rematch(ann)  # asking twice changes nothing
    assert (await look(hub, ann.code)).generation == view.generation
    await hub.rematch(bob)
    view = await look(hub, ann.code)
    assert (view.round, view.first, view.moves, view.result, view.rematch) == (
        2,
        "O",
        (),
        None,
        (),
    )
    assert view.score == (1, 0, 0) and view.to_move == "O"
    await play(hub, {"X": ann, "O": bob}, 1, 2, 3, 5, 4, 6, 8, 7, 9)
    await hub.rematch(bob)
    await hub.rematch(ann)
    view = await look(hub, ann.code)
    assert (view.round, view.first, view.score) == (3, "X", (1, 0, 1))


async def test_each_round_has_a_fresh_round_key_kept_through_its_views(hub: Hub) -> None:
    """Both players' sessions save a round under the key the hub gave it: one key for
    every view of a round (moves, the result, the rematch asked), a new one per round."""
    ann, bob = await pair(hub)
    key = (await look(hub, ann.code)).round_key
    assert uuid.UUID(key).version == 4
    await play(hub, {"X": ann, "O": bob}, 1, 4, 2, 5, 3)
    await hub.rematch(ann)
    assert (
        await look(hub, ann.code)
    ).round_key == key  # the result and a rematch asked: same round
    await hub.rematch(bob)
    second = (await look(hub, ann.code)).round_key
    assert second != key and uuid.UUID(second).version == 4
    other = await hub.create(CAROL, 3, "X")
    assert (await look(hub, other.code)).round_key not in (key, second)


# -- leave ---------------------------------------------------------------------


async def test_leaving_abandons_the_round_and_frees_the_seat(hub: Hub) -> None:
    ann, bob = await pair(hub)
    await play(hub, {"X": ann, "O": bob}, 1)
    await hub.leave(bob)
    view = await look(hub, ann.code)
    assert (view.result, view.left_by, view.score) == ("abandoned", "O", (0, 0, 0))
    assert view.seats[1].person is None and not view.closed
    assert "You are no longer in room" in await refused(hub.move(bob, 2, view.generation))
    await hub.leave(bob)  # again: nothing happens
    assert (await look(hub, ann.code)).generation == view.generation
    carol = await hub.join(ann.code, CAROL)
    assert carol.seat == "O"
    # A newcomer starts a new round at once: bob's leaving is not carol's to see.
    view = await look(hub, ann.code)
    assert (view.round, view.first, view.result, view.left_by) == (2, "O", None, None)
    assert view.moves == () and view.score == (0, 0, 0)
    await play(hub, {"X": ann, "O": carol}, 5)  # the newcomer's seat starts
    assert (await look(hub, ann.code)).moves == (5,)


async def test_a_round_without_moves_waits_for_the_next_player(hub: Hub) -> None:
    ann, bob = await pair(hub)
    await hub.leave(bob)
    assert (await look(hub, ann.code)).result is None
    carol = await hub.join(ann.code, CAROL)
    view = await play(hub, {"X": ann, "O": carol}, 1)
    assert view.moves == (1,)


async def test_the_last_player_leaving_closes_the_room_for_everyone(hub: Hub) -> None:
    ann, bob = await pair(hub)
    carol = await hub.watch(ann.code, CAROL)
    seen, task = await following(hub, carol)
    await hub.leave(ann)
    await hub.leave(bob)
    await asyncio.wait_for(task, 5)
    assert seen[-1].closed and seen[-1].code == ann.code
    assert await hub.rooms() == []
    assert "no room" in await refused(hub.join(ann.code, CAROL))
    assert "has closed" in await refused(hub.move(bob, 1, seen[-1].generation))


# -- drop, grace, reconnect ----------------------------------------------------


async def test_a_dropped_player_comes_back_with_the_same_key(hub: Hub, clock: Clock) -> None:
    ann, bob = await pair(hub)
    await play(hub, {"X": ann, "O": bob}, 5, 1)
    await hub.drop(bob)
    view = await look(hub, ann.code)
    assert view.seats[1].present is False and view.seats[1].back_by == clock.now + 60
    assert "Waiting for bob to come back" in await refused(hub.move(ann, 2, view.generation))
    assert "is full" in await refused(hub.join(ann.code, CAROL))  # the seat is kept
    clock.now += 59.9
    back = await hub.join(ann.code, BOB._replace(address="10.9.9.9"))
    assert back.seat == "O" and back.token != bob.token
    view = await look(hub, ann.code)
    assert view.seats[1].present and view.seats[1].back_by is None
    assert view.moves == (5, 1) and view.result is None
    assert "no longer in room" in await refused(hub.move(bob, 2, view.generation))
    await play(hub, {"X": ann, "O": back}, 2)
    assert (await look(hub, ann.code)).moves == (5, 1, 2)


async def test_a_guest_comes_back_with_the_seat_token(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    guest = await hub.join(ann.code, GUEST)
    await hub.drop(guest)
    assert "is full" in await refused(hub.join(ann.code, GUEST))  # a guest has no key
    back = await hub.join(ann.code, Person("anyone"), token=guest.token)
    assert back.seat == "O"
    assert (await look(hub, ann.code)).seats[1].present


async def test_after_the_grace_the_round_is_abandoned(hub: Hub, clock: Clock) -> None:
    ann, bob = await pair(hub)
    await play(hub, {"X": ann, "O": bob}, 5)
    await hub.drop(bob)
    clock.now += 60
    await maybe(hub.expire())
    view = await look(hub, ann.code)
    assert (view.result, view.left_by) == ("abandoned", "O")
    assert view.seats[1].person is None
    bob_again = await hub.join(ann.code, BOB, token=bob.token)  # a newcomer now
    view = await look(hub, ann.code)
    assert bob_again.seat == "O" and (view.round, view.result, view.left_by) == (2, None, None)


async def test_any_call_expires_a_grace_without_expire(hub: Hub, clock: Clock) -> None:
    ann, bob = await pair(hub)
    await hub.drop(ann)
    await hub.drop(bob)
    clock.now += 61
    assert await hub.rooms() == []


async def test_the_timer_expires_a_grace_with_no_call() -> None:
    hub = MemoryHub(replace(UNTIMED, reconnect_grace=0.05))
    ann, bob = await pair(hub)
    seen: list[RoomView] = []

    async def follow() -> None:
        async for view in hub.updates(ann):
            seen.append(view)
            if view.seats[1].person is None:
                return

    task = asyncio.create_task(follow())
    await hub.drop(bob)
    await asyncio.wait_for(task, 10)  # nobody calls the hub: the timer does it
    assert seen[-1].seats[1].person is None


async def test_a_takeover_ends_the_old_links_updates(hub: Hub) -> None:
    ann, bob = await pair(hub)
    seen, task = await following(hub, bob)
    again = await hub.join(ann.code, BOB)  # the same key while the old link looks up
    await asyncio.wait_for(task, 5)
    assert again.seat == "O" and seen[-1] == (await look(hub, ann.code))
    await hub.drop(bob)  # the old link's drop changes nothing now
    assert (await look(hub, ann.code)).seats[1].present


async def test_a_spectator_dropping_just_leaves(hub: Hub) -> None:
    ann, _ = await pair(hub)
    carol = await hub.watch(ann.code, CAROL)
    await hub.drop(carol)
    assert (await look(hub, ann.code)).watchers == 0


# -- updates and the lobby -------------------------------------------------------


async def test_updates_give_the_newest_view_only_to_a_slow_reader(hub: Hub) -> None:
    ann, bob = await pair(hub)
    stream = hub.updates(bob)
    assert await anext(stream) == (await look(hub, ann.code))
    await play(hub, {"X": ann, "O": bob}, 1, 2, 3)  # three changes, nobody reading
    assert await anext(stream) == (await look(hub, ann.code))
    await hub.leave(bob)
    last = await anext(stream)
    assert last.seats[1].person is None  # the view after the leave, then the end
    with pytest.raises(StopAsyncIteration):
        await anext(stream)


async def test_updates_for_a_ticket_that_holds_nothing(hub: Hub) -> None:
    _ann, bob = await pair(hub)
    await hub.leave(bob)
    with pytest.raises(Refused):
        await anext(hub.updates(bob))


async def test_the_lobby_lists_live_rooms(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X", True)
    await hub.join(ann.code, BOB)
    lone = await hub.create(CAROL, 5, "O", True)
    await hub.watch(ann.code, GUEST)
    listed = {summary.code: summary for summary in await hub.rooms()}
    assert listed[ann.code].players == ("ann", "bob") and listed[ann.code].watchers == 1
    assert listed[lone.code].players == ("carol",) and listed[lone.code].size == 5
    await hub.leave(lone)
    assert [summary.code for summary in await hub.rooms()] == [ann.code]


# -- what one backend does alone ---------------------------------------------------


async def test_shutdown_closes_every_room(clock: Clock) -> None:
    hub = MemoryHub(clock=clock, rng=random.Random(1))
    _ann, bob = await pair(hub)
    stream = hub.updates(bob)
    await anext(stream)
    await hub.shutdown()
    assert (await anext(stream)).closed
    assert await hub.rooms() == []
