"""A perfect strategy, written the way a learner would: minimax over the board's own API."""

from __future__ import annotations

from tui_tictactoe import MoveStrategy
from tui_tictactoe.engine.board import Cell, GameBoard, other
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.strategies import HasSymbol, symbol_of


class Perfect(MoveStrategy):
    """Minimax with memory, fastest wins first; it reports its nodes in `last_nodes`."""

    def __init__(self) -> None:
        self.memory: dict[tuple[str, str], int] = {}
        self.last_nodes = 0

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        me = symbol_of(player)
        self.last_nodes = 0
        best_cell, best_score = None, -100
        for row, col in board.get_empty_cells():
            board.game_board[row][col] = me
            score = -self.value(board, other(me))
            board.game_board[row][col] = " "
            if score > best_score:
                best_cell, best_score = (row, col), score
        assert best_cell is not None
        return best_cell

    def value(self, board: GameBoard, mover: str) -> int:
        """The score for `mover` (to move): a win scores the empty cells left plus one."""
        self.last_nodes += 1
        key = ("".join("".join(row) for row in board.game_board), mover)
        if key in self.memory:
            return self.memory[key]
        empty = board.get_empty_cells()
        if board.is_winner(other(mover)):
            value = -(len(empty) + 1)
        elif board.is_full():
            value = 0
        else:
            value = -100
            for row, col in empty:
                board.game_board[row][col] = mover
                value = max(value, -self.value(board, other(mover)))
                board.game_board[row][col] = " "
        self.memory[key] = value
        return value
