"""The room hub's data path on PostgreSQL: a few connections, a change in two flights,
and notifications that carry the room.

Every database is real (`pg_cluster.py`) and nothing is timed: each wait is for a
state, with a generous limit. The notification's payload and `Readers.note` are checked
without a database, the payload over generated rooms (hypothesis).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pg_cluster import Cluster
from pg_rooms_tools import Clocks

from tui_tictactoe.engine.board import other
from tui_tictactoe.rooms.postgres import link as pg_link
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.postgres.link import BUSY
from tui_tictactoe.rooms.postgres.readers import Readers
from tui_tictactoe.rooms.postgres.rows import NOTE_BYTES, Loaded, from_note, hashed, micro, note
from tui_tictactoe.rooms.room import Room
from tui_tictactoe.rooms.view import Person, Refused, RoomView, SeatName, Ticket

WAIT = 30.0  # seconds: generous, the machine is shared
ANN = Person("ann", "SHA256:ann", "10.0.0.1")
BOB = Person("bob", "SHA256:bob", "10.0.0.2")
CAROL = Person("carol", "SHA256:carol", "10.0.0.3")
DAVE = Person("dave", "", "10.0.0.4")
QUIET: Clocks = {"heartbeat": 3600.0, "reread": 3600.0}
"""No beat and no periodic re-read after the start: only the calls of the test."""


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.02)


async def follow(hub: PostgresHub, ticket: Ticket, views: list[RoomView]) -> None:
    async for view in hub.updates(ticket):
        views.append(view)


async def test_a_room_waiting_for_its_row_lock_holds_up_no_other_room(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another session holds room 1's row: a move there waits for the lock, and a move
    in room 2 through the same hub lands meanwhile (it has a connection of its own)."""
    import psycopg

    monkeypatch.setattr(pg_link, "_TIMEOUT_VALUES", ("60000ms", "60000ms"))  # waits, not fails
    hub = PostgresHub(pg_url, listen=False, **QUIET)
    await hub.start()
    try:
        first = await hub.create(ANN, 3, "X")
        await hub.join(first.code, BOB)
        second = await hub.create(CAROL, 3, "X")
        await hub.join(second.code, DAVE)
        at = {t.code: (await hub.view(t.code)).generation for t in (first, second)}
        connect = psycopg.AsyncConnection.connect
        async with await connect(pg_url) as other, await connect(pg_url, autocommit=True) as look:
            async with other.transaction():
                await other.execute("SELECT 1 FROM rooms WHERE code = %s FOR UPDATE", (first.code,))
                waiting = asyncio.create_task(hub.move(first, 5, at[first.code]))
                async with asyncio.timeout(WAIT):
                    while not await _lock_waits(look):
                        await asyncio.sleep(0.02)
                async with asyncio.timeout(WAIT):
                    await hub.move(second, 5, at[second.code])
                assert not waiting.done()  # still waiting for room 1's row
            async with asyncio.timeout(WAIT):
                await waiting
        assert (await hub.view(first.code)).moves == (await hub.view(second.code)).moves == (5,)
    finally:
        await hub.shutdown()


