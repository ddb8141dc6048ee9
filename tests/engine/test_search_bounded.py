"""6x6, five in a row: the rules, and what the bounded search (`engine.bounded`) promises.

It cannot solve the board, so these check its promises, not its strength: a win in one is
always played, a single threat always blocked, a proven win or loss is exact (checked
against the exact search on 4x4, where both run), and the budget is honoured: a fake clock
for the deadline, a count of positions, the cancel callback. No timing assertions here:
the reply times are measured in benchmarks/bench_engine.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_oracles import masks, oracle_lines, random_ending

from tui_tictactoe.commands.analyse import board_from_text, format_analysis
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.bounded import BoundedSearch
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import geometry, is_bounded
from tui_tictactoe.engine.lines import completions
from tui_tictactoe.engine.search import Search
from tui_tictactoe.engine.strategies import MinimaxStrategy, strategy_for
from tui_tictactoe.options import board_geometry

G6 = geometry(6, 5)


# -- the rules -------------------------------------------------------------------------------


def test_6x6_plays_five_in_a_row_with_exactly_its_32_lines() -> None:
    assert board_geometry("6") == G6 and is_bounded(G6)
    found = {frozenset(G6.coords(index) for index in line) for line in G6.lines}
    assert found == oracle_lines(6, 5) and len(G6.lines) == len(found)
    # Counted by hand: 2 per row and per column (24), 2 on each long diagonal and
    # 1 on each of the four diagonals of five cells (8).
    assert len(found) == 6 * 2 * 2 + 2 * (2 + 1 + 1)


def cells_in_order(line: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted(line)


# Sorted apart from the decorator, whose argument would make `sorted` take its items as objects.
LINES_OF_FIVE = sorted(oracle_lines(6, 5), key=cells_in_order)


@pytest.mark.parametrize("line", LINES_OF_FIVE)
def test_every_line_of_five_wins_and_four_of_it_does_not(line: frozenset[tuple[int, int]]) -> None:
    board = GameBoard(G6)
    cells = sorted(line)
    for row, col in cells[:-1]:
        board.game_board[row][col] = "O"
    assert board.outcome() is None
    board.game_board[cells[-1][0]][cells[-1][1]] = "O"
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == "O"


# -- the AI's promises -----------------------------------------------------------------------


@st.composite
def positions_6x6(draw: st.DrawFn) -> tuple[int, int]:
    """A 6x6 position of random play in progress (no winner, a cell free), side to move first."""
    seed = draw(st.integers(0, 2**32))
    empties = draw(st.integers(8, 34))
    cells, mover = random_ending(random.Random(seed), 6, 5, empties)
    return masks(cells, mover)


def small_budget() -> BoundedSearch:
    """A search bounded by positions only: quick, and the same in every run."""
    return BoundedSearch(G6, seconds=None, nodes=1_500)


@settings(max_examples=200, deadline=None)
@given(positions_6x6())
def test_the_ai_never_misses_a_win_in_one_nor_a_needed_block(position: tuple[int, int]) -> None:
    me, them = position
    lines = G6.line_masks
    wins, threats = completions(lines, me, them), completions(lines, them, me)
    cell, score = small_budget().best_move(me, them, random.Random(0))
    bit = 1 << cell
    assert not (me | them) & bit
    if wins:
        assert wins & bit and score > 0  # a win in one, taken
    elif threats:
        assert threats & bit  # the block (with two threats: one of them)
        if threats & (threats - 1):
            assert score < 0  # and it knows the game is lost


@settings(max_examples=60, deadline=None)
@given(positions_6x6(), st.sampled_from(["easy", "medium"]))
def test_easy_takes_its_wins_and_medium_also_blocks(
    position: tuple[int, int], difficulty: str
) -> None:
    """The levels keep their meaning on 6x6: one move ahead, two."""
    me, them = position
    board = _board(me, them)
    lines = G6.line_masks
    wins, threats = completions(lines, me, them), completions(lines, them, me)
    row, col = strategy_for(difficulty, random.Random(1)).find_best_move(board, "X")
    bit = 1 << G6.index(row, col)
    if wins:
        assert wins & bit
    elif threats and not threats & (threats - 1) and difficulty == "medium":
        assert threats & bit


def _board(me: int, them: int) -> GameBoard:
    """A 6x6 board with X on `me` and O on `them`."""
    return GameBoard.from_string(
        "".join("X" if me >> i & 1 else "O" if them >> i & 1 else "." for i in range(36)), G6
    )


def test_an_open_three_is_seen_as_a_forced_win_in_three() -> None:
    """X to move makes an open four (.XXXX.): O blocks one end, X fills the other."""
    board = board_from_text(".XXX.. O..... .O.... ...... ..O... ......")
    result = analyse(board, search=small_budget())
    wins = {move.cell: str(move.verdict) for move in result.moves if move.verdict.outcome == "win"}
    assert wins[(0, 4)] == "win in 3"  # XXXX. at the edge (0, 0) is one threat, blocked
    assert result.best == ((0, 4),)
    assert "unknown" in {move.verdict.outcome for move in result.moves}
    row, col = MinimaxStrategy(search=small_budget(), rng=random.Random(0)).find_best_move(
        board, "X"
    )
    assert (row, col) in wins


def test_analyse_says_unknown_and_names_no_best_move_where_nothing_is_proven() -> None:
    board = board_from_text("X..... ...... ...... ...... ...... .....O")
    text = format_analysis(analyse(board, search=small_budget()), G6)
    assert "unknown" in text and "best" not in text.replace("Best:", "")
    assert text.splitlines()[-1].startswith("Best: no move is proven better")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(5, 9))
def test_a_proven_verdict_is_exact_where_the_exact_search_can_check_it(
    seed: int, empties: int
) -> None:
    """On 4x4 both searches run: every score the bounded one proves has the exact sign
    (a win is a win, a loss a loss); 0 (unknown) promises nothing."""
    shape = geometry(4, 4)
    cells, mover = random_ending(random.Random(seed), 4, 4, empties)
    me, them = masks(cells, mover)
    exact, bounded = Search(shape), BoundedSearch(shape, seconds=None, nodes=400)
    for cell in (i for i in range(16) if cells[i] == "."):
        proven = bounded.move_score(me, them, cell)
        if proven:
            truth = exact.move_score(me, them, cell)
            assert (proven > 0) == (truth > 0) and truth != 0, (cells, mover, cell)


# -- the budget ------------------------------------------------------------------------------


class FakeClock:
    """Moves on by `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def test_the_deadline_ends_the_search_with_a_legal_move() -> None:
    clock = FakeClock(0.125)  # a second is eight reads of the clock
    search = BoundedSearch(G6, seconds=1.0, nodes=10**9, clock=clock)
    cell, score = search.best_move(0, 0, random.Random(0))
    assert 0 <= cell < 36 and score == 0
    assert clock.reads == 9  # the start, then eight looks: the last one past the deadline
    assert search.last_depth >= 1  # the first pass finished before time ran out


def test_a_clock_that_never_moves_leaves_the_count_of_positions_in_charge() -> None:
    search = BoundedSearch(G6, seconds=1.0, nodes=5_000, clock=lambda: 0.0)
    search.best_move(0, 0)
    assert 5_000 <= search.last_nodes < 5_000 + 256  # looked at every 256 positions
    deeper = BoundedSearch(G6, seconds=None, nodes=50_000)
    deeper.best_move(0, 0)
    assert deeper.last_depth > search.last_depth


def test_cancel_stops_the_bounded_search() -> None:
    search = BoundedSearch(G6, seconds=None, nodes=10**9)
    with pytest.raises(SearchCancelled):
        search.best_move(0, 0, cancelled=lambda: True)


def test_the_hard_level_on_6x6_uses_the_bounded_search_and_says_how_deep_it_went() -> None:
    """Without its pairings (they decide every move it reaches by its own play: see
    test_pairing.py) the hard level is the bounded search."""
    strategy = MinimaxStrategy(search=BoundedSearch(G6, seconds=None, nodes=3_000), pairings=False)
    strategy.find_best_move(GameBoard(G6), "X")
    decision = strategy.last_decision
    assert decision is not None and decision.depth is not None and decision.depth >= 1
    assert decision.verdict.outcome == "unknown" and str(decision.verdict) == "unknown"
