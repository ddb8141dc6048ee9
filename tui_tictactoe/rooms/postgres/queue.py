"""Quick match on PostgreSQL: the queues as rows of `room_queue`, paired by any host.

Every statement here runs inside the caller's transaction (`PostgresHub`'s). A pairing
reads the places waiting with `FOR UPDATE SKIP LOCKED`, applies `matching.pairs`,
inserts each pair's room and marks both places paired, all before COMMIT: a place
another host is pairing at the same moment is locked, so skipped, and once that host
commits it is paired and no longer waiting. Two hosts can never both pair a place.
Places not asked about for the timeout are swept the same way (skipping locked rows,
so two sweeps never wait on each other). A pair's rows stay through the decline window
and the room's opening; a room closed before its game began (`Room.abort`) ends them in
its change's own transaction (`opening_ended`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from tui_tictactoe.rooms import matching, refusals
from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.postgres.rows import MICROSECONDS, insert_room, rooms_of
from tui_tictactoe.rooms.room import SIZES, Room, check_room_count
from tui_tictactoe.rooms.view import SEATS, Person, Refused

if TYPE_CHECKING:
    import psycopg

QUEUE_LOCK = 0x7474_7400_0004
"""The advisory lock under which a place is counted and added (the limits hold across hosts)."""
_CODE_TRIES = 64


class Queued(NamedTuple):
    """A waiting place's row, as a pairing reads it."""

    waiter: matching.Waiter
    who: Person
    host: str


async def join(
    conn: psycopg.AsyncConnection,
    token_hash: str,
    who: Person,
    place: tuple[int, int],
    host: str,
    now: float,
    limits: RoomLimits,
) -> None:
    """Add a place (`place`: board and rating), `Refused` past `limits` (places per
    address, in all; the address's rooms)."""
    size, rating = place
    rooms = (await rooms_of(conn, [who.address] if who.address else [])).get(who.address, 0)
    check_room_count(who.address, rooms, None, limits)
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (QUEUE_LOCK,))
    cursor = await conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE address = %s) FROM room_queue WHERE code IS NULL",
        (who.address,),
    )
    total, own = await cursor.fetchone() or (0, 0)
    matching.check_place_count(
        who.address, own, total, limits.places_per_address, limits.max_places
    )
    await conn.execute(
        "INSERT INTO room_queue (token_hash, size, rating, name, key, address, host_id, since,"
        " seen_at) VALUES (%s, %s, %s, %s, %s, %s, %s, to_timestamp(%s), to_timestamp(%s))",
        (token_hash, size, rating, who.name, who.key, who.address, host, now, now),
    )


async def sweep(
    conn: psycopg.AsyncConnection, oldest: float, window_over: float
) -> list[tuple[str, str]]:
    """Places waiting not asked about since `oldest`, and pairs made before
    `window_over`, go; the (room, token hash) of those paired but never told, whose
    seats the caller gives up."""
    cursor = await conn.execute(
        "DELETE FROM room_queue WHERE token_hash IN (SELECT token_hash FROM room_queue q"
        " WHERE (code IS NULL AND seen_at < to_timestamp(%s))"
        " OR (paired_at < to_timestamp(%s) AND NOT EXISTS (" + _OPENING + "))"
        " FOR UPDATE SKIP LOCKED)"
        " RETURNING code, token_hash, told",
        (oldest, window_over),
    )
    rows = await cursor.fetchall()
    return [(code, token) for code, token, told in rows if code is not None and not told]


_OPENING = (
    "SELECT 1 FROM rooms r WHERE r.code = q.code AND r.matched AND NOT r.closed"
    " AND r.round = 1 AND r.result IS NULL AND cardinality(r.moves) < 2 AND r.opening_time > 0"
)
"""The room of place `q` is in its opening (`Room.in_opening`): the place is kept."""


async def untold(conn: psycopg.AsyncConnection, window_over: float) -> list[tuple[str, str]]:
    """Places paired before `window_over` whose session was never told, marked told
    (so once): the (room, token hash) of each, whose seat the caller drops."""
    cursor = await conn.execute(
        "UPDATE room_queue SET told = true WHERE code IS NOT NULL AND NOT told"
        " AND paired_at < to_timestamp(%s) RETURNING code, token_hash",
        (window_over,),
    )
    return [(code, token) for code, token in await cursor.fetchall()]


async def opening_ended(
    conn: psycopg.AsyncConnection, code: str, by: str | None, now: float, period: float
) -> None:
    """Room `code`, a quick match's, closed before its game began (in its change's
    transaction): the place of `by`, who did not play, goes and is counted as a decline
    (address and key); the other's waits again with the time it joined if its session
    asked lately; the rest go (`by` None: both links were gone)."""
    if by is not None:
        await conn.execute(
            "WITH gone AS (DELETE FROM room_queue WHERE code = %(code)s AND seat = %(by)s"
            " RETURNING address, key)"
            " INSERT INTO room_wrong_codes (address, at, kind)"
            " SELECT counted, to_timestamp(%(now)s), 'decline' FROM gone,"
            " LATERAL (VALUES (address), ('key ' || key)) AS v(counted)"
            " WHERE counted <> '' AND counted <> 'key '",
            {"code": code, "by": by, "now": now},
        )
        await conn.execute(
            "UPDATE room_queue SET code = NULL, seat = NULL, paired_at = NULL, told = false,"
            " seen_at = to_timestamp(%s) WHERE code = %s AND seen_at >= to_timestamp(%s)",
            (now, code, now - matching.BACK_WITHIN),
        )
    await conn.execute("DELETE FROM room_queue WHERE code = %s", (code,))
    await conn.execute(
        "DELETE FROM room_wrong_codes WHERE kind = 'decline' AND at <= to_timestamp(%s)",
        (now - period,),
    )


