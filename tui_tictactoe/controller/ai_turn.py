"""The AI's turn as data: a request the controller hands out, a reply it takes back.

A request carries everything the search needs (its own copy of the board and
the AI player) and the generation of the position it was asked about, so it can
run on any thread without touching the game. The controller applies a reply
only while that generation is current: a reply that outlives a move, a new
round or a new game is dropped, whatever the timing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.players import AIPlayer
from tui_tictactoe.engine.strategies import Decision


class AIReply(NamedTuple):
    """The AI's answer for one generation: a move, or what went wrong."""

    generation: int
    move: Cell | None
    error: str | None = None
    cancelled: bool = False  # the search gave up: the position moved on, drop this reply


class AIRequest(NamedTuple):
    """What the AI is asked: choose a move for `player` on `board` (a private copy)."""

    generation: int
    board: GameBoard
    player: AIPlayer
    # Polled by long searches (4x4, 5x5); True once the controller has moved on.
    cancelled: Callable[[], bool] | None = None

    def compute(self) -> AIReply:
        """Run the search. Thread-safe: it reads only this request's own board copy.

        A strategy that raises is reported in the reply rather than raised, so a
        bug in the AI is shown to the player instead of ending the app. A search
        cancelled because the game moved on is no error: its reply says so, to be dropped.
        """
        try:
            move = self.player.find_best_move(self.board, cancelled=self.cancelled)
        except SearchCancelled:
            return AIReply(self.generation, None, None, cancelled=True)
        except Exception as error:
            return AIReply(self.generation, None, f"{type(error).__name__}: {error}")
        return AIReply(self.generation, move)


class Decisions:
    """The decision behind each of the AI's moves this round, by the moves up to it:
    after a take-back the info panel shows the decision behind the move now last."""

    def __init__(self) -> None:
        self._by_moves: dict[tuple[Cell, ...], Decision] = {}

    def clear(self) -> None:
        self._by_moves.clear()

    def note(self, moves: tuple[Cell, ...], decision: Decision | None) -> None:
        """Keep `decision` if it is the one behind the last of `moves`."""
        if decision is not None and moves and decision.move == moves[-1]:
            self._by_moves[moves] = decision

    def behind(self, moves: tuple[Cell, ...], ai_move: Cell | None) -> Decision | None:
        """The decision behind `ai_move`, the AI's latest move among `moves` (if any)."""
        if ai_move is None:
            return None
        upto = len(moves) - moves[::-1].index(ai_move)
        return self._by_moves.get(moves[:upto])
