"""Hosts reaching PostgreSQL through PgBouncer in transaction mode (docs/hosting.md).

Real parts only: the worker's PostgreSQL (`pg_cluster.py`) and a real PgBouncer of each
test's own in front of it (`pgbouncer.py`: `pool_mode = transaction`, 2 server connections
per database, nothing prepared kept by the bouncer). With fewer server connections than
clients, each transaction may run on another server connection than the one before: a
statement prepared on the server, a session setting or a session lock would break here.
The record (many processes saving rounds and rated matches at once) and the rooms' hub
(two `PostgresHub`s, their transactions through the bouncer, their `LISTEN` straight to
PostgreSQL, as `--database-listen-url` sets it) must work through it without an error.
Nothing is timed: each wait is for a state, with a generous limit.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg_cluster import run_without
from pg_rooms_tools import (
    ANN,
    BOB,
    CAROL,
    DAVE,
    Follower,
    HostTimings,
    eventually,
    moves_are,
    play_round,
    round_begun,
    view_is,
)
from pg_rooms_tools import followers_ended as followers_ended  # the autouse fixture
from pgbouncer import BINARY_ENV, POOL_SIZE, Bouncer
from record_tools import rebuild_ratings, rebuild_standings_pg, stored_ratings
from test_record import oracle_stats, save
from test_record_people import planned as planned_matches
from test_record_postgres import PLAYERS, planned, query, standings
from test_record_postgres_people import PEOPLE
from test_record_reliability import all_at_once

from tui_tictactoe.record import Record
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.view import Person, Ticket

# -- the fixture -------------------------------------------------------------------------


def run_without_pgbouncer(ci: str | None) -> subprocess.CompletedProcess[str]:
    """One PgBouncer test, its binary said to be missing."""
    test = "record/test_pgbouncer.py::test_transactions_share_and_switch_server_connections"
    return run_without(BINARY_ENV, "/nonexistent/pgbouncer", test, ci)


def test_without_pgbouncer_ci_fails_loudly() -> None:
    done = run_without_pgbouncer("true")
    assert done.returncode == 1, done.stdout
    assert "NO PGBOUNCER TESTS" in done.stdout and "1 error" in done.stdout


def test_without_pgbouncer_elsewhere_the_tests_are_skipped_saying_why() -> None:
    done = run_without_pgbouncer(None)
    assert done.returncode == 0, done.stdout
    assert "NO PGBOUNCER TESTS" in done.stdout and "1 skipped" in done.stdout


def pid(conn: psycopg.Connection) -> int:
    row = conn.execute("SELECT pg_backend_pid()", prepare=False).fetchone()
    assert row is not None
    return int(row[0])


def test_transactions_share_and_switch_server_connections(pgbouncer: Bouncer, pg_url: str) -> None:
    """What the other tests rely on: more clients than server connections, and one
    client's transactions on different server connections."""
    url = pgbouncer.url(pg_url)
    clients = [psycopg.connect(url, autocommit=True, prepare_threshold=None) for _ in range(4)]
    hog, other = clients[0], clients[1]
    try:
        seen: list[int] = []
        for _ in range(3):  # `other` runs while the hog holds one server, then once it does not
            with hog.transaction():
                held = pid(hog)
                beside = pid(other)
                assert beside != held
            seen += [held, beside, pid(other), *(pid(client) for client in clients[2:])]
        assert len(set(seen)) == POOL_SIZE  # 4 clients, 2 server connections
        assert {beside, pid(other)} <= set(seen)
        others = {pid(other)}
        with hog.transaction():
            others.add(pid(hog))
            others.add(pid(other))
        assert len(others) == POOL_SIZE  # `other` ran on both of them
    finally:
        for client in clients:
            client.close()
    servers = [row for row in pgbouncer.admin("SHOW SERVERS") if pg_url.endswith(f"/{row[2]}")]
    assert 0 < len(servers) <= POOL_SIZE


