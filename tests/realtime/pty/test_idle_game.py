"""An idle game costs nothing: nothing of ours wakes its event loop while nobody types.

It used to check every 0.2 s that its terminal was still there (~0.3% of a core per idle
game: most of a core for 300 idle players). Now the kernel wakes it when the terminal
hangs up (`ui.terminal.HangUpWatch`), and a key or a frame never does. What is left is
Textual's input thread (a `select` of 0.1 s, in Textual's own loop), a thread apart from
the event loop counted here.
"""

from __future__ import annotations

import asyncio
import os
import select
import time
from collections.abc import Iterator

import pytest
from pty_terminal import Terminal

from tui_tictactoe.ui.terminal import HangUpWatch

IDLE_SECONDS = 3.0
WAKE_BOUND = 6  # the event loop's wake-ups in IDLE_SECONDS; the old check made ~15-30


def wake_ups(pid: int) -> int:
    """Times the process's main thread (its event loop) has gone to sleep and been woken."""
    with open(f"/proc/{pid}/task/{pid}/status") as status:
        for line in status:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    raise AssertionError("no voluntary_ctxt_switches in /proc")


@pytest.fixture
def game() -> Iterator[Terminal]:
    term = Terminal("--seed", "1", "--no-record")
    try:
        yield term
    finally:
        term.close()


def test_an_idle_game_event_loop_sleeps(game: Terminal) -> None:
    game.wait_for_first_frame()
    game.settle(quiet=0.5, limit=10.0, idle_cpu=True)  # the record, the first layout: done
    before = wake_ups(game.pid)
    deadline = time.monotonic() + IDLE_SECONDS
    while time.monotonic() < deadline:
        game.pump(0.2)  # its output read, as a client would: none is expected
    woken = wake_ups(game.pid) - before
    assert woken <= WAKE_BOUND, f"the idle game's event loop woke {woken} times"
    assert game.alive()


def test_the_hang_up_watch_wakes_on_the_hang_up_only() -> None:
    master, slave = os.openpty()
    told: list[str] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        watch = HangUpWatch(slave, lambda: told.append("gone"))
        watch.start(loop)
        os.write(master, b"a key\r")  # input waiting: not a hang-up
        os.write(slave, b"a frame")  # output: not a hang-up
        readable, _, _ = select.select([watch.epoll.fileno()], [], [], 0.2)
        assert readable == [] and told == []
        os.close(master)
        deadline = loop.time() + 10
        while not told and loop.time() < deadline:
            await asyncio.sleep(0.01)

    try:
        asyncio.run(run())
    finally:
        os.close(slave)
    assert told == ["gone"]
