"""Issue 21, items 1-3, in the app: the status line always holds the state of play, notes
never erase it, and a cell is called on screen by the number every message gives it.

The wording itself is tested without a UI in test_status.py; in a real terminal at
80x24 and 60x18 in test_pty_status.py.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from support import SIZE, GatedSearch, make_app, note, press, settle, status
from textual.geometry import Region
from textual.pilot import Pilot

from tui_tictactoe.engine.search import shared_search
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.screens.replay_screen import LAST_MOVE, ReplayScreen
from tui_tictactoe.ui.widgets import GameCell, GameGrid

WIN = "You win with X! Press r for a new round."


def ai_move_said(app: TicTacToeApp) -> str:
    """The state after the AI's move, naming the cell by its number."""
    move = app.controller.last_ai_move
    assert move is not None
    return f"AI played {app.controller.board.geometry.key(*move)}. Your turn: you play X."


def drawn(cell: GameCell) -> str:
    """The letters and digits the cell draws above its bottom border (which holds only
    a verdict), as a terminal would show them: a number drawn whole reads as itself."""
    lines = cell.render_lines(Region(0, 0, *cell.outer_size))
    return "".join(char for strip in lines[:-1] for char in strip.text if char.isalnum())


async def until_analysed(app: TicTacToeApp, pilot: Pilot[None]) -> None:
    for _ in range(400):  # cell by cell, in a thread; bounded by steps, not by time
        found = app.controller.teacher.analysis_found
        if found is not None and found.done:
            break
        await pilot.pause(0.05)
    await pilot.pause()


async def test_on_4x4_with_the_analysis_on_the_status_says_each_ai_move() -> None:
    """Item 1: the analysis' progress and its "done" went in place of "AI played 15";
    now they are in the title, and the status keeps the AI's move."""
    app = make_app(board="4", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "a")
        for keys in (["enter"], ["up", "enter"], ["left", "enter"]):
            await press(pilot, *keys)
            if app.controller.game_over:
                break
            await until_analysed(app, pilot)
            assert (app.game.sub_title or "").endswith("· analysis done")
            assert status(app) == ai_move_said(app)
            assert note(app) == ""


async def test_the_analysis_counts_its_cells_in_the_title_while_the_status_keeps_the_turn() -> None:
    gate = threading.Event()
    app = make_app(board="4", record=False)
    app.controller.teacher.analysis_search = lambda g: GatedSearch(shared_search(g), gate)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        played = status(app)
        await pilot.press("a")  # held at the gate: nothing found yet
        await pilot.pause()
        assert (app.game.sub_title or "").endswith("· analysing 0/14…")
        assert status(app) == played
        gate.set()
        await until_analysed(app, pilot)
        assert (app.game.sub_title or "").endswith("· analysis done")
        assert status(app) == played


