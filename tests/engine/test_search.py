"""The pruning search for bigger boards, checked against oracles that share nothing with it.

Rules on every board size against coordinate arithmetic; the search against the 3x3 table
solver on every position, and against a naive brute force on 4x4 and 5x5 endings; perfect play
on 4x4 against random and greedy opponents; symmetry keys; cancellation by a flag.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_oracles import masks, oracle_lines, oracle_value, oracle_wins, random_ending

from tui_tictactoe.engine import (
    CHECK_EVERY,
    AIPlayer,
    GameBoard,
    MinimaxStrategy,
    RandomStrategy,
    Search,
    SearchCancelled,
    Solver,
    Verdict,
    geometry,
    other,
    symmetries,
    transform,
)

SHAPES = [(size, length) for size in range(1, 6) for length in range(1, size + 1)]
G4 = geometry(4, 4)
G5 = geometry(5, 4)


# -- an independent oracle: lines by coordinates, values by brute force --------------------


# -- rules on every size -------------------------------------------------------------------


@pytest.mark.parametrize(("size", "length"), SHAPES)
def test_geometry_lines_are_exactly_the_runs_of_every_size_and_length(
    size: int, length: int
) -> None:
    shape = geometry(size, length)
    found = {frozenset(shape.coords(index) for index in line) for line in shape.lines}
    assert found == oracle_lines(size, length)
    if length > 1:  # a one-cell "line" is listed once per direction; harmless
        assert len(shape.lines) == len(found)


@pytest.mark.parametrize(("size", "length"), SHAPES)
def test_every_line_wins_on_a_board_of_that_shape(size: int, length: int) -> None:
    shape = geometry(size, length)
    for run in oracle_lines(size, length):
        board = GameBoard(shape)
        for row, col in sorted(run):
            assert board.outcome() is None
            board.make_move(row, col, "O")  # IllegalMove if refused
        assert board.winner() == "O"
        line = board.winning_line()
        assert line is not None and set(line) == run


@pytest.mark.parametrize(("size", "length"), [(4, 4), (5, 4)])
def test_a_line_one_short_does_not_win(size: int, length: int) -> None:
    shape = geometry(size, length)
    for run in oracle_lines(size, length):
        board = GameBoard(shape)
        for row, col in sorted(run)[:-1]:
            board.make_move(row, col, "X")
        assert board.outcome() is None


# -- exactness -----------------------------------------------------------------------------


def test_search_agrees_with_the_table_solver_on_every_3x3_position() -> None:
    """All 4,520 positions in play: the value and every single move's score."""
    shape = geometry(3, 3)
    search, solver = Search(shape), Solver(shape)
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    checked = 0
    while stack:
        me, them = stack.pop()
        if (me, them) in seen:
            continue
        seen.add((me, them))
        if shape.winning_line(me) or shape.winning_line(them) or me | them == shape.full_mask:
            continue
        value, scores, _ = solver.entry(me, them)
        assert search.value(me, them) == value
        for cell, score in scores:
            assert search.move_score(me, them, cell) == score
            stack.append((them, me | 1 << cell))
        checked += 1
    assert checked == 4520


@pytest.mark.parametrize(("size", "length", "empties"), [(4, 4, 9), (5, 4, 8), (4, 3, 9)])
def test_search_agrees_with_brute_force_on_endings(size: int, length: int, empties: int) -> None:
    rng = random.Random(size * 100 + empties)
    search = Search(geometry(size, length))
    for _ in range(15):
        cells, mover = random_ending(rng, size, length, empties)
        me, them = masks(cells, mover)
        assert search.value(me, them) == oracle_value(cells, size, length, mover), cells
        cell, score = search.best_move(me, them, random.Random(1))
        after = cells[:cell] + mover + cells[cell + 1 :]
        if oracle_wins(after, size, length, mover):
            assert score == empties
        else:
            assert score == -oracle_value(after, size, length, other(mover)), (cells, cell)
        assert score == oracle_value(cells, size, length, mover)


