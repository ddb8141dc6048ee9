"""Log lines for what a flood can repeat (refused connections, refused keys), at a bounded rate.

A connection that gets no game, or a key that is not let in, costs a client nothing
to repeat: one line each made 4,331 lines in 35 s. Per kind, the first in an interval
is logged whole (who, from where: what an admin needs for the odd one), and the rest
are counted into one line at the end of the interval. A flood then writes at most two
lines per kind per interval, and the kinds are the server's own wording, a short list.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

from ..commands.play_options import PROG

INTERVAL = 10.0  # seconds


def log_prefix() -> str:
    """What each of serve-ssh's log lines starts with: the time, the program."""
    return f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {PROG} serve-ssh: "


def ending_kind(ending: str) -> str:
    """An ending without what came from the client (a subsystem's name, an error's text)."""
    return re.split(r" [('\"]", ending, maxsplit=1)[0]


class RefusalLog:
    """Writes `line` for the first of each kind per interval, counts the others."""

    def __init__(
        self, log: Callable[[str], None], prefix: Callable[[], str], interval: float | None = None
    ) -> None:
        self.log = log
        self.prefix = prefix  # what each line starts with (the time, the program)
        self.interval = INTERVAL if interval is None else interval
        self._counts: dict[tuple[str, str], int] = {}  # (noun, kind) -> not logged yet
        self._timer: asyncio.TimerHandle | None = None

    def note(self, noun: str, kind: str, line: str) -> None:
        """One more `noun` ("connections", "keys") refused for `kind` (fixed wording,
        never text from a client); `line` is logged only if it is the first."""
        key = (noun, kind)
        if key in self._counts:
            self._counts[key] += 1
            return
        self._counts[key] = 0
        self.log(line)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.interval, self.flush)

    def flush(self) -> None:
        """One line per kind counted since its first; the next of each kind is logged whole."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        counts, self._counts = self._counts, {}
        for (noun, kind), count in counts.items():
            if count:
                self.log(
                    f"{self.prefix()}{count:,} more {noun} in the last {self.interval:g} s: {kind}"
                )
