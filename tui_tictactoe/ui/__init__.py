"""The Textual user interface: `TicTacToeApp` and the screens and widgets it is made of."""

from .app import TicTacToeApp

__all__ = ["TicTacToeApp"]