async def touch(
    conn: psycopg.AsyncConnection, token_hash: str, now: float
) -> tuple[str | None, str | None] | None:
    """The place's heartbeat: its room and seat if paired (its session told from now),
    (None, None) while it waits, None if it is gone."""
    cursor = await conn.execute(
        "UPDATE room_queue SET seen_at = to_timestamp(%s), told = code IS NOT NULL"
        " WHERE token_hash = %s RETURNING code, seat",
        (now, token_hash),
    )
    row = await cursor.fetchone()
    return None if row is None else (row[0], row[1])


async def forget(conn: psycopg.AsyncConnection, token_hash: str) -> str | None:
    """The place gone; its room if it was paired and its session never told."""
    cursor = await conn.execute(
        "DELETE FROM room_queue WHERE token_hash = %s RETURNING code, told", (token_hash,)
    )
    row = await cursor.fetchone()
    return None if row is None or row[0] is None or row[1] else str(row[0])


async def paired_room(
    conn: psycopg.AsyncConnection, token_hash: str, since: float
) -> tuple[str, str] | None:
    """The room and seat of the pair `token_hash` was made into after `since` (its
    decline window still open), or None."""
    cursor = await conn.execute(
        "SELECT code, seat FROM room_queue WHERE token_hash = %s AND code IS NOT NULL"
        " AND paired_at >= to_timestamp(%s)",
        (token_hash, since),
    )
    row = await cursor.fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


async def waiting(conn: psycopg.AsyncConnection) -> tuple[int, ...]:
    """How many wait on each board (in the order of `room.SIZES`)."""
    cursor = await conn.execute(
        "SELECT size, count(*) FROM room_queue WHERE code IS NULL GROUP BY size"
    )
    counts = {int(size): int(count) for size, count in await cursor.fetchall()}
    return tuple(counts.get(size, 0) for size in SIZES)


async def pair(
    conn: psycopg.AsyncConnection,
    now: float,
    oldest: float,
    new_room: Callable[[int], Room],
    limits: RoomLimits,
) -> int:
    """Every pair the rule makes among the places no other host holds now, each seated
    in a new private room (`new_room(size)` makes the `Room`, code drawn, round key
    dealt, its opening's time set). How many pairs were made; at the rooms' cap
    (`limits`: per address, in all) the rest wait on, as a place whose address has its
    rooms does."""
    cursor = await conn.execute(
        "SELECT token_hash, size, rating,"
        " (extract(epoch FROM since) * 1000000)::bigint, name, key, host_id, address"
        " FROM room_queue WHERE code IS NULL AND seen_at >= to_timestamp(%s)"
        " ORDER BY since, token_hash FOR UPDATE SKIP LOCKED",
        (oldest,),
    )
    rows = {
        token: Queued(
            matching.Waiter(token, int(size), int(rating), since / MICROSECONDS, address),
            Person(name, key, address),
            host,
        )
        for token, size, rating, since, name, key, host, address in await cursor.fetchall()
    }
    own = await rooms_of(conn, sorted({q.who.address for q in rows.values() if q.who.address}))
    waiting = [
        q.waiter for q in rows.values() if own.get(q.who.address, 0) < limits.rooms_per_address
    ]
    made = 0
    for x, o in matching.pairs(waiting, now):
        seated = (rows[x.place], rows[o.place])
        try:
            code = await _insert_pair(conn, seated, now, new_room, limits)
        except Refused as refusal:
            if refusals.is_full(refusal):
                break  # the rooms are at their cap: the places wait on
            continue  # one address reached its rooms with a pair before: the next time
        for seat, queued in zip(SEATS, seated, strict=True):
            await conn.execute(
                "UPDATE room_queue SET code = %s, seat = %s, paired_at = to_timestamp(%s)"
                " WHERE token_hash = %s",
                (code, seat, now, queued.waiter.place),
            )
        made += 1
    return made


async def _insert_pair(
    conn: psycopg.AsyncConnection,
    seated: tuple[Queued, Queued],
    now: float,
    new_room: Callable[[int], Room],
    limits: RoomLimits,
) -> str:
    """The pair's room, X then O, each seat its own host's; its code. It has no opener:
    it counts against both players' addresses."""
    hosts = {queued.waiter.place: queued.host for queued in seated}
    for _ in range(_CODE_TRIES):
        room = new_room(seated[0].waiter.size)
        room.flag_fall(now)  # the time of this change: the opening's clock starts from it
        for seat, queued in zip(SEATS, seated, strict=True):
            room.sit(seat, queued.who, queued.waiter.place)
        if await insert_room(conn, room, now, seated[0].host, limits, hosts):
            return room.code
    raise refusals.no_free_code()
