"""Large X and O, drawn with block characters, in sizes that follow the cell.

Block elements (`█ ▀ ▄`) render in every UTF-8 terminal font. A half block is
about as tall as a column is wide, so each design is a square of "pixels":
a mark `h` lines tall is about `2h` columns wide. X is two crossing diagonals,
O a ring: they differ in shape, so they stay apart without colour or text
style (256 colours, `NO_COLOR`). Where no design fits, the cell shows the
letter itself, and only there the bold / bold-italic-underline styles matter.

Up to 11 lines the designs are drawn by hand (small ones need it); larger cells
get a mark drawn to their size (`drawn_mark`), so it keeps filling the cell.
"""

from __future__ import annotations

import math
from functools import lru_cache

Design = tuple[str, ...]

DESIGNS: dict[str, tuple[Design, ...]] = {
    # Largest first; every line of a design has the same width.
    "X": (
        (
            "██▄                 ▄██",
            " ▀██▄             ▄██▀ ",
            "   ▀██▄         ▄██▀   ",
            "     ▀██▄     ▄██▀     ",
            "       ▀██▄▄▄██▀       ",
            "         █████         ",
            "       ▄██▀ ▀██▄       ",
            "     ▄██▀     ▀██▄     ",
            "   ▄██▀         ▀██▄   ",
            " ▄██▀             ▀██▄ ",
            "██▀                 ▀██",
        ),
        (
            "██▄             ▄██",
            " ▀██▄         ▄██▀ ",
            "   ▀██▄     ▄██▀   ",
            "     ▀██▄▄▄██▀     ",
            "       █████       ",
            "     ▄██▀ ▀██▄     ",
            "   ▄██▀     ▀██▄   ",
            " ▄██▀         ▀██▄ ",
            "██▀             ▀██",
        ),
        (
            "▀█▄         ▄█▀",
            "  ▀█▄     ▄█▀  ",
            "    ▀█▄ ▄█▀    ",
            "      ███      ",
            "    ▄█▀ ▀█▄    ",
            "  ▄█▀     ▀█▄  ",
            "▄█▀         ▀█▄",
        ),
        (
            "▀█▄     ▄█▀",
            "  ▀█▄ ▄█▀  ",
            "    ███    ",
            "  ▄█▀ ▀█▄  ",
            "▄█▀     ▀█▄",
        ),
        (
            "▀█▄ ▄█▀",
            "  ███  ",
            "▄█▀ ▀█▄",
        ),
        (
            "▀▄▄▀",
            "▄▀▀▄",
        ),
    ),
    "O": (
        (
            "      ▄▄███████▄▄      ",
            "   ▄█████▀▀▀▀▀█████▄   ",
            "  ███▀▀         ▀▀███  ",
            " ███               ███ ",
            "███                 ███",
            "███                 ███",
            "███                 ███",
            " ███               ███ ",
            "  ███▄▄         ▄▄███  ",
            "   ▀█████▄▄▄▄▄█████▀   ",
            "      ▀▀███████▀▀      ",
        ),
        (
            "    ▄▄███████▄▄    ",
            "  ▄████▀▀▀▀▀████▄  ",
            " ███▀         ▀███ ",
            "███▀           ▀███",
            "███             ███",
            "███▄           ▄███",
            " ███▄         ▄███ ",
            "  ▀████▄▄▄▄▄████▀  ",
            "    ▀▀███████▀▀    ",
        ),
        (
            "   ▄▄█████▄▄   ",
            " ▄██▀     ▀██▄ ",
            "██▀         ▀██",
            "██           ██",
            "██▄         ▄██",
            " ▀██▄     ▄██▀ ",
            "   ▀▀█████▀▀   ",
        ),
        (
            "  ▄█████▄  ",
            "▄█▀▀   ▀▀█▄",
            "██       ██",
            "▀█▄▄   ▄▄█▀",
            "  ▀█████▀  ",
        ),
        (
            " ▄███▄ ",
            "██   ██",
            " ▀███▀ ",
        ),
        # Not the round "▄▀▀▄ / ▀▄▄▀": at two lines that is X's own strokes with the
        # lines swapped, and the two read as mirror images. A ring with solid sides.
        (
            "█▀▀█",
            "█▄▄█",
        ),
    ),
}

MARGIN = 1
"""Columns free on each side of a mark: a `Button` pads every label line by one (`line-pad`)."""


HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
"""A character for each (upper, lower) pair of pixels."""


@lru_cache(maxsize=64)
def drawn_mark(symbol: str, lines: int) -> Design:
    """`symbol` drawn `lines` tall (and `2 * lines + 1` wide) in half blocks.

    X: the two diagonals of its box; O: the ellipse inscribed in it. Strokes are
    a seventh of the height thick, about the weight of the hand-drawn designs.
    """
    height, width = 2 * lines, 2 * lines + 1  # in pixels: half a line by a column
    stroke = max(2.0, height / 7)
    diagonal = math.hypot(width, height)
    rx, ry = width / 2, height / 2

    def inked(x: float, y: float) -> bool:
        if symbol == "X":
            off_diagonal = min(abs(height * x - width * y), abs(height * (width - x) - width * y))
            return off_diagonal / diagonal <= stroke / 2
        dx, dy = x - rx, y - ry
        outer = math.hypot(dx / rx, dy / ry)
        inner = math.hypot(dx / (rx - stroke), dy / (ry - stroke))
        return outer <= 1 <= inner

    pixels = [[inked(x + 0.5, y + 0.5) for x in range(width)] for y in range(height)]
    return tuple(
        "".join(HALF_BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(pixels[::2], pixels[1::2], strict=True)
    )


LARGEST_DRAWN_BY_HAND = max(len(design) for design in DESIGNS["X"])


def mark_lines(symbol: str, width: int, height: int) -> Design:
    """How `symbol` is drawn in a cell whose content area is `width` x `height`.

    The largest design that fits (with `MARGIN` free either side), else the bare
    letter; nothing for an empty cell. A cell with room for more than the largest
    hand-drawn design gets a mark drawn to its size. A pure function of its
    arguments: the cell's `symbol` stays the truth about the board, this is only
    its picture.
    """
    designs = DESIGNS.get(symbol)
    if designs is None:
        return ()
    lines = min(height, (width - 2 * MARGIN - 1) // 2)  # the tallest mark that fits
    if lines > LARGEST_DRAWN_BY_HAND:
        return drawn_mark(symbol, lines)
    for design in designs:
        if len(design) <= height and len(design[0]) + 2 * MARGIN <= width:
            return design
    return (symbol,)


def is_large(lines: Design) -> bool:
    """Whether `lines` is a large mark (which needs no text style to tell X from O)."""
    return len(lines) > 1