def test_empty_4x4_board_is_a_draw() -> None:
    search = Search(G4)
    assert search.value(0, 0) == 0
    assert search.best_move(0, 0, random.Random(3))[1] == 0


def test_search_refuses_finished_and_impossible_positions() -> None:
    search = Search(G4)
    with pytest.raises(ValueError, match="winner"):
        search.value(0b1111, 0)
    with pytest.raises(ValueError, match="both"):
        search.value(1, 1)
    with pytest.raises(ValueError, match="full"):
        search.value(*masks("XXOOOOXXXXOOOOXX", "X"))
    with pytest.raises(ValueError, match="empty"):
        search.move_score(1, 0, 0)


# -- symmetry ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5])
def test_symmetries_are_the_eight_distinct_maps_of_the_square(size: int) -> None:
    perms = symmetries(size)
    assert len(set(perms)) == 8
    assert perms[0] == tuple(range(size * size))
    shape = geometry(size, min(size, 4))
    lines = set(shape.line_masks)
    for perm in perms:
        assert sorted(perm) == list(range(size * size))
        assert {transform(line, perm) for line in lines} == lines  # lines onto lines


@st.composite
def positions(draw: st.DrawFn, size: int) -> tuple[int, int]:
    cells = draw(st.lists(st.sampled_from(".XO"), min_size=size * size, max_size=size * size))
    return masks("".join(cells), "X")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 4, 5]).flatmap(lambda size: st.tuples(st.just(size), positions(size))))
def test_canonical_key_is_the_same_for_all_eight_copies(case: tuple[int, tuple[int, int]]) -> None:
    size, (me, them) = case
    search = Search(geometry(size, min(size, 4)))
    expected = search.canonical(me, them)[:2]
    for perm in symmetries(size):
        copy_me, copy_them = transform(me, perm), transform(them, perm)
        canonical_me, canonical_them, index = search.canonical(copy_me, copy_them)
        assert (canonical_me, canonical_them) == expected
        # The reported symmetry really maps the copy onto the canonical position.
        back = symmetries(size)[index]
        assert (transform(copy_me, back), transform(copy_them, back)) == expected


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 7))
def test_values_do_not_change_under_symmetry(seed: int, index: int) -> None:
    cells, mover = random_ending(random.Random(seed), 4, 4, 8)
    me, them = masks(cells, mover)
    perm = symmetries(4)[index]
    search = Search(G4)
    assert search.value(me, them) == Search(G4).value(transform(me, perm), transform(them, perm))


# -- perfect play on 4x4 -------------------------------------------------------------------


def winning_cells(board: GameBoard, symbol: str) -> set[tuple[int, int]]:
    """Empty cells that complete a run of `symbol`, by the oracle's lines."""
    size = board.geometry.size
    found = set()
    for run in oracle_lines(size, board.geometry.win_length):
        marks = [board.game_board[r][c] for r, c in run]
        if marks.count(symbol) == len(run) - 1 and marks.count(" ") == 1:
            found |= {cell for cell in run if board.game_board[cell[0]][cell[1]] == " "}
    return found


class GreedyStrategy(RandomStrategy):
    """Wins if it can, else blocks, else plays at random: the opponent who punishes slips."""

    def find_best_move(
        self, board: GameBoard, player: object, cancelled: object = None
    ) -> tuple[int, int]:
        symbol = player if isinstance(player, str) else player.symbol  # type: ignore[attr-defined]
        for candidates in (winning_cells(board, symbol), winning_cells(board, other(symbol))):
            if candidates:
                return self.rng.choice(sorted(candidates))
        return super().find_best_move(board, symbol)


