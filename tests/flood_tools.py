"""A key flood at a set rate, and a game's memory while it lasts; a flood of window sizes,
and the attacker process that sends one from 4 sessions (run as a script): shared by the
flood tests (`test_serve_ssh_flood.py`, `test_serve_web_flood.py`) and
`benchmarks/bench_flood.py`. The sender is any callable (an SSH channel's write or window
change, a websocket's stdin or resize message), so every way in is flooded alike."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

import asyncssh

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


# -- window changes (issue 35): a size flood, and the attacker process that sends it ------------

RESIZE_RATE = 2_500  # window changes a second per session: the issue's ~9,700 from 4 sessions
WEB_RESIZE_RATE = 7_500  # resize messages a second per tab: the issue's ~30,000 from 4 tabs
FLOODERS = 4  # sessions at once from one address: the per-address cap
ROUNDS = 5  # of `beside_floods`: medians of 5, so one slow start is not the flood


def size_at(n: int) -> tuple[int, int]:
    """The n-th size of a flood, cycling 80-480 x 24-194 as the issue's client did."""
    return 80 + (n * 7) % 401, 24 + (n * 3) % 171


async def resize_flood(
    send: Callable[[int, int], Awaitable[None] | None],
    seconds: float,
    rate: float,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """Send window sizes at up to `rate` a second for `seconds` (or until `stop()`): the
    sizes due, a tick's worth at most at a time, so that floods side by side in one
    process take turns (as fast as they can, when the process cannot keep the rate);
    returns how many were sent."""
    started = time.monotonic()
    sent, batch = 0, max(1, int(rate * TICK))
    while time.monotonic() - started < seconds and not stop():
        due = min(int((time.monotonic() - started) * rate) - sent, batch)
        for n in range(sent, sent + max(due, 0)):
            result = send(*size_at(n))
            if result is not None:
                await result
        sent += max(due, 0)
        await asyncio.sleep(TICK if due < batch else 0)
    return sent


class _Flooder(asyncssh.SSHClientSession[bytes]):
    """An SSH client session of the attacker: its output read and counted, its end kept."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.closed = asyncio.Event()
        self.reason = ""

    def data_received(self, data: bytes, datatype: int | None = None) -> None:
        self.output += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.reason = getattr(exc, "reason", "") or str(exc or "closed")
        self.closed.set()


class _Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""


async def _ssh_flooders(port: int, count: int) -> list[tuple[Any, _Flooder]]:
    found = []
    for _ in range(count):
        conn, _ = await asyncssh.create_connection(
            _Guest, "127.0.0.1", port, local_addr=("127.0.0.1", 0), username="flooder",
            known_hosts=None, config=None, agent_path=None, client_keys=[],
            public_key_auth=False,
        )  # fmt: skip
        session = _Flooder()
        chan, _ = await conn.create_session(
            lambda session=session: session,  # type: ignore[misc]
            term_type="xterm-256color", term_size=(80, 24), encoding=None,
        )  # fmt: skip
        found.append((chan, session))
    return found


async def _attack(kind: str, port: int, rate: float, seconds: float) -> None:
    """`FLOODERS` sessions from 127.0.0.1, each to its game's first frame ("ready"), then
    on a line of stdin each sends sizes at `rate` until closed or `seconds` have passed;
    a line per session says how it ended; "done" last."""
    import aiohttp

    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # a write after the server's close

    ready = b"Your turn"
    async with aiohttp.ClientSession() as http:
        sessions: list[tuple[Callable[[int, int], Awaitable[None] | None], _Flooder]] = []
        if kind == "ssh":
            for chan, session in await _ssh_flooders(port, FLOODERS):
                sessions.append((chan.change_terminal_size, session))
        else:
            for _ in range(FLOODERS):
                ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24")
                session = _Flooder()

                async def read(ws: Any = ws, session: _Flooder = session) -> None:
                    async for message in ws:
                        if message.type == aiohttp.WSMsgType.BINARY:
                            session.output += message.data
                    session.reason = f"websocket closed ({ws.close_code})"
                    session.closed.set()

                session.reader = asyncio.create_task(read())  # type: ignore[attr-defined]

                async def send(width: int, height: int, ws: Any = ws, s: Any = session) -> None:
                    if not s.closed.is_set():
                        with contextlib.suppress(ConnectionError, RuntimeError):
                            await ws.send_str(
                                json.dumps(["resize", {"width": width, "height": height}])
                            )

                sessions.append((send, session))
        deadline = time.monotonic() + 60
        while not all(ready in session.output for _, session in sessions):
            assert time.monotonic() < deadline, "the flooders' games never drew"
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        sent = await asyncio.gather(
            *(resize_flood(send, seconds, rate, s.closed.is_set) for send, s in sessions)
        )
        for count, (_, session) in zip(sent, sessions, strict=True):
            print(f"sent {count}: {session.reason or 'still open'}", flush=True)
        print("done", flush=True)


async def attacker(kind: str, port: int, rate: float, seconds: float) -> asyncio.subprocess.Process:
    """`flood_tools`' attacker in a process of its own (its encryption must not slow the
    measuring client), its sessions at their first frames ("ready")."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, kind, str(port), str(rate),
        str(seconds), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    assert line == b"ready\n", line
    return process


async def attack_ends(process: asyncio.subprocess.Process) -> list[str]:
    """The attacker's line per session, once every session has ended (or its time)."""
    assert process.stdout is not None
    lines: list[str] = []
    while (line := (await asyncio.wait_for(process.stdout.readline(), 60)).decode()) != "done\n":
        assert line, lines
        lines.append(line.strip())
    await process.wait()
    return lines


async def beside_floods(
    kind: str, ports: tuple[int, int], rate: float, measure: Callable[[int], Awaitable[float]]
) -> list[str]:
    """`measure(n)` (a login or a first frame from 127.0.0.N, in seconds) in turns: the
    control, while the attacker floods a second server (`ports[1]`, a sink set up as the
    first); then while it floods the measured server (`ports[0]`). Five rounds, medians
    compared: within 2x. The sink puts the attack's own cost to the machine (the
    attacker's encryption, a server's reading and closing) in the control too, so the
    difference is the measured server's: on 2 shared cores a control with nobody flooding
    measured the attacker's cores (stop 41: 2.3x, the server's own share far less).
    Returns how each session that flooded the measured server ended."""
    times: dict[str, list[float]] = {"control": [], "flooded": []}
    ends: dict[str, list[str]] = {"control": [], "flooded": []}
    for n in range(ROUNDS):
        for state, port in (("control", ports[1]), ("flooded", ports[0])):
            await asyncio.sleep(0.5)  # the last round's games gone
            process = await attacker(kind, port, rate, 15)
            await asyncio.sleep(3.0)  # their games' start-up done
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            times[state].append(await measure(10 + 2 * n + (state == "flooded")))
            ends[state] += await attack_ends(process)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"{kind}: control {median['control']:.3f} s, beside the flood "
        f"{median['flooded']:.3f} s ({times})",
        file=sys.stderr,
    )
    assert median["flooded"] <= 2 * median["control"], times
    assert all(len(ended) == ROUNDS * FLOODERS for ended in ends.values()), ends
    return ends["flooded"]


if __name__ == "__main__":  # the attacker: python flood_tools.py ssh|web PORT RATE SECONDS
    asyncio.run(_attack(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])))
