"""Plays the first empty cell in reading order: loses, and `grade` says where."""

from __future__ import annotations

from tui_tictactoe import MoveStrategy
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.strategies import HasSymbol


class FirstEmpty(MoveStrategy):
    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        if isinstance(player, str) or player.symbol not in ("X", "O"):
            raise TypeError(f"the game and grade hand a player with .symbol, not {player!r}")
        return board.get_empty_cells()[0]
