"""A spectator's analysis overlay on 4x4 and 5x5: found cell by cell in a thread, as the
game's (`controller.teaching.AnalysisRun`), and kept only while it is about the position
on the board. First the protocol on `RoomGame` with hand-built views, then in Pilot with
a `MemoryHub` in the loop and the search held at a gate the test opens one cell at a time.
"""

from __future__ import annotations

import threading
from typing import Any

from room_tools import (
    ANN,
    BOB,
    EVE,
    game_of,
    make_hub,
    note,
    room_app,
    room_of,
    settle,
    state,
    title,
    view,
)
from textual.pilot import Pilot

from tui_tictactoe.controller.teaching import CellScores
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import Cell
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.search import shared_search
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.status import NO_EXPLORER_MID_ROUND
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen

SIZE = (80, 24)


class CountedSearch:
    """The real search, one cell per permit the test gives (`allow`); a cell waiting for
    its permit polls `cancelled` and counts each search that stopped early (`stopped`)."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        self.stopped = 0

    def allow(self, cells: int) -> None:
        for _ in range(cells):
            self.permits.release()

    def __call__(self, geometry: Geometry) -> CountedSearch.Scorer:
        return self.Scorer(self, geometry)

    class Scorer:
        def __init__(self, owner: CountedSearch, geometry: Geometry) -> None:
            self.owner, self.search = owner, shared_search(geometry)

        def move_score(self, me: int, them: int, cell: int, cancelled: Any = None) -> int:
            for _ in range(1000):  # 10 s at most: a search no one stops fails the test
                if self.owner.permits.acquire(timeout=0.01):
                    return self.search.move_score(me, them, cell, cancelled)
                if cancelled():
                    self.owner.stopped += 1
                    raise SearchCancelled
            raise TimeoutError("the search was never stopped")


def scores(game: RoomGame) -> list[CellScores]:
    """Every reply of the search the game hands out now (on the test's thread)."""
    request = game.analysis_request()
    assert request is not None
    return list(request.compute())


# -- the protocol -----------------------------------------------------------------


def test_a_spectator_gets_a_search_for_the_side_to_move_and_its_whole_overlay() -> None:
    game = game_of(None, view((6, 1, 11), size=4))
    request = game.analysis_request()
    assert request is not None and request.symbol == "O" and request.generation == game.position
    assert game.analysis_request() is None, "one search per position"
    replies = list(request.compute())
    assert len(replies) == 13
    assert all(game.apply(reply) for reply in replies)
    found = game.analysis_found
    assert found is not None and found.done and found.total == 13
    found_scores = dict(score for reply in replies for score in reply.scores)
    best = max(found_scores.values())
    for move in found.analysis.moves:
        score = found_scores[move.cell]
        assert move.verdict == Verdict.from_score(score, 13) and move.best == (score == best)


def test_players_and_rounds_over_get_no_search() -> None:
    assert game_of("X", view((6,), size=4)).analysis_request() is None
    assert game_of("O", view((6,), size=4)).analysis_request() is None
    assert (
        game_of(None, view((6,), size=4, result="abandoned", left_by="X")).analysis_request()
        is None
    )
    assert game_of(None, view((6,), size=4, closed=True)).analysis_request() is None


OPEN_5X5 = (6, 1, 11, 2, 16, 3)
"""Six stones on 5x5: past the stored scores and the book, so the overlay searches."""


def test_a_move_makes_the_search_stale_and_its_late_replies_are_dropped() -> None:
    game = game_of(None, view(OPEN_5X5, size=5, generation=5))
    request = game.analysis_request()
    assert request is not None and not request.cancelled()
    late = CellScores(request.generation, (((0, 0), 0),))
    game.take(view(OPEN_5X5, size=5, generation=6, watchers=3))  # no move: the search goes on
    assert not request.cancelled() and game.analysis_request() is None
    assert game.apply(late)
    game.take(view((*OPEN_5X5, 7), size=5, generation=7))  # a move: it stops, replies late
    assert request.cancelled()
    assert not game.apply(CellScores(request.generation, (((0, 1), 0),)))
    assert game.analysis_found is None
    fresh = game.analysis_request()
    assert fresh is not None and fresh.generation == game.position != request.generation
    assert fresh.symbol == "O" and not fresh.cancelled()


def test_off_stops_the_search_and_on_again_starts_over() -> None:
    game = game_of(None, view((6, 1, 11), size=4))
    request = game.analysis_request()
    assert request is not None
    game.stop_analysis()
    assert request.cancelled()
    assert not game.apply(CellScores(request.generation, (((0, 1), 0),)))
    assert game.analysis_found is None
    again = game.analysis_request()
    assert again is not None and not again.cancelled()


# -- on screen --------------------------------------------------------------------


async def until(pilot: Pilot[None], done: Any) -> None:
    """Pause until `done()` (bounded by steps, not by time)."""
    for _ in range(200):
        if done():
            return
        await pilot.pause(0.02)
    raise AssertionError("never happened")


def verdicts(screen: RoomScreen) -> dict[Cell, Any]:
    return {(cell.row, cell.col): cell.verdict for cell in screen.grid.cells if cell.verdict}


async def test_a_spectators_4x4_overlay_fills_in_restarts_on_a_move_and_stops_when_off() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 4, "X")
    bob = await hub.join(ann.code, BOB)
    await hub.move(ann, 6, hub.view(ann.code).generation)
    search = CountedSearch()
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = room_of(app)
        screen.game.analysis_search = search
        await pilot.press("a")
        await settle(pilot)
        assert title(app).endswith("· 1 watching · analysing 0/15…")
        assert screen.grid.has_class("-analysis") and not verdicts(screen)
        search.allow(3)
        await until(pilot, lambda: len(verdicts(screen)) == 3)
        assert title(app).endswith("· analysing 3/15…")
        assert state(app) == "ann played 6. bob to play.", "the progress is in the title"
        old = screen.game.position
        await hub.move(bob, 1, hub.view(ann.code).generation)  # mid-search: now stale
        await settle(pilot)
        await until(pilot, lambda: search.stopped == 1)  # the old search stopped early
        assert title(app).endswith("· analysing 0/14…") and not verdicts(screen)
        screen.post_message(RoomScreen.Replied(CellScores(old, (((3, 3), 9),))))  # a late reply
        await settle(pilot)
        assert not verdicts(screen), "a reply about the last position is dropped"
        search.allow(2)  # the new position's search, for ann (X)
        await until(pilot, lambda: len(verdicts(screen)) == 2)
        assert (0, 0) not in verdicts(screen) and (1, 1) not in verdicts(screen)
        await pilot.press("a")  # off: the search stops, the overlay and the count go
        await until(pilot, lambda: search.stopped == 2)
        assert not screen.grid.has_class("-analysis") and not verdicts(screen)
        assert "analys" not in title(app)
        await pilot.press("a")  # on again: starts over for this position
        await settle(pilot)
        assert title(app).endswith("· analysing 0/14…")
        await pilot.press("q")  # leaving stops it, and the app (the room was its screen) ends
        await until(pilot, lambda: search.stopped == 3)
    assert app.return_code == 0


