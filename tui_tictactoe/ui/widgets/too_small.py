"""The message shown instead of the game when the terminal is too small to draw it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

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

COMPACT_CELL_ROWS = 2
"""Rows of a compact cell (a short terminal): its mark or number, its bottom border (the
cell above's bottom border parts them: `GameGrid._fit_borders`)."""


def needed_size(
    minimum: Size, cells_per_side: int, cell_rows: int = 2, chrome: int = CHROME_ROWS
) -> Size:
    """`minimum`, or taller where the board's cells would get fewer than `cell_rows` rows
    each. Two is the least that shows anything (the mark, the bottom border: 5x5 at 60x18
    showed nothing), and what the game and a room ask for (`COMPACT_CELL_ROWS`): their
    cells drop the top border there (`GameGrid`), and get it back given room."""
    return Size(minimum.width, max(minimum.height, chrome + cell_rows * cells_per_side))


def compact(height: int, cells_per_side: int) -> bool:
    """The buttons must shrink to one row for every cell to keep its 3 rows."""
    return height < CHROME_ROWS + CELL_ROWS * cells_per_side


def fits(size: Size, needed: Size) -> bool:
    return size.width >= needed.width and size.height >= needed.height


def board_name(board: str) -> str:
    return f"{board}x{board}"


def fit_line(size: Size, needs: Mapping[str, Size]) -> str | None:
    """Which boards fit a terminal of `size` and what the others need ("Fit here: 3x3,
    4x4, 5x5. 6x6 needs 60x19."); None when every board fits."""
    fitting = [board_name(b) for b, need in needs.items() if fits(size, need)]
    others = [
        f"{board_name(b)} needs {n.width}x{n.height}" for b, n in needs.items() if not fits(size, n)
    ]
    if not others:
        return None
    here = (
        f"Fit here ({size.width}x{size.height}): {', '.join(fitting)}."
        if fitting
        else "No board fits here."
    )
    return f"{here} {'; '.join(others)}."


def too_small_text(size: Size, needed: Size, way_on: WayOn | None = None) -> str:
    """The longest way of asking for `needed` that fits in `size`, wrapped at spaces;
    with `way_on`, the keys that lead on from it (and the flag), as long as they fit."""
    import textwrap  # only a terminal that is too small pays for it

    have, need = f"{size.width}x{size.height}", f"{needed.width}x{needed.height}"
    width = max(size.width - 2 * PADDING, 1)
    asks = (
        f"Please enlarge the terminal to play: it needs at least {needed.width} columns"
        f" and {needed.height} rows (it has {size.width} and {size.height}).",
        f"Enlarge the terminal: {need} needed, {have} now.",
        f"Need {need}, have {have}",
        f"Need {need}",
        need,
    )
    ways = way_on.texts() if way_on is not None else ("",)
    for ask in asks:
        for way in ways:
            text = f"{ask}\n\n{way}" if way else ask
            lines = [
                line
                for part in text.split("\n")
                for line in textwrap.wrap(part, width, break_long_words=False) or [""]
            ]
            if max(map(len, lines)) <= width and len(lines) <= size.height:
                return text
    return "…"


class WayOn(NamedTuple):
    """The way on from the message: `n` to a board that fits (its flag named), `q` quits."""

    board: str
    """The board being played ("6")."""
    fitting: tuple[str, ...]
    """The boards that fit this terminal, smallest first (none: only `q`)."""

    def texts(self) -> tuple[str, ...]:
        """Longest first: the keys, the flag, the boards that fit."""
        quit_only = ("Press q to quit.", "q: quit", "")
        if not self.fitting:
            return quit_only
        largest = self.fitting[-1]
        boards = ", ".join(board_name(b) for b in self.fitting)
        flag = f"tui-tictactoe --board {largest}"
        return (
            f"The {board_name(self.board)} board does not fit; {boards} do."
            f" Press n for a new game on one of them, or q to quit."
            f" Next time: {flag}.",
            f"n: a new game on {boards}; q: quit. Or start with --board {largest}.",
            f"n: new game ({board_name(largest)} fits), q: quit",
            "n: new game, q: quit",
            "",
        )


class TooSmall(Static):
    """Shown in place of the game (see `GameScreen.-too-small` in the CSS)."""

    def show(self, size: Size, needed: Size, way_on: WayOn | None = None) -> None:
        self.update(too_small_text(size, needed, way_on))

    def check(self, size: Size, needed: Size, way_on: WayOn | None = None) -> bool:
        """Whether `size` is below `needed` (then the message is brought up to date)."""
        too_small = not fits(size, needed)
        if too_small:
            self.show(size, needed, way_on)
        return too_small
