"""The board: a grid of cells shaped by the game's geometry."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widget import Widget

from ...engine.analysis import Analysis
from ...engine.board import Cell, GameBoard
from ...engine.geometry import Geometry
from .game_cell import GameCell


class GameGrid(Widget):
    """Shows a `GameBoard`: marks, the winning line or a draw, and the optional overlays."""

    def __init__(self, geometry: Geometry, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.geometry = geometry
        self._cells = {
            (row, col): GameCell(row, col, geometry.key(row, col))
            for row, col in geometry.all_cells()
        }
        self.styles.grid_size_columns = self.styles.grid_size_rows = geometry.size

    def compose(self) -> ComposeResult:
        yield from self._cells.values()

    def cell(self, row: int, col: int) -> GameCell:
        return self._cells[row, col]

    @property
    def cells(self) -> list[GameCell]:
        return list(self._cells.values())

    def show_board(self, board: GameBoard) -> None:
        outcome = board.outcome()
        line = set(outcome.line or ()) if outcome is not None else set()
        for (row, col), cell in self._cells.items():
            cell.symbol = board.game_board[row][col]
            cell.set_class((row, col) in line, "-winning")
        self.set_class(outcome is not None and outcome.is_draw, "-draw")
        self.set_class(outcome is not None, "-over")

    def show_analysis(self, analysis: Analysis | None) -> None:
        """Verdicts on the empty cells, or none."""
        verdicts = {move.cell: move for move in analysis.moves} if analysis is not None else {}
        for position, cell in self._cells.items():
            cell.verdict = verdicts.get(position)
        self.set_class(analysis is not None, "-analysis")

    def show_marker(self, marker: str, at: Cell | None) -> None:
        """Put the CSS class `marker` (the cursor, the hint) on the cell `at` only."""
        for position, cell in self._cells.items():
            cell.set_class(position == at, marker)