@pytest.mark.parametrize("opponent_kind", ["random", "greedy"])
@pytest.mark.parametrize("ai_first", [True, False])
def test_perfect_ai_never_loses_on_4x4_and_never_misses_a_win(
    opponent_kind: str, ai_first: bool
) -> None:
    search = Search(G4)
    for seed in range(12):
        rng = random.Random(seed)
        ai = AIPlayer("X" if ai_first else "O", MinimaxStrategy(rng=rng, search=search))
        opponent = (RandomStrategy if opponent_kind == "random" else GreedyStrategy)(rng)
        board = GameBoard(G4)
        mover = "X"
        while board.outcome() is None:
            if mover == ai.symbol:
                wins = winning_cells(board, mover)
                cell = ai.find_best_move(board)
                if wins:
                    assert cell in wins, (board.to_string(), cell)
                decision = ai.strategy.last_decision  # type: ignore[attr-defined]
                me, them = board.masks_for(mover)
                assert decision.verdict == Verdict.from_score(
                    search.value(me, them), bin(~(me | them) & G4.full_mask).count("1")
                )
            else:
                cell = opponent.find_best_move(board, mover)
            board.make_move(*cell, mover)  # IllegalMove if refused
            mover = other(mover)
        outcome = board.outcome()
        assert outcome is not None and outcome.winner != other(ai.symbol), board.to_string()


# -- cancellation --------------------------------------------------------------------------


class CancelAfter:
    """A cancel flag that turns True on its `limit`-th poll, counting the polls."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.polls = 0

    def __call__(self) -> bool:
        self.polls += 1
        return self.polls >= self.limit


@pytest.mark.parametrize("limit", [1, 3])
def test_cancel_flag_stops_the_search_at_the_next_poll(limit: int) -> None:
    search = Search(G5)
    flag = CancelAfter(limit)
    with pytest.raises(SearchCancelled):
        search.best_move(0, 0, cancelled=flag)
    assert flag.polls == limit  # it stopped at the poll that said so
    assert search.last_nodes <= limit * CHECK_EVERY + 1  # polled every CHECK_EVERY nodes


def test_a_cancelled_search_leaves_a_table_that_still_gives_exact_answers() -> None:
    search = Search(G4)
    with pytest.raises(SearchCancelled):
        search.value(0, 0, cancelled=CancelAfter(2))
    assert search.value(0, 0) == 0
    cells, mover = random_ending(random.Random(5), 4, 4, 9)
    me, them = masks(cells, mover)
    assert search.value(me, them) == oracle_value(cells, 4, 4, mover)


def test_a_flag_that_never_fires_changes_nothing() -> None:
    flag = CancelAfter(10**9)
    cell_score = Search(G4).best_move(0, 0, random.Random(2), cancelled=flag)
    assert cell_score == Search(G4).best_move(0, 0, random.Random(2))
    assert flag.polls > 0


def test_strategy_passes_the_cancel_flag_on() -> None:
    strategy = MinimaxStrategy(rng=random.Random(0), search=Search(G5), book={})
    with pytest.raises(SearchCancelled):
        strategy.find_best_move(GameBoard(G5), "X", cancelled=CancelAfter(1))


def test_a_table_that_outgrows_its_bound_is_emptied_not_wrong() -> None:
    search = Search(G4, max_entries=50)
    assert search.value(0, 0) == 0
    assert (
        len(search) <= 50 + CHECK_EVERY
    )  # cleared at the polls, which come every CHECK_EVERY nodes


def test_many_short_searches_keep_the_table_within_its_bound() -> None:
    # Each search is far below CHECK_EVERY nodes, so no poll ever runs: the bound must
    # hold anyway (a run over every 4x4 position grew the shared table to 2.5 million).
    search = Search(G4, max_entries=50)
    rng = random.Random(12)
    for _ in range(200):
        cells, mover = random_ending(rng, 4, 4, 7)
        me = sum(1 << i for i, char in enumerate(cells) if char == mover)
        them = sum(1 << i for i, char in enumerate(cells) if char not in (mover, "."))
        search.value(me, them)
        assert search.last_nodes < CHECK_EVERY
        assert len(search) <= 50
