"""Tic-Tac-Toe against a minimax AI, in the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui_tictactoe.controller import GameController, Score
from tui_tictactoe.engine import (
    AIPlayer,
    GameBoard,
    HumanPlayer,
    MinimaxStrategy,
    MoveStrategy,
    Player,
    RandomStrategy,
)

if TYPE_CHECKING:
    from tui_tictactoe.ui.app import TicTacToeApp

    __version__: str  # read from the installed metadata on first use (`__getattr__`)

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


def __getattr__(name: str) -> Any:
    # Textual is imported only when the app is asked for, so the engine and the
    # `analyse` command start fast; the version is read only when asked for too.
    if name == "TicTacToeApp":
        from tui_tictactoe.ui.app import TicTacToeApp

        return TicTacToeApp
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def package_version() -> str:
    """The installed distribution's version: written once, in pyproject.toml. A tree that
    was never installed (nothing names it in the metadata) says so rather than guess."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tui-tictactoe")
    except PackageNotFoundError:
        return "0+unknown (not installed)"
