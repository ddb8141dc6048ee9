"""The searches: node counts, alpha-beta against plain minimax, scores and move preferences.

The positions below are worked out by hand in the comments; test_exhaustive.py checks every
position against a brute-force solver.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from textbook_search import alpha_beta, plain_minimax

from tui_tictactoe.engine import (
    STANDARD,
    AIPlayer,
    GameBoard,
    MinimaxStrategy,
    NodeCounter,
    Solver,
    Verdict,
    analyse,
    geometry,
    shared_solver,
)
from tui_tictactoe.engine.solver import limited_scores

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
FULL_TREE = 549_946  # nodes of the Tic-Tac-Toe game tree, counting the root


def wins(mask: int) -> bool:
    return any(all(mask >> i & 1 for i in line) for line in LINES)


@cache
def count_tree(me: int, them: int, depth: int = 9) -> int:
    """Independent count of game-tree nodes below (and including) a position in play,
    `depth` plies deep (a move at the last ply is a leaf, as for a shortsighted search)."""
    nodes = 1
    for i in range(9):
        if (me | them) >> i & 1:
            continue
        mine = me | 1 << i
        if wins(mine) or (mine | them) == 0x1FF or depth == 1:
            nodes += 1  # a finished game, or the horizon, is a leaf
        else:
            nodes += count_tree(them, mine, depth - 1)
    return nodes


def positions_with(marks: int) -> list[tuple[int, int]]:
    """(me, them) for every X-first position in play with `marks` marks, side to move first."""
    layer = {(0, 0)}  # (side to move, other side)
    for _ in range(marks):
        nxt = set()
        for me, them in layer:
            for i in range(9):
                if not (me | them) >> i & 1:
                    mine = me | 1 << i
                    if not wins(mine):
                        nxt.add((them, mine))
        layer = nxt
    return sorted(layer)


def masks(text: str, mover: str) -> tuple[int, int]:
    other = "O" if mover == "X" else "X"
    me = sum(1 << i for i, c in enumerate(text) if c == mover)
    them = sum(1 << i for i, c in enumerate(text) if c == other)
    return me, them


# -- node counts ---------------------------------------------------------------


def test_independent_count_of_the_game_tree() -> None:
    assert count_tree(0, 0) == FULL_TREE


def test_plain_minimax_visits_the_whole_tree_from_the_empty_board() -> None:
    counter = NodeCounter()
    assert plain_minimax(0, 0, counter=counter) == 0  # perfect play is a draw
    assert counter.nodes == FULL_TREE


def test_solver_tree_size_agrees() -> None:
    assert Solver().tree_size(0, 0) == FULL_TREE


@pytest.mark.parametrize("depth", range(1, 10))
def test_tree_size_to_a_depth_matches_an_independent_count(depth: int) -> None:
    """What the info panel compares a shortsighted level with: plain minimax as shortsighted."""
    solver = Solver()
    assert solver.tree_size(0, 0, depth) == count_tree(0, 0, depth)
    for me, them in positions_with(3)[:40]:
        assert solver.tree_size(me, them, depth) == count_tree(me, them, depth)
    assert solver.tree_size(0, 0, 1) == 10 and solver.tree_size(0, 0, 2) == 82


@pytest.mark.parametrize("first_cell", [0, 1, 4], ids=["corner", "edge", "centre"])
def test_tree_size_matches_counted_nodes_after_an_opening(first_cell: int) -> None:
    me, them = 0, 1 << first_cell  # O to move after X's opening
    counter = NodeCounter()
    plain_minimax(me, them, counter=counter)
    assert counter.nodes == count_tree(me, them) == Solver().tree_size(me, them)


def test_openings_add_up_to_the_whole_tree() -> None:
    assert 1 + sum(count_tree(0, 1 << i) for i in range(9)) == FULL_TREE


# -- alpha-beta against plain minimax --------------------------------------------


def test_alpha_beta_equals_plain_minimax_on_every_position_with_three_or_four_marks() -> None:
    positions = positions_with(3) + positions_with(4)
    assert len(positions) == 36 * 7 + 36 * 21  # no line is possible yet with two marks each
    plain_total = pruned_total = 0
    for me, them in positions:
        plain, pruned = NodeCounter(), NodeCounter()
        assert alpha_beta(me, them, counter=pruned) == plain_minimax(me, them, counter=plain)
        plain_total += plain.nodes
        pruned_total += pruned.nodes
    assert pruned_total < plain_total / 2


def test_alpha_beta_prunes_from_the_empty_board() -> None:
    counter = NodeCounter()
    assert alpha_beta(0, 0, counter=counter) == 0
    assert counter.nodes < FULL_TREE / 10


def test_solver_equals_plain_minimax_after_every_opening() -> None:
    solver = Solver()
    assert solver.value(0, 0) == 0
    for i in range(9):
        assert solver.value(0, 1 << i) == plain_minimax(0, 1 << i)


# -- scores and verdicts ---------------------------------------------------------


def test_score_encoding_by_hand() -> None:
    # X to move on XX./OO./... (5 empty): winning now at cell 2 leaves 4 empty -> score 5.
    me, them = masks("XX.OO....", "X")
    _, scores, best = Solver().entry(me, them)
    assert dict(scores)[2] == 5
    assert best == (2,)
    # 6, 7 or 8 let O complete its row at once: 3 cells left after that -> -4.
    assert [dict(scores)[cell] for cell in (6, 7, 8)] == [-4, -4, -4]
    # 5 blocks that row, so it is worth more than those (though less than winning).
    assert -4 < dict(scores)[5] < 5


def test_verdict_from_score() -> None:
    assert Verdict.from_score(5, 5) == Verdict("win", 1)
    assert Verdict.from_score(-4, 5) == Verdict("loss", 2)
    assert Verdict.from_score(3, 5) == Verdict("win", 3)
    assert Verdict.from_score(0, 9) == Verdict("draw", 9)
    assert str(Verdict("win", 3)) == "win in 3"
    assert str(Verdict("loss", 2)) == "loss in 2"
    assert str(Verdict("draw", 9)) == "draw"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XXXOO....", "winner"),  # X has a line
        ("XOXXOOOXX", "full"),  # drawn
        ("XX.OOO...", "winner"),  # O has a line
    ],
)
def test_solver_refuses_finished_positions(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Solver().entry(*masks(text, "X"))


def test_solver_refuses_overlapping_masks() -> None:
    with pytest.raises(ValueError):
        Solver().entry(0b1, 0b11)


def test_solver_remembers_what_it_solved() -> None:
    solver = Solver()
    assert len(solver) == 0
    solver.value(0, 0)
    solved = len(solver)
    assert 0 < solved <= 4520  # the game has 4,520 non-terminal positions
    solver.value(0, 1)  # already known: nothing new to search
    assert len(solver) == solved


def test_shared_solver_is_one_per_shape() -> None:
    assert shared_solver() is shared_solver(STANDARD)


def test_table_solver_refuses_boards_too_big_for_its_tables() -> None:
    with pytest.raises(NotImplementedError):
        Solver(geometry(5, 4))


# -- depth preference --------------------------------------------------------------

SEEDS = range(20)


def choices(text: str, symbol: str) -> set[tuple[int, int]]:
    board = GameBoard.from_string(text)
    picked = set()
    for seed in SEEDS:
        picked.add(AIPlayer(symbol, MinimaxStrategy(rng=random.Random(seed))).find_best_move(board))
    assert board.to_string() == text
    return picked


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_takes_the_immediate_win_over_a_slower_one(symbol: str) -> None:
    # X . . / . X . / . . .  with O on 1 and 3:  X O . / O X . / . . .
    # Cell 8 wins now. Cell 2 would also win, later: it threatens 6 and 8 at once.
    text = "XO.OX...."
    if symbol == "O":
        text = text.translate(str.maketrans("XO", "OX"))
    assert choices(text, symbol) == {(2, 2)}
    verdicts = {m.cell: m.verdict for m in analyse(GameBoard.from_string(text), symbol).moves}
    assert verdicts[(2, 2)] == Verdict("win", 1)
    assert verdicts[(0, 2)] == Verdict("win", 3)
    assert verdicts[(2, 0)] == Verdict("win", 3)


def test_blocks_an_immediate_loss() -> None:
    # X X . / . O . / . . .  O to move: only (0, 2) stops X's row.
    assert choices("XX..O....", "O") == {(0, 2)}


def test_wins_rather_than_blocks() -> None:
    # X X . / O O . / X . .  O to move can complete its row at (1, 2) instead of blocking (0, 2).
    assert choices("XX.OO.X..", "O") == {(1, 2)}


def test_loses_as_slowly_as_possible() -> None:
    # X O . / . X . / . . .  O to move. Unless O blocks the diagonal at (2, 2), X wins next move
    # (lost in 2). Blocking loses too, but later: X then forks with (2, 0) or (1, 0) (lost in 4).
    text = "XO..X...."
    assert choices(text, "O") == {(2, 2)}
    verdicts = {m.cell: m.verdict for m in analyse(GameBoard.from_string(text), "O").moves}
    assert verdicts.pop((2, 2)) == Verdict("loss", 4)
    assert set(verdicts.values()) == {Verdict("loss", 2)}


def test_every_opening_draws() -> None:
    analysis = analyse(GameBoard())
    assert {m.verdict for m in analysis.moves} == {Verdict("draw", 9)}
    assert len(analysis.best) == 9


# -- the shortsighted search of the easier levels ------------------------------------


def test_limited_depth_one_sees_only_its_own_wins() -> None:
    # X X . / O O . / . . .  X to move: it wins at 2; depth 1 scores every other cell 0
    # even though O would then win.
    me, them = masks("XX.OO....", "X")
    scores = dict(limited_scores(me, them, 1))
    assert scores == {2: 5, 5: 0, 6: 0, 7: 0, 8: 0}


def test_limited_depth_two_also_sees_the_reply() -> None:
    # X X . / . O . / . . .  O to move: depth 2 sees that anything but 2 loses at once.
    me, them = masks("XX..O....", "O")
    scores = dict(limited_scores(me, them, 2))
    assert scores[2] == 0
    assert all(score < 0 for cell, score in scores.items() if cell != 2)
    # Depth 1 does not: every cell looks like a draw.
    assert set(dict(limited_scores(me, them, 1)).values()) == {0}


def test_limited_depth_two_does_not_see_a_fork() -> None:
    # X . . / . O . / . . X  O to move: a corner lets X fork ((0,2) X blocks and threatens twice);
    # an edge holds the draw. Depth 2 cannot tell them apart, full search can.
    me, them = masks("X...O...X", "O")
    assert set(dict(limited_scores(me, them, 2)).values()) == {0}
    assert choices("X...O...X", "O") <= {(0, 1), (1, 0), (1, 2), (2, 1)}
