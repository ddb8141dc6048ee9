"""The AI's turn as data: a request the controller hands out, a reply it takes back.

A request carries everything the search needs (its own copy of the board and
the AI player) and the generation of the position it was asked about, so it can
run on any thread without touching the game. The controller applies a reply
only while that generation is current: a reply that outlives a move, a new
round or a new game is dropped, whatever the timing.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.board import Cell, GameBoard
from ..engine.players import AIPlayer


class AIReply(NamedTuple):
    """The AI's answer for one generation: a move, or what went wrong."""

    generation: int
    move: Cell | None
    error: str | None = None


class AIRequest(NamedTuple):
    """What the AI is asked: choose a move for `player` on `board` (a private copy)."""

    generation: int
    board: GameBoard
    player: AIPlayer

    def compute(self) -> AIReply:
        """Run the search. Thread-safe: it reads only this request's own board copy.

        A strategy that raises is reported in the reply rather than raised, so a
        bug in the AI is shown to the player instead of ending the app.
        """
        try:
            move = self.player.find_best_move(self.board)
        except Exception as error:
            return AIReply(self.generation, None, f"{type(error).__name__}: {error}")
        return AIReply(self.generation, move)
