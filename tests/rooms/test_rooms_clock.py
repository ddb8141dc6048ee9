"""The move clock, a round claimed from a player who left, and a take-back by consent,
on both hubs (`MemoryHub` and `PostgresHub` on a real PostgreSQL, the same injected
clock): the deadline is the room's state, so a round is lost on time once, whoever
looks first (the hub's sweep, or the next call). The rules themselves, and random
sequences of them, are in test_room_clock_model.py."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
import test_rooms_hub
from test_rooms_hub import ANN, BOB, CAROL, Clock, Hub, look, maybe, refused

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.view import Offer, Refused, Ticket

clock = test_rooms_hub.clock
MOVE_TIME = 30.0


@pytest.fixture(params=["memory", "postgres"])
async def hub(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[Hub]:
    """Each backend, a 30 s move clock and a 60 s grace, on the test's clock."""
    options: dict[str, Any] = {"clock": clock, "rng": random.Random(1)}
    limits = replace(UNTIMED, move_time=MOVE_TIME)
    if request.param == "memory":
        yield MemoryHub(limits, **options)
        return
    async with PostgresHub(request.getfixturevalue("pg_url"), limits, **options) as pg_hub:
        yield pg_hub


async def started(hub: Hub) -> tuple[Ticket, Ticket]:
    """ann (X) and bob (O); ann has played 5: bob's clock runs."""
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    view = await look(hub, ann.code)
    assert view.deadline is None  # no clock before the first move
    await hub.move(ann, 5, view.generation)
    return ann, bob


async def test_the_mover_loses_on_time_once_whoever_looks(hub: Hub, clock: Clock) -> None:
    ann, bob = await started(hub)
    view = await look(hub, ann.code)
    assert view.deadline == clock.now + MOVE_TIME and view.to_move == "O"
    clock.now += MOVE_TIME - 1
    await maybe(hub.expire())
    assert (await look(hub, ann.code)).result is None
    clock.now += 1
    await maybe(hub.expire())
    view = await look(hub, ann.code)
    assert (view.result, view.cause, view.score, view.deadline) == ("X", "time", (1, 0, 0), None)
    await maybe(hub.expire())  # looked at again: nothing more
    again = await look(hub, ann.code)
    assert again.generation == view.generation and again.score == (1, 0, 0)
    await hub.rematch(ann)
    await hub.rematch(bob)
    view = await look(hub, ann.code)
    assert (view.result, view.cause, view.deadline, view.round) == (None, None, None, 2)


async def test_the_next_call_finds_the_time_run_out(hub: Hub, clock: Clock) -> None:
    ann, bob = await started(hub)
    await hub.move(bob, 1, (await look(hub, ann.code)).generation)
    assert (await look(hub, ann.code)).deadline == clock.now + MOVE_TIME  # ann's now, afresh
    clock.now += MOVE_TIME + 5
    generation = (await look(hub, ann.code)).generation
    reason = await refused(hub.move(ann, 2, generation))
    assert "round is over" in reason
    view = await look(hub, ann.code)
    assert (view.result, view.cause) == ("O", "time")


async def test_the_clock_waits_while_the_movers_opponent_is_away(hub: Hub, clock: Clock) -> None:
    ann, _bob = await started(hub)
    await hub.drop(ann)  # bob cannot play while ann is away: his clock stops
    assert (await look(hub, ann.code)).deadline is None
    clock.now += MOVE_TIME + 10
    await maybe(hub.expire())
    assert (await look(hub, ann.code)).result is None
    ann = await hub.join(ann.code, ANN)  # back: bob's full time again
    view = await look(hub, ann.code)
    assert view.result is None and view.deadline == clock.now + MOVE_TIME


async def test_a_mover_away_runs_on_their_clock(hub: Hub, clock: Clock) -> None:
    ann, bob = await started(hub)
    await hub.drop(bob)  # the mover's own link: their clock runs on (grace 60 > 30)
    clock.now += MOVE_TIME
    await maybe(hub.expire())
    view = await look(hub, ann.code)
    assert (view.result, view.cause, view.left_by) == ("X", "time", None)


async def test_a_grace_that_ends_first_is_an_abandoned_round(clock: Clock) -> None:
    """Looked at late, after both the mover's grace (first) and their time: abandoned."""
    hub = MemoryHub(replace(UNTIMED, move_time=MOVE_TIME, reconnect_grace=10.0), clock=clock)
    ann, bob = await started(hub)
    await hub.drop(bob)
    clock.now += MOVE_TIME + 1
    hub.expire()
    view = hub.view(ann.code)
    assert (view.result, view.left_by, view.cause) == ("abandoned", "O", None)


async def test_a_player_left_behind_claims_the_round_after_half_the_grace(
    hub: Hub, clock: Clock
) -> None:
    ann, bob = await started(hub)  # bob to move: ann's link drops, his clock waits
    assert "still here" in await refused(hub.claim(bob))
    await hub.drop(ann)
    view = await look(hub, ann.code)
    assert view.grace == 60.0 and view.seats[0].back_by == clock.now + 60
    clock.now += 20
    reason = await refused(hub.claim(bob))
    assert reason == "ann may come back: claim the round in 10 s."
    eve = await hub.watch(ann.code, CAROL)
    assert "watching" in await refused(hub.claim(eve))
    clock.now += 10
    await hub.claim(bob)
    view = await look(hub, ann.code)
    assert (view.result, view.left_by, view.cause) == ("abandoned", "X", "claimed")
    assert view.score == (0, 1, 0)  # issue 36: the room's score counts it as bob's win
    assert "round is over" in await refused(hub.claim(bob))
    clock.now += 31  # ann's grace runs out: her seat is freed, the result stays
    await maybe(hub.expire())
    view = await look(hub, ann.code)
    assert (view.result, view.left_by, view.cause) == ("abandoned", "X", "claimed")
    assert view.seats[0].person is None


