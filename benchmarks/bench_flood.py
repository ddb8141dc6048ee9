"""Key floods (issue 28) over `serve-ssh` and `serve-web`: memory, Ctrl+Q, and the neighbours;
resize floods (issue 35, `--resizes`): another player's login and first frame beside them.

Run by hand: `python benchmarks/bench_flood.py [--seconds 30] [--rate 2500] [--samples 40]`,
or `python benchmarks/bench_flood.py --resizes [--rounds 5]`.

Method
------
Each server is the installed command in its own process (`serve-ssh --no-rooms`, and
`serve-web --max-per-address 8`, so that a fifth tab from 127.0.0.1 may measure beside
four flooders). Per server:

* **One flood**: a client (this process) reaches the first frame, then sends arrow keys
  at `--rate` a second for `--seconds`, every 10 ms the keys due in one write, reading
  all output (`tests/flood_tools.py`, as the tests flood). The game's VmRSS is read from
  /proc at the start, every 10 ms during (the peak), and 5 s after the flood ends; then
  the time from one key to the first output in reply; then Ctrl+Q is sent one second
  into a second flood, and timed to the session's end (the channel or websocket closed).
* **The neighbours**: another client (SSH: from 127.0.0.2) times `--samples` keys to the
  first output in reply (left and right in turn, each after the output has been quiet
  for 0.1 s): idle, then while 4 clients from 127.0.0.1 (the per-address cap) flood at
  `--rate` each from a separate process (their encryption and parsing do not share the
  measuring client's CPU). The baseline is the same client, the same run, just before.

Targets (the issue): peak under 150 MB, back within 10 MB of the start after the flood,
Ctrl+Q within 1 s, the neighbour's p95 within 2x idle.

`--resizes` (issue 35): per server, `--rounds` times in turn, a new session's login and
first frame ("Your turn" received; SSH from 127.0.0.2 on, web a new tab) while 4 sessions
from 127.0.0.1 (`tests/flood_tools.py`'s attacker, a process of its own) flood a second
server set up as the first (the control: the attack's own cost to the machine, its
encryption and a server's reading and closing, falls on it too), then while they flood
the measured one: window changes at 2,500 a second each over SSH, or `["resize", ...]`
messages at 7,500 a second each over the web, from their games' first frames on; how each
flooding session ended, and the measured server's CPU meanwhile. serve-ssh runs with
`--warm-games 0`: the flooders' sessions would take the measured server's warm games in
one half of the rounds only. Target: the flooded median within 2x the control's, every
flooding session closed as a flood.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from flood_tools import (
    ARROWS,
    CTRL_Q,
    RESIZE_RATE,
    WEB_RESIZE_RATE,
    attack_ends,
    attacker,
    flood,
    rss,
)

READY = b"Your turn"
MIB = 2**20
TIMEOUT = 60.0


class Client:
    """A player's end of one session: sends bytes, counts what comes back."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.closed = asyncio.Event()
        self.send: Callable[[bytes], Awaitable[None] | None] = lambda _data: None
        self.close: Callable[[], Awaitable[Any] | None] = lambda: None

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(what)
            await asyncio.sleep(0.005)

    async def key_time(self, key: bytes) -> float:
        """Seconds from `key` to the first output in reply; then until quiet for 0.1 s."""
        before, started = len(self.output), time.monotonic()
        result = self.send(key)
        if result is not None:
            await result
        await self.until(lambda: len(self.output) > before, "a reply to a key")
        took = time.monotonic() - started
        size, since = len(self.output), time.monotonic()
        while time.monotonic() - since < 0.1:
            await asyncio.sleep(0.01)
            if len(self.output) != size:
                size, since = len(self.output), time.monotonic()
        return took


class SSHSession(asyncssh.SSHClientSession[bytes]):
    def __init__(self, client: Client) -> None:
        self.client = client

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.client.output += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.client.closed.set()


class Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""


