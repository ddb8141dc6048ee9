"""The 8 symmetries of a square board, and the canonical copy of a position under them.

Near the root of a search, symmetric copies of a position are common: storing each under
its canonical key lets all 8 share one table entry (`search.Search`).
"""

from __future__ import annotations

from collections.abc import Callable

from tui_tictactoe.engine.geometry import Geometry


def symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of a `size` x `size` square as cell permutations.

    `perm[i]` is where cell `i` (reading order) goes. The identity comes first.
    Rows, columns and diagonals map onto rows, columns and diagonals, so a
    transformed position has the same value.
    """
    last = size - 1
    maps: tuple[Callable[[int, int], tuple[int, int]], ...] = (
        lambda r, c: (r, c),
        lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r),
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    )
    perms = []
    for transform in maps:
        perm = []
        for cell in range(size * size):
            row, col = transform(*divmod(cell, size))
            perm.append(row * size + col)
        perms.append(tuple(perm))
    return tuple(perms)


def transform(mask: int, perm: tuple[int, ...]) -> int:
    """`mask` with every cell moved by `perm` (slow and obvious: for tests and the book)."""
    moved = 0
    for cell, target in enumerate(perm):
        if mask >> cell & 1:
            moved |= 1 << target
    return moved


class Canonicaliser:
    """Fast canonical keys: the smallest key among the 8 symmetric copies.

    A key is `me | them << cells`. It is cut into chunks of `CHUNK` bits and each
    chunk's image under each symmetry is looked up, so a transform costs a few
    table reads instead of a loop over cells. Images of different chunks never
    overlap, so adding them is the same as or-ing them.
    """

    CHUNK = 10

    def __init__(self, geometry: Geometry) -> None:
        cells = geometry.cells
        self.perms = symmetries(geometry.size)
        self.inverse = tuple(_invert(perm) for perm in self.perms)
        width = 2 * cells
        chunk = min(self.CHUNK, width)
        self.mask = (1 << chunk) - 1
        self.shifts = tuple(range(0, width, chunk))
        self.tables = tuple(
            tuple(self._chunk_table(perm, cells, shift, chunk) for shift in self.shifts)
            for perm in self.perms[1:]
        )

    @staticmethod
    def _chunk_table(perm: tuple[int, ...], cells: int, shift: int, chunk: int) -> list[int]:
        """Image under `perm` of every value of the `chunk` bits starting at bit `shift`."""
        bit_images = []
        for bit in range(shift, min(shift + chunk, 2 * cells)):
            board, cell = divmod(bit, cells)
            bit_images.append(1 << (board * cells + perm[cell]))
        table = [0] * (1 << len(bit_images))
        for value in range(1, len(table)):
            low = value & -value
            table[value] = table[value ^ low] | bit_images[low.bit_length() - 1]
        return table

    def canonical(self, key: int) -> tuple[int, int]:
        """(smallest symmetric key, index of the symmetry that gives it)."""
        mask = self.mask
        parts = [key >> shift & mask for shift in self.shifts]
        best, best_index = key, 0
        for index, tables in enumerate(self.tables, 1):
            image = sum(map(list.__getitem__, tables, parts))
            if image < best:
                best, best_index = image, index
        return best, best_index


def _invert(perm: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(perm)
    for cell, target in enumerate(perm):
        inverse[target] = cell
    return tuple(inverse)
