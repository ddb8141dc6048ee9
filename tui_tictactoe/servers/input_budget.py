"""A session's input in bytes a second, before the game reads it: a flood costs its parser little.

The game bounds the events it keeps (`ui/input_gate.py`), but it still reads and parses
every byte it is sent: ~10 µs a key here, so a client sending 300 KiB a second would keep
a core busy in one game's input thread. Both servers pass what a client types through an
`InputBudget` first (a token bucket in bytes: `RATE` a second, `BURST` at once, far above
a person: key repeat is ~30 keys, ~100 bytes a second; a mouse swept fast sends ~1 KiB a
second, up to ~10 KiB for a moment). A write that does not fit is dropped whole, so escape
sequences are not cut apart; only the Ctrl+Q in it is kept, so quitting still acts at
once. Pure: the servers do the reading and the logging; `report` says when a line is due
(at most one a `REPORT_EVERY` per session), and what it says.
"""

from __future__ import annotations

import time
from collections.abc import Callable

RATE = 2048
"""Bytes a second let through, on average: ~680 arrow keys, or 150 mouse moves."""
BURST = 32768
"""Bytes let through at once: a mouse swept back and forth for seconds."""
REPORT_EVERY = 60.0
"""Seconds between two lines about one session's dropped input."""
QUIT_KEYS = (b"\x11", b"\x1b[113;5u")
"""Ctrl+Q as a terminal sends it, and in the kitty keyboard protocol the game asks for."""


class InputBudget:
    """How much of a session's input reaches its game; counts what is dropped."""

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self._refilled = clock()
        self.dropped = 0  # bytes, in all
        self._reported = 0
        self._reported_at = float("-inf")  # the first drop is told at once

    def take(self, data: bytes) -> bytes:
        """What of `data` goes to the game: all of it, or (over budget) its Ctrl+Q only."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        if len(data) <= self.tokens:
            self.tokens -= len(data)
            return data
        self.dropped += len(data)
        return next((key for key in QUIT_KEYS if key in data), b"")

    def report(self, *, final: bool = False) -> str | None:
        """A line about bytes dropped since the last one, if one is due (the first drop
        at once, then every REPORT_EVERY seconds at most; `final`: at the session's end)."""
        now = self.clock()
        count = self.dropped - self._reported
        if not count or (not final and now - self._reported_at < REPORT_EVERY):
            return None
        self._reported, self._reported_at = self.dropped, now
        return (
            f"input dropped: {count:,} bytes sent faster than {self.rate:,.0f} bytes a second"
            f" ({self.dropped:,} in all)"
        )
