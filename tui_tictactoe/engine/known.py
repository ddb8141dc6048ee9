"""What the engine already knows about a position's moves, before any search.

Every question about "the verdict of each move here" (`analysis.move_scores`: the
`analyse` command, the game's overlay and hints, replays, a spectator's overlay) asks
here first, so none of them searches for an answer the engine ships or has at hand:

- 3x3: the solved table (`solver`), every move at once;
- 5x5 with at most `STORED_STONES` stones: every move's score, stored beside the
  opening book (`opening_book.VERDICTS`);
- 5x5 with up to `BOOK_STONES` stones: the opening book's value of the position (its
  best cells score it) and of each position a move leads to (the move scores minus it).

What is left is searched by the caller, one move at a time (`Search.move_score`), and
that search reads the transposition table first: a move whose position the AI or an
earlier analysis has solved costs a table lookup.
"""

from __future__ import annotations

from functools import cache

from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.solver import shared_solver
from tui_tictactoe.engine.strategies import BOOK_GEOMETRY, search_of

Scores = dict[int, int]
"""Cell index (reading order) -> the exact score of playing there, for the side to move."""

STORED_STONES = 2
"""5x5 positions with at most this many stones have every move's score stored beside the
opening book (`opening_book.VERDICTS`): an open 5x5 board would take many seconds."""

BOOK_STONES = 4
"""The opening book holds positions of up to this many stones (those the AI can meet)."""

SOLVED_CELLS = 9
"""Boards of up to this many cells (3x3) are solved whole: the table answers every move."""


def known_scores(geometry: Geometry, me: int, them: int, cells: list[int]) -> Scores:
    """The scores of those of `cells` (empty cells of a position in play, `me` to move)
    that the engine knows without searching; the rest are missing."""
    if geometry.cells <= SOLVED_CELLS:
        return dict(shared_solver(geometry).entry(me, them)[1])
    stored = stored_scores(geometry, me, them, cells)
    return stored if stored is not None else book_scores(geometry, me, them, cells)


def known_best(geometry: Geometry, me: int, them: int, cells: list[int]) -> tuple[int, ...]:
    """Best cells known without searching (every move's score known, or the book's best
    cells of the position); empty when only a search can tell."""
    scores = known_scores(geometry, me, them, cells)
    if scores and len(scores) == len(cells):
        top = max(scores.values())
        return tuple(cell for cell in cells if scores[cell] == top)
    entry = _book_entry(geometry, me, them)
    return entry[1] if entry is not None else ()


def stored_scores(geometry: Geometry, me: int, them: int, cells: list[int]) -> Scores | None:
    """Each of `cells`' score from the scores stored beside the 5x5 opening book, or None
    where none are stored (another board, more stones)."""
    if geometry != BOOK_GEOMETRY or (me | them).bit_count() > STORED_STONES:
        return None
    from tui_tictactoe.engine.opening_book import (
        VERDICTS,  # imported on first use: 3x3 never pays for it
    )
    from tui_tictactoe.engine.search import (
        shared_search,  # 5x5's exact search, which `search_of` gives too
    )

    canonical_me, canonical_them, symmetry = shared_search(geometry).canonical(me, them)
    stored = VERDICTS.get(canonical_me | canonical_them << geometry.cells)
    if stored is None:
        return None
    occupied = canonical_me | canonical_them
    empty = [cell for cell in range(geometry.cells) if not occupied >> cell & 1]
    by_cell = dict(zip(empty, stored, strict=True))  # in the canonical frame
    to_canonical = _symmetries(geometry.size)[symmetry]
    return {cell: by_cell[to_canonical[cell]] for cell in cells}


def book_scores(geometry: Geometry, me: int, them: int, cells: list[int]) -> Scores:
    """The scores of `cells` that the 5x5 opening book settles: the position's best cells
    score its value, and a move to a position in the book minus that position's value
    (scores depend only on the position: see `search.py`)."""
    stones = (me | them).bit_count()
    if geometry != BOOK_GEOMETRY or stones > BOOK_STONES:
        return {}
    found: Scores = {}
    entry = _book_entry(geometry, me, them)
    if entry is not None:
        value, best = entry
        found.update((cell, value) for cell in best if cell in cells)
    if stones < BOOK_STONES:
        for cell in cells:
            mine = me | 1 << cell
            if cell in found or geometry.completes_line(mine, cell):
                continue  # a finished game is never in the book
            after = _book_entry(geometry, them, mine)
            if after is not None:
                found[cell] = -after[0]
    return found


def _book_entry(geometry: Geometry, me: int, them: int) -> tuple[int, tuple[int, ...]] | None:
    """(value, best cells) of a 5x5 position from the opening book, else None."""
    if geometry != BOOK_GEOMETRY or (me | them).bit_count() > BOOK_STONES:
        return None
    from tui_tictactoe.engine.opening_book import BOOK

    return search_of(geometry).book_entry(BOOK, me, them)


@cache
def _symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    from tui_tictactoe.engine.symmetry import symmetries  # with the search, which is loaded by now

    return symmetries(size)
