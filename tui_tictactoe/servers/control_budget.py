"""A session's requests and messages a second: resizes coalesced, floods closed.

The input budget (`input_budget`) bounds the bytes a client types; this bounds the rest.
Every window change over SSH became a `TIOCSWINSZ` and a SIGWINCH for the game, and every
`["resize", ...]` of serve-web the same: 4 sessions sending ~9,700 a second kept a core
busy and held another player's login past its 10 s timeout. Only the last size matters,
so a session's resizes reach its game at most `RESIZES` times a second, the last one
always (a trailing apply, `Resizes`). That alone is not enough: decrypting and
dispatching each packet costs the server's event loop too, so what a session sends is
counted in two token buckets (`Flood`): its requests and control messages (resizes,
signals, breaks; a page's pings, focus, anything it sends but keys) at `REQUEST_RATE` a
second, `REQUEST_BURST` at once, and its data packets or key messages at `PACKET_RATE`,
`PACKET_BURST`. A session that spends either bucket is closed as a flood, with one log
line. Both are far above a person, and low enough that a flood is closed within about a
second on a loaded server, which takes in only so many packets a second.

Messages are counted when they are read, not when they were sent: after the server's own
event loop stalls (a slow disk, a long collection, the machine's other work), what a page
sent meanwhile is read all at once. So the loop's stalls are watched (`LoopWatch`: a tick
late by more than STALL), and for a minute after a stall a bucket may hold that many
seconds of its rate more than its burst: a page at its rate through any stall is no
flood, and a flood gains only the rate's share (30 more a second of stall), never its own.

Pure but for `LoopWatch`'s tick, with a clock: the servers do the timers, the closing and the logging. Coalesced
resizes are counted (a metric) and told in the session's last log line: a window dragged
by hand coalesces some too, so they are no reason for a line of their own.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque
from collections.abc import Callable

RESIZES = 4.0
"""Resizes a second that reach the game: a window being dragged redraws 4 times a second
and ends at its last size. At 10 a second, the redraws of 4 flooding sessions' games, in
the half second before they were closed, doubled another player's first frame."""
REQUEST_RATE = 30.0
"""Requests and control messages a second a session may keep up: a window dragged sends
30-60 a second, for as long as the drag lasts (at 30 a second or less, for ever; at 60, 5 s
without a pause); nothing else a person does sends many. Floods come at thousands a second."""
REQUEST_BURST = 150
"""... and beyond that rate, this many at once (kept small: every request let in costs the
event loop, and a burst of 300 measured worse for the next login than one of 150)."""
PACKET_RATE = 200.0
"""Data packets (keys) a second a session may keep up: a mouse swept fast sends ~100 a
second, a person's keys ~30 (their bytes have their own budget, `input_budget`)."""
PACKET_BURST = 1000
"""... and beyond that rate, this many at once: seconds of the fastest mouse."""
STALL = 1.0
"""Seconds a tick of the event loop may be late before the lateness counts as a stall."""
TICK = 0.25
"""Seconds between the watch's ticks."""
STALLS_KEPT = 60.0
"""Seconds a stall is remembered, and lets a bucket hold more (`Flood.take`)."""
FLOOD = "closed as a flood"
"""How the ending of a session closed as a flood begins (its log line; its JSON `ending`)."""


class Resizes:
    """When a session's window size goes to its game: at once, or later (coalesced)."""

    def __init__(self, rate: float = RESIZES, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval, self.clock = 1.0 / rate, clock
        self._applied_at = float("-inf")
        self.coalesced = 0  # resizes that a later one replaced before they were applied

    def delay(self) -> float:
        """Seconds until the size may be applied (0: now)."""
        return max(0.0, self._applied_at + self.interval - self.clock())

    def applied(self) -> None:
        self._applied_at = self.clock()

    def replaced(self) -> None:
        """A size came in while one was waiting: the waiting one is never applied."""
        self.coalesced += 1

    def report(self) -> str | None:
        """What the session's last log line says of its coalesced resizes, if any."""
        if not self.coalesced:
            return None
        return (
            f"resizes coalesced: {self.coalesced:,} sent faster than {1 / self.interval:g} a second"
        )


def no_stalls(_since: float) -> float:
    return 0.0


class LoopWatch:
    """The stalls of one event loop: a tick every TICK seconds, and each tick later than
    STALL a stall (its lateness), kept for STALLS_KEPT seconds. One per loop (`watching`):
    the loop's stalls are the loop's, whichever session asks. It holds nothing of the
    loop (the loop's timer holds it): both go together."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.clock = clock
        self._stalls: deque[tuple[float, float]] = deque()  # (when it ended, seconds)
        self._due = clock() + TICK
        loop.call_later(TICK, self._tick)

    def _tick(self) -> None:
        now = self.clock()
        if (late := now - self._due) > STALL:
            self._stalls.append((now, late))
        while self._stalls and self._stalls[0][0] < now - STALLS_KEPT:
            self._stalls.popleft()
        self._due = now + TICK
        asyncio.get_running_loop().call_later(TICK, self._tick)

    def stalled_since(self, since: float) -> float:
        """Seconds the loop has stalled since `since`, the stall it is in now too (the
        reads after a stall run before the tick that would tell it)."""
        now = self.clock()
        found = [(now, now - self._due)] if now - self._due > STALL else []
        return sum(
            min(seconds, end - since) for end, seconds in [*self._stalls, *found] if end > since
        )


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopWatch] = (
    weakref.WeakKeyDictionary()
)


def watching() -> Callable[[float], float]:
    """`LoopWatch.stalled_since` of the running loop's watch (started on first use), or
    no stalls outside a loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return no_stalls
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = LoopWatch(loop)
    return watch.stalled_since


class Flood:
    """A session's requests (or its packets) in a token bucket: False once it is a flood."""

    def __init__(
        self,
        rate: float = REQUEST_RATE,
        burst: int = REQUEST_BURST,
        clock: Callable[[], float] = time.monotonic,
        stalls: Callable[[float], float] | None = None,
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.stalls = stalls if stalls is not None else watching()  # the loop's (`LoopWatch`)
        self.tokens = float(burst)
        self._refilled = self._began = clock()
        self.count = 0  # every one, in all
        self.flooded = False

    def take(self) -> bool:
        """One request or message; False if the session is (now) a flood. For STALLS_KEPT
        seconds after the loop stalled, the bucket holds the rate's share of the stall on
        top of its burst: what came at the rate meanwhile is read now, all at once."""
        now = self.clock()
        ceiling = self.burst + self.stalls(now - STALLS_KEPT) * self.rate
        self.tokens = min(ceiling, self.tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        self.count += 1
        self.tokens -= 1
        if self.tokens < 0:
            self.flooded = True
        return not self.flooded

    def ending(self, what: str) -> str:
        """The session's ending as its log line says it: `closed as a flood (...)`."""
        seconds = self.clock() - self._began
        return (
            f"{FLOOD} ({self.count:,} {what} in {seconds:.1f} s; at most {self.rate:g} a"
            f" second are kept up, {self.burst:,} more at once)"
        )


def packets() -> Flood:
    """The bucket of a session's data packets or key messages."""
    return Flood(PACKET_RATE, PACKET_BURST)
