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
  (`python -m tui_tictactoe.servers.games.child play ...`), the same way;
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

`--scale` (issue 32 point 7): 1, 8, 16, 32 and 64 asyncssh clients connect at once, each
straight to a game against the AI (`--difficulty hard`: no lobby), to a server started with
room for them all (`--max-sessions 400 --max-per-address 400`). Per client: connect to the
first output (the server's "starting your game…", or the game's frame) and to the board
("Your turn"); then each sends one key (5), spread over 2 s, timed to the first output after
it; then PSS (/proc/PID/smaps_rollup) of the server, fork server, games and warm games over
the number of players, and the CPU ticks of the idle games (10 s) and of the warm pool (5 s).
`--baseline DIR` runs the same against the package in DIR (say, `git archive` of the commit
before) right after, on the same machine. `--idle-sessions N`: N sessions opened in batches of
16 and left idle: their PSS, the drop in MemAvailable, and their CPU over 20 s.

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

from tui_tictactoe.servers.games.command import options_parser
from tui_tictactoe.servers.games.process import PtyProcess, spawn

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
    process = PtyProcess(spawn(argv, env), COLS, ROWS, on_output=output, on_exit=lambda _s: None)
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


# -- the scale run (issue 32 point 7): 1, 8, 16, 32, 64 players connecting at once ----------

SCALE_SIZES = (1, 8, 16, 32, 64)
SCALE_TIMEOUT = 60.0  # seconds a client waits for its game's board
IDLE_WINDOW = 10.0  # seconds over which idle games' CPU is read
KEY_SPREAD = 2.0  # seconds over which the clients' keys are spread
STRAIGHT_TO_A_GAME = "--difficulty hard"  # a game option: the AI, not the lobby
SCALE_SERVER = ["--max-sessions", "400", "--max-per-address", "400"]
TARGETS = {64: 1.5, 8: 0.5}  # first frame p95, seconds
KEY_TARGET = 0.150  # a key's reply p95 at 64, seconds
PSS_TARGET = 25.0  # MB per idle player


class Player(asyncssh.SSHClientSession[bytes]):
    """One client of the scale run: when anything was first drawn, when the board was."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.first: float | None = None  # anything: the server's frame or the game's
        self.board: float | None = None  # the game's own ("Your turn" has come)
        self.buffer = bytearray()
        self.last = 0.0
        self.arrived = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None

    def connection_made(self, chan: asyncssh.SSHChannel[bytes]) -> None:
        self.chan = chan  # type: ignore[assignment]

    def data_received(self, data: bytes, datatype: int | None) -> None:
        now = time.perf_counter()
        self.first = self.first or now - self.started
        self.buffer.extend(data)
        if self.board is None and READY in self.buffer:
            self.board = now - self.started
        self.last = now
        self.arrived.set()


async def scale_client(port: int, local: str) -> tuple[asyncssh.SSHClientConnection | None, Player]:
    started = time.perf_counter()
    player = Player(started)
    try:
        conn, _ = await asyncio.wait_for(
            asyncssh.create_connection(
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
            ),
            SCALE_TIMEOUT,
        )
        await conn.create_session(
            lambda: player,
            STRAIGHT_TO_A_GAME,
            term_type="xterm-256color",
            term_size=(COLS, ROWS),
            encoding=None,
        )
    except (OSError, asyncssh.Error, TimeoutError):
        return None, player
    deadline = started + SCALE_TIMEOUT
    while player.board is None and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    return conn, player


async def key_reply(player: Player, delay: float) -> float:
    """Seconds from a key (5: the centre) to the first output after it."""
    await asyncio.sleep(delay)
    assert player.chan is not None
    player.arrived.clear()
    sent = time.perf_counter()
    player.chan.write(b"5")
    await asyncio.wait_for(player.arrived.wait(), SCALE_TIMEOUT)
    return player.last - sent


def cpu_ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def has_terminal(pid: int) -> bool:
    """A game holds its pty as controlling terminal; a warm game, waiting, holds none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rpartition(b")")[2].split()[4]) != 0
    except OSError:
        return False


def processes(server: int) -> tuple[list[int], list[int]]:
    """(the server and its fork server, every process under them but the fork server)."""
    helpers = [pid for pid in children(server) if is_fork_server(pid)]
    under = [pid for pid in children(server) if pid not in helpers]
    under += [pid for helper in helpers for pid in children(helper)]
    return [server, *helpers], under


