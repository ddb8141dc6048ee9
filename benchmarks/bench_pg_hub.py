"""Two `PostgresHub` hosts on one database: from a move on host A to the view on host B.

`bench_hosts.py` measures the whole path (SSH, game processes, Textual) and is noisy on a
shared machine; this one times only the hub's data path. Two `PostgresHub` instances (two
"hosts", each with its own connections and its own LISTEN) run in this process on a
throwaway cluster (`tests/pg_cluster.py`). Each of `--rooms` rooms is made on host A and
joined on host B, so every move crosses hosts; all rooms play at once, each player moving
the moment its turn shows on its own subscriber (no pause: the harshest load), round after
round (starter 1, 2, 3; the other 4, 5; a rematch; the other starts). For every move: the
time from the mover calling `move` on its host to the other player's `updates` (on the
other host) yielding the view with it. The same players on one `MemoryHub` are the
baseline (no database at all). `--think 3` pauses each player 0-3 s before a move (the
pace of people, as `bench_hosts.py --think 3`). CPU per move: this process's, and the
throwaway cluster's server processes' (`/proc`).

With `--trace`, the path is taken apart (psycopg wrapped, in this process only): SQL
statements per move, waiting for a connection, the time a move holds
one, and from host A's commit to host B's notification handler and to its readers fed.

Run: `python benchmarks/bench_pg_hub.py --rooms 16 --rounds 10 --trace`. Prints markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pg_cluster import Cluster, binaries

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres import link as pg_link
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.view import Person, RoomView, Ticket

POOL_SIZE = getattr(pg_link, "POOL_SIZE", 1)  # 1: a hub from before the pool (to compare)

STARTER, OTHER = (1, 2, 3), (4, 5)
"""The starter wins on the top row in five moves."""


class Trace:
    """Times of each move's steps, keyed by the mover's task or by (code, generation)."""

    def __init__(self) -> None:
        self.by_task: dict[asyncio.Task[Any], dict[str, float]] = {}
        self.moves: list[dict[str, float]] = []
        self.committed: dict[tuple[str, int], float] = {}  # host A or B delivered locally
        self.heard: dict[tuple[str, int], float] = {}
        self.fed: dict[tuple[str, int], float] = {}

    def mark(self, what: str) -> None:
        task = asyncio.current_task()
        marks = self.by_task.get(task) if task is not None else None
        if marks is not None:
            marks.setdefault(what, time.perf_counter())

    def count(self, what: str) -> None:
        task = asyncio.current_task()
        marks = self.by_task.get(task) if task is not None else None
        if marks is not None:
            marks[what] = marks.get(what, 0) + 1


def install(trace: Trace, hubs: list[PostgresHub]) -> None:
    """Wrap psycopg's execute, transactions and pipeline syncs, and each hub's handlers."""
    import psycopg

    def counted(cls: Any, name: str, what: str) -> None:
        original = getattr(cls, name)

        async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            trace.mark("connection")  # its first statement: a connection is this move's
            trace.count(what)
            return await original(self, *args, **kwargs)

        setattr(cls, name, wrapper)

    counted(psycopg.AsyncCursor, "execute", "statements")
    counted(psycopg.AsyncCursor, "executemany", "statements")
    original_begin = psycopg.AsyncTransaction.__aenter__

    async def begin(self: Any) -> Any:
        trace.mark("connection")
        trace.count("statements")  # BEGIN, and the COMMIT to come
        trace.count("statements")
        return await original_begin(self)

    psycopg.AsyncTransaction.__aenter__ = begin  # type: ignore[method-assign]
    for hub in hubs:
        heard, deliver = hub.tasks.heard, hub.readers.deliver

        def on_heard(payload: str, heard: Callable[[str], None] = heard) -> None:
            code, generation = payload.split(" ", 2)[:2]
            trace.heard.setdefault((code, int(generation)), time.perf_counter())
            heard(payload)

        def on_deliver(loaded: Any, deliver: Callable[[Any], None] = deliver) -> None:
            key = (loaded.room.code, loaded.room.generation)
            if asyncio.current_task() in trace.by_task:  # the mover's own host, on commit
                trace.mark("committed")
                trace.committed.setdefault(key, time.perf_counter())
            else:
                trace.fed.setdefault(key, time.perf_counter())
            deliver(loaded)

        hub.tasks.heard = on_heard  # type: ignore[method-assign]
        hub.readers.deliver = on_deliver  # type: ignore[method-assign]


async def player(
    hub: RoomHub,
    ticket: Ticket,
    rounds: int,
    sent: dict[tuple[str, int, int], float],
    times: list[float],
    trace: Trace | None,
    think: float = 0.0,
) -> None:
    """Play the script on `ticket`'s seat until `rounds` rounds are over, pausing a
    random 0-`think` seconds before each move."""
    asked = 0
    async for view in hub.updates(ticket):
        arrived = time.perf_counter()
        key = (view.code, view.round, len(view.moves))
        if view.moves and key in sent and _mover(view, len(view.moves) - 1) != ticket.seat:
            times.append(arrived - sent.pop(key))
        if view.result is not None:
            if view.round >= rounds:
                return
            if ticket.seat not in view.rematch and asked < view.round:
                asked = view.round
                await hub.rematch(ticket)
            continue
        if _mover(view, len(view.moves)) == ticket.seat:
            if think:
                await asyncio.sleep(random.uniform(0, think))
            await _move(hub, ticket, view, sent, trace)


async def _move(
    hub: RoomHub,
    ticket: Ticket,
    view: RoomView,
    sent: dict[tuple[str, int, int], float],
    trace: Trace | None,
) -> None:
    mine = STARTER if ticket.seat == view.first else OTHER
    cell = mine[len(view.moves) // 2]
    marks: dict[str, float] = {}
    task = asyncio.current_task()
    if trace is not None and task is not None:
        trace.by_task[task] = marks
    sent[(view.code, view.round, len(view.moves) + 1)] = started = time.perf_counter()
    await hub.move(ticket, cell, view.generation)
    if trace is not None and task is not None:
        del trace.by_task[task]
        marks["started"], marks["returned"] = started, time.perf_counter()
        marks["code"], marks["generation"] = view.code, view.generation + 1  # type: ignore[assignment]
        trace.moves.append(marks)


def _mover(view: RoomView, index: int) -> str:
    return view.first if index % 2 == 0 else ("O" if view.first == "X" else "X")


async def run(
    hub_a: RoomHub,
    hub_b: RoomHub,
    rooms: int,
    rounds: int,
    trace: Trace | None = None,
    think: float = 0.0,
) -> tuple[list[float], float]:
    """Every room's rounds played at once; each move's latency (s) and the wall time."""
    pairs = []
    for number in range(rooms):
        ann = Person(f"ann{number}", f"SHA256:ann{number}")
        bob = Person(f"bob{number}", f"SHA256:bob{number}")
        made = await hub_a.create(ann, 3, "X")
        pairs.append((made, await hub_b.join(made.code, bob)))
    sent: dict[tuple[str, int, int], float] = {}
    times: list[float] = []
    began = time.perf_counter()
    async with asyncio.timeout(600), asyncio.TaskGroup() as group:
        for made, joined in pairs:
            group.create_task(player(hub_a, made, rounds, sent, times, trace, think))
            group.create_task(player(hub_b, joined, rounds, sent, times, trace, think))
    return times, time.perf_counter() - began


def server_cpu(cluster: Cluster) -> float:
    """CPU seconds of the cluster's server processes so far: the postmaster and its live
    children (the backends), and the children it has reaped (`/proc`, Linux)."""

    def used(pid: str) -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(field) for field in fields[11:15])  # utime stime cutime cstime

    postmaster = (cluster.data / "postmaster.pid").read_text().split()[0]
    ticks = used(postmaster)
    for task in Path(f"/proc/{postmaster}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                ticks += used(child)
    return ticks / os.sysconf("SC_CLK_TCK")


def quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def row(label: str, values: list[float], scale: float = 1000.0) -> str:
    p50, p95, top = quantiles(values)
    return (
        f"| {label} | {p50 * scale:.2f} | {p95 * scale:.2f} | {top * scale:.2f} | {len(values)} |"
    )


def report_trace(trace: Trace) -> None:
    moves = [m for m in trace.moves if "connection" in m and "committed" in m]
    print("\n| step of a move (ms) | p50 | p95 | max | n |")
    print("|---|---:|---:|---:|---:|")
    print(
        row(
            "`move` called -> a connection's transaction begins (queue)",
            [m["connection"] - m["started"] for m in moves],
        )
    )
    print(
        row(
            "transaction begun -> committed (holding the connection)",
            [m["committed"] - m["connection"] for m in moves],
        )
    )
    print(row("`move` called -> returned", [m["returned"] - m["started"] for m in moves]))
    heard, fed = [], []
    for m in moves:
        key = (str(m["code"]), int(m["generation"]))
        if key in trace.committed and key in trace.heard:
            heard.append(trace.heard[key] - trace.committed[key])
        if key in trace.committed and key in trace.fed:
            fed.append(trace.fed[key] - trace.committed[key])
    if heard:
        print(row("commit -> other host's NOTIFY handler", heard))
    if fed:
        print(row("commit -> other host's readers fed", fed))
    statements = [m.get("statements", 0) for m in moves]
    print(
        f"\nSQL statements sent per move (BEGIN and COMMIT included, an executemany once): "
        f"median {statistics.median(statements):g}, max {max(statements):g}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.0, help="pause 0-THINK s per move")
    parser.add_argument("--trace", action="store_true", help="take each move's path apart")
    parser.add_argument("--connections", type=int, help=f"each hub's (default {POOL_SIZE})")
    parser.add_argument("--url", help="an existing database instead of a throwaway cluster")
    args = parser.parse_args()

    memory = MemoryHub()
    base, base_wall = await run(memory, memory, args.rooms, args.rounds, None, args.think)
    await memory.shutdown()

    cluster = None
    url = args.url
    if url is None:
        bin_dir = binaries()
        if bin_dir is None:
            sys.exit("no PostgreSQL binaries (see tests/pg_cluster.py)")
        cluster = Cluster.create(bin_dir)
        url = cluster.new_database()
    try:
        pool = {} if args.connections is None else {"connections": args.connections}
        hub_a = PostgresHub(url, log=print, **pool)
        hub_b = PostgresHub(url, log=print, **pool)
        async with hub_a, hub_b:
            trace = Trace() if args.trace else None
            if trace is not None:
                install(trace, [hub_a, hub_b])
            cpu, server = time.process_time(), server_cpu(cluster) if cluster else 0.0
            times, wall = await run(hub_a, hub_b, args.rooms, args.rounds, trace, args.think)
            cpu = time.process_time() - cpu
            server = server_cpu(cluster) - server if cluster else float("nan")
    finally:
        if cluster is not None:
            cluster.destroy()

    pace = f"a pause of 0-{args.think:g} s before each move" if args.think else "no pause"
    print(f"{args.rooms} rooms x {args.rounds} rounds, all at once, {pace}\n")
    print("| hub: move -> the other player's view (ms) | p50 | p95 | max | moves |")
    print("|---|---:|---:|---:|---:|")
    print(row("`MemoryHub`, one process (baseline)", base))
    print(row("`PostgresHub`, host A -> host B and back", times))
    ratio50 = quantiles(times)[0] / quantiles(base)[0]
    ratio95 = quantiles(times)[1] / quantiles(base)[1]
    print(
        f"\nPostgreSQL / memory: p50 x{ratio50:.1f}, p95 x{ratio95:.1f}; "
        f"moves per second {len(times) / wall:.0f} (memory {len(base) / base_wall:.0f}); "
        f"CPU per move: this process {cpu / len(times) * 1000:.2f} ms (both hubs and the"
        f" players; its event loop busy {cpu / wall:.0%} of the {wall:.1f} s), PostgreSQL"
        f" {server / len(times) * 1000:.2f} ms"
    )
    if args.trace and trace is not None:
        report_trace(trace)


if __name__ == "__main__":
    asyncio.run(main())
