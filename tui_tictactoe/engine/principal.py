"""A verdict's line of play (its principal variation), read from what the engine remembers.

No new search: the 3x3 solved table (`solver`), the 5x5 opening book and the exact search's
table (`search.Search.table_move`) already say which move they found best in each position
they met; forced moves (a line to complete, a single line of the other side's to block) need
no memory. The line stops where the memory has nothing, so it may be shorter than the game.
"""

from __future__ import annotations

from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.lines import completions

SOLVED_CELLS = 9
"""Boards of up to this many cells (3x3) are solved whole: the table has every position."""


def line_of_play(
    geometry: Geometry, me: int, them: int, cell: int, plies: int | None = None
) -> tuple[int, ...]:
    """The moves from playing `cell` (`me` to move) on, best play on both sides as the
    engine remembers it: at most `plies` moves (None: to the end of the game), `cell`
    first. On 6x6 (bounded) only `cell`: its lines come with its proof (`proven`)."""
    line = [cell]
    mover, waiting = them, me | 1 << cell
    limit = geometry.cells - (me | them).bit_count() if plies is None else plies
    if is_bounded(geometry):
        return (cell,)
    while len(line) < limit:
        if geometry.completes_line(waiting, line[-1]) or mover | waiting == geometry.full_mask:
            break
        move = _next_move(geometry, mover, waiting)
        if move is None:
            break
        line.append(move)
        mover, waiting = waiting, mover | 1 << move
    return tuple(line)


def _next_move(geometry: Geometry, me: int, them: int) -> int | None:
    """The move the engine remembers as best for `me` to move, or a forced one; None if
    it remembers none."""
    lines = geometry.line_masks
    wins = completions(lines, me, them)
    if wins:
        return (wins & -wins).bit_length() - 1
    threats = completions(lines, them, me)
    if threats:
        return (threats & -threats).bit_length() - 1
    if geometry.cells <= SOLVED_CELLS:
        from tui_tictactoe.engine.solver import shared_solver

        return shared_solver(geometry).entry(me, them)[2][0]
    from tui_tictactoe.engine.search import shared_search

    search = shared_search(geometry)
    if (geometry.size, geometry.win_length) == BOOK_SHAPE and (me | them).bit_count() <= 4:
        from tui_tictactoe.engine.opening_book import BOOK

        entry = search.book_entry(BOOK, me, them)
        if entry is not None:
            return entry[1][0]
    return search.table_move(me, them)


BOOK_SHAPE = (5, 4)
"""The board the 5x5 opening book was built for (`strategies.BOOK_GEOMETRY`), whose best
cells lead the line while the position is in it (up to 4 stones)."""
