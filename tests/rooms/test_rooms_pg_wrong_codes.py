"""Wrong room codes limited across hosts (`rooms.pg_wrong_codes`): two `PostgresHub`s on
one real PostgreSQL database (`pg_url`) count one address's wrong codes together, on one
clock (the test's, shared by both), and the table keeps only the last window's rows.
The rule itself, per backend, is test_rooms_hub.py's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import psycopg
import pytest
from pg_rooms_tools import HostTimings

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.postgres import schema as pg_schema
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.view import Person, Refused

ANN = Person("ann", "SHA256:ann", "10.0.0.1")
CAROL = Person("carol", "SHA256:carol", "10.0.0.3")
GUESSER = Person("guest", "", "10.0.0.9")
V1_ROOM = """INSERT INTO rooms (code, incarnation, size, generation, board_generation, round,
    round_key, first, moves, score, result, left_by, rematch, closed, created_at, updated_at)
    VALUES ('ABCD', 1, 3, 1, 1, 1, 'k', 'X', '{}', '{0,0,0}', NULL, NULL, '{}', false,
    now(), now())"""
V1_SEAT = """INSERT INTO room_seats (code, seat, name, key, token_hash, present, back_by,
    host_id) VALUES ('ABCD', 'X', 'ann', 'SHA256:ann', %s, true, NULL, 'a-host')"""
QUIET: HostTimings = {
    "heartbeat": 3600.0,
    "host_timeout": 7200.0,
    "reread": 3600.0,
    "listen": False,
}
"""The clock jumps a minute: no host may be taken for silent meanwhile."""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def two(pg_url: str, clock: Clock) -> AsyncIterator[tuple[PostgresHub, PostgresHub]]:
    """Hosts A and B on one database and one clock."""
    a = PostgresHub(pg_url, clock=clock, **QUIET)
    b = PostgresHub(pg_url, clock=clock, **QUIET)
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await a.shutdown()
        await b.shutdown()


async def refusal(call: object) -> str:
    with pytest.raises(Refused) as caught:
        await call  # type: ignore[misc]
    return caught.value.reason


def rows(url: str) -> list[tuple[str, float]]:
    with psycopg.connect(url) as conn:
        query = (
            "SELECT address, extract(epoch FROM at)::float FROM room_wrong_codes"
            " WHERE address <> '*' ORDER BY at"  # the host-wide rows apart
        )
        return conn.execute(query).fetchall()


async def test_wrong_codes_through_host_a_then_host_b_hit_the_limit_together(
    two: tuple[PostgresHub, PostgresHub], clock: Clock, pg_url: str
) -> None:
    a, b = two
    ann = await a.create(ANN, 3, "X")
    wrong = "ZZZZ" if ann.code != "ZZZZ" else "YYYY"
    for hub in (a, a, a, b, b):  # three through A, then two through B: five in all
        assert "no room" in await refusal(hub.join(wrong, GUESSER))
        clock.now += 2
    assert [address for address, _ in rows(pg_url)] == [GUESSER.address] * 5
    # Host B alone has seen two: a per-host count would let it through. Refused on both,
    # even the right code (or the limit would still tell live codes apart).
    for hub in (a, b):
        assert await refusal(hub.join(ann.code, GUESSER)) == "Too many wrong codes: wait 50 s."
        assert await refusal(hub.watch(ann.code, GUESSER)) == "Too many wrong codes: wait 50 s."
    assert (await b.watch(ann.code, CAROL)).seat is None  # another address is not held back
    clock.now += 49.5
    assert await refusal(b.join(ann.code, GUESSER)) == "Too many wrong codes: wait 1 s."
    clock.now += 0.5  # the first wrong code is a minute old: one more try, on either host
    assert "no room" in await refusal(b.watch(wrong, GUESSER))
    assert await refusal(a.join(ann.code, GUESSER)) == "Too many wrong codes: wait 2 s."
    clock.now += 2
    assert (await a.join(ann.code, GUESSER)).seat == "O"


async def test_the_table_keeps_only_the_last_window(
    two: tuple[PostgresHub, PostgresHub], clock: Clock, pg_url: str
) -> None:
    a, b = two
    for n in range(4):  # four addresses, a wrong code each
        await refusal(a.join("ZZZZ", Person("g", "", f"10.1.0.{n}")))
    clock.now += 30
    await refusal(b.join("ZZZZ", GUESSER))
    assert len(rows(pg_url)) == 5
    clock.now += 30  # the first four are a minute old: the next count sweeps them
    await refusal(b.watch("YYYY", GUESSER))
    assert rows(pg_url) == [(GUESSER.address, 1030.0), (GUESSER.address, 1060.0)]


async def test_malformed_codes_are_not_counted_and_each_host_applies_its_limit(pg_url: str) -> None:
    """A malformed code is not counted (as `MemoryHub`); a host with a lower limit holds
    an address back sooner, on the same rows."""
    async with PostgresHub(pg_url, replace(UNTIMED, wrong_code_limit=2), **QUIET) as strict:
        for _ in range(5):
            assert "letters only" in await refusal(strict.join("AB1D", GUESSER))
        assert rows(pg_url) == []
        for _ in range(2):
            assert "no room" in await refusal(strict.join("ZZZZ", GUESSER))
        assert (await refusal(strict.watch("ZZZZ", GUESSER))).startswith("Too many wrong codes")


async def test_a_database_of_the_first_version_is_upgraded_and_its_rooms_kept(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as old:  # the tables of the program before the wrong codes
        old.setattr(pg_schema, "MIGRATIONS", pg_schema.MIGRATIONS[:1])
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
            await pg_schema.ensure_schema(conn)
    with psycopg.connect(pg_url) as conn:  # a room as that program wrote it
        assert conn.execute("SELECT version FROM room_schema_version").fetchall() == [(1,)]
        conn.execute(V1_ROOM)
        conn.execute(V1_SEAT, ("f" * 64,))
    async with PostgresHub(pg_url, **QUIET) as after:
        view = await after.view("ABCD")
        assert view.seats[0].person == ANN._replace(address="")
        assert (view.public, view.watching, view.opener) == (False, True, None)  # private
        assert "no room" in await refusal(after.join("ZZZZ", CAROL))
    assert rows(pg_url)[0][0] == CAROL.address
    with psycopg.connect(pg_url) as conn:
        version = pg_schema.schema_version()
        assert conn.execute("SELECT version FROM room_schema_version").fetchall() == [(version,)]
        conn.execute("UPDATE room_schema_version SET version = %s", (version + 1,))
    newer = PostgresHub(pg_url, **QUIET)
    with pytest.raises(pg_schema.NewerRoomSchema):  # a newer program's tables: refused
        await newer.start()
    await newer.shutdown()  # its connection closed
