"""Predict (`p`): the player marks each empty cell win, draw or loss by keys or clicks,
Enter grades the marks with the overlay's verdicts, the board shows the truth and the panel
the grade, and back in the game the overlay is on with the score; Escape before grading
changes nothing; refused where there is nothing of the player's to predict; every board
from 3x3 to 6x6 at its smallest terminal; the key bar's keys are the screen's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support import SIZE, ScriptedStrategy, board, make_app, note, press, settle
from textual.pilot import Pilot

from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.predictions import Mark, grade_position
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.predict_screen import (
    GRADED_KEYS,
    MARKING_KEYS,
    PredictScreen,
    graded_status,
)
from tui_tictactoe.ui.widgets import GameCell


def predict(app: TicTacToeApp) -> PredictScreen:
    screen = app.screen
    assert isinstance(screen, PredictScreen), type(screen).__name__
    return screen


def panel(screen: PredictScreen) -> str:
    return str(screen.panel.content)


def shown(screen: PredictScreen) -> dict[tuple[int, int], str]:
    """What each cell of the predict board shows inside (its mark's letter), where any."""
    return {(c.row, c.col): c.pair_letter for c in screen.grid.cells if c.pair_letter}


async def until(pilot: Pilot[None], done: Callable[[], bool]) -> None:
    """Pause until `done` (a click's press is a message or two later), or fail."""
    for _ in range(50):
        if done():
            return
        await pilot.pause()
    raise AssertionError(f"it never happened: {done.__doc__ or done}")


async def opened(pilot: Pilot[None], *keys: str) -> PredictScreen:
    await press(pilot, *keys, "p")
    return predict(pilot.app)  # type: ignore[arg-type]


async def test_keys_mark_cells_enter_grades_them_and_the_game_shows_the_overlay() -> None:
    # X plays 5, the AI 1: X to move with 7 empty cells.
    app = make_app(record=False, strategy=ScriptedStrategy((0, 0)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, "5")
        # The game's cursor is on 5, taken: it starts on the nearest empty cell.
        assert screen.cursor == (0, 1) and screen.key_bar.hints == MARKING_KEYS
        await pilot.press("right", "down", "w", "down", "d", "left", "l", "space", "space")
        await pilot.pause()
        # (1, 2) win; (2, 2) draw; (2, 1) loss, then Space twice: none, then win.
        marks: dict[tuple[int, int], Mark] = {(1, 2): "win", (2, 2): "draw", (2, 1): "win"}
        assert screen.marks == marks
        assert shown(screen) == {(1, 2): "W", (2, 2): "D", (2, 1): "W"}
        assert "Marked 3 of 7." in panel(screen)
        await pilot.press("enter")
        await pilot.pause()
        expected = grade_position(app.controller.board, marks)
        assert screen.found == expected
        assert screen.key_bar.hints == GRADED_KEYS
        assert panel(screen).startswith(f"{expected.score()[0].upper()}{expected.score()[1:]}.")
        # The truth on the board, as the overlay draws it; the marks ticked or crossed.
        verdicts = {(c.row, c.col): c.verdict for c in screen.grid.cells if c.verdict}
        truth = analyse(app.controller.board)
        assert {cell: move.verdict for cell, move in verdicts.items()} == {
            move.cell: move.verdict for move in truth.moves
        }
        for one in expected.cells:
            assert shown(screen)[one.cell].endswith("✓" if one.right else "✗")
        for one in expected.wrong:
            if one.marked is not None:
                assert one.explain(5) in panel(screen).replace("- Cell", "- cell")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.game.show_analysis
        assert note(app) == graded_status(expected).text
        assert any(cell.verdict for cell in app.game.grid.cells)  # the overlay shows


async def test_escape_before_grading_leaves_the_game_unchanged() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        before = (board(app), app.game.show_analysis, note(app), app.game.cursor)
        screen = await opened(pilot)
        await pilot.press("w", "right", "d")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and screen.found is None
        assert (board(app), app.game.show_analysis, note(app), app.game.cursor) == before
        assert not any(cell.verdict for cell in app.game.grid.cells)


async def test_a_click_cycles_a_cells_mark_and_a_taken_cell_takes_none() -> None:
    app = make_app(record=False, strategy=ScriptedStrategy((0, 0)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, "5")
        await pilot.pause()
        target = screen.grid.cell(2, 2)
        assert isinstance(target, GameCell)
        for expected in ("win", "draw", "loss", None, "win"):
            assert await pilot.click(target)
            await until(pilot, lambda: screen.marks.get((2, 2)) == expected)  # noqa: B023
            assert screen.cursor == (2, 2)
        assert await pilot.click(screen.grid.cell(0, 0))  # the AI's O
        await until(pilot, lambda: "Cell 1 is taken" in panel(screen))
        assert screen.marks == {(2, 2): "win"}
        await pilot.press("w")  # the cursor is on the taken cell: nothing
        await pilot.pause()
        assert screen.marks == {(2, 2): "win"}
        await pilot.press("enter")
        await pilot.pause()
        assert screen.found is not None
        assert await pilot.click(screen.grid.cell(1, 2))  # graded: the cursor explains it
        await until(pilot, lambda: screen.cursor == (1, 2))
        assert screen.marks == {(2, 2): "win"} and "\n\nCell 6 is a draw" in panel(screen)
        assert "taken" not in panel(screen)
        await pilot.press("w")
        await pilot.pause()
        assert "the marks are final" in panel(screen)


async def test_the_same_key_twice_takes_a_mark_off() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, "1")
        start = screen.cursor
        assert start in app.controller.board.legal_moves()
        await pilot.press("l")
        await pilot.pause()
        assert screen.marks == {start: "loss"}
        await pilot.press("l")
        await pilot.pause()
        assert screen.marks == {}


async def test_the_key_bars_keys_are_the_screens_and_a_click_on_one_presses_it() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, "5")
        bound = {key for binding in screen.BINDINGS for key in binding.key.split(",")}  # type: ignore[union-attr]
        for hints in (MARKING_KEYS, GRADED_KEYS):
            for hint in hints:
                assert hint.press is None or hint.press in bound, hint
        lines = screen.key_bar.lines(SIZE[0])
        assert "w Win" in lines[0] and "Enter Grade" in " ".join(lines)
        screen.cursor = (0, 0)
        # Click "w Win" in the bar: the cell under the cursor is marked a win.
        x = lines[0].index("w Win")
        assert await pilot.click(screen.key_bar, offset=(x + 1, 0))
        await pilot.pause()
        assert screen.marks == {(0, 0): "win"}


@pytest.mark.parametrize(
    ("options", "keys", "said"),
    [
        ({"opponent": "human"}, ("5",), "No predictions in a game between people."),
        ({"strategy": ScriptedStrategy((0, 0), (0, 1))}, ("5", "3", "7"), "round is over"),
    ],
    ids=["people", "over"],
)
async def test_p_says_why_when_there_is_nothing_to_predict(
    options: dict[str, object], keys: tuple[str, ...], said: str
) -> None:
    app = make_app(record=False, **options)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *keys, "p")
        assert isinstance(app.screen, GameScreen)
        assert said in note(app)


