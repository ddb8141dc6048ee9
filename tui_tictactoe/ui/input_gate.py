"""The input gate: a game never holds more than a few hundred unread input events.

Textual's drivers (the terminal's `LinuxDriver`, serve-web's `WebDriver`) read input in
a thread, parse it, and post every event to the app's message queue, which has no bound;
the app forwards keys to the focused widget's queue, which has none either. A client
typing faster than the game plays (on 2 cores, above ~600 keys a second) grew a game by
~8 MB a second, and a Ctrl+Q waited behind every queued key. A cap in front of the pty
does not help: the kernel hands the game all it reads.

So the bound sits where events are made: `gated` wraps whatever driver class Textual
picked (the app's `get_driver_class`), and its `process_message`, called in the input
thread for every parsed event, asks an `InputGate` first. An event is dropped, and
counted, when input outruns what a person sends (a token bucket: `RATE` a second,
`BURST` at once; key repeat is 25-33 a second) or when `BACKLOG` admitted events are
still waiting anywhere in the app (each is counted until the garbage collector frees it,
so no queue of Textual's can hide one). Mouse moves go first: they are only admitted
while half the burst and half the backlog are free. Ctrl+Q, and everything that is not
input (resizes, focus, the terminal's answers), always pass: quitting and hanging up act
at once during and after a flood.

What is dropped is counted, and said once, on stderr after the app has handed the
terminal back (`commands/play.py`): until then stderr is the game's screen. The servers
log their own drops (`servers/input_budget.py`) at most once a minute per session.
"""

from __future__ import annotations

import enum
import time
import weakref
from collections.abc import Callable
from typing import Any

from textual import events
from textual.driver import Driver
from textual.message import Message

RATE = 30.0
"""Input events admitted a second, on average: a person types ~15 keys a second, key
repeat is 25-33 by default, and a held key outruns it only after the burst (BURST /
(repeat - RATE) seconds: 20 s at 40 a second). Each key a game handles costs it a few ms
of CPU, so this is also what a flooder can make a game spend (see benchmarks/README)."""
BURST = 200
"""Input events admitted at once (a paste of keys, a burst over a slow link)."""
BACKLOG = 256
"""Admitted input events the app may hold unhandled; beyond that, input is dropped."""
QUIT_KEY = "ctrl+q"
"""Always let through: it quits at once (`TicTacToeApp.post_message`)."""


class Kind(enum.Enum):
    """What the gate makes of an event."""

    ALWAYS = "always"  # Ctrl+Q, and everything that is not input
    INPUT = "input"  # keys, clicks, scrolls, pastes
    MOVE = "move"  # a mouse move: the first to go


def kind_of(message: Message) -> Kind:
    if isinstance(message, events.Key) and message.key == QUIT_KEY:
        return Kind.ALWAYS
    if isinstance(message, events.MouseMove):
        return Kind.MOVE
    if isinstance(message, events.InputEvent | events.Paste):
        return Kind.INPUT
    return Kind.ALWAYS


class InputGate:
    """A token bucket and a backlog count, shared by the input thread and the app.

    `admit` runs only in the input thread (it alone writes the bucket, `admitted` and
    `dropped`); `_release` runs where an admitted event is freed (the app's loop). Each
    counter has one writer, so no lock is needed.
    """

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        backlog: int = BACKLOG,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.backlog = rate, burst, backlog
        self.clock = clock
        self.tokens = float(burst)
        self._refilled = clock()
        self.admitted = 0  # input events let through and watched
        self.released = 0  # of those, freed
        self.dropped = 0
        self.driver: Driver | None = None
        """The driver this gate reads for (set when Textual makes it): the app writes what
        Textual has no call for, the window's title, through its public `write`."""

    @property
    def waiting(self) -> int:
        """Admitted input events not yet freed: queued, held, or being handled."""
        return self.admitted - self.released

    def admit(self, kind: Kind, event: object | None = None) -> bool:
        """Let this event through? An admitted `event` is watched until it is freed."""
        if kind is Kind.ALWAYS:
            return True
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        tokens, room = self.tokens, self.backlog - self.waiting
        if kind is Kind.MOVE:
            allowed = tokens > self.burst / 2 and room > self.backlog / 2
        else:
            allowed = tokens >= 1 and room > 0
        if not allowed:
            self.dropped += 1
            return False
        self.tokens -= 1
        if event is not None:
            self.admitted += 1
            weakref.finalize(event, self._release)
        return True

    def _release(self) -> None:
        self.released += 1


def gated(driver_class: type[Driver], gate: InputGate) -> type[Driver]:
    """`driver_class`, with every event it reads asked through `gate` first."""

    class GatedDriver(driver_class):  # type: ignore[misc,valid-type]
        input_gate = gate

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            gate.driver = self

        def process_message(self, message: Message) -> None:
            if self.input_gate.admit(kind_of(message), message):
                super().process_message(message)

    GatedDriver.__name__ = GatedDriver.__qualname__ = f"Gated{driver_class.__name__}"
    return GatedDriver


def dropped_line(count: int, prog: str, *, since: str) -> str:
    """One line for a log: how many input events were dropped, and why."""
    return (
        f"{prog}: {count:,} input events dropped {since}: they came faster than "
        f"{RATE:g} a second, or {BACKLOG} were waiting"
    )
