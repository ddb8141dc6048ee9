"""The analysis overlay on 4x4 and 5x5: verdicts found cell by cell in a thread, shown as found.

On 3x3 the solved table answers at once. On the big boards each cell is an exact
search (`Search.move_score`) that can take a while on an open 5x5 board, so the
overlay fills in progressively, the status line counts the cells done, and the
game never waits: a move, a new round or a quit moves the controller's generation
on, which stops the search (its `cancelled` flag) and drops its late results.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING

from ..controller import Status, turn_status
from ..engine.analysis import Analysis, MoveVerdict
from ..engine.board import Cell, GameBoard
from ..engine.search import SearchCancelled, shared_search
from ..engine.solver import Verdict

if TYPE_CHECKING:
    from collections.abc import Callable

    from .screens.game_screen import GameScreen


class BigAnalysis:
    """The overlay's verdicts for the human's current position on a big board."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.generation = -1
        self.scores: dict[Cell, int] = {}
        self.total = 0
        self.empties = 0
        self._stop = threading.Event()

    def show(self) -> None:
        """Show what is known for the position now, starting its search if it is new."""
        controller = self.screen.controller
        if controller.generation != self.generation:
            self.generation = controller.generation
            self.scores = {}
            board = controller.board.copy()
            self.total = self.empties = len(board.legal_moves())
            stale, stop = controller.stale, threading.Event()
            self._stop = stop
            cancelled = lambda: stop.is_set() or stale()  # noqa: E731
            work = partial(self._search, board, controller.human_symbol, self.generation, cancelled)
            self.screen.run_worker(
                work, thread=True, group="analysis", exclusive=True, exit_on_error=False
            )
        # After the caller is done: `_show_all` says whose turn it is after the overlays,
        # which would hide the progress until the first cell is found.
        self.screen.call_later(self._draw)

    def stop(self) -> None:
        """The overlay was switched off: stop searching (switched on, it starts again)."""
        self._stop.set()
        self.generation = -1

    def _search(
        self, board: GameBoard, symbol: str, generation: int, stale: Callable[[], bool]
    ) -> None:
        """In a thread: score each empty cell, handing each result to the UI thread."""
        search = shared_search(board.geometry)
        me, them = board.masks_for(symbol)
        for row, col in board.legal_moves():
            try:
                score = search.move_score(me, them, board.geometry.index(row, col), stale)
                self.screen.app.call_from_thread(self._found, generation, (row, col), score)
            except (SearchCancelled, RuntimeError):  # moved on, or the app has exited
                return

    def _found(self, generation: int, cell: Cell, score: int) -> None:
        if generation != self.generation or generation != self.screen.controller.generation:
            return
        self.scores[cell] = score
        self._draw(progress=True)

    def _draw(self, progress: bool = False) -> None:
        """The overlay as far as found; the status line counts the cells. A `progress`
        update (a cell found in the thread) leaves a refusal or an error in the status line:
        why a key did nothing (a taken cell) stays until the player acts again."""
        screen = self.screen
        if not (screen.show_analysis and screen.controller.is_human_turn):
            return
        done = len(self.scores) == self.total
        top = max(self.scores.values(), default=0)
        moves = tuple(
            MoveVerdict(cell, Verdict.from_score(score, self.empties), done and score == top)
            for cell, score in self.scores.items()
        )
        controller = screen.controller
        position = controller.board.to_string()
        screen.grid.show_analysis(Analysis(position, controller.human_symbol, "in_progress", moves))
        if progress and screen.status.tone in ("refused", "error"):
            return
        if done:
            screen.status.say(Status("Analysis done: every empty cell has its verdict.", "hint"))
        else:
            text = f"Analysing… {len(self.scores)} of {self.total} cells (the game goes on)."
            screen.status.say(Status(text, "hint"))


def show_overlay(screen: GameScreen) -> None:
    """The overlay for the position now: at once on 3x3, cell by cell on the big boards."""
    controller = screen.controller
    # Only on the human's turn: the AI's view would flash for the instant it thinks.
    on = screen.show_analysis and controller.is_human_turn
    if controller.analysis_ready:
        screen.grid.show_analysis(controller.analysis() if on else None)
    elif on:
        screen.big_analysis.show()
    else:
        screen.grid.show_analysis(None)
        screen.big_analysis.stop()  # no search for an overlay no one sees
        if controller.is_human_turn:
            screen.status.say(turn_status(controller))  # no "Analysing…" left behind