async def idle_cpu(pids: list[int], window: float = IDLE_WINDOW) -> float:
    """Percent of a core the processes used together over `window` seconds, idle."""
    before = sum(cpu_ticks(pid) for pid in pids)
    await asyncio.sleep(window)
    return (sum(cpu_ticks(pid) for pid in pids) - before) / os.sysconf("SC_CLK_TCK") / window * 100


async def until_settled(server: int, count: int) -> None:
    """Until the games of the last round are gone: `count` processes left under the server."""
    deadline = time.monotonic() + 30
    while len(processes(server)[1]) > count and time.monotonic() < deadline:
        await asyncio.sleep(0.1)


async def scale_round(server: int, port: int, size: int, warm: list[int]) -> dict[str, float]:
    results = await asyncio.gather(*(scale_client(port, "127.0.0.1") for _ in range(size)))
    players = [player for _, player in results]
    drawn = [p.first for p in players if p.first is not None]
    boards = [p.board for p in players if p.board is not None]
    row: dict[str, float] = {
        "size": size,
        "drew": len(drawn),
        "boards": len(boards),
        "first50": percentile(drawn, 50) if drawn else float("nan"),
        "first95": percentile(drawn, 95) if len(drawn) == size else float("inf"),
        "board50": percentile(boards, 50) if boards else float("nan"),
        "board95": percentile(boards, 95) if len(boards) == size else float("inf"),
    }
    live = [(conn, p) for conn, p in results if conn is not None and p.board is not None]
    await asyncio.sleep(1.0)
    replies = await asyncio.gather(
        *(key_reply(p, KEY_SPREAD * i / max(1, len(live))) for i, (_conn, p) in enumerate(live)),
        return_exceptions=True,
    )
    replies = [r for r in replies if isinstance(r, float)]
    row["key95"] = percentile(replies, 95) if replies else float("nan")
    await asyncio.sleep(2.0)  # the AI's replies drawn: every game idle
    own, under = processes(server)
    games = [pid for pid in under if has_terminal(pid)]
    pool = [pid for pid in under if not has_terminal(pid)]  # warm games: no terminal yet
    row["pss_game"] = statistics.median(pss_mb(pid) for pid in games) if games else float("nan")
    row["pss_per"] = (sum(pss_mb(pid) for pid in [*own, *under])) / max(1, size)
    row["cpu_game"] = await idle_cpu(games) / max(1, len(games)) if games else float("nan")
    row["cpu_pool"] = await idle_cpu(pool, 5.0) if pool else 0.0
    row["pool"] = len(pool)
    for conn, _ in results:
        if conn is not None:
            conn.close()
    await until_settled(server, len(warm))
    return row


def start_server(
    env: dict[str, str], data: str, extra: list[str], source: str | None
) -> tuple[subprocess.Popen[bytes], int]:
    run_env = {**env, "TUI_TICTACTOE_DATA_DIR": data}
    argv = [*app_command(), "serve-ssh", "--port", "0", *extra]
    if source:  # another tree's code (the baseline): its package first on the path
        run_env["PYTHONPATH"] = source
        argv = [sys.executable, "-m", "tui_tictactoe", "serve-ssh", "--port", "0", *extra]
    server = subprocess.Popen(argv, stderr=subprocess.PIPE, env=run_env, cwd=data)
    assert server.stderr is not None
    line = server.stderr.readline()
    found = re.search(rb":(\d+) \(host key", line)
    if found is None:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, int(found.group(1))


async def scale(
    env: dict[str, str], label: str, sizes: list[int], source: str | None
) -> list[dict[str, float]]:
    data = tempfile.mkdtemp(prefix="bench-ssh-scale-")
    server, port = start_server(env, data, SCALE_SERVER, source)
    rows = []
    try:
        conn, _ = await scale_client(port, "127.0.0.1")  # warm-up: the bytecode cache
        if conn is not None:
            conn.close()
        await asyncio.sleep(2.0)
        _, warm = processes(server.pid)
        for size in sizes:
            row = await scale_round(server.pid, port, size, warm)
            row["label"] = label  # type: ignore[assignment]
            rows.append(row)
            print(f"  {label}: {size} at once: {row}", file=sys.stderr, flush=True)
    finally:
        server.terminate()
        server.wait(15)
        shutil.rmtree(data, ignore_errors=True)
    return rows