@pytest.mark.parametrize("board", ["3", "4"])
async def test_the_result_stays_after_h_u_a_and_a_click(board: str, scripted) -> None:
    """Item 3: "You win with X!" was replaced by "The round is over: press r..." at the
    next key. Each key's note now shows under the result, which stays."""
    size = int(board)
    # X takes the top row; the AI answers in the row below.
    app = make_app(board=board, strategy=scripted(*((1, col) for col in range(size))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if board == "3":
            await press(pilot, "1", "2", "3")
        else:
            await press(pilot, "up", "up", "left", "left", "enter", *["right", "enter"] * 3)
        assert status(app) == WIN
        said = {}
        for key in ("h", "u", "a"):
            await press(pilot, key)
            said[key] = note(app)
            assert status(app) == WIN, key
        assert await pilot.click("#cell-2-2")
        await settle(pilot)
        said["click"] = note(app)
        assert status(app) == WIN
        assert app.game.status.state.tone == "win"
        assert said == {
            "h": "No hint: the round is over.",
            "u": "Nothing to take back: the round is over.",
            "a": "Analysis on: it shows in the next round (press r).",
            "click": "No move: the round is over.",
        }
        await press(pilot, "r")  # a new round: the old notes go with the old position
        assert (status(app), note(app)) == ("Your turn: you play X.", "")


async def test_a_note_goes_when_the_position_changes(scripted) -> None:
    app = make_app(strategy=scripted((0, 0), (0, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "5")
        assert note(app) == "Cell 5 is already taken by X."
        assert status(app) == "AI played 1. Your turn: you play X."
        await press(pilot, "9")
        assert (status(app), note(app)) == ("AI played 2. Your turn: you play X.", "")


@pytest.mark.parametrize("board", ["4", "5"])
async def test_a_digit_on_a_big_board_says_how_to_play_there(board: str) -> None:
    """Item 2: a digit on 4x4 did nothing and said nothing."""
    app = make_app(board=board, record=False, difficulty="easy")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for digit in ("1", "5", "9"):
            await press(pilot, digit)
            assert app.controller.board.moves == ()
            assert (
                note(app) == f"On {board}x{board} use the arrows and Enter: digits play 3x3 only."
            )
            assert status(app) == "Your turn: you play X."
        await press(pilot, "enter")  # as it says: the move is played, the note goes
        assert len(app.controller.board.moves) == 2 and note(app) == ""
        await press(pilot, "0")  # not a cell's digit anywhere: nothing to say
        assert note(app) == ""


@pytest.mark.parametrize(
    ("board", "size", "info"),
    [("4", (80, 24), False), ("4", (60, 19), False), ("5", (60, 22), False), ("5", (80, 22), True)],
)
async def test_big_board_cells_draw_their_numbers_as_3x3_draws_its_digits(
    board: str, size: tuple[int, int], info: bool
) -> None:
    """Item 2: "AI played 15" named a cell that showed no number. Every empty cell now
    draws its number whole, also where cells are narrowest (5x5 beside the info panel)."""
    app = make_app(board=board, record=False)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if info:
            await press(pilot, "i")
        await press(pilot, "enter")
        geometry = app.controller.board.geometry
        for cell in app.game.grid.cells:
            if cell.symbol == " ":
                assert str(cell.label) == str(cell.key) == str(geometry.key(cell.row, cell.col))
                assert drawn(cell) == str(cell.key), (cell.key, drawn(cell))
                assert cell.has_class("-empty")  # drawn faintly, as on 3x3
            else:
                assert str(cell.key) not in drawn(cell)
        ai = app.controller.last_ai_move
        assert ai is not None
        said = status(app)
        assert said.startswith(f"AI played {app.game.grid.cell(*ai).key}. ")


async def test_the_hint_and_the_info_panel_name_the_cell_as_it_is_drawn() -> None:
    app = make_app(board="4", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter", "i", "h")
        for _ in range(200):  # the hint is found in a thread
            if app.controller.teacher.hinted is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert app.controller.teacher.hinted is not None and app.controller.last_ai_move is not None
        hinted = app.game.grid.cell(*app.controller.teacher.hinted)
        assert note(app) == f"Hint: cell {drawn(hinted)} is a best move."
        ai = app.game.grid.cell(*app.controller.last_ai_move)
        panel = str(app.game.query_one("#info").render())
        assert f"cell {ai.key}" in panel and status(app).startswith(f"AI played {ai.key}.")


async def test_the_replay_of_a_4x4_round_names_each_move_as_its_cell_is_drawn() -> None:
    moves = (1, 6, 2, 7, 3, 8, 4)
    with Record.open() as record:
        assert record.save_round(
            current_identity().player,
            FinishedRound(
                difficulty="hard",
                symbol="X",
                first="human",
                moves=moves,
                result="win",
                board_size=4,
                played_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC),
            ),
        )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter", "right", "right")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        grid = screen.query_one(GameGrid)
        (last,) = (cell for cell in grid.cells if cell.has_class(LAST_MOVE))
        assert last.key == 6
        assert screen.replay.describe().startswith("Move 2 of 7: the AI (O) played 6")
        empty = [cell for cell in grid.cells if cell.symbol == " "]
        assert len(empty) == 14 and all(drawn(cell) == str(cell.key) for cell in empty)