def test_the_bouncer_is_not_root_s_and_leaves_nothing_behind(pgbouncer: Bouncer) -> None:
    owner = Path(f"/proc/{pgbouncer.process.pid}").stat().st_uid
    assert owner != 0 or os.geteuid() != 0  # as root, it runs as postgres (it refuses root)
    pgbouncer.stop()
    assert pgbouncer.process.returncode is not None and not pgbouncer.root.exists()


# -- the record ------------------------------------------------------------------------

PROCESSES = 4


def test_many_processes_save_rounds_and_rated_matches_through_the_bouncer(
    pgbouncer: Bouncer, pg_url: str
) -> None:
    """All at once on a database nobody has set up (the schema made through the bouncer,
    under its transaction-scoped lock), each process saving rounds for the same players
    and rated matches of the same people; then every count and rating checked directly."""
    url = pgbouncer.url(pg_url)
    shared = 6

    def host(seed: int) -> int:
        record = Record.open_url(url)
        rounds = sum(
            save(record, player, result, difficulty=level, took_back=took_back)
            for player, level, result, took_back in planned(seed)
        )
        matches = sum(
            record.people.save_match(one) for one in planned_matches(seed, PEOPLE, 20, shared)
        )
        if record.notice:
            print(record.notice)  # what failed, in the child's output
        return 0 if (rounds, matches, record.notice) == (50, 20 + shared, None) else 1

    assert all_at_once([partial(host, seed) for seed in range(PROCESSES)]) == [0] * PROCESSES

    rows = query(pg_url, "SELECT player, difficulty, result, took_back FROM rounds ORDER BY id")
    assert sorted(rows) == sorted(r for s in range(PROCESSES) for r in planned(s))
    with Record.open_url(url) as record:
        for player in PLAYERS:
            own = [(lvl, res, tb) for p, lvl, res, tb in rows if p == player]
            stats = record.stats(player)
            assert stats.rounds == len(own) and stats.by_difficulty == oracle_stats(own)
    before = standings(pg_url)
    rebuild_standings_pg(pg_url)
    assert standings(pg_url) == before

    keys = [key for (key,) in query(pg_url, "SELECT round_key FROM matches")]
    assert len(keys) == len(set(keys)) == PROCESSES * 20 + shared
    kept = stored_ratings(pg_url)
    assert kept == rebuild_ratings(pg_url)  # each round rated on the ratings before it
    assert sum(games for _, games in kept.values()) == 2 * len(keys)
    assert sum(rating for rating, _ in kept.values()) == 1200 * len(kept)


# -- the rooms' hub ------------------------------------------------------------------------

HUB: HostTimings = {"heartbeat": 0.2, "host_timeout": 30.0, "reread": 3600.0}
"""Beats often (more transactions to switch), never takes a host for gone on a slow
machine, and never re-reads: every view reaches the other host by its notification."""
ROUNDS = {3: [[1, 4, 2, 5, 3], [5, 1, 9, 3, 2, 8, 7, 4, 6]], 4: [[1, 5, 2, 6, 3, 7, 4]]}
"""Per board size, whole rounds in turn (first X, then O starts the rematch): a win
for the one who starts, a draw, and a 4x4 row."""


