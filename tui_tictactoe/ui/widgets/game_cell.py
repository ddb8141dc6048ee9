"""One square of the board."""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.reactive import reactive

from tui_tictactoe.engine.analysis import MoveVerdict
from tui_tictactoe.engine.board import EMPTY
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.ui.widgets.marks import MARGIN, is_large, mark_lines
from tui_tictactoe.ui.widgets.narrow_button import NarrowButton

LETTER_STYLES = {"X": "bold", "O": "bold italic underline"}
"""Styles of a mark drawn as a bare letter (a small cell): X and O differ without colour."""

OUTCOMES = ("win", "draw", "loss", "unknown")

KEY_DIGITS = 2
"""Columns the widest cell number takes (25, on 5x5)."""


def verdict_forms(verdict: Verdict) -> tuple[str, ...]:
    """The verdict in words ("loss in 2"), then shorter ("loss 2", "L2"), then one letter.

    The one letter ("W", "D", "L") keeps the outcome where even "W13" has no room.
    """
    if verdict.outcome == "draw":
        return str(verdict), "D"
    if verdict.outcome == "unknown":  # a bounded search (6x6) saw nothing forced
        return str(verdict), "?"
    letter = verdict.outcome[0].upper()
    if not verdict.shortest:  # a line of fours (6x6): its length is no proven shortest
        return str(verdict), letter
    return str(verdict), f"{verdict.outcome} {verdict.plies}", f"{letter}{verdict.plies}", letter


def verdict_text(verdict: Verdict, room: int) -> str:
    """The longest form of the verdict that fits in `room` cells; "" if none does."""
    return next((text for text in verdict_forms(verdict) if len(text) <= room), "")


BORDER_TEXT = 6
"""Columns of a cell's width that its border keeps from the subtitle: two corners, and a
line and a space either side of the text (Textual draws no subtitle in less)."""


def verdict_place(verdict: Verdict, border_room: int, inside_room: int) -> tuple[str, str]:
    """(in the border, inside the cell): where a cell shows `verdict`.

    The border under the cell is its place, while it holds at least the short code
    ("L2", "D"). Narrower cells (5x5 beside the info panel: 4 to 8 columns) have no
    room there, and show it inside instead, as long as fits in `inside_room`: the
    overlay only marks empty cells, which have nothing else inside.
    """
    forms = verdict_forms(verdict)
    enough = (
        forms if verdict.outcome in ("draw", "unknown") else forms[:-1]
    )  # a lone W or L says less
    border = next((text for text in enough if len(text) <= border_room), "")
    if border:
        return border, ""
    return "", verdict_text(verdict, inside_room)


def symbol_classes(symbol: str) -> dict[str, bool]:
    """The CSS classes of a cell holding `symbol` ("X", "O" or empty), for `update_classes`."""
    return {"-x": symbol == "X", "-o": symbol == "O", "-empty": symbol == EMPTY}


class GameCell(NarrowButton, can_focus=False):
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
    pair_letter: reactive[str] = reactive("", init=False)
    """The letter of the pair this empty cell is in, while `w` shows a pairing; else ""."""

    # The mark appearing is feedback enough; a 0.2 s flash would also swallow a
    # quick second click on the same cell and make screenshots unstable.
    active_effect_duration = 0

    def __init__(self, row: int, col: int, key: int) -> None:
        super().__init__("", id=f"cell-{row}-{col}", classes="cell -empty")
        # Textual 8.2.8's Button.__init__ sets the flash on the instance (0.2 s), over the
        # class's 0 above: a click during it is dropped (tests/ui/test_app.py, the quick
        # second click). Remove when Button leaves the instance's value to the class.
        self.active_effect_duration = 0
        self.row = row
        self.col = col
        self.key = key
        """The number players call this cell by (1 top-left, in reading order): drawn
        faintly while the cell is empty, on every board, as every message names it so."""
        self.inside_verdict = ""
        """The overlay's verdict when drawn inside the cell (too narrow for the border)."""

    def watch_symbol(self, symbol: str) -> None:
        self.update_classes(symbol_classes(symbol))  # one restyle (none if already set)
        self._draw()

    def watch_verdict(self, move: MoveVerdict | None) -> None:
        """Show (or clear) the minimax verdict of playing here, in the border under the cell."""
        for outcome in OUTCOMES:
            self.set_class(move is not None and move.verdict.outcome == outcome, f"-{outcome}")
        self.set_class(move is not None and move.best, "-best")
        self._fit_verdict()

    def watch_pair_letter(self, letter: str) -> None:
        self.set_class(bool(letter), "-pair")
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_verdict()

    def _draw(self) -> None:
        """Draw the mark as large as the cell allows, the key number, or the verdict if empty.

        Styles go on the mark's characters only, never on the whole cell: a text
        style on the cell would reach the blank lines around the mark too (an
        underline under every line, in a real terminal).
        """
        size = self.content_size
        self._fit_padding(size.width)
        if size.width < 1 or size.height < 1:
            # A tiny terminal, as the game is hidden: Textual cannot wrap text to width 0.
            self.label = ""
        elif self.symbol == EMPTY and self.pair_letter:
            self._set_label(Content.styled(self.pair_letter, "bold"))
        elif self.symbol == EMPTY and self.inside_verdict:
            best = self.verdict is not None and self.verdict.best
            self._set_label(Content.styled(self.inside_verdict, "bold reverse" if best else ""))
        elif self.symbol == EMPTY:
            # The cell's name, faintly (the CSS dims `-empty`): on 3x3 its digit key too.
            self.label = str(self.key)
        else:
            lines = mark_lines(self.symbol, size.width, size.height)
            text = "\n".join(lines)
            mark = Content(text) if is_large(lines) else Content.styled(text, LETTER_STYLES[text])
            self.label = mark

    def _set_label(self, label: Content) -> None:
        """Set the label, also when only its style changed (Content compares text only)."""
        if label == self.label:
            self.set_reactive(GameCell.label, label)
            self.refresh()
        else:
            self.label = label

    def _fit_padding(self, width: int) -> None:
        """No line padding where it would leave no room: 5x5 beside the info panel (cells
        4 to 8 columns wide) still shows its marks and its two-digit numbers whole, and
        the verdicts drawn inside the cell get every column. CSS cannot say
        `line-pad: 0`, hence an inline style."""
        tight = bool(self.inside_verdict) or width < 2 * MARGIN + KEY_DIGITS
        if tight == (self.styles.line_pad == 0):
            return
        if tight:
            self.styles.line_pad = 0
        else:
            self.styles.clear_rule("line_pad")

    def _fit_verdict(self) -> None:
        """The verdict in the border under the cell, or inside it where the border is too short."""
        move = self.verdict
        border, inside = "", ""
        if move is not None:
            border, inside = verdict_place(
                move.verdict, self.outer_size.width - BORDER_TEXT, self.content_size.width
            )
        self.border_subtitle = border
        self.inside_verdict = inside
        self.set_class(bool(inside), "-verdict-inside")
        self._draw()
