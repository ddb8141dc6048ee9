"""A key flood at a set rate, and a game's memory while it lasts: shared by the flood
tests (`test_serve_ssh_flood.py`, `test_serve_web_flood.py`) and
`benchmarks/bench_flood.py`. The sender is any callable taking bytes (an SSH channel's
write, a websocket's stdin message), so every way in is flooded alike."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import NamedTuple

ARROWS = (b"\x1b[C", b"\x1b[D")  # right, left: the cursor ends where it began
CTRL_Q = b"\x11"
TICK = 0.01  # seconds between writes: a write carries the keys due by then
WRITE_KEYS = 2048
"""Keys in one write at most (~16 KB as a page's JSON message). A tick a loaded machine
wakes late from had made one write of every key due meanwhile: a websocket message past
serve-web's 64 KiB, closed with 1009 instead of flooding (issue 36)."""


def rss(pid: int, field: str = "VmRSS") -> int:
    """A process's resident memory (`VmRSS`, or its peak `VmHWM`), in bytes; 0 once gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Flooded(NamedTuple):
    keys: int  # arrow keys sent
    seconds: float
    peak_rss: int  # the game's highest VmRSS seen while sampling (bytes)


async def flood(
    send: Callable[[bytes], Awaitable[None] | None],
    seconds: float,
    rate: float,
    pid: int | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Flooded:
    """Send arrow keys at `rate` a second for `seconds` (or until `stop()`), every TICK
    the keys due by then in one write, as a client reading its output between writes
    does; samples `pid`'s memory every tick."""
    started = time.monotonic()
    sent = peak = 0
    while (elapsed := time.monotonic() - started) < seconds and not stop():
        due = min(int(elapsed * rate) - sent, WRITE_KEYS)
        if due > 0:
            chunk = b"".join(ARROWS[(sent + i) % 2] for i in range(due))
            result = send(chunk)
            if result is not None:
                await result
            sent += due
        if pid is not None:
            peak = max(peak, rss(pid))
        await asyncio.sleep(TICK)
    return Flooded(sent, time.monotonic() - started, peak)


RESEND = 1.0  # seconds between tries of a key that must act after a flood
CATCH_UP = 180.0
"""Seconds a game may take after a flood to act on a key: first it handles the keys it had
admitted (up to its input gate's BACKLOG, each a redraw), which took over 15 s at load ~10 on
2 cores and over 60 s at load ~15. A bound for a hung game, not a speed (the benchmarks
measure that): on a quiet machine the key acts at once."""


async def until_a_key_acts(
    send: Callable[[bytes], Awaitable[None] | None],
    key: bytes,
    acted: Callable[[], bool],
    timeout: float,
    shown: Callable[[], str] = lambda: "",
) -> None:
    """Send `key` until `acted()`, again every RESEND s: just after a flood the gate's
    bucket is spent and the flood's last writes may still be on their way (a loaded
    machine delays them), so a key sent once is as likely to be dropped as theirs. The
    key must be one that does no harm twice (a move on a cell it took)."""
    deadline = time.monotonic() + timeout
    while True:
        result = send(key)
        if result is not None:
            await result
        tried = time.monotonic() + RESEND
        while time.monotonic() < tried:
            if acted():
                return
            assert time.monotonic() < deadline, (
                f"{key!r} never acted in {timeout:.0f} s:\n{shown()}"
            )
            await asyncio.sleep(0.02)


async def settled_rss(pid: int, seconds: float) -> int:
    """The game's VmRSS after `seconds` without input (its memory back, or not)."""
    await asyncio.sleep(seconds)
    return rss(pid)


FLOOD_SECONDS = float(os.environ.get("TUI_TICTACTOE_FLOOD_SECONDS", "8"))


RATE = 2_500  # keys a second: the flood


MEMORY_LIMIT = 150 * 1024 * 1024  # bytes: the target


GROWTH_LIMIT = 30 * 1024 * 1024  # bytes a flood may add (unbounded, it added ~8 MB a second)


AFTER = 0.5  # seconds after the flood before a key that must act


QUIT_WITHIN = 5.0  # seconds from Ctrl+Q to the session's end: the 1 s, loosely
