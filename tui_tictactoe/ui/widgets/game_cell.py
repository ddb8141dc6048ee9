"""One square of the board."""

from __future__ import annotations

from textual import events
from textual.reactive import reactive
from textual.widgets import Button

from ...engine.analysis import MoveVerdict
from ...engine.board import EMPTY
from ...engine.solver import Verdict
from .action_button import matched_as_button

OUTCOMES = ("win", "draw", "loss")


def verdict_text(verdict: Verdict, room: int) -> str:
    """The verdict as words ("loss in 2"), shortened ("loss 2", "L2") to fit in `room` cells."""
    full = str(verdict)
    if verdict.outcome == "draw":
        candidates = [full, "D"]
    else:
        candidates = [
            full,
            f"{verdict.outcome} {verdict.plies}",
            f"{verdict.outcome[0].upper()}{verdict.plies}",
        ]
    return next((text for text in candidates if len(text) <= room), candidates[-1])


@matched_as_button
class GameCell(Button, inherit_css=False):
    """A button that knows its row and column; its label is exactly `X`, `O` or nothing.

    Everything else a cell shows (the winning line, the analysis verdict, a hint)
    is a CSS class or the border subtitle, so the label always reads as the board.
    Styled wholly by tictactoe.tcss, without Button's CSS (see `ActionButton`).
    """

    symbol: reactive[str] = reactive(EMPTY)
    verdict: reactive[MoveVerdict | None] = reactive(None)

    def __init__(self, row: int, col: int) -> None:
        # Button adds "-style-default" when it mounts, which restyles it a
        # second time; with the class from the start the first styling is final.
        super().__init__("", id=self.cell_id(row, col), classes="cell -style-default")
        self.row = row
        self.col = col
        # The mark appearing is feedback enough; a 0.2 s flash would also make
        # a quick second click on the same cell vanish and screenshots unstable.
        self.active_effect_duration = 0

    @staticmethod
    def cell_id(row: int, col: int) -> str:
        return f"cell-{row}-{col}"

    @property
    def key(self) -> int:
        """The digit that plays this cell (1 = top-left, 9 = bottom-right)."""
        return self.row * 3 + self.col + 1

    def watch_symbol(self, symbol: str) -> None:
        self.label = "" if symbol == EMPTY else symbol
        self.set_class(symbol == "X", "-x")
        self.set_class(symbol == "O", "-o")

    def watch_verdict(self, move: MoveVerdict | None) -> None:
        """Show (or clear) the minimax verdict of playing here, in the border under the cell."""
        for outcome in OUTCOMES:
            self.set_class(move is not None and move.verdict.outcome == outcome, f"-{outcome}")
        self.set_class(move is not None and move.best, "-best")
        self._fit_subtitle()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_subtitle()

    def _fit_subtitle(self) -> None:
        move = self.verdict
        # The border keeps its corners, a line and a space either side of the text.
        room = self.outer_size.width - 6
        self.border_subtitle = verdict_text(move.verdict, room) if move is not None else ""