async def test_the_whole_overlay_marks_the_best_cells_and_ends_with_the_round() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 4, "X")
    bob = await hub.join(ann.code, BOB)
    for ticket, cell in ((ann, 6), (bob, 1), (ann, 11), (bob, 16)):
        await hub.move(ticket, cell, hub.view(ann.code).generation)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = room_of(app)
        await pilot.press("a")  # the real search, to the end
        await until(pilot, lambda: title(app).endswith("· analysis done"))
        assert len(verdicts(screen)) == 12
        assert any(v.best for v in verdicts(screen).values())
        await hub.leave(bob)  # the round is abandoned: no overlay for a round over
        await settle(pilot)
        assert not verdicts(screen) and "analys" not in title(app)


async def test_ctrl_q_stops_a_5x5_search_so_the_app_ends() -> None:
    """Quitting waits for a thread: the overlay's must stop at once, not time out. Six
    stones: past the stored scores and the opening book, so each cell is searched."""
    hub = make_hub()
    ann = await hub.create(ANN, 5, "X")
    bob = await hub.join(ann.code, BOB)
    for ticket, cell in ((ann, 1), (bob, 8), (ann, 5), (bob, 12), (ann, 21), (bob, 19)):
        await hub.move(ticket, cell, hub.view(ann.code).generation)
    search = CountedSearch()
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        room_of(app).game.analysis_search = search
        await pilot.press("a")
        await settle(pilot)
        assert title(app).endswith("· analysing 0/19…")
        await pilot.press("ctrl+q")
    assert app.return_code == 0 and search.stopped == 1


async def test_a_spectators_5x5_opening_overlay_is_read_whole_without_a_search() -> None:
    """Two stones: every move's score is stored, so the overlay is done in one reply while
    the search is held shut (fails before: it waited for a permit for each of 23 cells)."""
    hub = make_hub()
    ann = await hub.create(ANN, 5, "X")
    bob = await hub.join(ann.code, BOB)
    for ticket, cell in ((ann, 7), (bob, 13)):
        await hub.move(ticket, cell, hub.view(ann.code).generation)
    search = CountedSearch()  # no permits: a search would never finish
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = room_of(app)
        screen.game.analysis_search = search
        await pilot.press("a")
        await until(pilot, lambda: title(app).endswith("· analysis done"))
        assert len(verdicts(screen)) == 23
        expected = analyse(screen.game.board, "X")
        assert {move.cell: move for move in expected.moves} == verdicts(screen)


# -- the search explorer (`t`) ------------------------------------------------------


def explorer_of(app: Any) -> ExplorerScreen:
    screen = app.screen
    assert isinstance(screen, ExplorerScreen), screen
    return screen


async def test_a_spectators_t_opens_the_explorer_on_the_position_watched() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    await hub.move(ann, 5, hub.view(ann.code).generation)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        position = explorer_of(app).position
        assert (position.mover, position.maximiser, position.empties) == ("O", "X", 8)
        assert position.them == 1 << 4, "X's mark in the centre, O to move"
        await pilot.press("escape")
        await settle(pilot)
        assert room_of(app).game.view is not None


async def test_a_players_t_is_refused_mid_round_and_opens_after_it() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ann = room_of(app).game.ticket  # the app's own place in the room
        for ticket, cell in ((ann, 1), (bob, 4), (ann, 2), (bob, 5)):
            await hub.move(ticket, cell, hub.view(ann.code).generation)
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert note(app) == NO_EXPLORER_MID_ROUND.text, "no engine's help in play"
        assert "\n" not in note(app)
        await hub.move(ann, 3, hub.view(ann.code).generation)  # ann wins the round
        await settle(pilot)
        assert not room_of(app).game.in_progress
        await pilot.press("t")
        await settle(pilot)
        position = explorer_of(app).position  # before the move that decided it
        assert (position.mover, position.empties) == ("X", 5)
        assert position.me == 0b11 and position.them == 0b11000
