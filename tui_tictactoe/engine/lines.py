"""What the search needs to know about lines: which each side can still complete, which
cells would complete one, and which cells to try first.

Computed once per search root (`search.Search`); the inner loop keeps them up to date itself.
"""

from __future__ import annotations

from tui_tictactoe.engine.geometry import Geometry


def centre_first(geometry: Geometry) -> tuple[int, ...]:
    """Cells by how many lines run through them, then by closeness to the centre.

    Cells on many lines make and stop the most threats, so trying them first
    finds good moves (and cutoffs) early.
    """
    middle = (geometry.size - 1) / 2

    def rank(cell: int) -> tuple[int, float, int]:
        row, col = geometry.coords(cell)
        distance = (row - middle) ** 2 + (col - middle) ** 2
        return -len(geometry.lines_through[cell]), distance, cell

    return tuple(sorted(range(geometry.cells), key=rank))


def live_lines(lines: tuple[int, ...], me: int, them: int) -> tuple[int, int]:
    """Lines (bits over line indices) each side can still complete: none of the other's stones."""
    mine = theirs = 0
    for index, line in enumerate(lines):
        if not line & them:
            mine |= 1 << index
        if not line & me:
            theirs |= 1 << index
    return mine, theirs


def completions(lines: tuple[int, ...], mine: int, theirs: int) -> int:
    """Empty cells that would complete a line of `mine` (no stone of `theirs` on it)."""
    found = 0
    for line in lines:
        if not line & theirs:
            rest = line & ~mine
            if rest and not rest & (rest - 1):
                found |= rest
    return found
