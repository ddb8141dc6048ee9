"""The review of a round (`engine/review.py`): every move's verdict before and after it, and
its blunders, against the textbook minimax on every reachable 3x3 position and move, and
against `analyse` (every move's verdict) on random 4x4 positions."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textbook_search import plain_minimax

from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import GameBoard, Symbol, other
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import STANDARD
from tui_tictactoe.engine.review import RANK, BadMoves, judge, review_moves, reviewed, sentence
from tui_tictactoe.options import board_geometry


@cache
def textbook_move(me: int, them: int, cell: int) -> int:
    """The score of `me` playing `cell`: the textbook's plain minimax (`plain_minimax`'s
    rule, memoised here: no engine table or search)."""
    mine = me | 1 << cell
    empties = STANDARD.cells - (me | them).bit_count()
    if STANDARD.completes_line(mine, cell):
        return empties
    if empties == 1:
        return 0
    return -max(textbook_move(them, mine, reply) for reply in free(them, mine))


def free(me: int, them: int) -> list[int]:
    return [cell for cell in range(STANDARD.cells) if not (me | them) >> cell & 1]


def test_the_memoised_textbook_is_plain_minimax() -> None:
    for me, them in ((0, 0), (1 << 4, 1), (1 | 1 << 8, 1 << 4)):
        top = max(textbook_move(me, them, cell) for cell in free(me, them))
        assert top == plain_minimax(me, them, STANDARD)


def outcome(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def positions() -> list[tuple[GameBoard, Symbol]]:
    """Every reachable 3x3 position in play, X first and O first, with the side to move."""
    found: dict[tuple[str, str], tuple[GameBoard, Symbol]] = {}
    stack: list[tuple[GameBoard, Symbol]] = [(GameBoard(STANDARD), "X"), (GameBoard(STANDARD), "O")]
    while stack:
        board, mover = stack.pop()
        key = (board.to_string(), mover)
        if key in found or board.is_game_over():
            continue
        found[key] = (board, mover)
        for row, col in board.legal_moves():
            after = board.copy()
            after.make_move(row, col, mover)
            stack.append((after, other(mover)))
    return list(found.values())


def test_every_move_of_every_reachable_3x3_position_agrees_with_the_textbook() -> None:
    """Every reachable 3x3 position's every move (so every move of every game): the verdict
    before and after, the blunder, and the cell that held, as plain minimax has them."""
    judged = blunders = 0
    for board, mover in positions():
        me, them = board.masks_for(mover)
        cells = [STANDARD.index(*cell) for cell in board.legal_moves()]
        scores = {cell: textbook_move(me, them, cell) for cell in cells}
        top = max(scores.values())
        for cell in cells:
            move = judge(board, mover, cell)
            judged += 1
            assert (move.before.outcome, move.after.outcome) == (
                outcome(top),
                outcome(scores[cell]),
            ), (board.to_string(), mover, cell)
            assert move.best is not None and move.before == move.best.verdict
            blunder = RANK[outcome(scores[cell])] < RANK[outcome(top)]  # type: ignore[index]
            assert move.blunder == blunder
            assert move.proven
            held = move.held(STANDARD)
            if blunder:
                blunders += 1
                assert held is not None and scores[held - 1] == top
                assert f"(cell {cell + 1}) turned a {move.before}" in sentence(move, STANDARD)
            else:
                assert held is None
            assert move.played.line[0] == cell
            assert move.played.best == (scores[cell] == top)
    assert judged > 10_000  # X first and O first
    assert blunders > 0


def test_a_game_is_its_moves_judged_one_by_one() -> None:
    """`review_moves` of a game is `judge` of each of its moves in turn (so the check above
    covers every game), over many random 3x3 games."""
    rng = random.Random(39)
    for _ in range(200):
        board, mover, keys = GameBoard(STANDARD), rng.choice(("X", "O")), []
        first: Symbol = mover  # type: ignore[assignment]
        while not board.is_game_over():
            row, col = rng.choice(board.legal_moves())
            keys.append(STANDARD.key(row, col))
            board.make_move(row, col, mover)
            mover = other(mover)
        review = review_moves(STANDARD, first, keys)
        replay, mover = GameBoard(STANDARD), first
        for move, key in zip(review.moves, keys, strict=True):
            cell = STANDARD.index(*STANDARD.cell_of_key(key))
            assert move == judge(replay, mover, cell, move.number)
            replay.make_move(*STANDARD.coords(cell), mover)
            mover = other(mover)
        assert review.status != "in_progress"
        assert [m.number for m in review.blunders] == review.to_json()["blunders"]


def test_the_issue_example_is_said_as_the_issue_says_it() -> None:
    """X 1, O 2 (a blunder: 5 held the draw), X 3 (throws the win away), ..."""
    review = review_moves(STANDARD, "X", [1, 2, 3, 4, 5, 6, 7])
    said = [sentence(move, STANDARD) for move in review.moves]
    assert said[1] == "move 2 (cell 2) turned a draw into a loss in 6; cell 5 held the draw"
    assert said[2] == "move 3 (cell 3) turned a win in 5 into a draw; cell 4 held the win"
    assert said[0] == "move 1 (cell 1) kept a draw: a best move"
    assert [move.number for move in review.blunders] == [2, 3, 4]
    assert review.moves[1].played.line == (1, 3, 6, 4, 5, 8)  # O's 2, then X's win: 4 7 5 6 9
    assert review.status == "X_wins"


def test_bad_moves_are_refused_before_anything_is_judged() -> None:
    cases = {
        (5, 5): "move 2: cell 5 is taken",
        (0,): "move 1: 0 is not a cell of 3x3 (1 to 9)",
        (1, 10): "move 2: 10 is not a cell of 3x3 (1 to 9)",
        (1, 4, 2, 5, 3, 9): "move 6 (cell 9) comes after the game is over",
    }
    for keys, said in cases.items():
        with pytest.raises(BadMoves) as refused:
            list(reviewed(STANDARD, "X", keys))
        assert str(refused.value) == said


def test_a_review_stops_when_told() -> None:
    geometry = board_geometry(4)
    with pytest.raises(SearchCancelled):
        review_moves(geometry, "X", [1, 2, 3], cancelled=lambda: True)


FOUR = board_geometry(4)


@settings(max_examples=12, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=5, max_value=12))
def test_4x4_moves_agree_with_every_moves_analysis(rng: random.Random, stones: int) -> None:
    """On 4x4 the review scores two moves (a best one, the one played): the same verdicts as
    `analyse`, which scores them all."""
    board, mover = GameBoard(FOUR), "X"
    for _ in range(stones):
        if board.is_game_over():
            break
        board.make_move(*rng.choice(board.legal_moves()), mover)
        mover = other(mover)
    if board.is_game_over():
        return
    every = analyse(board, mover)
    cell = rng.choice(board.legal_moves())
    move = judge(board, mover, FOUR.index(*cell))  # type: ignore[arg-type]
    assert move.after == every.verdict_at(cell)
    best = next(m for m in every.moves if m.best)
    assert move.before == best.verdict
    assert move.best is not None and move.best.cell in every.best
    assert move.played.best == (cell in every.best)
    top, here = RANK[best.verdict.outcome], RANK[move.after.outcome]
    assert move.blunder == (here < top)


def test_6x6_unknowns_are_never_blunders() -> None:
    """6x6: what is not proven is said so, never called a blunder."""
    geometry = board_geometry(6)
    review = review_moves(geometry, "X", [15, 16, 22, 21])
    assert not review.blunders
    unproven = [move for move in review.moves if not move.proven]
    assert unproven
    for move in unproven:
        assert "not proven" in sentence(move, geometry)