def print_scale(rows: list[dict[str, float]]) -> None:
    print("\nScale run: clients connecting at once, each straight to a game against the AI\n")
    print(
        "| code | at once | drew / boards | first frame p50 / p95 s | board p50 / p95 s "
        "| key reply p95 ms | PSS per player MB (game median) | idle game, % of a core "
        "| warm pool idle, % of a core |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['label']} | {r['size']} | {r['drew']}/{r['boards']} "
            f"| {r['first50']:.2f} / {r['first95']:.2f} | {r['board50']:.2f} / {r['board95']:.2f} "
            f"| {r['key95'] * 1000:.0f} | {r['pss_per']:.1f} ({r['pss_game']:.1f}) "
            f"| {r['cpu_game']:.2f} | {r['cpu_pool']:.2f} ({r['pool']:.0f} games) |"
        )
    for r in rows:
        if r["label"] != "this code":
            continue
        target = TARGETS.get(int(r["size"]))
        if target is not None:
            met = r["first95"] <= target and r["drew"] == r["size"]
            print(
                f"\nTarget: first frame p95 <= {target} s at {r['size']:.0f}: {'met' if met else 'MISSED'}"
            )
        if r["size"] == 64:
            print(
                f"Target: key reply p95 <= {KEY_TARGET * 1000:.0f} ms at 64: "
                f"{'met' if r['key95'] <= KEY_TARGET else 'MISSED'}"
            )
            print(
                f"Target: PSS per idle player <= {PSS_TARGET} MB: "
                f"{'met' if r['pss_per'] <= PSS_TARGET else 'MISSED'}"
            )


async def idle_sessions(env: dict[str, str], count: int) -> None:
    """`count` sessions open at once, each a game idling: memory and the CPU they cost."""
    data = tempfile.mkdtemp(prefix="bench-ssh-idle-")
    server, port = start_server(env, data, SCALE_SERVER, None)
    kept: list[asyncssh.SSHClientConnection] = []
    try:
        available = meminfo("MemAvailable")
        for start in range(0, count, 16):  # in batches: this is about idling, not the burst
            results = await asyncio.gather(
                *(scale_client(port, "127.0.0.1") for _ in range(min(16, count - start)))
            )
            kept += [conn for conn, p in results if conn is not None and p.board is not None]
        await asyncio.sleep(5.0)
        own, under = processes(server.pid)
        pss = sum(pss_mb(pid) for pid in [*own, *under])
        used = (available - meminfo("MemAvailable")) / 1024
        cpu = await idle_cpu([*own, *under], 20.0)
        print(
            f"\n{len(kept)} of {count} idle sessions open at once ({len(under)} processes "
            "under the server, warm games included):\n"
        )
        print(
            "| PSS, all (MB) | PSS per session (MB) | MemAvailable drop (MB) | CPU idle, % of a core (all) | per session |"
        )
        print("|---:|---:|---:|---:|---:|")
        print(
            f"| {pss:.0f} | {pss / max(1, len(kept)):.1f} | {used:.0f} | {cpu:.1f} | {cpu / max(1, len(kept)):.3f} |"
        )
    finally:
        for conn in kept:
            conn.close()
        server.terminate()
        server.wait(30)
        shutil.rmtree(data, ignore_errors=True)


def meminfo(key: str) -> int:
    with open("/proc/meminfo") as info:
        for line in info:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument(
        "--no-fork-server", action="store_true", help="the server starts each game afresh"
    )
    parser.add_argument(
        "--scale", action="store_true", help="the scale run: 1, 8, 16, 32, 64 clients at once"
    )
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="with --scale: also run it against the package in DIR (another tree's code)",
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, SCALE_SIZES)),
        help="with --scale: how many at once, each round (default 1,8,16,32,64)",
    )
    parser.add_argument("--idle-sessions", type=int, default=0, metavar="N")
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="bench-ssh-pyc-")
    data = tempfile.mkdtemp(prefix="bench-ssh-data-")
    env = child_env(cache)
    if args.scale or args.idle_sessions:
        print(f"load before: {os.getloadavg()}", file=sys.stderr)
        try:
            if args.scale:
                sizes = [int(size) for size in args.sizes.split(",")]
                rows = await scale(env, "this code", sizes, None)
                if args.baseline:
                    rows += await scale(env, "baseline", sizes, args.baseline)
                print_scale(rows)
            if args.idle_sessions:
                await idle_sessions(env, args.idle_sessions)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.rmtree(data, ignore_errors=True)
        return
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
