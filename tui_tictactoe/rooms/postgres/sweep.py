"""What `PostgresHub` keeps up beside the moves: hosts' heartbeats, graces that run out,
places held through a host that went silent, and the notifications to other hosts.

`put_right` is the one rule for what is due in a room, applied under the room's lock
before any change: a present seat whose host is silent is marked away (its grace starts
now), a silent host's spectators leave, and a seat whose grace has run out is freed as
`leave` (as `MemoryHub.expire`); each is one step of the generation. `due_rooms` finds
the rooms where something is due, so whichever host sweeps first puts them right; doing
it twice finds nothing the second time.

A host is silent when its `room_hosts.seen_at` is older than the timeout, except while
the database itself started less than the timeout ago: after a restart of PostgreSQL
every host's last beat is old, and none of them is dead for that.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from tui_tictactoe.rooms.postgres.rows import MICROSECONDS, Loaded, micro, note, queue_load
from tui_tictactoe.rooms.view import SEATS

if TYPE_CHECKING:
    import psycopg

FORGET_CLOSED = 600
"""Seconds a closed room's row is kept (readers on other hosts learn it closed), then purged."""
FORGET_HOSTS = 86_400

_FRESH = "coalesce(to_timestamp(%(now)s::float8), now()) - make_interval(secs => %(timeout)s)"
_SILENT = f"""host_id <> %(me)s
    AND host_id NOT IN (SELECT host_id FROM room_hosts WHERE seen_at >= {_FRESH})
    AND pg_postmaster_start_time() <= now() - make_interval(secs => %(timeout)s)"""
_DUE = f"""
SELECT code FROM room_seats WHERE back_by <= to_timestamp(%(now)s)
UNION SELECT code FROM rooms WHERE deadline <= %(now)s AND NOT closed
UNION SELECT code FROM room_seats WHERE present AND {_SILENT}
UNION SELECT code FROM room_watchers WHERE {_SILENT}
"""
_LIVE = f"""
SELECT pg_postmaster_start_time() > now() - make_interval(secs => %(timeout)s),
       array(SELECT host_id FROM room_hosts WHERE seen_at >= {_FRESH}),
       (extract(epoch FROM now()) * 1000000)::bigint
"""


async def database_now(conn: psycopg.AsyncConnection) -> float:
    """The database's time (this transaction's start), in whole microseconds."""
    cursor = await conn.execute("SELECT (extract(epoch FROM now()) * 1000000)::bigint")
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0]) / MICROSECONDS


async def due_rooms(
    conn: psycopg.AsyncConnection, now: float, me: str, timeout: float
) -> list[str]:
    """Rooms with a mover's time or a grace run out, or a place held through a silent host."""
    cursor = await conn.execute(_DUE, {"now": now, "me": me, "timeout": timeout})
    return sorted(row[0] for row in await cursor.fetchall())


async def queue_live_hosts(
    conn: psycopg.AsyncConnection, now: float | None, timeout: float
) -> Callable[[], Awaitable[tuple[float, set[str] | None]]]:
    """The time (`now`, else the database's) and the hosts that beat within `timeout`
    (None: every host counts as live, the database started less than `timeout` ago):
    the statement sent now (queued, in pipeline mode), and its reader."""
    cursor = await conn.execute(_LIVE, {"now": now, "timeout": timeout})

    async def fetch() -> tuple[float, set[str] | None]:
        row = await cursor.fetchone()
        assert row is not None
        restarted, live, database_now = row
        at = database_now / MICROSECONDS if now is None else now
        return at, None if restarted else set(live)

    return fetch


Read = tuple[float, "Loaded | None", "set[str] | None"]
"""What a change reads first: the time, the room (locked), the live hosts (None: all)."""


async def queue_change(
    conn: psycopg.AsyncConnection, code: str, now: float | None, timeout: float
) -> Callable[[], Awaitable[Read]]:
    """A change's first flight (pipeline mode): the time (`now`, else the database's),
    the live hosts, and room `code` with its row locked; and what reads the results."""
    live = await queue_live_hosts(conn, now, timeout)
    rooms = await queue_load(conn, [code], lock=True)

    async def fetch() -> Read:
        at, hosts = await live()
        return at, (await rooms()).get(code), hosts

    return fetch


