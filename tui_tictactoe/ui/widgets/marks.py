"""Large X and O, drawn with block characters, in sizes that follow the cell.

Block elements (`█ ▀ ▄`) render in every UTF-8 terminal font. A half block is
about as tall as a column is wide, so each design is a square of "pixels":
a mark `h` lines tall is about `2h` columns wide. X is two crossing diagonals,
O a ring: they differ in shape, so they stay apart without colour or text
style (256 colours, `NO_COLOR`). Where no design fits, the cell shows the
letter itself, and only there the bold / bold-italic-underline styles matter.
"""

from __future__ import annotations

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
        (
            "▄▀▀▄",
            "▀▄▄▀",
        ),
    ),
}

MARGIN = 1
"""Columns free on each side of a mark: a `Button` pads every label line by one (`line-pad`)."""


def mark_lines(symbol: str, width: int, height: int) -> Design:
    """How `symbol` is drawn in a cell whose content area is `width` x `height`.

    The largest design that fits (with `MARGIN` free either side), else the bare
    letter; nothing for an empty cell. A pure function of its arguments: the
    cell's `symbol` stays the truth about the board, this is only its picture.
    """
    designs = DESIGNS.get(symbol)
    if designs is None:
        return ()
    for design in designs:
        if len(design) <= height and len(design[0]) + 2 * MARGIN <= width:
            return design
    return (symbol,)


def is_large(lines: Design) -> bool:
    """Whether `lines` is a large mark (which needs no text style to tell X from O)."""
    return len(lines) > 1
