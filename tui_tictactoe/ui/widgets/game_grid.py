"""The board: a grid of cells shaped by the game's geometry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.color import Color
from textual.css.scalar import Scalar
from textual.geometry import Size
from textual.widget import Widget

from tui_tictactoe.engine.analysis import Analysis
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.ui.widgets.game_cell import GameCell, symbol_classes

if TYPE_CHECKING:
    from textual.layout import DockArrangeResult

EMPTY_MARKERS: Mapping[str, Cell | None] = {}

GUTTER = 1
"""Columns between two cells (the CSS sets no gutter between rows: borders separate them)."""


def even_cells(size: Size, cells: int, gutter: int) -> Size:
    """The size of every cell of a `cells` x `cells` grid that fits in `size`, all the
    same: the columns and rows left over go to the margins (the CSS centres the grid),
    not to the last cell as `1fr` rows and columns would."""
    width = max(0, (size.width - gutter * (cells - 1)) // cells)
    return Size(width, max(0, size.height // cells))


class GameGrid(Widget):
    """Shows a `GameBoard`: marks, the winning line or a draw, and the optional overlays.

    Its cells are kept the same size (see `even_cells`), fixed as the grid is laid
    out, so that no frame ever shows them uneven.
    """

    def __init__(self, geometry: Geometry, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.geometry = geometry
        # Every empty cell shows its number, faintly: the name each message gives it.
        self._cells = {
            (row, col): GameCell(row, col, geometry.key(row, col))
            for row, col in geometry.all_cells()
        }
        self.styles.grid_size_columns = self.styles.grid_size_rows = geometry.size
        # Textual calls the gap between columns the *vertical* gutter.
        self.styles.grid_gutter_vertical = GUTTER
        self.styles.grid_gutter_horizontal = 0
        self._flat = False  # cells too short for top and bottom borders (see `arrange`)

    def compose(self) -> ComposeResult:
        yield from self._cells.values()

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Fix the rows and columns for `size` just before the grid layout reads them.

        `set_rule` asks for no new layout: this one is already under way.
        """
        cell = even_cells(size, self.geometry.size, GUTTER)
        self.styles.set_rule("grid_columns", (Scalar.from_number(cell.width),))
        self.styles.set_rule("grid_rows", (Scalar.from_number(cell.height),))
        self._fit_borders(cell.height)
        return super().arrange(size, optimal)

    def _fit_borders(self, height: int) -> None:
        """Cells of fewer than 3 rows (5x5 in a short terminal) lose their top border,
        which would leave no row for the mark: the sides and the bottom still show the
        cursor and the winning line, and still part the rows. Inline styles, so they
        outrank every CSS state."""
        flat = height < 3
        if flat == self._flat:
            return
        self._flat = flat
        for cell in self._cells.values():
            if flat:
                cell.styles.set_rule("border_top", ("", Color(0, 0, 0, 0)))
            else:
                cell.styles.clear_rule("border_top")

    def cell(self, row: int, col: int) -> GameCell:
        return self._cells[row, col]

    @property
    def cells(self) -> list[GameCell]:
        return list(self._cells.values())

    def show_board(
        self, board: GameBoard, markers: Mapping[str, Cell | None] = EMPTY_MARKERS
    ) -> None:
        """Show `board`, and each CSS class of `markers` (the last move, the cursor) on its
        cell only. Every cell's classes change in one step, so a changed cell is restyled
        once and an unchanged one not at all: restyling was a third of a room's frame."""
        if board.geometry != self.geometry:
            return  # a grid on its way out after a new game changed the board's size
        outcome = board.outcome()
        line = set(outcome.line or ()) if outcome is not None else set()
        for position, cell in self._cells.items():
            symbol = board.game_board[position[0]][position[1]]
            classes = symbol_classes(symbol)
            classes["-winning"] = position in line
            for marker, at in markers.items():
                classes[marker] = position == at
            cell.update_classes(classes)
            cell.symbol = symbol
        self.update_classes(
            {"-draw": outcome is not None and outcome.is_draw, "-over": outcome is not None}
        )

    def show_analysis(self, analysis: Analysis | None) -> None:
        """Verdicts on the empty cells, or none."""
        verdicts = {move.cell: move for move in analysis.moves} if analysis is not None else {}
        for position, cell in self._cells.items():
            cell.verdict = verdicts.get(position)
        self.set_class(analysis is not None, "-analysis")

    def show_pairs(self, letters: Mapping[Cell, str]) -> None:
        """Draw each cell of `letters` with its letter (a pairing: a pair's two cells share
        one); every other cell as before. Empty: none drawn."""
        for position, cell in self._cells.items():
            cell.pair_letter = letters.get(position, "")

    def show_marker(self, marker: str, at: Cell | None) -> None:
        """Put the CSS class `marker` (the cursor, the hint) on the cell `at` only."""
        for position, cell in self._cells.items():
            cell.set_class(position == at, marker)  # a no-op (no restyle) where unchanged
