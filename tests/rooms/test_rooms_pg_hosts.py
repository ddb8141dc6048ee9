"""Several hosts on one PostgreSQL database are one world of rooms (`PostgresHub`).

The hosts are real: `pg_hub_host.py` runs a `PostgresHub` behind a `HubServer` in a
process of its own, and the test's sessions reach each host over its socket with
`SocketHub`, as a game process does. A few tests run two hubs in the test's own process
instead, where they need to reach inside (a hub that never hears a notification, one
whose database restarts). Every database is real (`pg_cluster.py`); nothing is timed:
each wait is for a state, with a generous limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pg_cluster import Cluster
from pg_rooms_tools import (
    ANN,
    BOB,
    CAROL,
    DAVE,
    WAIT,
    Follower,
    HostTimings,
    moves_are,
    play_round,
)

from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.postgres.link import UNREACHABLE
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.view import Person, Refused, RoomView

HOST = Path(__file__).parents[1] / "pg_hub_host.py"
FAST: HostTimings = {"heartbeat": 0.2, "host_timeout": 1.5, "reread": 0.3}
"""A host that notices a silent one within seconds (the defaults are 2, 10 and 1)."""


class Host:
    """A host process: a `PostgresHub` served on a socket."""

    def __init__(self, process: asyncio.subprocess.Process, path: Path, host_id: str) -> None:
        self.process, self.path, self.host_id = process, path, host_id

    @classmethod
    async def start(cls, url: str, path: Path, grace: float) -> Host:
        numbers = [grace, FAST["heartbeat"], FAST["host_timeout"], FAST["reread"]]
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(HOST),
            url,
            str(path),
            *map(str, numbers),
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line.startswith(b"ready "), line
        return cls(process, path, line.split()[1].decode())

    async def client(self) -> SocketHub:
        return await SocketHub.connect(self.path)

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()


@pytest.fixture
async def hosts(pg_url: str) -> AsyncIterator[Callable[..., Awaitable[Host]]]:
    """Start hosts on one database (each with its socket in a short private directory);
    every one still running is killed at the end."""
    directory = Path(tempfile.mkdtemp(prefix="pgh-"))
    started: list[Host] = []

    async def start(grace: float = 60.0) -> Host:
        host = await Host.start(pg_url, directory / f"h{len(started)}" / "hub.sock", grace)
        started.append(host)
        return host

    try:
        yield start
    finally:
        for host in started:
            await host.kill()
        shutil.rmtree(directory, ignore_errors=True)


# -- hosts in processes of their own ---------------------------------------------------


async def test_a_room_made_on_one_host_is_played_and_watched_from_both(hosts: Any) -> None:
    a, b = await hosts(), await hosts()
    on_a, on_b, watch_a, watch_b = [await h.client() for h in (a, b, a, b)]
    ann = await on_a.create(ANN, 3, "X", True)  # public: both lobbies list it
    bob = await on_b.join(ann.code.lower(), BOB)
    assert bob.seat == "O" and bob.code == ann.code
    carol, dave = await watch_a.watch(ann.code, CAROL), await watch_b.watch(ann.code, DAVE)
    followers = [
        Follower(hub, ticket)
        for hub, ticket in ((on_a, ann), (on_b, bob), (watch_a, carol), (watch_b, dave))
    ]
    await followers[0].until(lambda v: v.watchers == 2)
    for lobby in (on_a, on_b):
        (summary,) = await lobby.rooms()
        assert (summary.code, summary.players, summary.watchers) == (ann.code, ("ann", "bob"), 2)
    players = {"X": (on_a, ann, followers[0]), "O": (on_b, bob, followers[1])}
    await play_round([1, 4, 2, 5, 3], players)
    for follower in followers:
        await follower.until(lambda v: v.result == "X")
    final = followers[0].last
    assert final is not None and final.moves == (1, 4, 2, 5, 3) and final.score == (1, 0, 0)
    assert all(follower.last == final for follower in followers)
    # a rematch asked on each host: the second round starts everywhere, O first
    await on_a.rematch(ann)
    await on_b.rematch(bob)
    for follower in followers:
        await follower.until(lambda v: v.round == 2)
    assert {f.last for f in followers} == {followers[0].last}
    assert followers[0].last is not None and followers[0].last.first == "O"
    for hub in (on_a, on_b, watch_a, watch_b):
        await hub.close()


async def test_the_same_move_sent_through_both_hosts_lands_once(hosts: Any) -> None:
    a, b = await hosts(), await hosts()
    on_a, on_b = await a.client(), await b.client()
    ann = await on_a.create(ANN, 5, "X")
    bob = await on_b.join(ann.code, BOB)
    follower = Follower(on_a, ann)
    free = list(range(1, 26))
    random.Random(5).shuffle(free)
    x_landed: list[int] = []
    for _turn in range(8):  # X sends two cells at once, one through each host; O answers
        view = await follower.until(moves_are(2 * len(x_landed)))
        if view.result is not None:
            break
        one, two = free.pop(), free.pop()
        results = await asyncio.gather(
            on_a.move(ann, one, view.generation),
            on_b.move(ann, two, view.generation),
            return_exceptions=True,
        )
        refusals = [r.reason for r in results if isinstance(r, Refused)]
        assert results.count(None) == 1 and len(refusals) == 1, results
        assert refusals[0] in (
            "The board changed before your move arrived: look and play again.",
            "Not your turn: bob plays O.",
            "The round is over: press r for a rematch.",  # the one that landed won
        )
        x_landed.append(one if results[0] is None else two)
        free.append(two if results[0] is None else one)  # the cell that did not land
        view = await follower.until(moves_are(2 * len(x_landed) - 1))
        if view.result is not None:
            break
        await on_b.move(bob, _quiet_cell(view, free), view.generation)
    target = 2 * len(x_landed) - 1
    final = await follower.until(lambda v: len(v.moves) >= target)
    assert list(final.moves[::2]) == x_landed  # X's moves: exactly the ones that landed
    assert len(set(final.moves)) == len(final.moves)
    for hub in (on_a, on_b):
        await hub.close()


def _quiet_cell(view: RoomView, free: list[int]) -> int:
    """A free cell for O (any: the test is about X's moves landing once)."""
    cell = free.pop()
    assert cell not in view.moves
    return cell


async def test_a_host_killed_mid_round_its_player_comes_back_through_another(
    hosts: Any,
) -> None:
    a, b = await hosts(grace=60.0), await hosts(grace=60.0)
    on_a, on_b = await a.client(), await b.client()
    ann = await on_a.create(ANN, 3, "X")
    bob = await on_b.join(ann.code, BOB)
    bob_sees = Follower(on_b, bob)
    players = {"X": (on_a, ann, Follower(on_a, ann)), "O": (on_b, bob, bob_sees)}
    await play_round([5, 1], players)
    await a.kill()  # nobody calls drop: host B notices that A went silent
    away = await bob_sees.until(lambda v: not v.seats[0].present)
    assert away.seats[0].back_by is not None and away.moves == (5, 1)
    with pytest.raises(Refused, match="Waiting for ann to come back"):
        await on_b.move(bob, 9, away.generation)
    on_b_again = await b.client()  # ann's new link, through host B, with her key
    back = await on_b_again.join(ann.code, ANN)
    assert back.seat == "X"
    ann_sees = Follower(on_b_again, back)
    view = await ann_sees.until(lambda v: v.seats[0].present)
    assert view.moves == (5, 1) and view.result is None
    players = {"X": (on_b_again, back, ann_sees), "O": (on_b, bob, bob_sees)}
    await play_round([3, 2, 7], players, done=2)
    final = await bob_sees.until(lambda v: v.result is not None)
    assert (final.result, final.moves) == ("X", (5, 1, 3, 2, 7))
    await ann_sees.until(lambda v: v == final)
    for hub in (on_b, on_b_again):
        await hub.close()


async def test_a_host_stopping_in_order_leaves_the_rooms_to_the_others(hosts: Any) -> None:
    a, b = await hosts(), await hosts()
    on_a, on_b = await a.client(), await b.client()
    ann = await on_a.create(ANN, 3, "X")
    bob = await on_b.join(ann.code, BOB)
    await on_a.watch(ann.code, CAROL)
    bob_sees = Follower(on_b, bob)
    await bob_sees.until(lambda v: v.watchers == 1)
    a.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(a.process.wait(), WAIT) == 0
    view = await bob_sees.until(lambda v: not v.seats[0].present and v.watchers == 0)
    assert not view.closed and view.seats[1].present
    await on_b.close()


# -- two hubs in the test's own process --------------------------------------------------


async def _two(url: str, b_options: HostTimings | None = None) -> tuple[PostgresHub, PostgresHub]:
    a = PostgresHub(url, **FAST)
    b = PostgresHub(url, **(FAST | (b_options or {})))
    await a.start()
    await b.start()
    return a, b


@pytest.mark.parametrize(
    "b_options",
    [{"reread": 3600.0}, {"listen": False}],
    ids=["by-notification-alone", "by-re-read-alone"],
)
async def test_another_hosts_reader_gets_every_change(pg_url: str, b_options: HostTimings) -> None:
    """Views reach a reader on host B by NOTIFY (with no re-read to help), and with no
    notification heard at all (a lost NOTIFY) by the periodic re-read."""
    a, b = await _two(pg_url, b_options)
    try:
        ann = await a.create(ANN, 3, "X")
        bob = await b.join(ann.code, BOB)
        bob_sees, ann_sees = Follower(b, bob), Follower(a, ann)
        await bob_sees.until(lambda v: v.seats[1].present)
        await play_round([1, 4, 2, 5, 3], {"X": (a, ann, ann_sees), "O": (b, bob, bob_sees)})
        final = await bob_sees.until(lambda v: v.result == "X")
        assert final == await a.view(ann.code) == await b.view(ann.code)
    finally:
        await a.shutdown()
        await b.shutdown()


async def test_codes_are_unique_across_hosts_drawing_the_same_codes(pg_url: str) -> None:
    a = PostgresHub(pg_url, rng=random.Random(7))
    b = PostgresHub(pg_url, rng=random.Random(7))  # the same draws: every code collides
    await a.start()
    await b.start()
    try:
        made = [
            await hub.create(Person(f"p{n}"), 3, "X", True) for n in range(20) for hub in (a, b)
        ]
        assert len({ticket.code for ticket in made}) == 40
        assert len(await a.rooms()) == 40
    finally:
        await a.shutdown()
        await b.shutdown()


async def test_postgresql_restarted_mid_round(own_cluster: Cluster) -> None:
    url = own_cluster.new_database()
    a, b = await _two(url)
    try:
        ann = await a.create(ANN, 3, "X")
        bob = await b.join(ann.code, BOB)
        ann_sees, bob_sees = Follower(a, ann), Follower(b, bob)
        players = {"X": (a, ann, ann_sees), "O": (b, bob, bob_sees)}
        await play_round([5, 1], players)
        view = await ann_sees.until(lambda v: len(v.moves) == 2)
        own_cluster.stop()
        with pytest.raises(Refused) as caught:
            await a.move(ann, 9, view.generation)
        assert caught.value.reason == UNREACHABLE
        with pytest.raises(Refused, match="cannot be reached"):
            await b.rooms()
        for sees in (ann_sees, bob_sees):  # told by the next sweep: the same view, marked
            assert await sees.until(lambda v: v.unreachable) == view._replace(unreachable=True)
        own_cluster.start()  # pg_ctl -w: it takes connections now
        await bob_sees.until(lambda v: not v.unreachable)  # the next sweep finds it back
        await a.move(ann, 9, view.generation)  # at once: the broken connection is replaced
        await play_round([2, 3, 7, 6], players, done=3)
        final = await bob_sees.until(lambda v: v.result is not None)
        assert (final.result, final.moves) == ("X", (5, 1, 9, 2, 3, 7, 6))
        assert final == await ann_sees.until(lambda v: v.result is not None)
        assert final.seats[0].present and final.seats[1].present  # nobody taken for gone
    finally:
        await a.shutdown()
        await b.shutdown()


async def test_a_silent_host_s_seats_wait_and_come_back_when_it_beats_again(
    pg_url: str,
) -> None:
    """Host A stops beating (it is cut off, or its loop is stuck): B takes its player for
    dropped and starts the grace. A's session is still there, so A's next beat takes
    the seat back, as the player never left."""
    a = PostgresHub(pg_url, **(FAST | {"heartbeat": 3600.0}))  # beats at start only
    b = PostgresHub(pg_url, **FAST)
    await a.start()
    await b.start()
    try:
        ann = await a.create(ANN, 3, "X")
        bob = await b.join(ann.code, BOB)
        bob_sees = Follower(b, bob)
        away = await bob_sees.until(lambda v: not v.seats[0].present)
        assert away.seats[0].back_by is not None and away.seats[1].present
        await a.beat()
        back = await bob_sees.until(lambda v: v.seats[0].present)
        assert back.seats[0].back_by is None and back.generation == away.generation + 1
        await a.move(ann, 5, back.generation)  # ann's ticket still holds the seat
        assert (await b.view(ann.code)).moves == (5,)
    finally:
        await a.shutdown()
        await b.shutdown()


def test_psycopg_is_loaded_only_when_a_hub_connects() -> None:
    code = (
        "import sys; import tui_tictactoe.rooms.postgres.hub, tui_tictactoe.rooms.socket.server; "
        "print('psycopg' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False"], done.stderr


async def test_the_first_call_after_a_restart_is_not_refused(own_cluster: Cluster) -> None:
    """A connection kept from before PostgreSQL restarted fails to begin: it is replaced
    and the call goes through (nothing but BEGIN was sent on it)."""
    hub = PostgresHub(own_cluster.new_database(), heartbeat=3600.0, reread=3600.0, listen=False)
    await hub.start()
    try:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        own_cluster.stop()
        own_cluster.start()  # no call while it was down: the hub's connection is stale
        await hub.move(ann, 5, (await hub.view(ann.code)).generation)
        assert (await hub.view(ann.code)).moves == (5,)
    finally:
        await hub.shutdown()


async def test_a_takeover_through_another_host_ends_the_old_links_updates(pg_url: str) -> None:
    a, b = await _two(pg_url)
    try:
        ann = await a.create(ANN, 3, "X")
        bob = await a.join(ann.code, BOB)
        old_link = Follower(a, bob)
        await old_link.until(lambda v: v.seats[1].present)
        again = await b.join(ann.code, BOB)  # bob's new link, through host B
        assert again.seat == "O" and again.token != bob.token
        await asyncio.wait_for(old_link.task, WAIT)  # host A heard, and ended the old stream
        assert old_link.last == await b.view(ann.code) and not old_link.ended
        with pytest.raises(Refused, match="no longer in room"):
            await a.move(bob, 1, old_link.last.generation)
    finally:
        await a.shutdown()
        await b.shutdown()


async def test_a_host_stops_even_when_its_tasks_are_cancelled_mid_query(pg_url: str) -> None:
    """Shutdown ends the background tasks while they are busiest (heartbeats and re-reads
    back to back); see also test_rooms_pg_readers.py, the cancel that was lost."""
    for _ in range(5):
        hub = PostgresHub(pg_url, heartbeat=0.001, reread=0.001)
        await hub.start()
        ann = await hub.create(Person("ann", "key-ann"), 3, "X")
        reader = hub.updates(ann)
        await anext(reader)
        await asyncio.sleep(0.02)  # the loops busy with queries
        await asyncio.wait_for(hub.shutdown(), timeout=10)
        await reader.aclose()
