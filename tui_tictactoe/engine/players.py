"""The two kinds of player: a person who picks cells and an AI that asks its strategy."""

from __future__ import annotations

from tui_tictactoe.engine.board import SYMBOLS, Cell, GameBoard, Symbol
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.strategies import MinimaxStrategy, MoveStrategy


class Player:
    """Someone who plays one symbol."""

    def __init__(self, symbol: str) -> None:
        if symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {symbol!r}: use X or O")
        self.symbol: Symbol = symbol  # narrowed by the check just above

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.symbol!r})"


class HumanPlayer(Player):
    """A person: the cell comes from outside (mouse, keys, a test)."""

    def make_move(self, board: GameBoard, row: int, col: int) -> None:
        """Play (row, col) on `board`; `IllegalMove` (nothing changed) if it may not."""
        board.make_move(row, col, self.symbol)


class AIPlayer(Player):
    """A computer player; perfect minimax unless given another strategy."""

    def __init__(self, symbol: str, strategy: MoveStrategy | None = None) -> None:
        super().__init__(symbol)
        self.strategy = strategy if strategy is not None else MinimaxStrategy()

    def find_best_move(self, board: GameBoard, cancelled: Cancelled | None = None) -> Cell:
        """The cell this player would take; the board is not modified. `cancelled` goes to
        the strategy as it is (minimax polls it during long searches)."""
        return self.strategy.find_best_move(board, self, cancelled)
