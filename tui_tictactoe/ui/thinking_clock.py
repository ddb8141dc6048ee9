"""The AI's thinking time in the status line, on the big boards.

A search on 4x4, 5x5 or 6x6 takes long enough to wonder whether anything is
happening; 3x3 answers at once and keeps its plain "AI is thinking…".
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic

from textual.timer import Timer

from tui_tictactoe.controller import GameController, Status

TICK = 0.1
"""Seconds between updates of the thinking time."""


class ThinkingClock:
    """Says "AI is thinking… 1.3 s" while the AI searches a big board.

    Given what it needs by the screen that owns it: the game, the status line's
    `say`, and the screen's `set_interval` (so its timer stops with the screen).
    """

    def __init__(
        self,
        controller: GameController,
        say: Callable[[Status], object],
        set_interval: Callable[[float, Callable[[], None]], Timer],
    ) -> None:
        self.controller = controller
        self.say = say
        self.set_interval = set_interval
        self.generation = -1
        self.started = 0.0
        self.timer: Timer | None = None

    def start(self) -> None:
        """The AI was just asked to move: time it, on boards bigger than 3x3."""
        controller = self.controller
        if controller.board.geometry.cells <= 9 or not controller.is_ai_turn:
            return
        self.generation = controller.generation
        self.started = monotonic()
        if self.timer is None:
            self.timer = self.set_interval(TICK, self.tick)
        else:
            self.timer.resume()

    def tick(self) -> None:
        """Update the status, or stop once the AI has replied or the game moved on."""
        controller = self.controller
        if controller.generation != self.generation or not controller.is_ai_turn:
            if self.timer is not None:
                self.timer.pause()
            return
        seconds = monotonic() - self.started
        self.say(Status(f"AI is thinking… {seconds:.1f} s", "thinking"))
