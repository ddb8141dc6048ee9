"""Board shape and winning lines, computed once per (size, win_length).

Everything else in the engine reads cells, lines and bitmasks from here, so a
4x4 or 5x5 board is a different `Geometry`, not a rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache


@dataclass(frozen=True, slots=True)
class Geometry:
    """A square board of `size` x `size` cells where `win_length` in a row wins.

    It owns the one vocabulary for cells. Code names a cell by (row, col), 0-based;
    the search by its index in reading order (0 = top-left; bit `i` of a mask is
    cell `i`); players by its key, the index plus one (1 top-left .. 9 bottom-right
    on 3x3). Every conversion between the three is here.

    A value: equal, hashed and shown by its shape (`size`, `win_length`) alone. The line
    tables follow from the shape and are built once, in `__post_init__`, as plain slots:
    the search reads `lines_through` after every move, so they are neither properties
    nor a `cached_property` (which needs the instance dictionary that slots leave out).
    """

    size: int = 3
    win_length: int = 3
    lines: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    line_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    lines_through: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size, win_length = self.size, self.win_length
        if size < 1 or not 1 <= win_length <= size:
            raise ValueError(f"invalid geometry: size={size}, win_length={win_length}")
        lines = tuple(_winning_lines(size, win_length))
        masks = tuple(sum(1 << cell for cell in line) for line in lines)
        through = tuple(
            tuple(mask for line, mask in zip(lines, masks, strict=True) if cell in line)
            for cell in range(size * size)
        )
        # A frozen dataclass's own fields are set this way (the dataclass docs' idiom).
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "line_masks", masks)
        object.__setattr__(self, "lines_through", through)

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def full_mask(self) -> int:
        return (1 << self.cells) - 1

    def index(self, row: int, col: int) -> int:
        return row * self.size + col

    def coords(self, index: int) -> tuple[int, int]:
        return divmod(index, self.size)

    def key(self, row: int, col: int) -> int:
        """The number players call a cell by: 1 top-left, in reading order."""
        return self.index(row, col) + 1

    def cell_of_key(self, key: int) -> tuple[int, int]:
        """(row, col) of the cell players call `key`; ValueError if there is none."""
        if not 1 <= key <= self.cells:
            raise ValueError(f"cell keys go from 1 to {self.cells}, not {key}")
        return self.coords(key - 1)

    def all_cells(self) -> tuple[tuple[int, int], ...]:
        """Every (row, col), in reading order."""
        return tuple(self.coords(index) for index in range(self.cells))

    def contains(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def completes_line(self, mask: int, cell: int) -> bool:
        """True if `mask` (which holds `cell`) has a full line through `cell`.

        Only lines through the last move can be new, so this is the cheap test
        the search uses after each move.
        """
        return any(mask & line == line for line in self.lines_through[cell])

    def winning_line(self, mask: int) -> tuple[int, ...] | None:
        for line, line_mask in zip(self.lines, self.line_masks, strict=True):
            if mask & line_mask == line_mask:
                return line
        return None


def _winning_lines(size: int, length: int) -> list[tuple[int, ...]]:
    """Every run of `length` cells in a row, column or diagonal."""
    directions = ((0, 1), (1, 0), (1, 1), (1, -1))
    lines = []
    for row in range(size):
        for col in range(size):
            for d_row, d_col in directions:
                end_row = row + d_row * (length - 1)
                end_col = col + d_col * (length - 1)
                if 0 <= end_row < size and 0 <= end_col < size:
                    lines.append(
                        tuple((row + d_row * k) * size + col + d_col * k for k in range(length))
                    )
    return lines


@cache
def geometry(size: int = 3, win_length: int = 3) -> Geometry:
    """Shared instances, so solvers and boards of one shape share their tables."""
    return Geometry(size, win_length)


STANDARD = geometry(3, 3)


EXACT_CELLS = 25
"""Boards of up to this many cells (5x5) are solved exactly; bigger ones (6x6) are searched
by the search bounded by a second (`bounded`), imported only when such a board is played."""


def is_bounded(geometry: Geometry) -> bool:
    """True where verdicts come from the bounded search (a 0 score there means "unknown")."""
    return geometry.cells > EXACT_CELLS


def check_in_play(geometry: Geometry, me: int, them: int) -> None:
    """ValueError unless two masks are a position of `geometry` still in play: what every
    search checks before it starts (the exact one and the bounded one alike)."""
    if me & them:
        raise ValueError("a cell cannot hold both symbols")
    if me | them > geometry.full_mask or me < 0 or them < 0:
        raise ValueError("a mask has bits outside the board")
    if geometry.winning_line(me) or geometry.winning_line(them):
        raise ValueError("the game is over: there is a winner")
    if me | them == geometry.full_mask:
        raise ValueError("the game is over: the board is full")
