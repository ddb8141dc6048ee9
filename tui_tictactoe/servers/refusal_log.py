"""Log lines for what a flood can repeat (refused connections, refused keys), at a bounded rate.

A connection that gets no game, or a key that is not let in, costs a client nothing
to repeat: one line each made 4,331 lines in 35 s. Per kind, the first in an interval
is logged whole (who, from where: what an admin needs for the odd one), and the rest
are counted into one line at the end of the interval. A flood then writes at most two
lines per kind per interval, and the kinds are the server's own wording, a short list.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.identity import displayable
from tui_tictactoe.servers.ops.log_format import Event

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
                text = (
                    f"{self.prefix()}{count:,} more {noun} in the last {self.interval:g} s: {kind}"
                )
                self.log(Event("refusals.counted", text, count=count, noun=noun, kind=kind))


MESSAGE_LIMIT = 120  # characters of a library's log message kept in the line
_KIND_END = re.compile(r"[<(\[:]")  # a message's fixed wording ends where its values begin


class LibraryLog(logging.Handler):
    """asyncio's and asyncssh's own warnings as one bounded line each, rate-limited like the
    refusals: a client that aborts mid-write made asyncio log "socket.send() raised
    exception." for every write after, and an error with its traceback is 14 lines. The
    first line of the message is kept, an exception as its type and text, never a traceback."""

    def __init__(self, refusals: RefusalLog) -> None:
        super().__init__(logging.WARNING)
        self.refusals = refusals

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().split("\n", 1)[0]
        except Exception:  # a message that does not format is still one line
            text = str(record.msg)
        message = displayable(text, MESSAGE_LIMIT, empty="(no message)")
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            message += f" ({type(error).__name__}: {displayable(str(error), 60, empty='')})"
        kind = f"{record.name}: {_KIND_END.split(text, maxsplit=1)[0][:40].strip()}"
        line = f"{self.refusals.prefix()}{record.name}: {message}"
        try:
            self.refusals.note("messages", kind, line)
        except RuntimeError:  # no event loop (at exit): no rate to keep, one line all the same
            self.refusals.log(line)


def library_log(
    refusals: RefusalLog, names: tuple[str, ...] = ("asyncio", "asyncssh")
) -> Callable[[], None]:
    """From now on the warnings of these loggers (asyncio's and asyncssh's; "" is the root,
    every library's) go through `LibraryLog`, not to stderr whole (their loggers' only
    handler: Python's last resort writes nothing); returns what undoes that (the server's
    `stop`)."""
    handler = LibraryLog(refusals)
    loggers = [logging.getLogger(name) for name in names]
    kept = [(logger.propagate, logger.level) for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.propagate = False
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)

    def undo() -> None:
        for logger, (propagate, level) in zip(loggers, kept, strict=True):
            logger.removeHandler(handler)
            logger.propagate, logger.level = propagate, level

    return undo