@pytest.mark.parametrize("size", ["3", "4", "5", "6"])
async def test_every_board_at_its_smallest_terminal(size: str) -> None:
    """3x3 to 6x6 at the least terminal the game shows them in (60x18; 6x6 60x19): the
    board and the panel show, the grade agrees with `analyse`, and on 6x6 the cells no
    verdict is proven for are left ungraded."""
    app = make_app(record=False, board=size)
    need = GameScreen.needs(int(size))
    async with app.run_test(size=(need.width, need.height)) as pilot:
        screen = await opened(pilot, "enter")
        await pilot.press("w", "up", "d")
        await settle(pilot)  # the verdicts, in a thread on the big boards
        await pilot.press("enter")
        await settle(pilot)
        found = screen.found
        assert found is not None, panel(screen)
        truth = analyse(app.controller.board)
        assert {one.cell: one.truth for one in found.cells} == {
            move.cell: move.verdict for move in truth.moves
        }
        unknown = sum(move.verdict.outcome == "unknown" for move in truth.moves)
        assert found.ungraded == unknown
        assert all(cell.region.height >= 2 for cell in screen.grid.cells)
        assert screen.panel.region.width >= 20 and panel(screen)
        await pilot.press("enter")
        await settle(pilot)
        assert app.game.show_analysis


async def test_enter_waits_for_the_big_boards_verdicts() -> None:
    """4x4: Enter before the search is done says it is checking, and grades when done."""
    app = make_app(record=False, board="4")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, "enter")
        screen.truth = None  # as if the search had not answered yet
        await pilot.press("w", "enter")
        await pilot.pause()
        assert screen.waiting and screen.found is None
        assert "Checking your marks" in panel(screen)
        screen._find()
        await settle(pilot)
        assert screen.found is not None and not screen.waiting