def put_right(loaded: Loaded, now: float, grace: float, alive: Callable[[str], bool]) -> None:
    """What is due in this room, each thing one generation: the mover's time run out
    (`Room.flag_fall`, which also gives the rules after it their `now`), silent hosts'
    seats away, their spectators gone, seats whose grace ran out freed."""
    room = loaded.room
    if room.flag_fall(now):
        room.generation += 1
    for seat in SEATS:
        held = room.seats[seat]
        if held.person is not None and held.present and not alive(loaded.hosts.get(held.token, "")):
            room.away(seat, micro(now + grace))
            room.generation += 1
    for token in list(room.watchers):
        if not alive(loaded.hosts.get(token, "")):
            del room.watchers[token]
            room.generation += 1
    for seat in SEATS:
        held = room.seats[seat]
        if held.person is not None and held.back_by is not None and held.back_by <= now:
            room.free(seat)
            room.generation += 1
        if room.closed:
            break


async def notify(conn: psycopg.AsyncConnection, channel: str, loaded: Loaded) -> None:
    """Tell the other hosts (on commit: NOTIFY is transactional) that the room is at its
    generation, with the room itself when it fits (`rows.note`)."""
    await conn.execute("SELECT pg_notify(%s, %s)", (channel, note(loaded)))


async def beat(conn: psycopg.AsyncConnection, me: str, now: float) -> None:
    """This host is alive at `now`; old closed rooms and long-gone hosts are forgotten."""
    await conn.execute(
        "INSERT INTO room_hosts (host_id, seen_at) VALUES (%s, to_timestamp(%s))"
        " ON CONFLICT (host_id) DO UPDATE SET seen_at = EXCLUDED.seen_at",
        (me, now),
    )
    await conn.execute(
        "DELETE FROM rooms WHERE closed AND updated_at < to_timestamp(%s)", (now - FORGET_CLOSED,)
    )
    await conn.execute(
        "DELETE FROM room_hosts WHERE seen_at < to_timestamp(%s)", (now - FORGET_HOSTS,)
    )


async def wrongly_away(
    conn: psycopg.AsyncConnection, me: str, tokens: list[str]
) -> list[tuple[str, str]]:
    """Seats of this host's live sessions that are marked away (code, token hash)."""
    if not tokens:
        return []
    cursor = await conn.execute(
        "SELECT code, token_hash FROM room_seats"
        " WHERE host_id = %s AND NOT present AND token_hash = ANY(%s) ORDER BY code",
        (me, tokens),
    )
    return [(code, token) for code, token in await cursor.fetchall()]


async def rooms_of_host(conn: psycopg.AsyncConnection, me: str) -> list[str]:
    """Rooms where this host holds a present seat or a spectator."""
    cursor = await conn.execute(
        "SELECT code FROM room_seats WHERE host_id = %(me)s AND present"
        " UNION SELECT code FROM room_watchers WHERE host_id = %(me)s ORDER BY code",
        {"me": me},
    )
    return [row[0] for row in await cursor.fetchall()]


async def away_seats(conn: psycopg.AsyncConnection) -> list[tuple[str, str, str, str, str]]:
    """Every seat held for a player whose link dropped, in every live room, on whichever
    host (code, seat, name, key, address): what `admin list` shows of a room nobody is in."""
    cursor = await conn.execute(
        "SELECT s.code, s.seat, s.name, s.key, s.address FROM room_seats s"
        " JOIN rooms r ON r.code = s.code WHERE NOT s.present AND NOT r.closed"
        " ORDER BY s.code, s.seat"
    )
    return [
        (code, seat, name, key, address)
        for code, seat, name, key, address in await cursor.fetchall()
    ]


def present_again(token: str) -> Callable[[Loaded, float], None]:
    """The change that marks the seat held by `token` present again (its host is alive)."""

    def back(loaded: Loaded, _now: float) -> None:
        room = loaded.room
        for seat in SEATS:
            held = room.seats[seat]
            if held.person is not None and held.token == token and not held.present:
                room.resume(seat, token)
                room.generation += 1

    return back
