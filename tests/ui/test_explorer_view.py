"""What the search explorer shows (`ui/explorer_view.py`), without Textual: the tree so far
follows the steps, stepping back (an undo, or a replay past the cache) returns to the same
state, the counts equal the searches', and the words say who maximises and the depth rule."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.geometry import STANDARD, geometry
from tui_tictactoe.engine.search_steps import METHODS, Method, count, steps
from tui_tictactoe.ui.explorer_view import (
    CUT,
    Node,
    Path,
    Position,
    Walk,
    jumped,
    measure,
    node_label,
    panel_lines,
    plain,
    step_line,
    why_line,
)

NAMES = {"X": "you", "O": "the AI"}


def position(board: str, mover: str = "X", maximiser: str = "X") -> Position:
    found = Position.of_board(GameBoard.from_string(board), mover, maximiser, NAMES)
    assert found is not None
    return found


TWO_MARKS = position("X...O....")
THREE_MARKS = position("X...O...X", mover="O")


def state(walk: Walk) -> tuple[int, object, dict[Path, Node]]:
    """Everything a walk shows: where it is, its step, its tree so far (copied)."""
    nodes = {
        path: Node(**{name: getattr(node, name) for name in Node.__slots__})
        for path, node in walk.nodes_so_far.items()
    }
    for node in nodes.values():
        node.children = list(node.children)
    return walk.index, walk.current, nodes


def test_opening_costs_one_step_and_the_tree_holds_only_the_root() -> None:
    walk = Walk(TWO_MARKS, "minimax")
    assert (walk.index, walk.nodes, list(walk.nodes_so_far)) == (0, 1, [()])
    assert plain(node_label(walk, ())) == "you (X) to move  max  …"


def test_the_tree_so_far_holds_each_node_reached_once_in_search_order() -> None:
    for method in METHODS:
        walk = Walk(THREE_MARKS, method)
        listed = list(steps(THREE_MARKS.me, THREE_MARKS.them, STANDARD, method))
        while walk.forward() is not None:
            pass
        assert walk.current == listed[-1] and walk.done and walk.at_end
        reached = [s.path for s in listed if s.kind in ("enter", "leaf", "hit")]
        cuts = [(*s.path, CUT) for s in listed if s.kind == "cut"]
        assert sorted(walk.nodes_so_far) == sorted(reached + cuts)
        for path, node in walk.nodes_so_far.items():
            assert [(*path, cell) for cell in node.children] == walk.children(path)
            assert node.kind in ("done", "leaf", "hit", "cut"), (method, path)


def test_the_counts_equal_the_searches_counts_at_the_end() -> None:
    for method in METHODS:
        walk = Walk(TWO_MARKS, method)
        assert walk.end() is not None and walk.end() is None
        nodes, hits, finished = count(TWO_MARKS.me, TWO_MARKS.them, STANDARD, method)
        assert finished and (walk.nodes, walk.hits) == (nodes, hits)
        assert measure(TWO_MARKS, method) == (nodes, hits, True)
        assert why_line(walk).startswith(f"Done in {nodes:,} nodes: best line ")


@settings(deadline=None, max_examples=15)
@given(
    st.sampled_from(METHODS),
    st.integers(0, 1_200),
    st.integers(0, 1_200),
    st.sampled_from([3, 50, 2_000]),
)
def test_stepping_forward_then_back_returns_to_the_same_state(
    method: Method, forward: int, back: int, cache: int
) -> None:
    """Back is an undo within the cache and a replay beyond it: either way the same state
    as walking there from the start, and forward again gives the steps it gave before."""
    walk = Walk(TWO_MARKS, method, cache=cache)
    for _ in range(forward):
        walk.forward()
    there = state(walk)
    for _ in range(back):
        walk.back()
    expected = Walk(TWO_MARKS, method)
    expected.go(walk.index)
    assert state(walk) == state(expected)
    while walk.index < there[0]:
        assert walk.forward() is not None
    assert state(walk) == there


def test_a_changes_list_keeps_a_mirror_of_the_tree_in_step() -> None:
    """What the screen does with each change (add, remove, relabel) keeps its copy equal to
    the walk's tree, forward and back."""
    walk = Walk(THREE_MARKS, "alphabeta", cache=5)
    mirror: set[Path] = {()}
    for direction in [1] * 60 + [-1] * 30 + [1] * 10 + [-1] * 40:
        change = walk.forward() if direction > 0 else walk.back()
        if change is None:
            continue
        if change.rebuild:
            mirror = set(walk.nodes_so_far)
            continue
        mirror -= set(change.removed)
        mirror |= set(change.added)
        assert change.updated <= walk.nodes_so_far.keys()
        assert mirror == set(walk.nodes_so_far)


def test_home_and_end_and_the_ends_change_nothing() -> None:
    walk = Walk(TWO_MARKS, "engine")
    assert walk.back() is None and walk.home() is None
    walk.forward()
    assert walk.home() is not None and walk.index == 0
    walk.end()
    assert walk.forward() is None and walk.done


