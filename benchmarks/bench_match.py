"""Quick match: 32 players on two `serve-ssh` hosts sharing one PostgreSQL database.

Run by hand: `python benchmarks/bench_match.py [--players 32] [--spread 10] [--seed 31]`.

Method
------
A throwaway PostgreSQL cluster (`tests/pg_cluster.py`) and two hosts, the installed
`tui-tictactoe serve-ssh`, each a process of its own with the same `--database-url` and
`--host-key` (caps raised so every session is admitted). `--players` asyncssh clients,
each with an SSH key and a loopback address of its own, half on each host, half asking
for 3x3 and half for 4x4 (so every one can be paired), connect with `--match --board N`
at a random moment in the first `--spread` seconds (seeded).

Each client's `pyte` screen is read after every chunk (not polled): `queued` is when the
waiting screen ("Waiting for a player") arrived, `board` when the room's title with both
names ("(X) vs") arrived. A pair is made once the later of its two players is queued, so
per player: the wait for a partner is `max(queued, partner's queued) - queued`, and paired
to the board on screen is `board - max(queued, partner's queued)` (the later player's
`queue_join`, at most one poll of 0.5 s, the room opening and its first view).

Checked: every player reaches a room, each room code on exactly two screens, the two
names in its title those two players', none paired twice.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from bench_hosts import Stamped, port_of, serve
from bench_ssh import percentile
from pg_cluster import Cluster, binaries
from test_serve_ssh import connect

TITLE = re.compile(r"Room ([A-Z]{4}) · (\S+) \(X\) vs (\S+) \(O\)")


async def player(index: int, port: int, size: int, delay: float) -> dict[str, Any]:
    """One player: queued, then paired; when each showed, the room and the two names."""
    await asyncio.sleep(delay)
    name = f"p{index}"
    key = asyncssh.generate_private_key("ssh-ed25519")
    local = f"127.0.{index // 200 + 3}.{index % 200 + 1}"
    conn = await connect(port, username=name, key=key, local=local)
    _, term = await conn.create_session(
        Stamped,
        f"--match --board {size}",
        encoding=None,
        term_type="xterm-256color",
        term_size=(80, 24),
    )
    queued = await term.shows("Waiting for a player")
    board = await term.shows("(X) vs")
    found = TITLE.search(term.text)
    assert found, term.text
    return {
        "name": name,
        "conn": conn,
        "queued": queued,
        "board": board,
        "code": found.group(1),
        "names": (found.group(2), found.group(3)),
    }


async def run(url: str, work: Path, args: Any) -> dict[str, Any]:
    key = work / "host_key"
    servers = [serve([], work / f"data{i}", url, key) for i in range(2)]
    rng = random.Random(args.seed)
    try:
        ports = [port_of(server) for server in servers]
        started = time.perf_counter()
        results = await asyncio.gather(
            *(
                player(i, ports[i % 2], 3 if (i // 2) % 2 == 0 else 4, rng.uniform(0, args.spread))
                for i in range(args.players)
            )
        )
        elapsed = time.perf_counter() - started
        for result in results:
            result["conn"].close()
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
    return check(results) | {"elapsed": elapsed}


def check(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every player paired once, each room two players whose names it shows; the times."""
    by_name = {r["name"]: r for r in results}
    rooms = Counter(r["code"] for r in results)
    assert all(count == 2 for count in rooms.values()), rooms
    waits, shown = [], []
    for r in results:
        assert r["name"] in r["names"], r
        partner = by_name[next(n for n in r["names"] if n != r["name"])]
        assert partner["code"] == r["code"] and set(partner["names"]) == set(r["names"])
        paired_at = max(r["queued"], partner["queued"])
        waits.append(paired_at - r["queued"])
        shown.append(r["board"] - paired_at)
    return {"players": len(results), "rooms": len(rooms), "waits": waits, "shown": shown}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    if args.players % 4:
        sys.exit("--players: a multiple of 4 (two hosts, two boards, in pairs)")
    bin_dir = binaries()
    if bin_dir is None:
        sys.exit("PostgreSQL's initdb and pg_ctl were not found: apt-get install postgresql")
    before = load()
    cluster = Cluster.create(bin_dir)
    try:
        with tempfile.TemporaryDirectory() as work:
            r = await run(cluster.new_database(), Path(work), args)
    finally:
        cluster.destroy()
    print(f"{r['players']} players, {r['rooms']} rooms, none twice; spread {args.spread} s")
    print(f"load average before: {before}; after: {load()}; {os.cpu_count()} cores\n")
    print("| measure | p50 | p95 | max |")
    print("|---|---:|---:|---:|")
    for label, values in (
        ("paired to the board on screen (target p95 ≤ 2 s)", r["shown"]),
        ("wait for a partner", r["waits"]),
    ):
        values.sort()
        print(
            f"| {label} | {percentile(values, 50) * 1000:.0f} ms "
            f"| {percentile(values, 95) * 1000:.0f} ms | {values[-1] * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    asyncio.run(main())
