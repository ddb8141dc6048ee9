"""One square of the board."""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Button

from ...engine.analysis import MoveVerdict
from ...engine.board import EMPTY
from ...engine.solver import Verdict
from .marks import MARGIN, is_large, mark_lines
from .narrow_button import NarrowSafe

LETTER_STYLES = {"X": "bold", "O": "bold italic underline"}
"""Styles of a mark drawn as a bare letter (a small cell): X and O differ without colour."""

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


class GameCell(NarrowSafe, Button, can_focus=False):
    """A button that knows its place on the board.

    Everything else a cell shows (the cursor, the winning line, a hint, the
    analysis verdict) is a CSS class or the border subtitle. It never takes
    focus: the keyboard cursor is the game screen's own state (see `GameScreen`).
    """

    # No watcher call at mount (`init=False`): a new cell is empty, and `__init__`
    # gives it the classes of an empty cell; a watcher at mount would restyle each
    # cell before the first frame (about 2% of start-up: benchmarks/bench_startup.py).
    symbol: reactive[str] = reactive(EMPTY, init=False)
    """The cell's mark: `"X"`, `"O"` or `" "` (empty). The truth about the board:
    tests and the screen read the board from it, never from the drawn label,
    which is a picture of it sized to the cell (a large mark, the letter, or the
    faint key number of an empty cell; see `marks.mark_lines`)."""
    verdict: reactive[MoveVerdict | None] = reactive(None, init=False)

    # The mark appearing is feedback enough; a 0.2 s flash would also swallow a
    # quick second click on the same cell and make screenshots unstable.
    active_effect_duration = 0

    def __init__(self, row: int, col: int, key: int, *, show_key: bool = True) -> None:
        super().__init__("", id=f"cell-{row}-{col}", classes="cell -empty")
        self.row = row
        self.col = col
        self.key = key
        """The number players call this cell by (1 top-left, in reading order)."""
        self.show_key = show_key
        """Draw the key faintly when empty: only where a digit key plays it (3x3)."""

    def watch_symbol(self, symbol: str) -> None:
        self.set_class(symbol == "X", "-x")
        self.set_class(symbol == "O", "-o")
        self.set_class(symbol == EMPTY, "-empty")
        self._draw()

    def watch_verdict(self, move: MoveVerdict | None) -> None:
        """Show (or clear) the minimax verdict of playing here, in the border under the cell."""
        for outcome in OUTCOMES:
            self.set_class(move is not None and move.verdict.outcome == outcome, f"-{outcome}")
        self.set_class(move is not None and move.best, "-best")
        self._fit_subtitle()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()
        self._fit_subtitle()

    def _draw(self) -> None:
        """Draw the mark as large as the cell allows, or the key number if empty.

        Styles go on the mark's characters only, never on the whole cell: a text
        style on the cell would reach the blank lines around the mark too (an
        underline under every line, in a real terminal).
        """
        size = self.content_size
        if size.width <= 2 * MARGIN or size.height < 1:
            # No room for a character beside the button's line padding (a tiny
            # terminal, as the game is hidden): Textual cannot wrap text to width 0.
            self.label = ""
            return
        if self.symbol == EMPTY:
            # Digits play cells directly: show which, faintly (the CSS dims `-empty`).
            self.label = str(self.key) if self.show_key else ""
            return
        lines = mark_lines(self.symbol, size.width, size.height)
        text = "\n".join(lines)
        self.label = Content(text) if is_large(lines) else Content.styled(text, LETTER_STYLES[text])

    def _fit_subtitle(self) -> None:
        move = self.verdict
        # The border keeps its corners, a line and a space either side of the text.
        room = self.outer_size.width - 6
        self.border_subtitle = verdict_text(move.verdict, room) if move is not None else ""
