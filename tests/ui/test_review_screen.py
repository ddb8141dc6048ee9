"""The review screen (`v`): after a round on the game screen, and in a replay; what it lists
is `engine.review`'s, judged in a thread worker that stops when the screen closes."""

from __future__ import annotations

from datetime import UTC, datetime

from support import SIZE, make_app, note, press, settle
from textual.widgets import Static

from tui_tictactoe.engine.review import review_moves
from tui_tictactoe.identity import current_identity
from tui_tictactoe.options import board_geometry
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.review_screen import REVIEW_LATER, ReviewScreen, move_lines


def bar(app: object) -> str:
    return " ".join(app.game.key_bar.lines(200))  # type: ignore[attr-defined]


def listed(screen: ReviewScreen) -> list[str]:
    return [str(static.content) for static in screen.list.query(Static)]


async def test_v_reviews_a_finished_round_in_the_hints_place() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "h Hint" in bar(app) and "v Review" not in bar(app)
        await press(pilot, "1", "v")
        assert isinstance(app.screen, GameScreen)  # mid-round: it says when instead
        assert note(app) == REVIEW_LATER
        await press(pilot, *"234567")
        assert app.controller.game_over
        assert "v Review" in bar(app) and "h Hint" not in bar(app)
        await press(pilot, "v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await settle(pilot)
        geometry = app.controller.board.geometry
        keys = [geometry.key(*cell) for cell in app.controller.board.moves]
        review = review_moves(geometry, app.controller.opener, keys)
        assert screen.found == list(review.moves) and screen.done
        expected = []
        for move in review.moves:
            head, detail = move_lines(move, geometry)
            expected += [head, detail] if detail else [head]
        assert listed(screen) == expected
        assert review.blunders  # the seeded game has one: shown in the error look
        blunder = screen.list.query(".-blunder").results(Static)
        assert [str(s.content) for s in blunder] == [
            move_lines(m, geometry)[0] for m in review.blunders
        ]
        assert str(screen.heading.content).endswith(f"{len(review.blunders)} blunder.")
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        await press(pilot, "r")  # a new round: the hint is back in the bar
        assert "h Hint" in bar(app) and "v Review" not in bar(app)


def keep(moves: tuple[int, ...], board_size: int) -> None:
    player = current_identity().player
    with Record.open() as record:
        assert record.save_round(
            player,
            FinishedRound(
                difficulty="hard",
                symbol="O",
                first="ai",
                moves=moves,
                result="abandoned",
                board_size=board_size,
                played_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC),
            ),
        )


async def test_v_in_a_replay_reviews_the_kept_round() -> None:
    keep((1, 2, 3, 4, 5, 6, 7), 3)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter", "right", "v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await settle(pilot)
        review = review_moves(board_geometry(3), "X", [1, 2, 3, 4, 5, 6, 7])
        assert screen.found == list(review.moves)
        assert "Move 2 (cell 2) turned a draw into a loss in 6; cell 5 held the draw." in (
            "\n".join(listed(screen))
        )
        await press(pilot, "v")  # v closes it too, back on the replay where it was
        assert type(app.screen).__name__ == "ReplayScreen"
        assert app.screen.replay.at == 1  # type: ignore[attr-defined]


async def test_6x6_says_what_is_not_proven_and_calls_no_blunder() -> None:
    keep((15, 16, 22, 21), 6)
    app = make_app()
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter", "v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await settle(pilot)
        assert screen.done and len(screen.found) == 4
        assert not screen.list.query(".-blunder")
        assert any(line.endswith("not proven") for line in listed(screen))
        assert "not proven" in str(screen.heading.content)


async def test_closing_stops_a_long_search() -> None:
    """A 5x5 position past the stored scores is seconds of search (O's 13 after 1 2 25: ~15
    s here): Escape while it runs stops the worker's search (it polls the worker's cancel)."""
    geometry = board_geometry(5)
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = ReviewScreen(geometry, "X", [1, 2, 25, 13])
        await app.push_screen(screen)
        while len(screen.found) < 3:  # the first three are stored: the fourth is searched
            await pilot.pause(0.05)
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        await app.workers.wait_for_complete()
        assert screen.stopped and not screen.done
        assert len(screen.found) == 3
