"""The 3x3 board of cells."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widget import Widget

from ...engine.analysis import Analysis
from ...engine.board import Cell, GameBoard
from .game_cell import GameCell

SIZE = 3


class GameGrid(Widget):
    """Shows a `GameBoard`: marks, the winning line or a draw, and the optional overlays."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._cells = {(row, col): GameCell(row, col) for row in range(SIZE) for col in range(SIZE)}

    def compose(self) -> ComposeResult:
        yield from self._cells.values()

    def cell(self, row: int, col: int) -> GameCell:
        return self._cells[row, col]

    @property
    def cells(self) -> list[GameCell]:
        return list(self._cells.values())

    def show_board(self, board: GameBoard) -> None:
        for (row, col), cell in self._cells.items():
            cell.symbol = board.game_board[row][col]
        outcome = board.outcome()
        line = set(outcome.line or ()) if outcome is not None else set()
        for position, cell in self._cells.items():
            cell.set_class(position in line, "-winning")
        self.set_class(outcome is not None and outcome.is_draw, "-draw")
        self.set_class(outcome is not None, "-over")

    def show_analysis(self, analysis: Analysis | None) -> None:
        """Verdicts on the empty cells, or none."""
        verdicts = {move.cell: move for move in analysis.moves} if analysis is not None else {}
        for position, cell in self._cells.items():
            cell.verdict = verdicts.get(position)
        self.set_class(analysis is not None, "-analysis")

    def show_hint(self, hint: Cell | None) -> None:
        for position, cell in self._cells.items():
            cell.set_class(position == hint, "-hint")