async def ssh_client(port: int, local: str = "127.0.0.1") -> Client:
    client = Client()
    conn, _ = await asyncssh.create_connection(
        Guest, "127.0.0.1", port, local_addr=(local, 0), username="bench", known_hosts=None,
        config=None, agent_path=None, client_keys=[], public_key_auth=False,
    )  # fmt: skip
    chan, _ = await conn.create_session(
        lambda: SSHSession(client), term_type="xterm-256color", term_size=(80, 24), encoding=None
    )

    def send(data: bytes) -> None:
        if not client.closed.is_set():
            chan.write(data)

    client.send = send
    client.close = conn.close
    await client.until(lambda: READY in client.output, "the first frame")
    return client


async def web_client(port: int, http: aiohttp.ClientSession) -> Client:
    client = Client()
    ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24")

    async def read() -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                client.output += message.data
        client.closed.set()

    async def send(data: bytes) -> None:
        if not client.closed.is_set():
            await ws.send_str(json.dumps(["stdin", data.decode()]))

    client.send = send
    client.close = ws.close
    client.reader = asyncio.create_task(read())  # type: ignore[attr-defined]
    await client.until(lambda: READY in client.output, "the first frame")
    return client


# -- the servers ------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.add(child)
                todo.append(child)
    return found


async def new_game(server: subprocess.Popen[bytes], known: set[int]) -> int:
    """The game process that started after `known` was taken (the newest, for a shell)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        fresh = [pid for pid in descendants(server.pid) - known if is_game(pid)]
        if fresh:
            return max(fresh)
        if time.monotonic() > deadline:
            raise TimeoutError("no game process")
        await asyncio.sleep(0.05)


def is_game(pid: int) -> bool:
    """A game: its input is a terminal (serve-ssh: forked, with the fork server's
    command line) or its command line ends in `play` (serve-web)."""
    try:
        return os.readlink(f"/proc/{pid}/fd/0").startswith("/dev/pts/") or Path(
            f"/proc/{pid}/cmdline"
        ).read_bytes().endswith(b"\0play\0")
    except OSError:
        return False


WARM = ("--warm-games", "0")
"""serve-ssh's setting under `--resizes` (see the docstring)."""


def start_server(
    kind: str, data: Path, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TUI_TICTACTOE_DATA_DIR=str(data), TERM="xterm-256color")
    log = open(data / f"{kind}.log", "wb")  # noqa: SIM115 - the server's, kept open
    base = [sys.executable, "-m", "tui_tictactoe"]
    if kind == "ssh":
        args = [*base, "serve-ssh", "--port", "0", "--no-rooms", *extra]
        server = subprocess.Popen(args, stderr=log, env=env)
        deadline = time.monotonic() + TIMEOUT
        while not (found := re.search(r"listening on 127\.0\.0\.1:(\d+)", log_text(data, kind))):
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(log_text(data, kind))
            time.sleep(0.05)
        return server, int(found.group(1))
    port = free_port()
    args = [*base, "serve-web", "--port", str(port), "--max-per-address", "8"]
    server = subprocess.Popen(args, stderr=log, stdout=subprocess.DEVNULL, env=env)
    time.sleep(2.0)  # answers its page by then (the websocket client retries below)
    return server, port


def log_text(data: Path, kind: str) -> str:
    return (data / f"{kind}.log").read_text(errors="replace")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- the measurements -------------------------------------------------------------------


async def connect(kind: str, port: int, http: aiohttp.ClientSession, local: str) -> Client:
    for _ in range(50):
        try:
            return await (ssh_client(port, local) if kind == "ssh" else web_client(port, http))
        except (OSError, aiohttp.ClientError):
            await asyncio.sleep(0.1)
    raise RuntimeError("could not connect")


async def one_flood(kind: str, server: subprocess.Popen[bytes], port: int, args: Any) -> dict:
    known = descendants(server.pid)
    async with aiohttp.ClientSession() as http:
        client = await connect(kind, port, http, "127.0.0.1")
        pid = await new_game(server, known)
        start, cpu = rss(pid), cpu_seconds(pid)
        flooded = await flood(client.send, args.seconds, args.rate, pid=pid)
        cpu = (cpu_seconds(pid) - cpu) / flooded.seconds
        peak = max(flooded.peak_rss, rss(pid, "VmHWM"))
        after = await settle(pid, 5.0)
        first_key = await client.key_time(b"5")
        keep_on = asyncio.create_task(flood(client.send, 60, args.rate, stop=client.closed.is_set))
        await asyncio.sleep(1.0)
        sent = time.monotonic()
        result = client.send(CTRL_Q)
        if result is not None:
            await result
        await asyncio.wait_for(client.closed.wait(), TIMEOUT)
        quit_took = time.monotonic() - sent
        await keep_on
    return dict(keys=flooded.keys, start=start, peak=peak, after=after, key=first_key,
                quit=quit_took, cpu=cpu)  # fmt: skip


