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

from ..engine.board import Cell, GameBoard
from ..engine.players import AIPlayer
from ..engine.search import SearchCancelled


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
