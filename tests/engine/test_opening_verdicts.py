"""Every move's score of every 5x5 position with at most two stones, stored beside the
opening book (`opening_book.VERDICTS`): complete, consistent, equal to a live search.

The live search is slow on open 5x5 boards (up to seconds a move), so it checks a
seeded sample: `TUI_TICTACTOE_VERDICT_SAMPLE` moves of two-stone positions (default 8),
plus one move of a one-stone position and one of the empty board.
"""

from __future__ import annotations

import os
import random

import pytest

from tui_tictactoe.controller.teaching import AnalysisRun
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.known import STORED_STONES, book_scores
from tui_tictactoe.engine.opening_book import BOOK, VERDICTS
from tui_tictactoe.engine.search import Search, shared_search
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.symmetry import symmetries, transform

GEOMETRY = geometry(5, 4)
CELLS = GEOMETRY.cells
SAMPLE = int(os.environ.get("TUI_TICTACTOE_VERDICT_SAMPLE", "8"))


def canonical_key(me: int, them: int) -> int:
    canonical_me, canonical_them, _ = shared_search(GEOMETRY).canonical(me, them)
    return canonical_me | canonical_them << CELLS


def stored(me: int, them: int) -> dict[int, int]:
    """Score by cell (in the position's own frame) as `analyse` reads them."""
    board = board_of(me, them, "X")
    scores = {}
    for move in analyse(board).moves:
        verdict = move.verdict
        empties = CELLS - (me | them).bit_count()
        scores[GEOMETRY.index(*move.cell)] = score_of(verdict, empties)
    return scores


def score_of(verdict: Verdict, empties: int) -> int:
    """The inverse of `Verdict.from_score`."""
    if verdict.outcome == "draw":
        return 0
    size = empties - verdict.plies + 1
    return size if verdict.outcome == "win" else -size


def board_of(me: int, them: int, mover: str) -> GameBoard:
    other = "O" if mover == "X" else "X"
    text = "".join(
        mover if me >> cell & 1 else other if them >> cell & 1 else "." for cell in range(CELLS)
    )
    return GameBoard.from_string(text, GEOMETRY)


def positions() -> list[tuple[int, int]]:
    """Every 5x5 position in play with at most two stones, the side to move never ahead."""
    found = [(0, 0)]
    found += [(0, 1 << cell) for cell in range(CELLS)]
    found += [(1 << a, 1 << b) for a in range(CELLS) for b in range(CELLS) if a != b]
    return found


def test_every_position_with_at_most_two_stones_is_stored_once_up_to_symmetry() -> None:
    assert STORED_STONES == 2
    keys = {canonical_key(me, them) for me, them in positions()}
    assert keys == set(VERDICTS)
    assert len(VERDICTS) == 92  # 1 empty board, 6 one-stone, 85 two-stone classes
    for key, scores in VERDICTS.items():
        stones = ((key & GEOMETRY.full_mask) | key >> CELLS).bit_count()
        assert len(scores) == CELLS - stones, key


def test_stored_scores_agree_with_the_books_best_moves() -> None:
    shared = [key for key in VERDICTS if key in BOOK]
    assert len(shared) >= 7  # the empty board and every opening reply
    for key in shared:
        me, them = key & GEOMETRY.full_mask, key >> CELLS
        empty = [cell for cell in range(CELLS) if not (me | them) >> cell & 1]
        by_cell = dict(zip(empty, VERDICTS[key], strict=True))
        score, best = BOOK[key]
        assert max(by_cell.values()) == score, key
        assert all(by_cell[cell] == score for cell in best), key


def test_a_moves_score_is_minus_the_value_of_the_position_it_leads_to() -> None:
    for key, scores in VERDICTS.items():
        me, them = key & GEOMETRY.full_mask, key >> CELLS
        if (me | them).bit_count() == STORED_STONES:
            continue  # its children are not stored: the live sample checks those
        empty = [cell for cell in range(CELLS) if not (me | them) >> cell & 1]
        for cell, score in zip(empty, scores, strict=True):
            assert score == -max(VERDICTS[canonical_key(them, me | 1 << cell)]), (key, cell)


