"""Hints and the big-board analysis as the controller's requests and replies, without a UI.

Like the AI's move (`AIRequest`/`AIReply`, tests in test_controller.py): a request
carries its own board and generation, `compute()` runs on another thread, and
`GameController.apply` takes a reply only while its position is the current one.
A new move, a new round or a take-back between request and reply drops it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from support import ScriptedStrategy

from tui_tictactoe.controller import CellScores, GameController, GameOptions, HintReply
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.search import Search, shared_search
from tui_tictactoe.engine.strategies import MinimaxStrategy

T = TypeVar("T")

# 4x4, X (the human) first, four in a row wins. After these moves no line is made:
#   X O X O
#   X O X O
#   O X O X
#   . . . .   four empty cells: the exact search is instant.
HUMAN = [(0, 0), (0, 2), (1, 0), (1, 2), (2, 1), (2, 3)]
AI = ((0, 1), (0, 3), (1, 1), (1, 3), (2, 0), (2, 2))


def four_by_four() -> GameController:
    """The position above, the human to move."""
    controller = GameController(
        GameOptions(board="4"), strategy=ScriptedStrategy(*AI), rng=random.Random(5)
    )
    for cell in HUMAN:
        controller.play_human_move(*cell)  # MoveRefused if refused
        request = controller.ai_request()
        assert request is not None
        assert controller.apply(request.compute())
    assert controller.is_human_turn and len(controller.board.get_empty_cells()) == 4
    return controller


def past_the_book() -> GameController:
    """5x5 with six stones, the human (X) to move: nothing stored, nothing in the opening
    book (it stops at four stones), so a hint or the analysis must search."""
    ai = ScriptedStrategy((1, 2), (2, 1), (3, 3))
    controller = GameController(GameOptions(board="5"), strategy=ai, rng=random.Random(1))
    for cell in ((0, 0), (0, 4), (4, 0)):
        controller.play_human_move(*cell)  # MoveRefused if refused
        request = controller.ai_request()
        assert request is not None and controller.apply(request.compute())
    assert controller.is_human_turn
    return controller


def in_a_thread(work: Callable[[], T]) -> T:
    """Run `work` on another thread, as the game screen's worker does."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result(timeout=60)


def new_move(controller: GameController) -> None:
    controller.play_human_move(3, 0)  # MoveRefused if refused


def new_round(controller: GameController) -> None:
    controller.new_round()


def take_back(controller: GameController) -> None:
    assert controller.take_back().undone


CHANGES = [new_move, new_round, take_back]


def state(controller: GameController) -> tuple[object, ...]:
    return (
        controller.board.to_string(),
        controller.generation,
        controller.teacher.hinted,
        controller.teacher.analysis_found,
        controller.score,
    )


# -- hints ---------------------------------------------------------------------------


def test_a_big_board_hint_is_computed_on_another_thread_and_is_a_best_move() -> None:
    controller = four_by_four()
    request = controller.teacher.hint_request()
    assert request is not None and not request.instant
    assert request.board == controller.board and request.board is not controller.board
    reply = in_a_thread(request.compute)
    assert reply == HintReply(controller.generation, reply.cell)
    assert controller.apply(reply)
    assert controller.teacher.hinted == reply.cell
    assert reply.cell in analyse(controller.board).best


@pytest.mark.parametrize("change", CHANGES)
def test_a_hint_that_arrives_after_the_position_changed_is_dropped(
    change: Callable[[GameController], None],
) -> None:
    controller = four_by_four()
    request = controller.teacher.hint_request()
    assert request is not None
    reply = in_a_thread(request.compute)
    assert reply.cell is not None and not reply.cancelled
    change(controller)
    before = state(controller)
    assert not controller.apply(reply)
    assert state(controller) == before and controller.teacher.hinted is None


@pytest.mark.parametrize("change", CHANGES)
def test_a_hint_given_is_forgotten_once_the_position_changes(
    change: Callable[[GameController], None],
) -> None:
    controller = four_by_four()
    request = controller.teacher.hint_request()
    assert request is not None and controller.apply(request.compute())
    assert controller.teacher.hinted is not None
    change(controller)
    assert controller.teacher.hinted is None


def test_a_hint_search_stops_once_the_position_moved_on() -> None:
    # The real perfect search on an open 5x5 board, cold and without the opening book:
    # seconds of work, unless it is told to stop.
    controller = past_the_book()
    controller.teacher.hint_strategy = lambda rng: MinimaxStrategy(
        rng=rng, search=Search(geometry(5, 4)), book={}
    )
    request = controller.teacher.hint_request()
    assert request is not None and request.cancelled is not None
    assert not request.cancelled()
    controller.new_round()
    assert request.cancelled()
    reply = in_a_thread(request.compute)
    assert reply.cancelled and reply.cell is None
    assert not controller.apply(reply)


def test_a_new_hint_search_stops_the_one_before() -> None:
    """`h` pressed again and again on an open 5x5 board runs one search, not one each."""
    controller = past_the_book()
    first, second = controller.teacher.hint_request(), controller.teacher.hint_request()
    assert first is not None and first.cancelled is not None and first.cancelled()
    assert second is not None and second.cancelled is not None and not second.cancelled()
    controller.play_human_move(2, 2)
    assert second.cancelled()


