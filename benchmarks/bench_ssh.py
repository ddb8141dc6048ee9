"""`serve-ssh` against the same game started locally: time to first frame, and memory.

Run by hand: `python benchmarks/bench_ssh.py [--runs 10] [--clients 16]`.

Method
------
The server is the installed command, `tui-tictactoe serve-ssh --port 0`, in its own
process, as a host would run it. Three ways to the same first frame are timed,
interleaved run by run (with the order flipped every other round, after one
discarded warm-up of each) so drifting load on the shared machine hits all alike:

* local: `tui-tictactoe` in a fresh 80x24 pseudo-terminal, clock started just
  before the spawn; and the exact command the server runs for a session
  (`python -m tui_tictactoe.servers.child play ...`), the same way;
* OpenSSH: `ssh -tt -p PORT 127.0.0.1` (the real client, if installed) in a fresh
  80x24 pty, clock started just before its spawn: key exchange, login (guest),
  the server starting the game, and every byte of the frame crossing SSH;
* asyncssh: a client in this process, clock started before `connect`.

While an app writes, its output is only stamped with its arrival time. Once the
status line's "Your turn" has arrived and 0.5 s have passed without output, the
chunks are fed in order to a `pyte` screen, and the first frame is the arrival
of the chunk after which the nine empty cells are on screen (`read_board` from
`bench_startup.py`, the same test as the start-up benchmark).

Then `--clients` asyncssh clients connect at once (from 127.0.0.1-4, so the
default caps of 16 games and 4 per address admit exactly 16): p50 / p95 / max of
connect to first frame. While they are all connected, the resident memory of the
server and of each game process is read from /proc (Linux).

Bytecode: as in `bench_startup.py`, children write and reuse .pyc files in a
temporary PYTHONPYCACHEPREFIX, as an installed wheel has them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # server_tools
from bench_startup import app_command, board_is_empty
from server_tools import game_argv

from tui_tictactoe.servers.game_command import options_parser
from tui_tictactoe.servers.game_process import GameProcess, spawn

ROWS, COLS = 24, 80
TIMEOUT = 60.0
QUIET = 0.5
READY = b"Your turn"
RATIO_TARGET = 1.3
CONCURRENT_TARGET = 5.0  # seconds: every first frame of 16 clients at once

Chunks = list[tuple[float, bytes]]


def child_env(cache: str) -> dict[str, str]:
    skip = ("PYTHONDONTWRITEBYTECODE", "COLUMNS", "LINES", "COLORTERM", "NO_COLOR")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL") and k not in skip}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", PYTHONPYCACHEPREFIX=cache)
    return env


def first_frame(chunks: Chunks, started: float) -> float:
    """Seconds from `started` to the chunk that put the empty board on screen."""
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    for arrived, data in chunks:
        stream.feed(data)
        if board_is_empty(screen):
            return arrived - started
    raise RuntimeError("the first frame never showed the empty board")


async def until_quiet(chunks: Chunks, seen: Callable[[], bytes]) -> None:
    """Wait until READY has arrived and then nothing for QUIET seconds."""
    deadline = time.perf_counter() + TIMEOUT
    while True:
        await asyncio.sleep(0.05)
        now = time.perf_counter()
        if READY in seen() and chunks and now - chunks[-1][0] >= QUIET:
            return
        if now > deadline:
            raise TimeoutError("no first frame")


async def in_pty(argv: list[str], env: dict[str, str]) -> float:
    """Spawn `argv` in a fresh 80x24 pty; seconds to its first frame."""
    chunks: Chunks = []
    buffer = bytearray()

    def output(data: bytes) -> None:
        chunks.append((time.perf_counter(), data))
        buffer.extend(data)

    started = time.perf_counter()
    process = GameProcess(spawn(argv, env), COLS, ROWS, on_output=output, on_exit=lambda _s: None)
    await process.start()
    try:
        await until_quiet(chunks, lambda: bytes(buffer))
    finally:
        await process.hang_up()
    return first_frame(chunks, started)


class Recorder(asyncssh.SSHClientSession[bytes]):
    def __init__(self) -> None:
        self.chunks: Chunks = []
        self.buffer = bytearray()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.chunks.append((time.perf_counter(), data))
        self.buffer.extend(data)


class Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""


async def over_asyncssh(port: int, local: str = "127.0.0.1", keep: list | None = None) -> float:
    """Connect, open a pty session; seconds from before the connect to the first frame."""
    started = time.perf_counter()
    conn, _ = await asyncssh.create_connection(
        Guest,
        "127.0.0.1",
        port,
        local_addr=(local, 0),
        username="bench",
        known_hosts=None,
        config=None,
        agent_path=None,
        client_keys=[],
        public_key_auth=False,
    )
    _chan, session = await conn.create_session(
        Recorder, term_type="xterm-256color", term_size=(COLS, ROWS), encoding=None
    )
    await until_quiet(session.chunks, lambda: bytes(session.buffer))
    if keep is None:
        conn.close()
    else:
        keep.append(conn)
    return first_frame(session.chunks, started)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pss_mb(pid: int) -> float:
    """Proportional set size: pages shared by n processes count 1/n in each (forked games
    share what the fork server imported; RSS counts it in every one)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    if int(stat.read().rpartition(b")")[2].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                pass
    return found


def is_fork_server(pid: int) -> bool:
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        return b"fork_server" in cmdline.read()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(value: float) -> str:
    return f"{value * 1000:.0f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument(
        "--no-fork-server", action="store_true", help="the server starts each game afresh"
    )
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="bench-ssh-pyc-")
    data = tempfile.mkdtemp(prefix="bench-ssh-data-")
    env = child_env(cache)
    server = subprocess.Popen(
        [
            *app_command(),
            "serve-ssh",
            "--port",
            "0",
            *(["--no-fork-server"] if args.no_fork_server else []),
        ],
        stderr=subprocess.PIPE,
        env={**env, "TUI_TICTACTOE_DATA_DIR": data},
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        port = int(re.search(rb":(\d+) \(host key", line).group(1))  # type: ignore[union-attr]
        ssh = shutil.which("ssh")
        ssh_argv = [
            *(ssh or "ssh",),
            "-tt",
            "-p",
            str(port),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "PubkeyAuthentication=no",
            "bench@127.0.0.1",
        ]
        ways: dict[str, Callable[[], Awaitable[float]]] = {
            "local pty": lambda: in_pty([*app_command()], env),
            "local pty, the server's command": lambda: in_pty(
                game_argv(options_parser().parse_args([])), env
            ),
            "asyncssh client": lambda: over_asyncssh(port),
        }
        if ssh:
            ways["OpenSSH client"] = lambda: in_pty(ssh_argv, env)
        times: dict[str, list[float]] = {name: [] for name in ways}
        for way in ways.values():  # warm-up: fills the bytecode cache
            await way()
        server_idle = rss_mb(server.pid) + sum(
            rss_mb(pid) for pid in children(server.pid) if is_fork_server(pid)
        )
        order = list(ways)
        for run in range(args.runs):
            for name in order if run % 2 == 0 else order[::-1]:
                times[name].append(await ways[name]())

        print(f"\nConnect to first frame, 80x24, median of {args.runs} (min-max), ms:\n")
        print("| way | median | min-max | ratio to local |")
        print("|---|---:|---:|---:|")
        local = statistics.median(times["local pty"])
        for name, values in times.items():
            median = statistics.median(values)
            print(
                f"| {name} | {ms(median)} | {ms(min(values))}-{ms(max(values))} "
                f"| {median / local:.2f}x |"
            )

        kept: list[asyncssh.SSHClientConnection] = []
        started = time.perf_counter()
        frames = await asyncio.gather(
            *(over_asyncssh(port, f"127.0.0.{1 + i % 4}", kept) for i in range(args.clients))
        )
        wall = time.perf_counter() - started
        helpers = [pid for pid in children(server.pid) if is_fork_server(pid)]
        games = [pid for pid in children(server.pid) if pid not in helpers]
        games += [pid for helper in helpers for pid in children(helper)]
        game_rss = [rss_mb(pid) for pid in games]
        server_busy = rss_mb(server.pid) + sum(rss_mb(pid) for pid in helpers)
        print(f"\n{args.clients} clients at once (asyncssh), connect to first frame, ms:\n")
        print("| p50 | p95 | max | all done |")
        print("|---:|---:|---:|---:|")
        print(
            f"| {ms(percentile(frames, 50))} | {ms(percentile(frames, 95))} "
            f"| {ms(max(frames))} | {ms(wall)} |"
        )
        print("\nMemory (resident, MB):\n")
        print("| what | MB |")
        print("|---|---:|")
        print(f"| server, idle | {server_idle:.1f} |")
        print(f"| server, with {len(games)} sessions | {server_busy:.1f} |")
        print(f"| one game process (median of {len(games)}) | {statistics.median(game_rss):.1f} |")
        game_pss = [pss_mb(pid) for pid in games]
        print(f"| one game process, PSS (median) | {statistics.median(game_pss):.1f} |")
        per = (server_busy - server_idle + sum(game_rss)) / max(len(games), 1)
        print(f"| per session (game + server's share) | {per:.1f} |")
        print(f"| total with {len(games)} sessions | {server_busy + sum(game_rss):.1f} |")
        ok_ratio = statistics.median(times.get("OpenSSH client", times["asyncssh client"])) / local
        print(
            f"\nTargets: ratio <= {RATIO_TARGET}x: {'met' if ok_ratio <= RATIO_TARGET else 'MISSED'}"
            f" ({ok_ratio:.2f}x); every first frame of {args.clients} within "
            f"{CONCURRENT_TARGET:.0f} s: {'met' if max(frames) <= CONCURRENT_TARGET else 'MISSED'}"
        )
        for conn in kept:
            conn.close()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
