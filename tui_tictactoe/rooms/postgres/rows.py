"""A room's rows read into a `room.Room` and written back: the rules stay in `room.py`.

`PostgresHub` loads a room (its row locked with `FOR UPDATE` when it is to change),
applies one of `Room`'s rules in Python, and writes the whole room back in the same
transaction. Seat and spectator tokens are stored as their SHA-256 only, so the `Room`
holds hashes and every token a client sends is hashed (`hashed`) before a rule sees it.
Times are whole microseconds (`micro`), the database's precision, so a view built here
and one read back from the rows are equal.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NoReturn

from tui_tictactoe.rooms import codes, refusals
from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.room import Room, Seat, check_room_count, round_fields, stored_round
from tui_tictactoe.rooms.view import Answer, Offer, Person, Ticket

if TYPE_CHECKING:
    import psycopg

MICROSECONDS = 1_000_000
Places = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]
"""The rows of a room's seats and of its spectators, as `save_places` writes them."""
NOTE_BYTES = 7900
"""The longest notification sent (PostgreSQL takes up to 8000 bytes)."""
CREATE_LOCK = 0x7474_7400_0003
"""Held while a room is created under a room cap, so hosts count one at a time."""
LOBBY = "SELECT code FROM rooms WHERE public AND NOT closed ORDER BY created_at, code LIMIT 1000"
"""The public rooms, oldest first: loaded, then listed by `Room.listed` (the rule's one place)."""


def micro(seconds: float) -> float:
    """`seconds` at the database's precision (a whole microsecond)."""
    return round(seconds * MICROSECONDS) / MICROSECONDS


def hashed(token: object) -> str:
    """What a token is kept as; "" (no token) for anything but a short ASCII string."""
    if not isinstance(token, str) or not token or not token.isascii() or len(token) > 64:
        return ""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass
class Loaded:
    """A room as read, with what `Room` does not keep: which host holds each place
    (token hash -> host id), the room's incarnation (a code freed and used again is
    another room), the generation it was read at, and its places' rows as read (a change
    that leaves them alone, a move, does not write them)."""

    room: Room
    incarnation: int
    hosts: dict[str, str]
    read_at: int
    places: Places | None = None

    @property
    def changed(self) -> bool:
        return self.room.generation != self.read_at


COLUMNS: dict[str, str] = {
    "code": "",
    "incarnation": "",
    "size": "",
    "generation": "",
    "board_generation": "",
    "round": "",
    "first": "",
    "moves": "::smallint[]",
    "score": "::integer[]",
    "result": "",
    "left_by": "",
    "rematch": "::text[]",
    "closed": "",
    "round_key": "",
    "public": "",
    "watching": "",
    "owner_address": "",
    "offer": "",
    "offer_by": "",
    "offered": "::text[]",
    "agreed": "",
    "move_time": "",
    "grace": "",
    "deadline": "",
    "cause": "",
    "take_backs": "",
    "matched": "",
    "opening_time": "",
    "aborted_by": "",
    "unrated": "",
    "answered": "",
    "answered_by": "",
    "answered_yes": "",
}
"""A room's row: each column and the cast its value is written with. A room's state in
one list: `room_values` writes it, `_room` reads it, the statements are made from it."""
_AS_IS = tuple(
    column
    for column in COLUMNS
    if column in {each.name for each in fields(Room)}
    and column not in ("rematch", "offered", "offer", "answered")
)
"""The columns that hold a `Room` field of their name as it is: a new one is a line of
`COLUMNS` (and its migration step), nothing in `room_values` or `_room`. The round's
columns are its `room.round_fields`."""
_FIXED = ("code", "incarnation", "size", "owner_address", "matched", "opening_time")
"""Set when a room is made, never changed by a rule."""
_ROOM = f"SELECT {', '.join(COLUMNS)} FROM rooms WHERE code = ANY(%s)"
_SEATS = (
    "SELECT code, seat, name, key, token_hash, present,"
    " (extract(epoch FROM back_by) * 1000000)::bigint, host_id, creator, address, away_spent"
    " FROM room_seats WHERE code = ANY(%s)"
)
_WATCHERS = (
    "SELECT code, token_hash, name, key, host_id FROM room_watchers WHERE code = ANY(%s)"
    " ORDER BY code, token_hash"
)


async def load(conn: psycopg.AsyncConnection, codes: list[str], lock: bool) -> dict[str, Loaded]:
    """The rooms named (closed ones too); with `lock`, their rows are locked for this
    transaction (callers lock one room at a time, so no two transactions deadlock)."""
    return await (await queue_load(conn, codes, lock))()