def test_a_hint_in_the_5x5_opening_is_read_not_searched() -> None:
    """With at most two stones every move's score is stored: the hint needs no thread and
    no search, and it is one of the best moves (fails before: a search in a thread)."""
    controller = GameController(
        GameOptions(board="5"), strategy=ScriptedStrategy((0, 0)), rng=random.Random(1)
    )
    controller.play_human_move(
        2, 3
    )  # MoveRefused if refused  # X off centre; the AI's O in a corner
    request = controller.ai_request()
    assert request is not None and controller.apply(request.compute())
    search = shared_search(controller.board.geometry)
    nodes = search.nodes
    hint = controller.teacher.hint_request()
    assert hint is not None and hint.instant
    reply = hint.compute()
    assert reply.cell in analyse(controller.board).best and search.nodes == nodes
    assert controller.apply(reply) and controller.teacher.hinted == reply.cell


def test_a_3x3_hint_is_answered_at_once_from_the_seeded_rng_as_before() -> None:
    request = GameController(rng=random.Random(9)).teacher.hint_request()
    assert request is not None and request.instant
    assert request.compute().cell == GameController(rng=random.Random(9)).teacher.hint()


def test_no_hint_request_off_the_humans_turn() -> None:
    assert (
        GameController(
            GameOptions(first="ai", board="4"), rng=random.Random(0)
        ).teacher.hint_request()
        is None
    )


# -- the big board's analysis --------------------------------------------------------


def test_the_analysis_fills_in_cell_by_cell_and_ends_exact() -> None:
    controller = four_by_four()
    request = controller.teacher.analysis_request()
    assert request is not None
    assert controller.teacher.analysis_request() is None  # one search per position
    replies = in_a_thread(lambda: list(request.compute()))
    # Nothing is known of a 4x4 position before a search: one reply per cell, in order.
    assert [reply.scores[0][0] for reply in replies] == controller.board.legal_moves()
    assert all(len(reply.scores) == 1 for reply in replies)
    assert controller.apply(replies[0])
    found = controller.teacher.analysis_found
    assert found is not None and (found.found, found.total) == (1, 4) and not found.done
    assert not found.analysis.best  # the best cells are known once every cell is
    for reply in replies[1:]:
        assert controller.apply(reply)
    found = controller.teacher.analysis_found
    assert found is not None and found.done
    exact = analyse(controller.board)
    assert sorted(found.analysis.moves) == sorted(exact.moves)
    assert controller.teacher.analysis_request() is None  # done: nothing more to search


@pytest.mark.parametrize("change", CHANGES)
def test_analysis_cells_that_arrive_after_the_position_changed_are_dropped(
    change: Callable[[GameController], None],
) -> None:
    controller = four_by_four()
    request = controller.teacher.analysis_request()
    assert request is not None
    replies = in_a_thread(lambda: list(request.compute()))
    assert controller.apply(replies[0])
    change(controller)
    assert request.cancelled()  # a search still running would stop
    before = state(controller)
    assert not any(controller.apply(reply) for reply in replies[1:])
    assert state(controller) == before and controller.teacher.analysis_found is None


def test_an_analysis_switched_off_stops_and_starts_over_when_shown_again() -> None:
    controller = four_by_four()
    request = controller.teacher.analysis_request()
    assert request is not None
    replies = in_a_thread(lambda: list(request.compute()))
    controller.teacher.stop_analysis()
    assert request.cancelled()
    assert not controller.apply(replies[0]) and controller.teacher.analysis_found is None
    again = controller.teacher.analysis_request()  # shown again: a new search, from nothing
    assert again is not None and not again.cancelled()
    found = controller.teacher.analysis_found
    assert found is not None and found.found == 0
    assert controller.apply(next(again.compute()))


def test_an_analysis_search_stops_once_the_position_moved_on() -> None:
    controller = past_the_book()
    controller.teacher.analysis_search = lambda g: Search(g)  # cold: a search for each cell
    request = controller.teacher.analysis_request()
    assert request is not None
    controller.play_human_move(2, 2)
    assert in_a_thread(lambda: list(request.compute())) == []


def test_the_5x5_opening_overlay_is_whole_at_once_without_a_thread_or_a_search() -> None:
    """Every move's score is stored up to two stones: the overlay is whole as it is asked
    for, with no request for a thread and nothing searched, and equals `analyse` (fails
    before: a request searching 25 cells, seconds each)."""
    controller = GameController(GameOptions(board="5"), rng=random.Random(1))
    search = shared_search(controller.board.geometry)
    nodes = search.nodes
    assert controller.teacher.analysis_request() is None
    found = controller.teacher.analysis_found
    assert found is not None and found.done and found.total == 25
    assert found.analysis == analyse(controller.board) and search.nodes == nodes
    assert controller.teacher.analysis_request() is None  # done: nothing more to search


def test_no_analysis_request_on_3x3_or_off_the_humans_turn() -> None:
    assert GameController(rng=random.Random(0)).teacher.analysis_request() is None  # instant there
    assert (
        GameController(
            GameOptions(first="ai", board="4"), rng=random.Random(0)
        ).teacher.analysis_request()
        is None
    )


def test_a_reply_for_another_generation_is_dropped_whatever_the_job() -> None:
    controller = four_by_four()
    stale = controller.generation - 1
    before = state(controller)
    assert not controller.apply(HintReply(stale, (3, 0)))
    assert not controller.apply(CellScores(stale, (((3, 0), 1),)))
    assert state(controller) == before