def cpu_seconds(pid: int) -> float:
    """User and system time a process has used."""
    fields = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def settle(pid: int, seconds: float) -> int:
    await asyncio.sleep(seconds)
    return rss(pid)


async def key_times(client: Client, samples: int) -> list[float]:
    return [await client.key_time(ARROWS[i % 2]) for i in range(samples)]


async def neighbours(kind: str, server: int, port: int, args: Any) -> dict:
    async with aiohttp.ClientSession() as http:
        measurer = await connect(kind, port, http, "127.0.0.2")
        idle = await key_times(measurer, args.samples)
        here = str(Path(__file__).resolve())
        flooders = subprocess.Popen(
            [sys.executable, here, "--flooder", kind, str(port), str(args.rate)],
            stdout=subprocess.PIPE,
        )
        try:
            assert flooders.stdout is not None
            line = await asyncio.to_thread(flooders.stdout.readline)
            assert line.strip() == b"flooding", line
            await asyncio.sleep(2.0)  # the flood under way, its burst spent
            cpu = [cpu_seconds(flooders.pid), cpu_seconds(server)]
            started = time.monotonic()
            flooded = await key_times(measurer, args.samples)
            took = time.monotonic() - started
            cpu = [
                (cpu_seconds(flooders.pid) - cpu[0]) / took,
                (cpu_seconds(server) - cpu[1]) / took,
            ]
        finally:
            flooders.kill()
            flooders.wait()
    return dict(idle=idle, flooded=flooded, flooders_cpu=cpu[0], server_cpu=cpu[1])


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def report(kind: str, one: dict, near: dict, args: Any) -> None:
    name = {"ssh": "serve-ssh", "web": "serve-web"}[kind]
    grown = (one["after"] - one["start"]) / MIB
    idle, flooded = p95(near["idle"]), p95(near["flooded"])
    rows = [
        (f"game RSS at the start / peak in {args.seconds:g} s at {args.rate:,}/s "
         f"({one['keys']:,} keys)",
         f"{one['start'] / MIB:.0f} / {one['peak'] / MIB:.0f} MiB", "", "peak < 150 MB"),
        ("game RSS 5 s after the flood", f"{one['after'] / MIB:.0f} MiB",
         f"{grown:+.1f} MiB vs start", "within 10 MB"),
        ("the flooded game's CPU during the flood", f"{one['cpu'] * 100:.0f}% of a core", "",
         ""),
        ("a key right after the flood, to its reply", f"{one['key'] * 1000:.0f} ms", "", ""),
        ("Ctrl+Q during a flood, to the session's end", f"{one['quit'] * 1000:.0f} ms", "",
         "≤ 1 s"),
        ("another player's key to screen, p95: idle", f"{idle * 1000:.1f} ms", "1x", ""),
        ("... with 4 flooders from one address", f"{flooded * 1000:.1f} ms",
         f"{flooded / idle:.2f}x", "≤ 2x"),
        ("meanwhile: the flooders' own process (their client side), the server's",
         f"{near['flooders_cpu'] * 100:.0f}%, {near['server_cpu'] * 100:.0f}% of a core", "", ""),
    ]  # fmt: skip
    print(f"\n{name}\n")
    print("| measurement | value | vs baseline | target |")
    print("|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


async def flooder(kind: str, port: int, rate: float) -> None:
    """4 clients from 127.0.0.1, each flooding at `rate`, until killed."""
    async with aiohttp.ClientSession() as http:
        clients = [await connect(kind, port, http, "127.0.0.1") for _ in range(4)]
        print("flooding", flush=True)
        await asyncio.gather(*(flood(client.send, 3600, rate) for client in clients))


async def first_frame(kind: str, port: int, http: aiohttp.ClientSession, local: str) -> float:
    """A new session's login (or handshake) to its first frame, in seconds; then closed."""
    started = time.monotonic()
    client = await connect(kind, port, http, local)
    took = time.monotonic() - started
    result = client.close()
    if result is not None:
        await result
    return took


async def resize_floods(kind: str, server: int, port: int, data: Path, rounds: int) -> None:
    """`--resizes`: a first frame in turns beside 4 sessions flooding a sink server (the
    control) and flooding the measured one."""
    rate = RESIZE_RATE if kind == "ssh" else WEB_RESIZE_RATE
    times: dict[str, list[float]] = {"control": [], "flooded": []}
    ends: list[str] = []
    cpu, spent = 0.0, 0.0
    (data / "sink").mkdir()
    sink, sink_port = start_server(kind, data / "sink", WARM if kind == "ssh" else ())
    try:
        async with aiohttp.ClientSession() as http:
            await first_frame(kind, port, http, "127.0.0.2")  # the first game, unmeasured
            for n in range(rounds):
                for state, target in (("control", sink_port), ("flooded", port)):
                    await asyncio.sleep(0.5)
                    process = await attacker(kind, target, rate, 15)
                    await asyncio.sleep(3.0)  # their games' start-up done
                    assert process.stdin is not None
                    before, started = cpu_seconds(server), time.monotonic()
                    process.stdin.write(b"go\n")
                    address = f"127.0.0.{10 + 2 * n + (state == 'flooded')}"
                    times[state].append(await first_frame(kind, port, http, address))
                    found = await attack_ends(process)
                    if state == "flooded":
                        ends += found
                        cpu += cpu_seconds(server) - before
                        spent += time.monotonic() - started
    finally:
        sink.terminate()
        sink.wait(15)
    control, flooded = (statistics.median(times[name]) for name in ("control", "flooded"))
    closed = [line for line in log_text(data, kind).splitlines() if "closed as a flood" in line]
    name = {"ssh": "serve-ssh", "web": "serve-web"}[kind]
    what = "window changes" if kind == "ssh" else "resize messages"
    print(f"\n{name}: {rounds} rounds, 4 sessions at {rate:,} {what} a second each\n")
    print("| measurement | value | target |")
    print("|---|---:|---|")
    rows = [
        ("login and first frame, median: control", f"{control * 1000:.0f} ms", ""),
        ("... beside the flood", f"{flooded * 1000:.0f} ms ({flooded / control:.2f}x)", "≤ 2x"),
        ("flooding sessions closed as a flood (log lines)",
         f"{len(closed)} of {4 * rounds}", "all"),
        ("the server's CPU from the flood's start to its sessions' end",
         f"{cpu / spent * 100:.0f}% of a core over {spent / rounds:.1f} s a round", ""),
    ]  # fmt: skip
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nall times: {times}\nhow the flooders ended: {sorted(set(ends))}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=int, default=2500)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--only", choices=("ssh", "web"))
    parser.add_argument("--resizes", action="store_true", help="resize floods (issue 35)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--flooder", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flooder:
        kind, port, rate = args.flooder
        await flooder(kind, int(port), float(rate))
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    for kind in ("ssh", "web"):
        if args.only not in (None, kind):
            continue
        with tempfile.TemporaryDirectory() as data:
            server, port = start_server(
                kind, Path(data), WARM if args.resizes and kind == "ssh" else ()
            )
            try:
                if args.resizes:
                    await resize_floods(kind, server.pid, port, Path(data), args.rounds)
                    continue
                one = await one_flood(kind, server, port, args)
                near = await neighbours(kind, server.pid, port, args)
                report(kind, one, near, args)
                dropped = [line for line in log_text(Path(data), kind).splitlines()
                           if "input dropped" in line]  # fmt: skip
                print(f"\nserver log lines about dropped input: {len(dropped)}")
            finally:
                server.terminate()
                server.wait(15)
    print(f"load average after: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
