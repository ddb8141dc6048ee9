"""The room hub across processes: from one player's move to the other player's update.

Two players play round after round (rematch after each) on one 3x3 room, strictly in
turn: each move is sent only once its player has seen the other's. For every move, the
time from the mover calling `move` to the other player's `updates` yielding the view
with it. Measured two ways in the same run:

- baseline: `MemoryHub` in one process, the two players two tasks on its event loop;
- socket: `HubServer` (over a `MemoryHub`) in this process, each player a `SocketHub` in a
  process of its own (as `serve-ssh` runs them), over the AF_UNIX socket.

Times come from `time.monotonic_ns`, which on Linux is one clock for every process.
Run: `python benchmarks/bench_rooms_socket.py --moves 2000`. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import time
from typing import Any

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.socket.server import HubServer
from tui_tictactoe.rooms.view import Person, RoomView, Ticket

Times = dict[tuple[int, int], int]  # (round, move index) -> monotonic ns


async def play(hub: RoomHub, ticket: Ticket, moves: int, seed: int) -> tuple[Times, Times]:
    """Play `ticket`'s seat until `moves` moves are on the boards of all rounds; return
    when each of its moves was sent and when each of the other's arrived."""
    rng = random.Random(seed)
    sent: Times = {}
    seen: Times = {}
    done_before = 0  # moves of the rounds before this one
    last_round, last_len, asked = 1, 0, 0
    async for view in hub.updates(ticket):
        now = time.monotonic_ns()
        if view.round != last_round:
            done_before += last_len
            last_round = view.round
        last_len = len(view.moves)
        mine = _movers(view)
        for index in range(len(view.moves)):
            if mine[index] != ticket.seat and (view.round, index) not in seen:
                seen[view.round, index] = now
        if done_before + len(view.moves) >= moves:
            break
        if view.result is not None and asked < view.round:
            asked = view.round
            await hub.rematch(ticket)
        elif (
            view.to_move == ticket.seat
            and all(seat.present for seat in view.seats)  # the other has sat down
            and (view.round, len(view.moves)) not in sent
        ):
            empty = [c for c in range(1, 10) if c not in view.moves]
            sent[view.round, len(view.moves)] = time.monotonic_ns()
            await hub.move(ticket, rng.choice(empty), view.generation)
    return sent, seen


def _movers(view: RoomView) -> list[str]:
    other = "O" if view.first == "X" else "X"
    return [view.first if i % 2 == 0 else other for i in range(len(view.moves))]


def latencies(x: tuple[Times, Times], o: tuple[Times, Times]) -> list[float]:
    """Milliseconds from each move's sending to its arrival at the other player."""
    out = []
    for sent, seen in ((x[0], o[1]), (o[0], x[1])):
        out += [(seen[key] - when) / 1e6 for key, when in sent.items() if key in seen]
    return out


async def baseline(moves: int) -> list[float]:
    hub = MemoryHub()
    x = await hub.create(Person("ann"), 3, "X")
    o = await hub.join(x.code, Person("bob"))
    results = await asyncio.gather(play(hub, x, moves, 1), play(hub, o, moves, 2))
    return latencies(*results)


def _player(path: str, code: str | None, moves: int, queue: Any) -> None:
    """One game process: create (no code) or join the room, play, report the times."""

    async def main() -> tuple[Times, Times]:
        async with await SocketHub.connect(path) as hub:
            if code is None:
                ticket = await hub.create(Person("ann"), 3, "X")
                queue.put(ticket.code)
            else:
                ticket = await hub.join(code, Person("bob"))
            return await play(hub, ticket, moves, 1 if code is None else 2)

    queue.put(asyncio.run(main()))


async def over_socket(moves: int) -> list[float]:
    context = multiprocessing.get_context("spawn")
    async with HubServer(MemoryHub()) as server:
        loop = asyncio.get_running_loop()
        x_queue, o_queue = context.Queue(), context.Queue()
        ann = context.Process(target=_player, args=(str(server.path), None, moves, x_queue))
        ann.start()
        code = await loop.run_in_executor(None, x_queue.get, True, 300)
        bob = context.Process(target=_player, args=(str(server.path), code, moves, o_queue))
        bob.start()
        x = await loop.run_in_executor(None, x_queue.get, True, 300)
        o = await loop.run_in_executor(None, o_queue.get, True, 300)
        ann.join()
        bob.join()
    return latencies(x, o)


def row(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {name} | {len(times):,} | {statistics.median(ordered):.3f} | {p95:.3f} "
        f"| {ordered[-1]:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()
    base = asyncio.run(baseline(args.moves))
    socket = asyncio.run(over_socket(args.moves))
    print("| move to the other player's update | moves | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    print(row("baseline: `MemoryHub`, both players in one process", base))
    print(row("`SocketHub` -> `HubServer` -> `SocketHub`, three processes", socket))


if __name__ == "__main__":
    main()
