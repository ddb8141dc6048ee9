"""Two `serve-ssh` hosts on one PostgreSQL database against one host on SQLite.

Run by hand: `python benchmarks/bench_hosts.py [--rooms 16] [--rounds 10]`.

Method
------
A throwaway PostgreSQL cluster (`tests/pg_cluster.py`, as the tests make it) holds the
world. Two hosts are the installed `tui-tictactoe serve-ssh`, each a process of its own,
with the same `--database-url` and `--host-key`; beside them, one host with no URL
(SQLite in a temporary data directory, rooms in its memory). Caps are raised so that every
session is admitted (each session is a game process: ~40 MB each).

`--rooms` rooms, two players each, every player an asyncssh client with an SSH key of its
own (so every round is rated and recorded). On two hosts, a room is made on one host and
joined from the other (alternating), so every move crosses hosts; on one host, both
players are on it. Every room plays `--rounds` rounds at once with the others: the starter
plays 1, 2, 3 and the other 4, 5 (the starter wins), then both press `r` for the rematch,
and the other starts. `--think S`: each player pauses 0-S seconds (uniform, seeded) before a
move, as people do; the pause is not counted.

Key to the other player's screen: from writing the cell's key on the mover's channel to
the arrival of the chunk after which the other player's `pyte` screen shows
"NAME played CELL." (or "NAME wins!" for the last move; checked after every chunk, not
polled). Rounds saved per second: the
rounds of the run over the time from the first key to the last round seen in the record.
Lost or doubled: each player's rounds in the record (the database, or the SQLite file)
against the rounds played; each round must be there exactly once for each player.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from pg_cluster import Cluster, binaries
from pty_terminal import command
from test_serve_ssh import SSHTerminal, connect

from tui_tictactoe.record import Record

MOVES = (1, 4, 2, 5, 3)  # the starter plays 1, 2, 3 and wins
WAIT = 30.0  # seconds for any one screen: generous, the machine is shared


class Stamped(SSHTerminal):
    """A terminal that resolves a waiter at the arrival of the chunk that shows its text."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        super().__init__(cols, rows)
        self.waiters: list[tuple[str, asyncio.Future[float]]] = []

    def data_received(self, data: bytes, datatype: int | None) -> None:
        super().data_received(data, datatype)
        if not self.waiters:
            return
        now, text = time.perf_counter(), self.text
        for wanted, future in list(self.waiters):
            if wanted in text and not future.done():
                future.set_result(now)
                self.waiters.remove((wanted, future))

    async def shows(self, wanted: str) -> float:
        """When `wanted` came on screen (now, if it is there already)."""
        if wanted in self.text:
            return time.perf_counter()
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((wanted, future))
        try:
            return await asyncio.wait_for(future, WAIT)
        except TimeoutError:
            raise AssertionError(f"no {wanted!r} on screen:\n{self.text}") from None


async def session(port: int, cmd: str, name: str, key: asyncssh.SSHKey, local: str) -> Stamped:
    conn = await connect(port, username=name, key=key, local=local)
    _, term = await conn.create_session(
        Stamped, cmd, encoding=None, term_type="xterm-256color", term_size=(80, 24)
    )
    return term


async def play_room(
    index: int, ports: tuple[int, int], args: Any, latencies: list[float]
) -> tuple[str, str]:
    """One room's rounds; its players' key fingerprints."""
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    names = (f"x{index}", f"o{index}")
    local = f"127.0.{index // 200 + 1}.{index % 200 + 1}"
    creator = await session(ports[0], "--room new", names[0], keys[0], local)
    await creator.shows("Waiting for a second player")
    code = re.search(r"give them the code ([A-Z]{4})", creator.text).group(1)  # type: ignore[union-attr]
    joiner = await session(ports[1], f"--join {code}", names[1], keys[1], local)
    players = {"X": (creator, names[0]), "O": (joiner, names[1])}
    starter, rounds, rng = "X", args.rounds, random.Random(index)
    for number in range(1, rounds + 1):
        other = "O" if starter == "X" else "X"
        await players[starter][0].shows(f"Your turn: you play {starter}.")
        mover = starter
        for cell in MOVES:
            waiting = "O" if mover == "X" else "X"
            term, name = players[mover]
            wanted = f"{name} wins!" if cell == MOVES[-1] else f"{name} played {cell}."
            seen = asyncio.ensure_future(players[waiting][0].shows(wanted))
            await asyncio.sleep(rng.uniform(0, args.think))  # the waiter is in place first
            sent = time.perf_counter()
            term.send(str(cell))
            latencies.append(await seen - sent)
            mover = waiting
        for term, _ in players.values():
            await term.shows(f"{players[starter][1]} wins!")
        if number < rounds:
            for term, _ in players.values():
                term.send("r")
            starter = other
            await players[starter][0].shows(f"round {number + 1}")
    for term, _ in players.values():
        term.send("q")
    return tuple(key.get_fingerprint("sha256") for key in keys)  # type: ignore[return-value]