class Errors:
    """What a hub logs: a failed background task (a heartbeat, a re-read, the listener)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, line: str) -> None:
        self.lines.append(line)


async def play_rooms(a: PostgresHub, b: PostgresHub, rooms: int) -> None:
    """`rooms` rooms at once, each made on A and joined on B, each playing `ROUNDS` of its
    size; watched from both hosts."""

    async def one_room(number: int, size: int) -> None:
        ann = await a.create(Person(f"ann{number}", f"SHA256:ann{number}"), size, "X", public=True)
        bob = await b.join(ann.code, Person(f"bob{number}", f"SHA256:bob{number}"))
        watch_b = await b.watch(ann.code, Person(f"dave{number}", DAVE.key))
        ann_sees, bob_sees, dave_sees = Follower(a, ann), Follower(b, bob), Follower(b, watch_b)
        await ann_sees.until(lambda v: v.seats[1].present and v.watchers == 1)
        players = {"X": (a, ann, ann_sees), "O": (b, bob, bob_sees)}
        for count, cells in enumerate(ROUNDS[size], start=1):
            await play_round(cells, players)
            final = await bob_sees.until(moves_are(len(cells)))
            assert final.result is not None and final.round == count
            # every move landed once, in order, and each host's readers saw the same
            assert list(final.moves) == cells
            assert await ann_sees.until(view_is(final)) == final
            assert await dave_sees.until(view_is(final)) == final
            await a.rematch(ann)
            await b.rematch(bob)
            await bob_sees.until(round_begun(count + 1))
        assert final.score[0] + final.score[1] + final.score[2] == len(ROUNDS[size])

    sizes = [3, 4] * rooms
    await asyncio.gather(*(one_room(n, sizes[n]) for n in range(rooms)))


@pytest.mark.parametrize("listen", ["direct", "through-the-bouncer"])
async def test_two_hubs_play_whole_rounds_through_the_bouncer(
    pgbouncer: Bouncer, pg_url: str, listen: str
) -> None:
    """Two hosts' hubs, their transactions through the bouncer: several rooms at once,
    whole rounds and rematches, every move landing once. With their LISTEN straight to
    PostgreSQL (`--database-listen-url`) every view reaches the other host by notification
    alone; with LISTEN through the bouncer too (no `--database-listen-url`) notifications
    may be lost, and the re-read brings the views instead."""
    url = pgbouncer.url(pg_url)
    logs = Errors(), Errors()
    if listen == "direct":
        options: dict[str, Any] = {"listen_url": pg_url, **HUB}
    else:
        options = {**HUB, "reread": 0.3}
    a = PostgresHub(url, log=logs[0], **options)
    b = PostgresHub(url, log=logs[1], **options)
    await a.start()
    await b.start()
    try:
        await play_rooms(a, b, 3)
        assert len(await a.rooms()) == len(await b.rooms()) == 3
        database = pg_url.rsplit("/", 1)[1]
        servers = [row for row in pgbouncer.admin("SHOW SERVERS") if row[2] == database]
        clients = [row for row in pgbouncer.admin("SHOW CLIENTS") if row[2] == database]
        assert len(servers) <= POOL_SIZE < len(clients)  # the hubs' connections shared
    finally:
        await a.shutdown()
        await b.shutdown()
    assert logs[0].lines == logs[1].lines == []


async def test_one_room_played_across_hosts_sees_watchers_and_moves(
    pgbouncer: Bouncer, pg_url: str
) -> None:
    """The lobby, joining by a code typed in lower case, watchers on each host: the reads
    that are not moves, through the bouncer too."""
    url = pgbouncer.url(pg_url)
    async with (
        PostgresHub(url, listen_url=pg_url, **HUB) as a,
        PostgresHub(url, listen_url=pg_url, **HUB) as b,
    ):
        ann = await a.create(ANN, 3, "X", public=True)
        bob: Ticket = await b.join(ann.code.lower(), BOB)
        await a.watch(ann.code, CAROL)
        await b.watch(ann.code, DAVE)
        bob_sees = Follower(b, bob)
        await bob_sees.until(lambda v: v.watchers == 2)
        for lobby in (a, b):
            (summary,) = await lobby.rooms()
            assert (summary.players, summary.watchers) == (("ann", "bob"), 2)
        players = {"X": (a, ann, Follower(a, ann)), "O": (b, bob, bob_sees)}
        await play_round([5, 1, 9, 3, 2, 8, 7, 4, 6], players)
        await eventually(lambda: bob_sees.last is not None and bob_sees.last.result == "draw")
