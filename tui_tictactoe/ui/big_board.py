"""What the game screen does differently once the board can change size (4x4, 5x5).

Kept out of `game_screen.py`, which stays small: a new grid when a new game
changes the board's size, and the AI's thinking time in the status line on the
big boards, where a search takes long enough to wonder whether anything is
happening (3x3 answers at once and keeps its plain "AI is thinking…").
"""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING

from textual.timer import Timer

from ..controller import Status
from .widgets import GameGrid

if TYPE_CHECKING:
    from .screens.game_screen import GameScreen

TICK = 0.1
"""Seconds between updates of the thinking time."""


def fit_board(screen: GameScreen) -> None:
    """Give the screen a grid of the controller's board size, if that size changed.

    The new grid goes in before the old one is removed, all at once: removal
    finishes later, and cells of the same ids in another grid never clash.
    Until then the old grid ignores boards of the wrong size (`show_board`).
    """
    geometry = screen.controller.board.geometry
    if geometry == screen.geometry:
        return
    screen.geometry = geometry
    middle = geometry.size // 2
    screen.cursor = (middle, middle)
    old, screen.grid = screen.grid, GameGrid(geometry)
    assert old.parent is not None
    old.parent.mount(screen.grid, before=old)
    old.remove()
    screen.refresh_bindings()  # the digit keys come and go with 3x3


class ThinkingClock:
    """Shows "AI is thinking… 1.3 s" while the AI searches a big board."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.generation = -1
        self.started = 0.0
        self.timer: Timer | None = None

    def start(self) -> None:
        """The AI was just asked to move: time it, on boards bigger than 3x3."""
        controller = self.screen.controller
        if controller.board.geometry.cells <= 9 or not controller.is_ai_turn:
            return
        self.generation = controller.generation
        self.started = monotonic()
        if self.timer is None:
            self.timer = self.screen.set_interval(TICK, self.tick)
        else:
            self.timer.resume()

    def tick(self) -> None:
        """Update the status, or stop once the AI has replied or the game moved on."""
        controller = self.screen.controller
        if controller.generation != self.generation or not controller.is_ai_turn:
            if self.timer is not None:
                self.timer.pause()
            return
        seconds = monotonic() - self.started
        self.screen.status.say(Status(f"AI is thinking… {seconds:.1f} s", "thinking"))