def test_analysing_any_position_with_at_most_two_stones_searches_nothing() -> None:
    search = shared_search(GEOMETRY)
    rng = random.Random(2)
    found = positions()
    rng.shuffle(found)  # a two-stone position first: without the table that fails soonest
    nodes = search.nodes
    for me, them in found:
        for mover in ("X", "O"):
            result = analyse(board_of(me, them, mover), mover)
            assert len(result.moves) == CELLS - (me | them).bit_count()
            assert search.nodes == nodes, (me, them)


def sample() -> list[tuple[int, int, int]]:
    """(me, them, cell): seeded moves of two-stone positions, one of a one-stone
    position and one of the empty board, each in a random frame (not the canonical one)."""
    rng = random.Random(21)
    moves = []
    for _ in range(SAMPLE):
        a, b, cell = rng.sample(range(CELLS), 3)
        moves.append((1 << a, 1 << b, cell))
    a, cell = rng.sample(range(CELLS), 2)
    moves.append((0, 1 << a, cell))
    moves.append((0, 0, rng.randrange(CELLS)))
    return moves


@pytest.mark.parametrize(("me", "them", "cell"), sample())
def test_stored_scores_equal_a_live_search(me: int, them: int, cell: int) -> None:
    live = Search(GEOMETRY)  # its own table: nothing learnt from the stored scores
    assert stored(me, them)[cell] == live.move_score(me, them, cell)


class NoSearch:
    """A search that must not be asked: every score is known before it."""

    def move_score(self, me: int, them: int, cell: int, cancelled: object = None) -> int:
        raise AssertionError(f"searched cell {cell} of ({me}, {them})")


def test_the_overlay_reads_every_opening_position_whole_as_analyse() -> None:
    """The game's and a spectator's overlay (`AnalysisRun`) and `analyse` are one path: on
    every position with at most two stones, either side to move, the overlay's run is
    whole as it starts, with `analyse`'s verdicts, and the request a thread would run
    asks its search nothing (fails before: the run started empty, every cell searched)."""
    for me, them in positions():
        for mover in ("X", "O"):
            board = board_of(me, them, mover)
            run = AnalysisRun(0, board, mover)
            found = run.found()
            assert run.whole and found.done, (me, them, mover)
            assert found.analysis == analyse(board, mover), (me, them, mover)
            request = run.request(lambda geometry: NoSearch(), lambda: False)
            assert list(request.compute()) == []


def book_children(count: int) -> list[tuple[int, int, int]]:
    """(me, them, cell): seeded three-stone positions whose move `cell` leads to a position
    in the opening book, each in a random frame."""
    rng = random.Random(5)
    keys = sorted(
        key for key in BOOK if ((key & GEOMETRY.full_mask) | key >> CELLS).bit_count() == 4
    )
    found = []
    for key in rng.sample(keys, count):
        me, them = key & GEOMETRY.full_mask, key >> CELLS  # `them` moved last
        perm = symmetries(GEOMETRY.size)[rng.randrange(8)]
        me, them = transform(me, perm), transform(them, perm)
        cell = rng.choice([cell for cell in range(CELLS) if them >> cell & 1])
        found.append((them & ~(1 << cell), me, cell))
    return found


@pytest.mark.parametrize(("me", "them", "cell"), book_children(SAMPLE // 2))
def test_a_move_into_the_book_scores_minus_its_value_as_a_live_search(
    me: int, them: int, cell: int
) -> None:
    empty = [c for c in range(CELLS) if not (me | them) >> c & 1]
    read = book_scores(GEOMETRY, me, them, empty)
    assert cell in read
    live = Search(GEOMETRY)
    assert read[cell] == live.move_score(me, them, cell)
