"""Private rooms, public rooms, watching off, and rooms counted per address (issue 28):
the rules of `room.Room`, through both backends (`MemoryHub` and `PostgresHub`, the
`hub` fixture of test_rooms_hub.py, on an injected clock)."""

# ruff: noqa: F811  # the fixtures `hub` and `clock`, imported, are parameters here

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from test_rooms_hub import (  # noqa: F401  # clock and hub are fixtures
    ANN,
    BOB,
    CAROL,
    GUEST,
    Clock,
    Hub,
    clock,
    hub,
    look,
    maybe,
    refused,
)

from tui_tictactoe.rooms.room import LOBBY_NAMES, ROOMS_PER_ADDRESS
from tui_tictactoe.rooms.view import Person

STRANGER = Person("stranger", "SHA256:stranger", "10.0.0.9")


async def listed(hub: Hub) -> dict[str, tuple[str, ...]]:
    return {summary.code: summary.players for summary in await hub.rooms()}


async def unknown_code(hub: Hub, taken: set[str]) -> str:
    """A well-formed code that names no room."""
    for code in ("ABCD", "BCDE", "CDEF", "DEFG", "EFGH", "FGHJ", "GHJK", "HJKM"):
        if code not in taken:
            return code
    raise AssertionError("no free code")


async def test_a_room_is_private_unless_made_public(hub: Hub) -> None:
    private = await hub.create(ANN, 3, "X")
    public = await hub.create(BOB, 4, "O", True)
    assert (await look(hub, private.code)).public is False
    assert (await look(hub, public.code)).public is True
    lobby = await listed(hub)
    assert private.code not in lobby and lobby[public.code] == ("bob",)
    # The code still brings a friend in.
    friend = await hub.join(private.code, CAROL)
    assert friend.seat == "O" and private.code not in await listed(hub)


async def test_a_watch_of_a_closed_room_and_of_no_room_say_the_same_and_count_the_same(
    hub: Hub,
) -> None:
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    await hub.set_watching(ann, False)
    assert (await look(hub, ann.code)).watching is False
    nowhere = await unknown_code(hub, {ann.code})
    closed_to_me = await refused(hub.watch(ann.code, STRANGER))
    no_room = await refused(hub.watch(nowhere, STRANGER))
    assert closed_to_me == f"There is no room {ann.code}: check the code."
    assert no_room == f"There is no room {nowhere}: check the code."
    # A join of the full room closed to spectators says the same.
    assert await refused(hub.join(ann.code, STRANGER)) == closed_to_me
    # Each was a wrong code: 3 so far, 2 more and the address waits, the right code too.
    await refused(hub.watch(nowhere, STRANGER))
    await refused(hub.watch(ann.code, STRANGER))
    assert (await refused(hub.watch(ann.code, STRANGER))).startswith("Too many wrong codes")


async def test_watching_off_sends_the_spectators_away_and_only_players_choose(
    hub: Hub,
) -> None:
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    guest = await hub.watch(ann.code, GUEST)
    stream = hub.updates(guest)
    first = await anext(stream)
    assert first.watchers == 1 and first.watching
    assert "only the players" in await refused(hub.set_watching(guest, False))
    await hub.set_watching(bob, False)  # either player may
    last = await asyncio.wait_for(anext(stream), 10)
    while last.watching:  # PostgresHub may deliver a view before the change too
        last = await asyncio.wait_for(anext(stream), 10)
    assert last.watchers == 0
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(stream), 10)
    generation = (await look(hub, ann.code)).generation
    await hub.set_watching(ann, False)  # already off: nothing changes
    assert (await look(hub, ann.code)).generation == generation
    await hub.set_watching(ann, True)
    assert (await hub.watch(ann.code, GUEST)).seat is None


async def test_only_the_creator_lists_the_room_or_takes_it_off_the_lobby(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X", True)
    bob = await hub.join(ann.code, BOB)
    guest = await hub.watch(ann.code, GUEST)
    for other in (bob, guest):
        assert "Only the player who opened the room" in await refused(hub.set_public(other, False))
    assert ann.code in await listed(hub)
    await hub.set_public(ann, False)
    assert ann.code not in await listed(hub)
    assert "Only the player who opened the room" in await refused(hub.set_public(bob, True))
    assert ann.code not in await listed(hub)
    await hub.set_public(ann, True)
    assert await listed(hub) == {ann.code: ("ann", "bob")}


async def test_the_lobby_lists_only_rooms_someone_may_enter(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X", True)
    bob = await hub.join(ann.code, BOB)
    await hub.set_watching(bob, False)
    assert ann.code not in await listed(hub)  # full, and closed to spectators
    await hub.leave(bob)
    summary = (await hub.rooms())[0]
    assert summary.code == ann.code and summary.free  # a free seat: Enter joins


async def test_a_player_comes_back_to_a_full_room_closed_to_spectators(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    guest = await hub.join(ann.code, GUEST)
    await hub.set_watching(ann, False)
    await hub.drop(guest)
    back = await hub.join(ann.code, Person("guest", "", "10.0.0.4"), guest.token)
    assert back.seat == "O"


async def test_rooms_are_counted_per_address_while_they_live(hub: Hub, clock: Clock) -> None:
    hub.limits = replace(hub.limits, max_rooms=None)
    made = [await hub.create(ANN, 3, "X") for _ in range(ROOMS_PER_ADDRESS)]
    reason = await refused(hub.create(ANN._replace(name="other"), 3, "X"))
    assert reason == f"This address has {ROOMS_PER_ADDRESS} rooms open: close one first."
    await hub.create(BOB, 3, "X")  # another address is not held back
    await hub.drop(made[0])  # a creator who dropped: the room counts until it goes
    assert (await refused(hub.create(ANN, 3, "X"))).startswith("This address has")
    clock.now += 61
    await maybe(hub.expire())
    assert (await hub.create(ANN, 3, "X")).seat == "X"


async def test_names_before_strangers_are_limited_per_address(hub: Hub, clock: Clock) -> None:
    hub.limits = replace(hub.limits, max_rooms=None)
    for _ in range(LOBBY_NAMES):
        await hub.leave(await hub.create(ANN, 3, "X", True))
    assert (await refused(hub.create(ANN, 3, "X", True))).startswith(
        "Too many public rooms from here: wait "
    )
    private = await hub.create(ANN, 3, "X")  # a private room shows no name: no limit
    assert "Too many public rooms" in await refused(hub.set_public(private, True))
    carol = await hub.create(CAROL, 3, "X", True)
    assert "Too many public rooms" in await refused(hub.join(carol.code, ANN))
    assert (await hub.join(private.code, BOB)).seat == "O"  # a private room's seat: no limit
    clock.now += 61
    await hub.set_public(private, True)
    assert private.code in await listed(hub)


async def test_wrong_seat_tokens_count_as_wrong_codes(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    for _ in range(5):
        assert "is full" in await refused(hub.join(ann.code, GUEST, "wrongtoken123456"))
    assert (await refused(hub.join(ann.code, GUEST))).startswith("Too many wrong codes")
    assert (await refused(hub.watch(ann.code, GUEST))).startswith("Too many wrong codes")
    # A right token is not counted.
    mine = await hub.create(CAROL, 3, "X")
    await hub.drop(mine)
    for _ in range(6):
        mine = await hub.join(mine.code, CAROL._replace(key=""), mine.token)
        await hub.drop(mine)
