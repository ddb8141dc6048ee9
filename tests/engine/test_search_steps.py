"""The explorer's searches (`engine.search_steps`) against the textbook yardsticks: the same
nodes, the same values, the same cuts, on every reachable 3x3 position."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import is_terminal, reachable
from textbook_search import alpha_beta, plain_minimax

from tui_tictactoe.engine.geometry import STANDARD, Geometry, geometry
from tui_tictactoe.engine.search_steps import METHODS, Step, count, replay_to, steps
from tui_tictactoe.engine.solver import NodeCounter, Solver


def positions(least_marks: int = 0) -> Iterator[tuple[int, int]]:
    """(me, them) of every reachable 3x3 position in play with at least `least_marks` marks."""
    for board, mover in reachable("X").items():
        if is_terminal(board) or 9 - board.count(".") < least_marks:
            continue
        me = sum(1 << i for i, char in enumerate(board) if char == mover)
        them = sum(1 << i for i, char in enumerate(board) if char not in (".", mover))
        yield me, them


ALL = list(positions())
SMALL = list(positions(3))  # trees of at most 8,232 nodes: listed whole in a moment


def last(walk: Iterator[Step]) -> Step:
    *_, final = walk
    return final


def test_plain_minimax_visits_all_549946_nodes_from_the_empty_board() -> None:
    assert count(0, 0, STANDARD, "minimax") == (549_946, 0, True)


def test_plain_minimax_counts_and_values_equal_the_textbook_with_four_marks_or_more() -> None:
    checked = 0
    for me, them in positions(4):
        counter = NodeCounter()
        value = plain_minimax(me, them, counter=counter)
        final = last(steps(me, them, STANDARD, "minimax"))
        assert (final.kind, final.path, final.nodes, final.value) == (
            "back",
            (),
            counter.nodes,
            value,
        )
        checked += 1
    assert checked == 756 + 1140 + 1372 + 696 + 222


def test_alpha_beta_counts_and_values_equal_the_textbook_on_every_position() -> None:
    for me, them in ALL:
        counter = NodeCounter()
        value = alpha_beta(me, them, counter=counter)
        final = last(steps(me, them, STANDARD, "alphabeta"))
        assert (final.nodes, final.value) == (counter.nodes, value), (me, them)
    assert count(0, 0, STANDARD, "alphabeta")[0] < 549_946 / 20


def test_the_engines_count_is_the_positions_its_solver_solves_and_its_value_the_solvers() -> None:
    for me, them in ALL[::4]:  # a fresh solver each (its tables cost ~2 ms to build)
        solver = Solver()
        value = solver.value(me, them)
        final = last(steps(me, them, STANDARD, "engine"))
        assert (final.nodes, final.value) == (1 + len(solver), value), (me, them)
    nodes, hits, finished = count(0, 0, STANDARD, "engine")
    assert finished and hits > 0 and nodes == 4486  # every position once; the rest are hits


def reference_cuts(
    me: int, them: int, path: tuple[int, ...], alpha: int, beta: int, found: list[tuple[int, ...]]
) -> int:
    """A plain recursive alpha-beta that notes where it cuts: the reference for the steps."""
    occupied, empties = me | them, 9 - (me | them).bit_count()
    best = -100
    moves = [cell for cell in range(9) if not occupied >> cell & 1]
    for cell in moves:
        mine = me | 1 << cell
        if STANDARD.completes_line(mine, cell):
            score = empties
        elif empties == 1:
            score = 0
        else:
            score = -reference_cuts(them, mine, (*path, cell), -beta, -max(alpha, best), found)
        best = max(best, score)
        if best >= beta:
            if cell != moves[-1]:  # the last move searched leaves nothing to cut
                found.append(path)
            break
    return best


def test_alpha_beta_cuts_where_the_reference_does_and_says_alpha_at_least_beta() -> None:
    for me, them in positions(2):
        expected: list[tuple[int, ...]] = []
        reference_cuts(me, them, (), -1000, 1000, expected)
        cuts = [step for step in steps(me, them, STANDARD, "alphabeta") if step.kind == "cut"]
        assert [step.path for step in cuts] == expected
        for step in cuts:
            assert step.alpha is not None and step.beta is not None
            assert step.alpha >= step.beta  # the condition, in the root's view at every depth
            assert step.pruned  # a cut that leaves nothing unsearched is no cut


def test_a_hit_links_to_where_the_position_was_first_solved() -> None:
    walk = list(steps(0, 0, STANDARD, "engine"))
    solved = {step.path: step for step in walk if step.kind == "back"}
    hits = [step for step in walk if step.kind == "hit"]
    assert len(hits) == walk[-1].hits
    for hit in hits[:500]:
        assert hit.first is not None and hit.first in solved and hit.first != hit.path
        x_first, x_hit = hit.first[0::2], hit.path[0::2]
        assert set(x_first) == set(x_hit) and set(hit.first[1::2]) == set(hit.path[1::2])
        assert solved[hit.first].value == hit.value


@settings(deadline=None, max_examples=60)
@given(
    st.sampled_from(SMALL), st.sampled_from(METHODS), st.integers(0, 5_000), st.integers(0, 5_000)
)
def test_stepping_forward_then_back_gives_the_same_step(
    position: tuple[int, int], method: str, forward: int, back: int
) -> None:
    me, them = position
    walk = list(steps(me, them, STANDARD, method))  # type: ignore[arg-type]
    there = min(forward, len(walk) - 1)
    here = max(0, there - back)
    assert replay_to(me, them, STANDARD, method, there) == walk[there]  # type: ignore[arg-type]
    assert replay_to(me, them, STANDARD, method, here) == walk[here]  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        replay_to(me, them, STANDARD, method, len(walk))  # type: ignore[arg-type]


def test_the_steps_make_a_tree_walked_in_order() -> None:
    """Every enter is answered by its back, children inside their parent: a path the explorer
    can draw as it goes."""
    for method in METHODS:
        open_paths: list[tuple[int, ...]] = []
        for step in steps(1 << 4, 1, STANDARD, method):
            if step.kind == "enter":
                assert step.path[:-1] == (open_paths[-1] if open_paths else ())
                open_paths.append(step.path)
            elif step.kind == "back":
                assert open_paths.pop() == step.path
            else:
                assert open_paths and step.path[: len(open_paths[-1])] == open_paths[-1]
        assert open_paths == []


def test_a_budget_stops_a_count_on_a_tree_too_big_to_show() -> None:
    four: Geometry = geometry(4, 4)
    nodes, _, finished = count(0, 0, four, "minimax", budget=10_000)
    assert not finished and nodes == 10_001
    # X O X O / X O X O / O X O X / . . . .: X to move, four cells left
    x = sum(1 << cell for cell in (0, 2, 4, 6, 9, 11))
    o = sum(1 << cell for cell in (1, 3, 5, 7, 8, 10))
    assert count(x, o, four, "alphabeta", budget=10_000)[2]


def test_alpha_beta_windows_in_the_roots_view_narrow_as_the_search_goes_down() -> None:
    """Minimax's window: a child's (alpha, beta) lies inside its parent's, at every depth
    (negamax's own windows flip at each level: the steps turn them back)."""
    for me, them in positions(3):
        windows: dict[tuple[int, ...], tuple[int, int]] = {}
        for step in steps(me, them, STANDARD, "alphabeta"):
            if step.kind != "enter":
                continue
            assert step.alpha is not None and step.beta is not None
            assert step.alpha < step.beta
            if step.path:
                low, high = windows[step.path[:-1]]
                assert low <= step.alpha and step.beta <= high, step
            windows[step.path] = (step.alpha, step.beta)
