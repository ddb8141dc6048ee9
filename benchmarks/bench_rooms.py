"""Rooms over `serve-ssh` under load: 8 rooms, 16 players and 8 spectators at once (issue 22).

Run by hand: `python benchmarks/bench_rooms.py [--rooms 8] [--rounds 10] [--think 1]`.

Pace: 16 people play, so a player pauses before each move, a random 0 to `--think` s
(default 1: a quick player, mean 0.5 s), and the target (p95 <= 100 ms) is for that.
`--think 0` is the capacity run: every player answers the instant their turn shows, the
rooms' moves queue for the machine's cores (a closed loop: 8 moves always in flight), and
the latency is that queue's; its moves per second is what the host can draw.

Method
------
The server is the installed command, `tui-tictactoe serve-ssh --port 0`, in its own
process as a host runs it (fork server on; caps raised so every session fits). Every
client is an asyncssh connection with an 80x24 pty whose output feeds a `pyte` screen
(`SSHTerminal` from tests/realtime/ssh/test_serve_ssh.py, the board read with the pty tests' own
box-finding code). Room i's three sessions connect from 127.0.0.(i+2): `ann<i>` opens
the room (`--room new`, seat X), `bob<i>` joins it (O), `eve<i>` watches.

Every room plays `--rounds` rounds at once with the others, strictly in turn: the
player whose screen says "... Your turn: you play M." picks a random empty cell (a
seeded generator per room), presses its digit once, and the next move waits until the
other player's screen shows the new board and its turn. A round is played to its end
(a win or a draw, checked here on the moves sent); then both players press `r` and the
rematch begins with the other player first.

Latency: each SSH chunk is stamped (`time.perf_counter`) when asyncssh hands it over,
and fed to the screen at once; after each chunk the screen's board is read. The time of
a move is from just before the key is written to the arrival of the chunk after which
the whole board on the OTHER player's screen (and, apart, the spectator's) is exactly
the board of the moves sent so far: the mark whole in its cell and nothing else changed.
The clients' own work (pyte, reading boards, for 24 screens in this one process) is
inside these times, so they are if anything pessimistic.

Lost or doubled moves: every move must bring all three screens of its room to exactly
the expected board (a lost key never does, a doubled mark never does: either is counted
as a mismatch after 15 s and ends that room). At the end of every round, all three
screens must show the result the moves imply ("ann3 wins!" / "Draw.") and the score line
the hub sends ("ann3 2 · bob3 1 · draws 0 · round 4") must equal the tally of the rounds
played here: the hub is in the server's process, and the score is its own count.

Baselines, in the same run, on the same server: (a) one room alone, before and after the load,
the same path (key -> the mover's game -> the hub's socket -> the other games -> SSH)
with no other session: what the load adds; (b) a single-player game against the AI
(`--difficulty hard`): key -> X on the player's own screen over SSH, with no hub and no
other process in the path: the floor of any key -> screen over this server.

Memory (Linux /proc) while all sessions are in, after the last round: resident memory of
the server, the fork server and every game; per session = (server + fork server growth
over idle + all games) / sessions; PSS (shared pages split) for the games too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from bench_ssh import child_env, children, is_fork_server, percentile, pss_mb, rss_mb
from bench_startup import app_command
from test_serve_ssh import SSHTerminal, connect

ROWS, COLS = 24, 80
STEP = 15.0  # seconds: a move's mark on every screen of its room, else a mismatch
START = 60.0  # 24 sessions starting at once on 2 cores
TARGET_MS = 100.0
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

Board = dict[tuple[int, int], str]


class Mismatch(Exception):
    """A screen never showed what the moves sent imply: a lost or doubled move."""


class Timed(SSHTerminal):
    """An SSH terminal that stamps each chunk and reports when a condition first holds."""

    def __init__(self) -> None:
        super().__init__(COLS, ROWS)
        self.expect: Callable[[], bool] | None = None
        self.seen_at = 0.0
        self.seen = asyncio.Event()
        self.chunks = 0

    def data_received(self, data: bytes, datatype: int | None) -> None:
        arrived = time.perf_counter()
        super().data_received(data, datatype)
        self.chunks += 1
        if self.expect is not None and self.expect():
            self.expect, self.seen_at = None, arrived
            self.seen.set()

    def watch(self, condition: Callable[[], bool]) -> None:
        self.seen.clear()
        self.expect = condition

    async def reached(self, what: str, timeout: float = STEP) -> float:
        """When the watched condition first held (its chunk's arrival)."""
        try:
            await asyncio.wait_for(self.seen.wait(), timeout)
        except TimeoutError:
            self.expect = None
            raise Mismatch(f"{what}; screen:\n{self.text}") from None
        return self.seen_at

    async def until(self, what: str, condition: Callable[[], bool], timeout: float = STEP) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline or self.closed.is_set():
                raise Mismatch(f"waited for {what}; screen:\n{self.text}")
            await asyncio.sleep(0.01)


async def enter(port: int, command: str, user: str, local: str) -> Timed:
    conn = await connect(port, username=user, local=local)
    _chan, term = await asyncio.wait_for(
        conn.create_session(
            Timed, command, encoding=None, term_type="xterm-256color", term_size=(COLS, ROWS)
        ),
        START,
    )
    return term


def board_of(moves: list[int], first: str) -> Board:
    board: Board = {(r, c): "" for r in range(3) for c in range(3)}
    mark = first
    for cell in moves:
        board[divmod(cell - 1, 3)] = mark
        mark = "O" if mark == "X" else "X"
    return board


def outcome(board: Board) -> str | None:
    """ "X", "O", "draw", or None while the round goes on."""
    flat = [board[divmod(i, 3)] for i in range(9)]
    for a, b, c in LINES:
        if flat[a] and flat[a] == flat[b] == flat[c]:
            return flat[a]
    return "draw" if all(flat) else None


class Room:
    """One room's three screens, the moves sent, and the tally the hub should agree with."""

    def __init__(self, index: int, seed: int) -> None:
        self.index = index
        self.names = {"X": f"ann{index}", "O": f"bob{index}"}
        self.rng = random.Random(seed)
        self.seats: dict[str, Timed] = {}
        self.spectator: Timed | None = None
        self.code = ""
        self.score = {"X": 0, "O": 0, "draw": 0}
        self.to_other: list[float] = []
        self.to_spectator: list[float] = []
        self.moves = 0
        self.rounds = 0
        self.error: str | None = None

    @property
    def screens(self) -> list[Timed]:
        assert self.spectator is not None
        return [self.seats["X"], self.seats["O"], self.spectator]

    def score_line(self, round_: int) -> str:
        return (
            f"{self.names['X']} {self.score['X']} · {self.names['O']} {self.score['O']}"
            f" · draws {self.score['draw']} · round {round_}"
        )

    async def open(self, port: int) -> None:
        local = f"127.0.0.{self.index + 2}"
        ann = await enter(port, "--room new", self.names["X"], local)
        pattern = r"give them the code ([A-Z]{4})\."
        await ann.until("the room's code", lambda: re.search(pattern, ann.text) is not None, START)
        self.code = re.search(pattern, ann.text).group(1)  # type: ignore[union-attr]
        self.seats["X"] = ann
        self.seats["O"] = await enter(port, f"--join {self.code}", self.names["O"], local)
        self.spectator = await enter(port, f"--watch {self.code}", f"eve{self.index}", local)

    async def ready(self) -> None:
        for term in self.screens:
            await term.until("round 1", lambda t=term: self.score_line(1) in t.text, START)
        await self.seats["X"].until(
            "X to play", lambda: "Your turn: you play X." in self.seats["X"].text, START
        )

    async def play_round(self, round_: int, think: float) -> None:
        first = "X" if round_ % 2 == 1 else "O"  # the rematch: the other starts
        moves: list[int] = []
        mark = first
        while True:
            mover, other = self.seats[mark], self.seats["O" if mark == "X" else "X"]
            turn = f"Your turn: you play {mark}."
            await mover.until(f"{turn} (round {round_})", lambda m=mover, t=turn: t in m.text)
            if think:
                await asyncio.sleep(self.rng.uniform(0, think))
            cell = self.rng.choice([c for c in range(1, 10) if c not in moves])
            moves.append(cell)
            expected = board_of(moves, first)
            for term in self.screens:
                term.watch(lambda t=term, e=expected: t.visible_board() == e)
            sent = time.perf_counter()
            mover.send(str(cell))
            what = f"room {self.code} round {round_}: {self.names[mark]} played {cell}"
            other_at = await other.reached(what)
            spectator_at = await self.screens[2].reached(what)
            await mover.reached(what)
            self.to_other.append(other_at - sent)
            self.to_spectator.append(spectator_at - sent)
            self.moves += 1
            result = outcome(expected)
            if result is not None:
                break
            mark = "O" if mark == "X" else "X"
        self.score[result] += 1
        said = "Draw." if result == "draw" else f"{self.names[result]} wins!"
        for term in self.screens:
            await term.until(
                f"{said} {self.score_line(round_)}",
                lambda t=term: said in t.text and self.score_line(round_) in t.text,
            )
            if term.visible_board() != expected:
                raise Mismatch(f"room {self.code} round {round_}: the board changed:\n{term.text}")
        self.rounds += 1

    async def rematch(self, round_: int) -> None:
        for term in self.seats.values():
            term.send("r")
        empty = board_of([], "X")
        for term in self.screens:
            await term.until(
                f"round {round_ + 1}",
                lambda t=term: self.score_line(round_ + 1) in t.text and t.visible_board() == empty,
            )

    async def play(self, rounds: int, think: float) -> None:
        try:
            for round_ in range(1, rounds + 1):
                await self.play_round(round_, think)
                if round_ < rounds:
                    await self.rematch(round_)
        except Mismatch as error:
            self.error = str(error)

    def close(self) -> None:
        for term in self.screens:
            if term.chan is not None:
                term.chan.get_extra_info("connection").close()


def my_turn(term: Timed) -> bool:
    """X to play on a whole board: as many Os as Xs (X began) or one more (the AI began)."""
    board = term.visible_board()
    if board is None:
        return False
    xs, os_ = (sum(v == mark for v in board.values()) for mark in "XO")
    return os_ in (xs, xs + 1)


async def against_ai(port: int, games: int) -> list[float]:
    """Key -> X on the player's own screen, in `games` games against the AI over SSH."""
    term = await enter(port, "--difficulty hard", "solo", "127.0.0.1")
    order = [5, 1, 9, 3, 7, 2, 4, 6, 8]
    times: list[float] = []
    try:
        for _ in range(games):
            await term.until(
                "your turn",
                lambda: term.status().endswith("Your turn: you play X.") and my_turn(term),
                START,
            )
            while term.result() is None:
                board = term.visible_board() or {}
                cell = next(c for c in order if not board.get(divmod(c - 1, 3)))
                os_, before = sum(v == "O" for v in board.values()), term.status()
                term.watch(lambda c=cell: (term.visible_board() or {}).get(divmod(c - 1, 3)) == "X")
                sent = time.perf_counter()
                term.send(str(cell))
                times.append(await term.reached(f"X at {cell}") - sent)

                def replied(os_: int = os_, before: str = before) -> bool:
                    if term.result():
                        return True
                    now = term.visible_board() or {}
                    status = term.status()  # a new status line: the AI's frame is whole
                    return (
                        sum(v == "O" for v in now.values()) == os_ + 1
                        and status.endswith("Your turn: you play X.")
                        and status != before
                    )

                await term.until("the AI's reply", replied)
            term.send("r")  # reset: a new round
            await term.until("a new round", lambda: term.result() is None)
    finally:
        if term.chan is not None:
            term.chan.get_extra_info("connection").close()
    return times


async def one_room_alone(port: int, index: int, args: argparse.Namespace) -> Room:
    """The baseline: one room, its three sessions the only ones on the server."""
    room = Room(index, args.seed - index)  # from 127.0.0.(index + 2)
    await room.open(port)
    await room.ready()
    await room.play(args.baseline_rounds, args.think)
    room.close()
    await asyncio.sleep(2.0)  # its games end
    return room


def row(name: str, values: list[float], target: bool = False) -> str:
    if not values:
        return f"| {name} | 0 | | | | |"
    p50, p95 = percentile(values, 50) * 1000, percentile(values, 95) * 1000
    verdict = ("met" if p95 <= TARGET_MS else "MISSED") if target else ""
    return (
        f"| {name} | {len(values)} | {p50:.1f} | {p95:.1f} | {max(values) * 1000:.1f} | {verdict} |"
    )


def memory(server: int, sessions: int, idle: float) -> list[str]:
    helpers = [pid for pid in children(server) if is_fork_server(pid)]
    games = [pid for pid in children(server) if pid not in helpers]
    games += [pid for helper in helpers for pid in children(helper)]
    game_rss = [rss_mb(pid) for pid in games]
    game_pss = [pss_mb(pid) for pid in games]
    server_rss = rss_mb(server)
    helper_rss = sum(rss_mb(pid) for pid in helpers)
    per = (server_rss + helper_rss - idle + sum(game_rss)) / max(sessions, 1)
    return [
        "| what | MB |",
        "|---|---:|",
        f"| server process, idle (no session) + fork server | {idle:.1f} |",
        f"| server process, {len(games)} sessions | {server_rss:.1f} |",
        f"| fork server | {helper_rss:.1f} |",
        f"| one game, resident: mean / max of {len(games)} "
        f"| {statistics.mean(game_rss):.1f} / {max(game_rss):.1f} |",
        f"| one game, PSS: mean / max | {statistics.mean(game_pss):.1f} / {max(game_pss):.1f} |",
        f"| per session, resident: (server + fork server growth + games) / {sessions} "
        f"| {per:.1f} |",
        f"| per session, proportional: (the same growth + games' PSS) / {sessions} "
        f"| {(server_rss + helper_rss - idle + sum(game_pss)) / max(sessions, 1):.1f} |",
        f"| total resident, server + fork server + games | "
        f"{server_rss + helper_rss + sum(game_rss):.1f} |",
    ]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_part(server: int) -> dict[str, float]:
    """CPU seconds so far of the server, the fork server, and all games together."""
    helpers = [pid for pid in children(server) if is_fork_server(pid)]
    games = [pid for pid in children(server) if pid not in helpers]
    games += [pid for helper in helpers for pid in children(helper)]
    return {
        "server (SSH, hub)": cpu_seconds(server),
        "fork server": sum(cpu_seconds(pid) for pid in helpers),
        "games": sum(cpu_seconds(pid) for pid in games),
        "benchmark clients": time.process_time(),
    }


def idle_memory(server: int) -> float:
    return rss_mb(server) + sum(rss_mb(pid) for pid in children(server) if is_fork_server(pid))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--think", type=float, default=1.0, help="max random pause before a move (0: flat out)"
    )
    parser.add_argument("--baseline-rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="bench-rooms-pyc-")
    data = tempfile.mkdtemp(prefix="bench-rooms-data-")
    sessions = 3 * args.rooms
    server = subprocess.Popen(
        [
            *app_command(),
            "serve-ssh",
            "--port",
            "0",
            "--max-sessions",
            str(sessions + 8),
            "--max-per-address",
            "8",
        ],
        stderr=subprocess.PIPE,
        env={**child_env(cache), "TUI_TICTACTOE_DATA_DIR": data},
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        port = int(re.search(rb":(\d+) \(host key", line).group(1))  # type: ignore[union-attr]
        load = os.getloadavg()

        solo = await against_ai(port, 4)
        before = await one_room_alone(port, 98, args)
        idle = idle_memory(server.pid)

        rooms = [Room(i, args.seed + i) for i in range(args.rooms)]
        started = time.perf_counter()
        await asyncio.gather(*(room.open(port) for room in rooms))
        await asyncio.gather(*(room.ready() for room in rooms))
        in_at = time.perf_counter() - started
        quiet = cpu_by_part(server.pid)
        await asyncio.sleep(3.0)  # all in, nobody moving: what idle sessions cost
        idle_cpu = {part: used - quiet[part] for part, used in cpu_by_part(server.pid).items()}
        begun = time.perf_counter()
        cpu_before = cpu_by_part(server.pid)
        await asyncio.gather(*(room.play(args.rounds, args.think) for room in rooms))
        wall = time.perf_counter() - begun
        cpu_after = cpu_by_part(server.pid)
        mem = memory(server.pid, sessions, idle)
        load_after = os.getloadavg()
        for room in rooms:
            room.close()
        await asyncio.sleep(2.0)  # their games end
        after = await one_room_alone(port, 99, args)
        alone = [before, after]

        other = [t for room in rooms for t in room.to_other]
        spectator = [t for room in rooms for t in room.to_spectator]
        errors = [room.error for room in rooms if room.error] + (
            [room.error for room in alone if room.error]
        )
        planned = args.rooms * args.rounds
        moves = max(sum(room.moves for room in rooms), 1)
        played = sum(room.rounds for room in rooms)
        print(
            f"\n{args.rooms} rooms ({sessions} sessions) at once, {args.rounds} rounds each, "
            f"think 0-{args.think:.2f} s: {moves} moves, "
            f"{played}/{planned} rounds in {wall:.1f} s, {moves / wall:.1f} moves/s "
            f"(all in and ready after {in_at:.1f} s); "
            f"load average {load[0]:.1f} before, {load_after[0]:.1f} after\n"
        )
        print("| key -> the mark on screen (ms) | moves | p50 | p95 | max | p95 <= 100 ms |")
        print("|---|---:|---:|---:|---:|---|")
        print(row(f"{args.rooms} rooms: the other player's screen", other, True))
        print(row(f"{args.rooms} rooms: the spectator's screen", spectator, True))
        for room, when in zip(alone, ("before", "after"), strict=True):
            print(
                row(f"baseline: one room alone ({when}), the other player's screen", room.to_other)
            )
            print(
                row(f"baseline: one room alone ({when}), the spectator's screen", room.to_spectator)
            )
        print(row("baseline: against the AI, key -> X on the player's own screen", solo))
        print(
            f"\nLost or doubled moves (a screen never showing the moves sent, a wrong result "
            f"or score; a room stops at its first): {len(errors)}"
        )
        for error in errors:
            print(f"\n    {error}")
        print(f"\nMemory with {sessions} sessions, after the last round (resident, MB):\n")
        print("\n".join(mem))
        print(
            f"\nCPU while the {args.rooms} rooms played ({wall:.1f} s wall, {os.cpu_count()} cores):\n"
        )
        print("| process | CPU s | ms per move | idle, 3 s before play (CPU s) |")
        print("|---|---:|---:|---:|")
        for part, start in cpu_before.items():
            used = cpu_after[part] - start
            print(f"| {part} | {used:.1f} | {used / moves * 1000:.1f} | {idle_cpu[part]:.2f} |")
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
