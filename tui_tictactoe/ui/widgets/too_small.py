"""The message shown instead of the game when the terminal is too small to draw it."""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Static

PADDING = 1
"""Columns kept free either side of the message (see #too-small in the CSS)."""

CHROME_ROWS = 9
"""Rows around the board at the game's minimum size: the title, the score, the status's
two lines, the buttons (3) and the key bar (2). The board gets the rest."""


COMPACT_CHROME_ROWS = 7
"""`CHROME_ROWS` with the buttons one row high (the game's compact layout, `-compact`)."""

CELL_ROWS = 3
"""Rows of a whole cell: its top border, its mark or number, its bottom border."""


def needed_size(
    minimum: Size, cells_per_side: int, cell_rows: int = 2, chrome: int = CHROME_ROWS
) -> Size:
    """`minimum`, or taller where the board's cells would get fewer than `cell_rows` rows
    each. Two is the least that shows anything (the mark, the bottom border: 5x5 at 60x18
    showed nothing); the game asks for `CELL_ROWS`, so no cell loses its top border
    (`board_screen.FITS`)."""
    return Size(minimum.width, max(minimum.height, chrome + cell_rows * cells_per_side))


def compact(height: int, cells_per_side: int) -> bool:
    """The buttons must shrink to one row for every cell to keep its 3 rows."""
    return height < CHROME_ROWS + CELL_ROWS * cells_per_side


def too_small_text(size: Size, needed: Size) -> str:
    """The longest way of asking for `needed` that fits in `size`, wrapped at spaces."""
    import textwrap  # only a terminal that is too small pays for it

    have, need = f"{size.width}x{size.height}", f"{needed.width}x{needed.height}"
    width = max(size.width - 2 * PADDING, 1)
    for text in (
        f"Please enlarge the terminal to play: it needs at least {needed.width} columns"
        f" and {needed.height} rows (it has {size.width} and {size.height}).",
        f"Enlarge the terminal: {need} needed, {have} now.",
        f"Need {need}, have {have}",
        f"Need {need}",
        need,
    ):
        lines = textwrap.wrap(text, width, break_long_words=False)
        if max(map(len, lines)) <= width and len(lines) <= size.height:
            return text
    return "…"


class TooSmall(Static):
    """Shown in place of the game (see `GameScreen.-too-small` in the CSS)."""

    def show(self, size: Size, needed: Size) -> None:
        self.update(too_small_text(size, needed))

    def check(self, size: Size, needed: Size) -> bool:
        """Whether `size` is below `needed` (then the message is brought up to date)."""
        too_small = size.width < needed.width or size.height < needed.height
        if too_small:
            self.show(size, needed)
        return too_small