async def test_a_move_that_waits_out_the_lock_timeout_is_refused_and_the_next_lands(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure inside a flight (here the lock timeout, cut to 0.2 s) is a refusal saying
    the database is busy; the connection it left in an unknown state is not used again."""
    import psycopg

    monkeypatch.setattr(pg_link, "_TIMEOUT_VALUES", ("60000ms", "200ms"))
    hub = PostgresHub(pg_url, listen=False, connections=1, **QUIET)
    await hub.start()
    try:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        generation = (await hub.view(ann.code)).generation
        async with (
            await psycopg.AsyncConnection.connect(pg_url) as other,
            other.transaction(),
        ):
            await other.execute("SELECT 1 FROM rooms WHERE code = %s FOR UPDATE", (ann.code,))
            with pytest.raises(Refused) as refused:
                await hub.move(ann, 5, generation)
            assert refused.value.reason == BUSY
        await hub.move(ann, 5, generation)  # the same connection slot, a new connection
        assert (await hub.view(ann.code)).moves == (5,)
    finally:
        await hub.shutdown()


async def _lock_waits(conn: object) -> int:
    """Sessions of this database waiting for a lock (read outside any transaction: a
    transaction sees one snapshot of `pg_stat_activity`)."""
    cursor = await conn.execute(  # type: ignore[attr-defined]
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    row = await cursor.fetchone()
    return int(row[0])


async def test_a_move_leaves_the_rows_of_the_seats_alone(pg_url: str) -> None:
    """The seats' rows are rewritten only when the places change (`ctid` is a row
    version's place: a row deleted and inserted again has a new one)."""
    import psycopg

    hub = PostgresHub(pg_url, listen=False, **QUIET)
    await hub.start()
    try:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:

            async def seat_rows() -> list[tuple[object, ...]]:
                cursor = await conn.execute(
                    "SELECT seat, ctid::text FROM room_seats WHERE code = %s ORDER BY seat",
                    (ann.code,),
                )
                return await cursor.fetchall()

            before = await seat_rows()
            await hub.move(ann, 5, (await hub.view(ann.code)).generation)
            assert await seat_rows() == before
            await hub.watch(ann.code, CAROL)  # the places change: every row is written
            after = await seat_rows()
            assert [seat for seat, _ in after] == ["O", "X"]
            assert not {place for _, place in after} & {place for _, place in before}
    finally:
        await hub.shutdown()


async def test_the_first_move_after_a_restart_is_not_refused(own_cluster: Cluster) -> None:
    """A move's first flight on a connection kept from before PostgreSQL restarted fails;
    it wrote nothing, so it is sent again on a new connection and the move lands."""
    hub = PostgresHub(own_cluster.new_database(), listen=False, **QUIET)
    await hub.start()
    try:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        generation = (await hub.view(ann.code)).generation
        own_cluster.stop()
        own_cluster.start()  # no call while it was down: the hub's connections are stale
        await hub.move(ann, 5, generation)
        assert (await hub.view(ann.code)).moves == (5,)
    finally:
        await hub.shutdown()


async def test_a_notification_feeds_another_hosts_readers_without_a_read(pg_url: str) -> None:
    """Host B's connections are cut off (only its listening one is left): its reader
    still gets host A's move, from the rows the notification carries."""
    a = PostgresHub(pg_url, **QUIET)
    b = PostgresHub(pg_url, **QUIET)
    await a.start()
    await b.start()
    views: list[RoomView] = []
    reading = None
    try:
        ann = await a.create(ANN, 3, "X")
        bob = await b.join(ann.code, BOB)
        reading = asyncio.create_task(follow(b, bob, views))
        await until(lambda: bool(views) and views[-1].seats[1].present)
        b._link.url = "postgresql://nobody@127.0.0.1:1/nothing"  # every read refused now
        await b._link.close()
        await a.move(ann, 5, views[-1].generation)
        await until(lambda: views[-1].moves == (5,))
        assert views[-1] == await a.view(ann.code)
    finally:
        if reading is not None:
            reading.cancel()
        await asyncio.gather(*[t for t in [reading] if t], return_exceptions=True)
        await a.shutdown()
        await b.shutdown()


# -- the notification's payload, and readers, without a database ---------------------

names = st.text(min_size=1, max_size=40)
tokens = st.text(alphabet="0123456789abcdef", min_size=1, max_size=16).map(hashed)


@st.composite
def loaded_rooms(draw: st.DrawFn) -> Loaded:
    """A room as a hub holds one: seats (one maybe away), moves, spectators, hosts."""
    room = Room("ABCD", draw(st.sampled_from([3, 4, 5])), draw(st.sampled_from(["X", "O"])))
    room.round_key = draw(st.text(min_size=1, max_size=20))
    hosts: dict[str, str] = {}
    seatings: list[list[SeatName]] = [["X"], ["X", "O"]]
    for seat in draw(st.sampled_from(seatings)):
        token = draw(tokens)
        room.sit(seat, Person(draw(names), draw(st.sampled_from(["", "SHA256:k"]))), token)
        hosts[token] = draw(st.sampled_from(["host-a", "host-b"]))
    cells = draw(st.permutations(range(1, room.size**2 + 1)))
    for cell in cells[: draw(st.integers(0, len(cells)))]:
        if room.result is not None or room.players() < 2:
            break
        room.play(room.to_move() or "X", lambda: "", cell, room.generation)
        room.generation += 1
    if room.result is None and room.moves and room.players() == 2 and draw(st.booleans()):
        room.make_offer(draw(st.sampled_from(["X", "O"])), lambda: "", "draw")  # kept too
        if room.offer is not None and draw(st.booleans()):
            room.answer(other(room.offer.by), lambda: "", draw(st.booleans()))  # kept too
        room.generation += 1
    room.seats["X"].spent = draw(st.sampled_from([0.0, 12.5, 59.999999]))  # time away: kept
    if draw(st.booleans()):
        room.away("X", micro(draw(st.floats(1e9, 2e9))))
    for token in draw(st.lists(tokens, max_size=12, unique=True)):
        if token not in hosts:
            room.watchers[token] = Person(draw(names), "")
            hosts[token] = "host-c"
    incarnation = draw(st.integers(0, 2**62))
    return Loaded(room, incarnation, hosts, room.generation - 1)


@settings(max_examples=200, deadline=None)
@given(loaded_rooms())
def test_a_notification_carries_the_room_whole_or_only_its_generation(loaded: Loaded) -> None:
    sent = note(loaded)
    head = f"{loaded.room.code} {loaded.room.generation}"
    assert len(sent.encode()) <= NOTE_BYTES
    if sent == head:  # too long to carry (only with spectators: two seats always fit)
        assert loaded.room.watchers
        return
    body = sent.removeprefix(head + " ")
    carried = from_note(loaded.room.code, loaded.room.generation, body)
    assert carried is not None
    assert carried.room.view() == loaded.room.view()
    assert carried.incarnation == loaded.incarnation
    assert carried.room.seats == loaded.room.seats
    assert carried.room.watchers == loaded.room.watchers
    assert carried.hosts == loaded.hosts
    assert carried.room.board == loaded.room.board
    assert from_note(loaded.room.code, loaded.room.generation + 1, body) is None  # not that one
    assert from_note("WXYZ", loaded.room.generation, body) is None


def test_a_room_too_big_to_carry_is_named_only() -> None:
    room = Room("ABCD", 3, "X", round_key="k")
    room.sit("X", ANN._replace(address=""), hashed("t"))
    for n in range(100):  # as `--max-spectators 100` allows
        room.watchers[hashed(f"w{n}")] = Person("w" * 40 + str(n), "")
    sent = note(Loaded(room, 1, {}, 1))
    assert sent == f"ABCD {room.generation}"


def test_a_notification_of_another_incarnation_is_read_again_not_delivered() -> None:
    """A copy carried by a notification that names another incarnation of the code (it
    may be older than the room the reader follows) does not close the reader: the room
    is read again instead. A copy of the same incarnation is delivered at once."""
    room = Room("ABCD", 3, "X", round_key="k")
    room.sit("X", ANN._replace(address=""), hashed("t"))
    readers = Readers()
    reader = readers.add("X", hashed("t"), Loaded(room, 7, {}, room.generation))
    readers.take_due(everything=False)  # the read a new reader asks for, done
    newer = Room("ABCD", 3, "X", generation=room.generation + 1, round_key="k")
    newer.seats = room.seats
    readers.note("ABCD", newer.generation, lambda: Loaded(newer, 8, {}, newer.generation))
    assert not reader.last.closed and reader.last.generation == room.generation
    assert readers.take_due(everything=False) == ["ABCD"]
    readers.note("ABCD", newer.generation, lambda: Loaded(newer, 7, {}, newer.generation))
    assert reader.last == newer.view() and not reader.last.closed
    assert readers.take_due(everything=False) == []
