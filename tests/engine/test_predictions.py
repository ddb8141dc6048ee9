"""Grading predictions (`engine/predictions.py`): every reachable 3x3 position, a random
marking each, graded against the textbook minimax (tests/textbook_search.py's alpha-beta
with the full window: plain minimax's value at a fraction of its nodes), which shares
nothing with the verdicts' path; and the sentences, bad marks and 6x6's unproven cells."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from reference import reachable
from textbook_search import alpha_beta

from tui_tictactoe.engine.analysis import Analysis, MoveVerdict
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.geometry import STANDARD, geometry
from tui_tictactoe.engine.predictions import (
    MARKS,
    CellGrade,
    Grade,
    Mark,
    PredictionError,
    grade,
    grade_position,
    next_mark,
)
from tui_tictactoe.engine.proof import Proof
from tui_tictactoe.engine.solver import Verdict


@cache  # an O-first game's positions are an X-first game's, symbols swapped: the same masks
def textbook_outcome(me: int, them: int, cell: int) -> tuple[Mark, int]:
    """What playing `cell` leads to for the side to move, and in how many plies: the
    textbook score of the move, decoded by hand (a win scores the empties left plus one)."""
    empties = 9 - (me | them).bit_count()
    mine = me | 1 << cell
    if STANDARD.completes_line(mine, cell):
        score = empties
    elif empties == 1:
        score = 0
    else:
        score = -alpha_beta(them, mine)  # the full window: minimax's exact value
    if score == 0:
        return "draw", empties
    return ("win" if score > 0 else "loss"), empties - abs(score) + 1


def positions() -> list[tuple[str, str]]:
    """(board, mover) of every reachable position in play, X-first and O-first games."""
    found: dict[tuple[str, str], None] = {}
    for first in ("X", "O"):
        for board, mover in reachable(first).items():
            text = GameBoard.from_string(board)
            if text.outcome() is None:
                found[board, mover] = None
    return list(found)


def test_every_reachable_position_graded_as_the_textbook_minimax_says() -> None:
    rng = random.Random(39)
    checked = 0
    for text, mover in positions():
        board = GameBoard.from_string(text)
        me, them = board.masks_for(mover)
        empty = [cell for cell in range(9) if not (me | them) >> cell & 1]
        marks: dict[tuple[int, int], Mark] = {}
        for cell in empty:
            choice = rng.choice((*MARKS, None))
            if choice is not None:
                marks[divmod(cell, 3)] = choice
        graded = grade_position(board, marks, mover)
        assert [one.key for one in graded.cells] == [cell + 1 for cell in empty]
        right = 0
        for one, cell in zip(graded.cells, empty, strict=True):
            outcome, plies = textbook_outcome(me, them, cell)
            assert one.truth.outcome == outcome, (text, mover, cell)
            if outcome != "draw":
                assert one.truth.plies == plies, (text, mover, cell)
            assert one.right == (marks.get(divmod(cell, 3)) == outcome)
            assert one.line[0] == cell + 1
            right += one.right
        assert graded.right == right
        assert len(graded.wrong) == len(empty) - right
        assert graded.score() == f"{right} of {len(empty)} right"
        checked += 1
    assert checked == 2 * 4520  # every position in play, of X-first and of O-first games


def test_a_wrong_mark_is_explained_with_its_line() -> None:
    # X to move; O threatens 3-5-7 (3 and 5 held): every cell but 7 loses in 2.
    board = GameBoard.from_string("..OXOX...")
    graded = grade_position(board, {(0, 0): "win", (2, 1): "win"})
    sentence = graded.sentence()
    assert sentence.startswith(f"{graded.right} of 5 right: ")
    assert "cell 1 is a loss in 2, not a win: 1, 7" in sentence
    unmarked = [one for one in graded.cells if one.marked is None and not one.right]
    assert unmarked and all("not marked" in one.explain() for one in unmarked)


def test_all_right_says_so() -> None:
    board = GameBoard.from_string("..OXOX...")
    truth = grade_position(board, {})
    marks = {one.cell: one.truth.outcome for one in truth.cells}
    graded = grade_position(board, marks)  # type: ignore[arg-type]
    assert graded.sentence() == "5 of 5 right"
    assert not graded.wrong


@pytest.mark.parametrize(
    ("marks", "said"),
    [
        ({(1, 1): "win"}, "no empty cell at (1, 1)"),
        ({(5, 5): "win"}, "no empty cell at (5, 5)"),
        ({(0, 0): "maybe"}, "a mark is win, draw or loss, not 'maybe'"),
    ],
)
def test_bad_marks_are_refused_in_one_line(marks: dict[tuple[int, int], str], said: str) -> None:
    board = GameBoard.from_string("..OXOX...")
    with pytest.raises(PredictionError, match=re.escape(said)) as refused:
        grade_position(board, marks)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)


def test_unproven_cells_are_not_graded() -> None:
    """6x6: "unknown" is no verdict to grade against; a draw by pairings says so."""
    six = geometry(6)
    moves = (
        MoveVerdict((0, 0), Verdict("unknown", 30), False),
        MoveVerdict((0, 1), Verdict("draw", 30), True, (1,), Proof("pairing", (1,))),
        MoveVerdict((0, 2), Verdict("loss", 2), False, (2, 8), Proof("fours", (2, 8))),
    )
    analysis = Analysis("." * 36, "X", "in_progress", moves)
    graded = grade(analysis, six, {(0, 0): "win", (0, 1): "win", (0, 2): "loss"})
    assert graded.ungraded == 1
    assert graded.sentence() == (
        "1 of 2 right (1 cell not proven, not graded): cell 2 is a draw by pairings, not a win: 2"
    )
    nothing = Grade((CellGrade(1, (0, 0), "win", Verdict("unknown", 30), (1,)),))
    assert nothing.sentence() == "nothing to grade: no verdict is proven (1 cells)"


def test_one_key_cycles_through_the_marks() -> None:
    seen: list[Mark | None] = []
    mark: Mark | None = None
    for _ in range(4):
        mark = next_mark(mark)
        seen.append(mark)
    assert seen == ["win", "draw", "loss", None]