def test_scores_in_the_maximisers_view_with_the_depth_rule() -> None:
    # X . X / . O O / . . .: X (the player, the maximiser) wins at 2 at once
    near = position("X.X.OO...")
    assert near.score_words(5, 0) == "+5 you win in 1"
    assert near.score_words(5, 1) == "+5 you won"
    assert near.score_words(-4, 1) == "-4 the AI wins in 1"
    assert near.score_words(3, 0) == "+3 you win in 3"  # later: a smaller score
    # the AI to move: its root view is turned to the player's
    turned = position("X.X.OO..X", mover="O")
    assert turned.score_words(4, 0) == "-4 the AI wins in 1"
    assert turned.window(-1, 2) == (-2, 1)
    people = Position.of_board(GameBoard(), "X", "X", {"X": "X", "O": "O"})
    assert people is not None and people.roles() == "X maximises, O minimises"
    assert TWO_MARKS.roles() == "You (X) maximise, the AI (O) minimises"
    assert Position.of_board(GameBoard.from_string("XXXOO...."), "O", "X", NAMES) is None


def test_a_cut_shows_its_condition_in_numbers_and_the_cells_it_left() -> None:
    walk = Walk(THREE_MARKS, "alphabeta")
    while walk.current.kind != "cut":
        assert walk.forward() is not None
    step = walk.current
    label = plain(node_label(walk, (*step.path, CUT)))
    assert label.startswith("✂ ") and "cut: alpha " in label and " >= beta " in label
    assert label.split(" · ")[0].split()[1:] == [str(cell + 1) for cell in step.pruned]
    assert step_line(walk).startswith(f"Step {walk.index + 1}: cut at ")
    assert panel_lines(walk)[0].split() == ["path", "α", "β", "best"]  # noqa: RUF001


def test_a_hit_links_to_where_it_was_first_solved() -> None:
    walk = Walk(TWO_MARKS, "engine")
    while walk.current.kind != "hit":
        assert walk.forward() is not None
    step = walk.current
    assert step.first is not None and walk.node(step.first).kind == "done"
    cells = ", ".join(str(cell + 1) for cell in step.first)
    assert f"= as after {cells}" in plain(node_label(walk, step.path))


def test_the_principal_variation_and_the_chosen_children_once_known() -> None:
    walk = Walk(TWO_MARKS, "minimax")
    walk.end()
    line = walk.principal_variation()
    assert line[0] == () and len(line) > 1
    for path in line:
        assert plain(node_label(walk, path)).startswith("★ ")
    chosen = [p for p in walk.nodes_so_far if walk.is_chosen(p) and p not in line]
    assert chosen and all(plain(node_label(walk, p)).startswith("✓ ") for p in chosen)


def test_the_live_window_narrows_going_down_the_path() -> None:
    walk = Walk(TWO_MARKS, "alphabeta")
    for _ in range(200):
        walk.forward()
        if walk.current.kind != "enter":
            continue  # a finished node keeps the window it was searched with
        levels = walk.levels()
        for upper, lower in pairwise(levels):
            assert upper.alpha is not None and lower.alpha is not None
            assert upper.beta is not None and lower.beta is not None
            assert upper.alpha <= lower.alpha and lower.beta <= upper.beta


def test_a_tree_too_big_shows_the_first_level_and_stops_at_the_budget() -> None:
    four = Position.of_board(GameBoard(geometry(4, 4)), "X", "X", NAMES)
    assert four is not None
    size = measure(four, "minimax", budget=2_000)
    assert size is not None and not size.finished
    walk = Walk(four, "minimax", budget=2_000)
    assert walk.set_size(size).rebuild
    assert [plain(node_label(walk, (cell,))) for cell in (0, 15)] == [
        "1 X  d1 min  not searched yet",
        "16 X  d1 min  not searched yet",
    ]
    assert why_line(walk).startswith("Too big to show whole: plain minimax passes 2,000")
    walk.end()
    assert walk.nodes <= 2_000 and walk.at_budget and walk.forward() is None
    while walk.back() is not None:
        pass
    assert len(walk.nodes_so_far) == 17  # the root and its first level, all pending again
    stopped = measure(four, "minimax", budget=10**9, stop=lambda: True)
    assert stopped is None


def test_a_jump_in_a_thread_is_the_walk_stepped_there_and_stops_when_told() -> None:
    """`jumped` (End, Left past the cache, in the screen's thread) lands where stepping
    does, on a walk of its own; told to stop, it stops within 1,024 steps."""
    for method in METHODS:
        stepped = Walk(TWO_MARKS, method)
        stepped.go(150)
        assert state(jumped(TWO_MARKS, method, None, 150)) == state(stepped)
        stepped.end()
        assert state(jumped(TWO_MARKS, method, None, None)) == state(stepped)
    one_mark = position("....X....", mover="O")
    size = measure(one_mark, "minimax")
    assert size is not None and not size.finished
    held = Walk(one_mark, "minimax")
    held.set_size(size)
    held.end()
    assert state(jumped(one_mark, "minimax", size, None)) == state(held)
    assert jumped(one_mark, "minimax", size, None, stop=lambda: True).index == 1024
    assert jumped(one_mark, "minimax", size, 5_000, stop=lambda: True).index == 1024


def test_the_end_line_sets_the_score_apart_from_the_line_with_a_colon() -> None:
    """ "…best line 1, 9, 8, 2, 3, 4, 6: 0 draw", not "…6, 0 draw" (a cell 0?)."""
    walk = Walk(position("X........", mover="O"), "alphabeta")
    walk.end()
    assert (
        why_line(walk) == f"Done in {walk.nodes:,} nodes: best line 5, 2, 3, 7, 4, 6, 8, 9: 0 draw"
    )
