"""The deny list with a block list's worth of networks (issue 35, finding 5).

Run by hand: `python benchmarks/bench_deny.py [--checks 20000]`.

Method
------
The file is `tests/deny_tools.py`'s: 35,724 networks (IPv4 /16 to /32, IPv6 /32 to /64, as
`--deny`'s 1 MiB cap allows), made from a seed. Measured in one process:

* **Reading**: `servers.deny.read_file` (read, parse, index): what a SIGHUP costs, in a thread.
* **An arrival's check**: `DenyGate.check(address=...)` as `SshServer.arrive` calls it, for
  addresses not denied (IPv4 and IPv6, the usual case) and denied ones; median and p99 of
  `--checks` each, against the plain scan of every entry (the code before, on 200 checks)
  timed in the same run. Target: under 0.1 ms.
* **The event loop during a reload**: the longest gap seen by a task sleeping 1 ms at a time
  while `DenyGate.reload()` reads the file in a thread, against the same reading on the loop
  (the code before: `load()` from the SIGHUP handler), and with nothing to do (the control:
  what the machine's load alone does to the loop, as long again).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import ipaddress
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from deny_tools import NETWORKS, write_deny_file

from tui_tictactoe.record.deny_list import DenyEntry
from tui_tictactoe.servers.deny import DenyGate, read_file


def timed(check: Callable[[str], object], addresses: list[str]) -> list[float]:
    """Microseconds of each check."""
    out = []
    for address in addresses:
        start = time.perf_counter_ns()
        check(address)
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


def scan(entries: tuple[DenyEntry, ...], address: str) -> DenyEntry | None:
    """The check before: every network entry looked at (`DenyList.match` until issue 35)."""
    now = datetime.now(UTC)
    parsed = ipaddress.ip_address(address)
    found = [
        entry
        for entry in entries
        if entry.network is not None
        and entry.network.version == parsed.version
        and parsed in entry.network
    ]
    return next((entry for entry in found if entry.applies(now)), None)


def row(what: str, micros: list[float]) -> str:
    cut = sorted(micros)
    p99 = cut[min(len(cut) - 1, int(len(cut) * 0.99))]
    return f"| {what} | {len(cut):,} | {statistics.median(cut):.1f} µs | {p99:.1f} µs |"


async def loop_gap(during: Callable[[], object], done: Callable[[], bool]) -> float:
    """The longest gap (ms) a task sleeping 1 ms at a time saw while `during` ran."""
    longest, stop = 0.0, False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not stop:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    during()
    while not done():
        await asyncio.sleep(0.01)
    stop = True
    await task
    return longest * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=20_000)
    args = parser.parse_args()
    chosen = random.Random(5)
    with tempfile.TemporaryDirectory() as folder:
        path = write_deny_file(Path(folder) / "deny", NETWORKS)
        size = path.stat().st_size
        start = time.perf_counter()
        reading = read_file(path)
        read_s = time.perf_counter() - start
        gate = DenyGate(path, lambda line: None)
        gate.load(announce=False)
        entries = reading.rules.entries
        denied = [
            str(entry.network.network_address)
            for entry in chosen.sample(entries, 200)
            if entry.network
        ]
        v4 = [
            f"127.{chosen.randrange(256)}.{chosen.randrange(256)}.{chosen.randrange(1, 255)}"
            for _ in range(args.checks)
        ]
        v6 = [
            f"2001:db8:{chosen.randrange(65536):x}::{chosen.randrange(65536):x}"
            for _ in range(args.checks)
        ]
        check = lambda address: gate.check(address=address)  # noqa: E731
        assert all(gate.check(address=address) for address in denied)
        assert not any(gate.check(address=address) for address in v4[:100] + v6[:100])
        rows = [
            row("not denied, IPv4 (the index)", timed(check, v4)),
            row("not denied, IPv6 (the index)", timed(check, v6)),
            row("denied (the index)", timed(check, denied * (args.checks // 200))),
            row(
                "not denied, IPv4 (the plain scan, before)",
                timed(functools.partial(scan, entries), v4[:200]),
            ),
        ]
        count = len(entries)
        del entries, reading  # the scan's objects: the server holds none of them
        gc.collect()
        on_loop = await loop_gap(lambda: gate.load(), lambda: True)
        start = time.perf_counter()
        threaded = await loop_gap(gate.reload, lambda: not gate.reloading)
        took = time.perf_counter() - start
        until = start + 2 * took  # the control: as long, with nothing to do
        control = await loop_gap(lambda: None, lambda: time.perf_counter() > until)
    print(
        f"File: {count:,} networks, {size / 1024:.0f} KiB; read, parsed and indexed in {read_s:.2f} s.\n"
    )
    print("| an arrival's check | checks | median | p99 |\n|---|---:|---:|---:|")
    print("\n".join(rows))
    print("\n| a reload of the file | the event loop's longest gap |\n|---|---:|")
    print(f"| on the loop (the SIGHUP handler before) | {on_loop:.0f} ms |")
    print(f"| in a thread (`DenyGate.reload`, {took:.1f} s) | {threaded:.0f} ms |")
    print(f"| no reload (the control: the machine's own gaps) | {control:.0f} ms |")


if __name__ == "__main__":
    asyncio.run(main())
