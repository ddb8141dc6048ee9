"""Tic-Tac-Toe against a minimax AI, in the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .controller import GameController, Score
from .engine import (
    AIPlayer,
    GameBoard,
    HumanPlayer,
    MinimaxStrategy,
    MoveStrategy,
    Player,
    RandomStrategy,
)

if TYPE_CHECKING:
    from .ui.app import TicTacToeApp

__all__ = [
    "AIPlayer",
    "GameBoard",
    "GameController",
    "HumanPlayer",
    "MinimaxStrategy",
    "MoveStrategy",
    "Player",
    "RandomStrategy",
    "Score",
    "TicTacToeApp",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Textual is imported only when the app is asked for, so the engine and the
    # `analyse` command start fast.
    if name == "TicTacToeApp":
        from .ui.app import TicTacToeApp

        return TicTacToeApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