async def queue_load(
    conn: psycopg.AsyncConnection, codes: list[str], lock: bool
) -> Callable[[], Awaitable[dict[str, Loaded]]]:
    """`load` as three statements sent now (queued, in pipeline mode) and what reads
    their results. The places are read by a statement after the one that locks the
    room's row, so under READ COMMITTED they are as the lock's last holder left them."""
    rooms = await conn.execute(_ROOM + (" FOR UPDATE" if lock else ""), (codes,))
    seats = await conn.execute(_SEATS, (codes,))
    watchers = await conn.execute(_WATCHERS, (codes,))

    async def fetch() -> dict[str, Loaded]:
        found = {row[0]: _room(row) for row in await rooms.fetchall()}
        _places(found, await seats.fetchall(), await watchers.fetchall())
        for loaded in found.values():
            loaded.places = place_rows(loaded, "")
        return found

    return fetch


def _places(found: dict[str, Loaded], seats: list[Any], watchers: list[Any]) -> None:
    """Rows of `room_seats` and `room_watchers` (as `_SEATS` and `_WATCHERS` read them)
    put in their rooms."""
    for code, seat, name, key, token, present, back_by, host, creator, address, spent in seats:
        if (loaded := found.get(code)) is not None:
            back = None if back_by is None else back_by / MICROSECONDS
            who = Person(name, key, address)
            loaded.room.seats[seat] = Seat(who, token, present, back, creator, spent)
            loaded.hosts[token] = host
    for code, token, name, key, host in watchers:
        if (loaded := found.get(code)) is not None:
            loaded.room.watchers[token] = Person(name, key)
            loaded.hosts[token] = host


def note(loaded: Loaded) -> str:
    """What a change tells the other hosts: `CODE GENERATION`, then the room's rows as
    JSON when they fit in a notification, so a host feeds its readers without reading
    the room again (else it reads it)."""
    room = loaded.room
    head = f"{room.code} {room.generation}"
    values = room_values(room, 0.0, loaded.incarnation) | {"owner_address": ""}
    row = [values[column] for column in COLUMNS]
    places, watchers = place_rows(loaded, "")
    seats = [  # `back_by` as `_SEATS` reads it: whole microseconds; no address sent
        (
            *seat[:6],
            None if seat[6] is None else round(seat[6] * MICROSECONDS),
            *seat[7:9],
            "",
            *seat[10:],
        )
        for seat in places
    ]
    text = f"{head} {json.dumps([row, seats, watchers], separators=(',', ':'))}"
    return text if len(text.encode()) <= NOTE_BYTES else head


def from_note(code: str, generation: int, body: str) -> Loaded | None:
    """The room a notification carries (`note`); None if it carries none, or anything
    but room `code` at `generation` (it is then read from its rows)."""
    try:
        row, seats, watchers = json.loads(body)
        found = {row[0]: _room(row)}
        _places(found, seats, watchers)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    loaded = found.get(code)
    if loaded is None or loaded.room.generation != generation:
        return None
    return loaded


def _room(row: tuple[Any, ...]) -> Loaded:
    value = dict(zip(COLUMNS, row, strict=True))
    offer, answered = value["offer"], value["answered"]
    answer = (value["answered_by"], value["answered_yes"])
    room = Room(
        **{column: value[column] for column in _AS_IS},
        first=value["first"],
        rematch=set(value["rematch"]),
        offered=set(value["offered"]),
        owner=value["owner_address"],
        offer=None if offer is None else Offer(offer, value["offer_by"]),
        answered=None if answered is None else Answer(answered, *answer),
    )
    room.game_round = stored_round(
        room.size,
        value["first"],
        value["round"],
        value["moves"],
        value["score"],
        value["result"],
        value["take_backs"],
    )
    return Loaded(room, value["incarnation"], {}, value["generation"])


_SET = ", ".join(f"{c} = %({c})s{cast}" for c, cast in COLUMNS.items() if c not in _FIXED)
INSERT_ROOM = f"""
INSERT INTO rooms ({", ".join(COLUMNS)}, created_at, updated_at)
VALUES ({", ".join(f"%({c})s{cast}" for c, cast in COLUMNS.items())},
        to_timestamp(%(now)s), to_timestamp(%(now)s))
ON CONFLICT (code) DO UPDATE SET
    {", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS if c != "code")},
    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
WHERE rooms.closed
RETURNING code
"""
"""A new room; a closed room's row with the same code is taken over (its code is free
again), a live one's is not (no row returned: the caller draws another code)."""

_UPDATE_ROOM = f"UPDATE rooms SET {_SET}, updated_at = to_timestamp(%(now)s) WHERE code = %(code)s"
_INSERT_SEAT = (
    "INSERT INTO room_seats (code, seat, name, key, token_hash, present, back_by, host_id,"
    " creator, address, away_spent)"
    " VALUES (%s, %s, %s, %s, %s, %s, to_timestamp(%s), %s, %s, %s, %s)"
)
_INSERT_WATCHER = (
    "INSERT INTO room_watchers (code, token_hash, name, key, host_id) VALUES (%s, %s, %s, %s, %s)"
)


