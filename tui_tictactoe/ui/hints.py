"""Hints (`h`): a best move for the human, at once on 3x3, found in a thread on 4x4 and 5x5.

On 3x3 the solved table answers at once (`GameController.hint`). On the big
boards a best move is an exact search (with the 5x5 opening book) that can take
a while in an open position, so it runs in a thread worker like the AI's own
moves: the status says a hint is on its way, the game goes on, and a move, a
new round or a quit makes the search stop (the controller's `stale` flag) and
its late answer is dropped (the generation has moved on).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..controller import Status, hint_status
from ..engine.board import Cell
from ..engine.search import SearchCancelled
from ..engine.strategies import MinimaxStrategy

if TYPE_CHECKING:
    from .screens.game_screen import GameScreen

FINDING = "Finding a hint… (the game goes on; a move or r stops it)"


def give_hint(screen: GameScreen) -> None:
    """Mark a best move for the human in the position now (or say why there is none)."""
    controller = screen.controller
    if controller.analysis_ready:
        _show(screen, controller.generation, controller.hint())
        return
    if not controller.is_human_turn:
        screen.status.say(hint_status(controller, None))
        return
    board, symbol = controller.board.copy(), controller.human_symbol
    # The AI's random tie-breaks stay the AI's: the hint draws its own seed, from
    # the game's seeded RNG, so a seeded game's hints are repeatable too.
    rng = random.Random(controller.rng.random())
    generation, stale = controller.generation, controller.stale

    def work() -> None:
        try:
            cell = MinimaxStrategy(rng=rng).find_best_move(board, symbol, stale)
        except (SearchCancelled, ValueError):  # moved on, or the round ended meanwhile
            return
        try:
            screen.app.call_from_thread(_show, screen, generation, cell)
        except RuntimeError:  # the app has exited
            return

    screen.status.say(Status(FINDING, "hint"))
    screen.run_worker(work, thread=True, group="hint", exclusive=True, exit_on_error=False)


def _show(screen: GameScreen, generation: int, cell: Cell | None) -> None:
    if generation != screen.controller.generation:
        return  # a late answer about a position that is gone
    screen.hint = cell
    screen.grid.show_marker("-hint", cell)
    screen.status.say(hint_status(screen.controller, cell))