async def test_time_away_adds_up_over_the_round(hub: Hub, clock: Clock) -> None:
    """Issue 35: ann, not to move, leaves for 12 s and comes back, again and again (bob
    could never play): the grace is the round's, not each drop's. With 24 s spent bob
    may claim 6 s into her third absence; the next round gives each a whole grace."""
    ann, bob = await started(hub)
    for spent in (0, 12):
        await hub.drop(ann)
        view = await look(hub, ann.code)
        assert view.seats[0].back_by == clock.now + 60 - spent  # what is left of it
        clock.now += 12
        assert "claim the round in" in await refused(hub.claim(bob))
        ann = await hub.join(ann.code, ANN)
    await hub.drop(ann)
    assert await refused(hub.claim(bob)) == "ann may come back: claim the round in 6 s."
    clock.now += 6
    await hub.claim(bob)
    view = await look(hub, ann.code)
    assert (view.result, view.left_by, view.cause) == ("abandoned", "X", "claimed")
    ann = await hub.join(ann.code, ANN)
    await hub.rematch(ann)
    await hub.rematch(bob)
    await hub.drop(bob)  # a new round: a whole grace again
    assert (await look(hub, ann.code)).seats[1].back_by == clock.now + 60


async def test_a_player_who_keeps_leaving_loses_their_seat_when_the_grace_is_spent(
    hub: Hub, clock: Clock
) -> None:
    """Unclaimed, the round's grace runs out over several absences as over one: the
    seat is freed, the round abandoned by the one who kept leaving."""
    ann, _bob = await started(hub)
    for _ in range(3):
        await hub.drop(ann)
        clock.now += 19
        ann = await hub.join(ann.code, ANN)
    await hub.drop(ann)  # 57 s spent: 3 s left
    clock.now += 3
    await maybe(hub.expire())
    view = await look(hub, ann.code)
    assert (view.result, view.left_by, view.seats[0].person) == ("abandoned", "X", None)


async def test_a_take_back_accepted_undoes_the_last_move(hub: Hub, clock: Clock) -> None:
    ann, bob = await started(hub)
    await hub.move(bob, 1, (await look(hub, ann.code)).generation)
    assert "Only bob may ask" in await refused(hub.offer(ann, "take_back"))
    await hub.offer(bob, "take_back")
    assert (await look(hub, ann.code)).offer == Offer("take_back", "O")
    clock.now += 7
    await hub.answer(ann, True)
    view = await look(hub, ann.code)
    assert (view.moves, view.to_move, view.take_backs, view.offer) == ((5,), "O", 1, None)
    assert view.deadline == clock.now + MOVE_TIME  # bob's turn again, his full time
    await hub.move(bob, 9, view.generation)  # the undone cell or another: his choice
    view = await look(hub, ann.code)
    assert view.moves == (5, 9) and view.take_backs == 1


async def test_a_take_back_declined_and_one_request_a_move(hub: Hub) -> None:
    ann, bob = await started(hub)
    await hub.offer(ann, "take_back")
    await hub.answer(bob, False)
    view = await look(hub, ann.code)
    assert (view.moves, view.offer, view.take_backs) == ((5,), None, 0)
    assert "One offer a move" in await refused(hub.offer(ann, "take_back"))
    with pytest.raises(Refused, match="Nothing to take back"):
        fresh = await hub.create(CAROL, 3, "X")
        await hub.join(fresh.code, BOB)
        await hub.offer(fresh, "take_back")


async def test_memory_hubs_timer_falls_the_flag_with_no_call() -> None:
    """On the real clock, nobody calling: the timer armed by the move ends the round."""
    hub = MemoryHub(replace(UNTIMED, move_time=0.05))
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    stream = hub.updates(ann)
    seen = [await anext(stream)]  # following before the move, as a screen is

    async def follow() -> None:
        async for view in stream:
            seen.append(view)
            if view.result is not None:
                return

    task = asyncio.create_task(follow())
    await hub.move(ann, 5, hub.view(ann.code).generation)
    await asyncio.wait_for(task, 10)
    assert (seen[-1].result, seen[-1].cause) == ("X", "time")


async def test_a_quick_matchs_room_runs_on_the_hubs_clock(hub: Hub, clock: Clock) -> None:
    """A room the queue opens keeps the hub's terms as one a player opens does (the match
    and the clock were built apart: its room once had no clock at all), once its
    opening (the first move and reply, timed apart: test_rooms_opening.py) is over."""
    ann = await hub.queue_join(ANN, 3, 1200)
    bob = await hub.queue_join(BOB, 3, 1200)
    x, o = (await hub.queue_poll(ann)).ticket, (await hub.queue_poll(bob)).ticket
    assert x is not None and o is not None
    first, second = (x, o) if x.seat == "X" else (o, x)
    await hub.move(first, 5, (await look(hub, x.code)).generation)
    await hub.move(second, 1, (await look(hub, x.code)).generation)
    await hub.move(first, 9, (await look(hub, x.code)).generation)
    view = await look(hub, x.code)
    assert view.deadline == clock.now + MOVE_TIME and view.to_move == "O"
    clock.now += MOVE_TIME
    await maybe(hub.expire())
    assert (await look(hub, x.code)).cause == "time"