def room_values(room: Room, now: float, incarnation: int = 0) -> dict[str, object]:
    """The room's row (`COLUMNS`), and `now` for its times."""
    offer, answered = room.offer, room.answered
    return {
        **{column: getattr(room, column) for column in _AS_IS},
        **round_fields(room.game_round),
        "incarnation": incarnation,
        "moves": list(room.moves),
        "score": list(room.score),
        "rematch": sorted(room.rematch),
        "offered": sorted(room.offered),
        "owner_address": room.owner,
        "offer": None if offer is None else offer.kind,
        "offer_by": None if offer is None else offer.by,
        "answered": None if answered is None else answered.kind,
        "answered_by": None if answered is None else answered.by,
        "answered_yes": None if answered is None else answered.yes,
        "now": now,
    }


async def save(conn: psycopg.AsyncConnection, loaded: Loaded, now: float, host: str) -> None:
    """Write the room back (its row is locked by this transaction): the room's row, and
    its seats and spectators replaced if they changed. A new place is `host`'s."""
    await conn.execute(_UPDATE_ROOM, room_values(loaded.room, now))
    if place_rows(loaded, host) != loaded.places:
        await save_places(conn, loaded, host, fresh=False)


def place_rows(loaded: Loaded, host: str) -> Places:
    """The rows of the room's seats and spectators (none once closed); a place with no
    host yet is `host`'s."""
    room = loaded.room
    if room.closed:
        return [], []  # a closed room's row is kept a while; nobody is in it

    def hosts(token: str) -> str:
        return loaded.hosts.get(token, host)

    seats = [
        (
            room.code,
            name,
            who.name,
            who.key,
            seat.token,
            seat.present,
            seat.back_by,
            hosts(seat.token),
            seat.creator,
            who.address,
            seat.spent,
        )
        for name, seat in room.seats.items()
        if (who := seat.person) is not None
    ]
    watchers = [
        (room.code, token, who.name, who.key, hosts(token)) for token, who in room.watchers.items()
    ]
    return seats, watchers


async def save_places(
    conn: psycopg.AsyncConnection, loaded: Loaded, host: str, fresh: bool
) -> None:
    room = loaded.room
    if not fresh:
        await conn.execute("DELETE FROM room_seats WHERE code = %s", (room.code,))
        await conn.execute("DELETE FROM room_watchers WHERE code = %s", (room.code,))
    seats, watchers = place_rows(loaded, host)
    # Not closed by a `with`: in pipeline mode its results come at the flight's end.
    cursor = conn.cursor()
    if seats:
        await cursor.executemany(_INSERT_SEAT, seats)
    if watchers:
        await cursor.executemany(_INSERT_WATCHER, watchers)


async def insert_room(
    conn: psycopg.AsyncConnection,
    room: Room,
    now: float,
    host: str,
    limits: RoomLimits,
    hosts: dict[str, str] | None = None,
) -> bool:
    """A new room's rows, its places `host`'s (or, by token hash, `hosts`': a quick
    match seats players of two hosts); False if its code is live already.
    `Refused` past `limits` (rooms per address, live rooms in all: every host's,
    counted one host at a time, `room.check_room_count`)."""
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))
    cursor = await conn.execute("SELECT count(*) FROM rooms WHERE NOT closed")
    total = (await cursor.fetchone() or (0,))[0]
    own = await rooms_of(conn, sorted(room.addresses()))
    check_room_count("", 0, total, limits)
    for address in sorted(room.addresses()):
        check_room_count(address, own.get(address, 0), total, limits)
    incarnation = secrets.randbits(62)
    cursor = await conn.execute(INSERT_ROOM, room_values(room, now, incarnation))
    if await cursor.fetchone() is None:
        return False
    await conn.execute("DELETE FROM room_seats WHERE code = %s", (room.code,))
    await conn.execute("DELETE FROM room_watchers WHERE code = %s", (room.code,))
    await save_places(conn, Loaded(room, incarnation, hosts or {}, 1), host, fresh=True)
    return True


_ROOMS_OF = """
SELECT a, (SELECT count(*) FROM rooms r WHERE NOT r.closed AND (r.owner_address = a
    OR EXISTS (SELECT 1 FROM room_seats s WHERE s.code = r.code AND s.address = a)))
FROM unnest(%s::text[]) AS a
"""


async def rooms_of(conn: psycopg.AsyncConnection, addresses: list[str]) -> dict[str, int]:
    """The live rooms that count against each address (`Room.counts_against`: opened
    there, or a seat held from it)."""
    if not addresses:
        return {}
    cursor = await conn.execute(_ROOMS_OF, (addresses,))
    return {str(address): int(count) for address, count in await cursor.fetchall()}


def is_code(code: object) -> bool:
    return isinstance(code, str) and len(code) == codes.LENGTH


def closed(ticket: Ticket) -> Callable[[], NoReturn]:
    """What a call about a room that is gone says (`PostgresHub._change`'s `missing`)."""

    def missing() -> NoReturn:
        raise refusals.room_closed(ticket.code)

    return missing


def nothing() -> None:
    """A room that is gone needs nothing done (`PostgresHub._change`'s `missing`)."""
    return None