def serve(port_args: list[str], data: Path, url: str | None, key: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "TUI_TICTACTOE_DATABASE_URL"}
    env["TUI_TICTACTOE_DATA_DIR"] = str(data)
    args = [*command(), "serve-ssh", "--port", "0", "--host-key", str(key), *port_args]
    args += ["--max-sessions", "1000", "--max-per-address", "1000"]
    if url:
        args += ["--database-url", url]
    return subprocess.Popen(args, stderr=subprocess.PIPE, env=env)


def port_of(server: subprocess.Popen[bytes]) -> int:
    assert server.stderr is not None
    line = server.stderr.readline()
    found = re.search(rb"listening on 127\.0\.0\.1:(\d+)", line)
    assert found, line
    return int(found.group(1))


def counted(record: Record, fingerprints: list[str], rounds: int) -> tuple[int, int]:
    """Rounds lost and doubled, over every player."""
    lost = doubled = 0
    for fingerprint in fingerprints:
        kept = len(record.people.rounds(fingerprint, limit=10 * rounds + 10))
        lost += max(0, rounds - kept)
        doubled += max(0, kept - rounds)
    return lost, doubled


async def run(label: str, hosts: int, url: str | None, work: Path, args: Any) -> dict[str, Any]:
    key = work / "host_key"
    servers = [serve([], work / f"data{i}", url, key) for i in range(hosts)]
    try:
        ports = [port_of(server) for server in servers]
        latencies: list[float] = []
        started = time.perf_counter()
        pairs = await asyncio.gather(
            *(
                play_room(i, (ports[i % hosts], ports[(i + 1) % hosts]), args, latencies)
                for i in range(args.rooms)
            )
        )
        fingerprints = [fp for pair in pairs for fp in pair]
        if url:
            os.environ["TUI_TICTACTOE_DATABASE_URL"] = url
        else:
            os.environ.pop("TUI_TICTACTOE_DATABASE_URL", None)
            os.environ["TUI_TICTACTOE_DATA_DIR"] = str(work / "data0")
        record = Record.open()
        try:
            deadline = time.monotonic() + WAIT
            while counted(record, fingerprints, args.rounds)[0] and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            elapsed = time.perf_counter() - started
            lost, doubled = counted(record, fingerprints, args.rounds)
        finally:
            record.close()
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
    latencies.sort()
    return {
        "label": label,
        "n": len(latencies),
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[max(0, round(0.95 * len(latencies)) - 1)] * 1000,
        "rounds/s": args.rooms * args.rounds / elapsed,
        "lost": lost,
        "doubled": doubled,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--think", type=float, default=0.0, help="players pause 0-THINK s before a move"
    )
    args = parser.parse_args()
    bin_dir = binaries()
    if bin_dir is None:
        sys.exit("PostgreSQL's initdb and pg_ctl were not found: apt-get install postgresql")
    cluster = Cluster.create(bin_dir)
    results = []
    try:
        with tempfile.TemporaryDirectory() as pg_work:
            results.append(
                await run("2 hosts, PostgreSQL", 2, cluster.new_database(), Path(pg_work), args)
            )
        with tempfile.TemporaryDirectory() as sqlite_work:
            results.append(await run("1 host, SQLite", 1, None, Path(sqlite_work), args))
    finally:
        cluster.destroy()
    sessions = 2 * args.rooms
    print(
        f"{args.rooms} rooms ({sessions} sessions), {args.rounds} rounds each, think {args.think} s\n"
    )
    print(
        "| setup | key to the other's screen p50 | p95 (target ≤ 150 ms) | moves "
        "| rounds saved/s | lost | doubled |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['label']} | {r['p50']:.1f} ms | {r['p95']:.1f} ms | {r['n']} "
            f"| {r['rounds/s']:.1f} | {r['lost']} | {r['doubled']} |"
        )


if __name__ == "__main__":
    asyncio.run(main())
