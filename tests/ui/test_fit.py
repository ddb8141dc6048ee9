"""Nothing is cut, at every size the game allows (issue 13, items 4, 7 and 9).

At the minimum size, at 60x20 and 80x24 (and a few more), with and without the AI
info panel: the key bar lists every key, "q Quit" included; the score line is whole,
also with abandoned rounds and take-backs; the title is whole; every state of play
fits the status line's first line and every note its second, whole; the panel, where it shows, is whole and
apart from the buttons, and where there is no room it says so instead.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from support import SIZE, SMALL, played, press, refusal
from textual.widgets import Static

from tui_tictactoe.controller import (
    AIReply,
    GameController,
    GameOptions,
    MoveRefused,
    Status,
    analysis_status,
    hint_status,
    refused,
    turn_status,
)
from tui_tictactoe.controller.rounds import TakeBack
from tui_tictactoe.controller.status import (
    FINDING_HINT,
    NOTE_WIDTH,
    QUIT_QUESTION,
    digits_refused,
    game_title,
    info_status,
    move_refused,
    take_back_status,
)
from tui_tictactoe.controller.teaching import AnalysisFound
from tui_tictactoe.engine.analysis import Analysis
from tui_tictactoe.engine.round import Tally
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.strategies import Decision
from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, PANEL_ROOM, PLAY_WIDTH
from tui_tictactoe.ui.screens.new_game_screen import ChoiceRow, NewGameScreen
from tui_tictactoe.ui.type_ahead import TOO_MANY
from tui_tictactoe.ui.widgets import Scoreboard, TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint, game_keys, wrap_hints
from tui_tictactoe.ui.widgets.reasoning_panel import ReasoningPanel

MINIMUM = (MIN_SIZE.width, MIN_SIZE.height)
SIZES = [MINIMUM, SMALL, (PANEL_ROOM.width, PANEL_ROOM.height), SIZE, (100, 30), (120, 40)]
IDS = [f"{w}x{h}" for w, h in SIZES]
FAILED_FIRST = "The AI failed: press r for a new round."


def every_state() -> list[Status]:
    """Every state of play the status line's first line can show, in its longest form."""
    won = played([(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1)])
    lost = played([(0, 0), (0, 1), (2, 2)], [(1, 0), (1, 1), (1, 2)])
    draw = played([(1, 1), (0, 1), (1, 0), (2, 2), (0, 2)], [(0, 0), (2, 1), (1, 2), (2, 0)])
    mid = played([(1, 1)], [(0, 0)])
    big = played([(0, 0)], [(4, 4)], board="5")
    states = [
        *(turn_status(c) for c in (won, lost, draw, mid, failed(), thinking(), big)),
        turn_status(GameController(GameOptions(symbol="O"))),
        Status("AI is thinking… 123.4 s", "thinking"),
    ]
    assert turn_status(big).text == "AI played 25. Your turn: you play X."
    return states


def every_note() -> list[Status]:
    """Every note the status line's second line can show, in its longest form."""
    won = played([(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1)])
    mid = played([(1, 1)], [(0, 0)])
    big = GameController(GameOptions(board="5"))
    maybe: list[Status | None] = [
        *(move_refused(refusal(c, *at)) for c, at in ((mid, (0, 0)), (won, (2, 2)))),
        *(move_refused(refusal(c, 1, 1)) for c in (failed(), thinking())),
        move_refused(MoveRefused("taken", "O", 25)),
        hint_status(mid, (2, 2)),
        hint_status(big, (4, 4)),
        *(hint_status(c, None) for c in (won, failed(), thinking())),
        *(analysis_status(c, on) for c in (won, thinking()) for on in (True, False)),
        take_back_status(won, TakeBack((), "over")),
        take_back_status(mid, TakeBack((), "nothing")),
        take_back_status(big, TakeBack(((4, 3), (4, 4)))),
        QUIT_QUESTION,
        info_status(True, PANEL_ROOM.width, PANEL_ROOM.height),
        info_status(False, PANEL_ROOM.width, PANEL_ROOM.height),
        refused(TOO_MANY),
        FINDING_HINT,
        digits_refused(5),
    ]
    notes = [note for note in maybe if note is not None]
    assert len(notes) == len(maybe) and len({note.text for note in notes}) > 18
    return notes


def failed() -> GameController:
    game = GameController(GameOptions(first="ai"))
    game.apply(AIReply(game.generation, None, "RuntimeError: the AI tripped over its own feet"))
    return game


def thinking() -> GameController:
    return GameController(GameOptions(first="ai"))


def test_every_note_and_state_fits_one_line_of_the_narrowest_status() -> None:
    """Issue 21: a note shows under the state of play, never in its place, so each has
    one line of its own; only an AI failure's reason may need a second (see below)."""
    assert PLAY_WIDTH == NOTE_WIDTH
    for note in every_note():
        assert len(note.text) <= NOTE_WIDTH, note.text
    for state in every_state():
        assert len(state.text) <= NOTE_WIDTH or state.tone == "error", state.text


def test_the_key_bar_wraps_whole_keys_into_two_lines_from_the_minimum_width() -> None:
    # Once the round is over `v Review` takes the hint's place, and on 6x6 against the AI
    # `w Why` is in the bar mid-round (without `s Stats`): two lines still.
    for side in (3, 4, 5, 6):
        for analysis, over, people in itertools.product((True, False), repeat=3):
            _check_two_lines(game_keys(side, analysis, over=over, people=people))
    assert len(wrap_hints(game_keys(3, False), 120)[0]) == 1


def _check_two_lines(hints: tuple[KeyHint, ...]) -> None:
    for width in range(MIN_SIZE.width, 201):
        lines, gap = wrap_hints(hints, width)
        assert len(lines) <= 2, width
        assert [hint for line in lines for hint in line] == list(hints)
        for line in lines:
            text = (" " * gap).join(f"{h.keys} {h.label}" for h in line)
            assert len(text) <= width, (width, text)


@pytest.mark.parametrize("info", [False, True], ids=["", "info"])
@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_nothing_is_cut(make_app, steady, size: tuple[int, int], info: bool) -> None:
    app = make_app(strategy=steady())
    async with app.run_test(size=size) as pilot:
        await press(pilot, "5", "u", "5", "r", *(["i"] if info else []), "5")
        game = app.game
        assert not game.has_class("-too-small")
        width, height = size

        # The key bar: every key, whole, inside the screen, "q Quit" last.
        bar = game.query_one(KeyBar)
        assert bar.region.bottom == height and bar.region.width == width
        lines = bar.lines(width)
        assert bar.region.height == len(lines) <= 2
        shown = " ".join(lines)
        for needed in ("↑↓←→ Move", "1-9 Play", "u Take back", "s Stats", "a Show analysis"):
            assert needed in shown
        assert shown.endswith("q Quit") and all(len(line) <= width for line in lines)

        # The score line, with two-digit counts of everything.
        score = Tally(x=12, o=34, draws=56, abandoned=78, take_backs=90)  # you play X
        app.controller.game_round.score = score
        app.controller.game_round.number = 99
        game._show_all()
        await pilot.pause()
        scoreboard = game.query_one(Scoreboard)
        text = str(scoreboard.render())
        assert len(text) <= scoreboard.content_region.width, text
        for word in ("You", "12", "AI", "34", "Draws 56", "Abandoned 78", "Take-backs 90", "99"):
            assert word in text

        # The title, whole: also with the longest level and the big board's analysis
        # counting its cells there (the status line keeps the state of play).
        title = game.query_one(TitleBar)
        medium = GameController(GameOptions(difficulty="medium", board="5"))
        counting = AnalysisFound(Analysis("." * 25, "X", "in_progress", ()), 24, 25)
        for sub_title in (game.sub_title, game_title(medium, True, counting)):
            game.sub_title = sub_title
            await pilot.pause()
            shown = str(title.render())
            assert shown == f"{app.title} — {sub_title}", (size, shown)
            assert len(shown) <= title.content_region.width

        # Every state of play, alone in the status line's two lines, and with every note
        # under it: the note whole, the state whole on its line (an AI failure's reason
        # may be cut there, after what to do).
        status = game.status
        assert status.region.height == 2
        room = status.content_region
        notes = every_note()
        for state in every_state():
            status.clear_note()
            status.show(state)
            assert status.get_content_height(room.size, app.size, room.width) <= room.height
            for said in notes:
                status.say(said, force=True)
                first, second = str(status.render()).split("\n")
                assert second == said.text, (size, said.text)
                assert first == state.text or first.startswith(FAILED_FIRST), (size, first)
                assert len(first) <= room.width

        # The AI info panel: beside the board where there is room, whole, apart from
        # the buttons; elsewhere hidden, and `i` said why.
        panels = game.query(ReasoningPanel)
        if not info:
            assert not panels or not panels.first().display
            return
        panel = panels.first()
        room = width >= PANEL_ROOM.width and height >= PANEL_ROOM.height
        assert panel.display == room
        if not room:
            game.show_info = False
            game.show_info = True
            assert status.note == info_status(True, PANEL_ROOM.width, PANEL_ROOM.height)
            return
        big = Decision((4, 4), Verdict("loss", 12), 12_345_678, 1.5, None, 6)
        panel.show(big, app.controller.board.geometry)
        await pilot.pause()
        for decision in (app.controller.minimax.last_decision, big):
            panel.show(decision, app.controller.board.geometry)
            box = panel.content_region
            assert panel.get_content_height(box.size, app.size, box.width) <= box.height
        assert panel.region.x > game.query_one("#exit").region.right  # a gap
        assert panel.region.right <= width


async def test_the_info_panel_comes_back_when_the_terminal_grows(make_app, steady) -> None:
    app = make_app(strategy=steady())
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "i", "5")
        assert app.game.status.state.text.startswith("AI played")
        panel = app.game.query_one(ReasoningPanel)
        assert not panel.display
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert panel.display and "Played" in str(panel.render())
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert not panel.display
        await press(pilot, "i")  # off: said, as nothing on screen changes
        assert app.game.status.note == ("AI info off.", "hint")


def whole_cells(app: Any) -> bool:
    """Every cell has its three rows: the top border, the mark or number, the bottom."""
    return all(
        cell.outer_size.height >= 3 and cell.styles.border_top[0] not in ("", "none")
        for cell in app.game.grid.cells
    )


def compact_cells(app: Any) -> bool:
    """Every cell has two rows, its mark or number and its bottom border (no top border)."""
    return all(
        cell.outer_size.height == 2 and cell.styles.border_top[0] in ("", "none")
        for cell in app.game.grid.cells
    )


def too_small_text(app: Any) -> str:
    return " ".join(str(app.game.too_small.render()).split())


@pytest.mark.parametrize(
    ("board", "short", "enough", "roomy"),
    [("6", 18, 19, (80, 27)), ("5", 17, 18, SIZE), ("4", 17, 18, SIZE)],
)
async def test_a_big_board_fits_with_compact_cells_then_whole_ones(
    make_app, board: str, short: int, enough: int, roomy: tuple[int, int]
) -> None:
    """Issue 36: 6x6 asked for 60x25 (80x24 was a row short), 5x5 for 60x22, 4x4 for
    60x19. Where three rows a cell do not fit, the buttons take one row and the cells two
    (no top border); every board fits 60x19, 6x6 80x24."""
    app = make_app(board=board, record=False)
    async with app.run_test(size=(60, short)) as pilot:
        await press(pilot)
        assert app.game.has_class("-too-small")
        assert f"60 columns and {enough} rows" in too_small_text(app)
        await pilot.resize_terminal(60, enough)
        await press(pilot, "enter", "a")
        assert not app.game.has_class("-too-small") and app.game.has_class("-compact")
        assert compact_cells(app)
        assert app.game.query_one("#exit").outer_size.height == 1
        if board == "6":
            await pilot.resize_terminal(*SIZE)  # the most common terminal
            await press(pilot)
            assert not app.game.has_class("-too-small") and compact_cells(app)
        await pilot.resize_terminal(*roomy)  # room to spare: the buttons are whole again
        await press(pilot)
        assert not app.game.has_class("-compact") and whole_cells(app)
        assert app.game.query_one("#exit").outer_size.height == 3


async def test_a_3x3_board_plays_at_the_minimum_and_6x6_asks_for_more(make_app) -> None:
    app = make_app(board="5", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n", *["down"] * 4, "right", "right", "enter")  # 5x5 -> 3x3 (wraps)
        await pilot.resize_terminal(*MINIMUM)
        await press(pilot)
        assert len(app.game.grid.cells) == 9 and not app.game.has_class("-too-small")
        assert not app.game.has_class("-compact") and whole_cells(app)
        await press(pilot, "n", *["down"] * 4, "left", "enter")  # 3x3 -> 6x6, still 60x18
        assert len(app.game.grid.cells) == 36 and app.game.has_class("-too-small")


async def test_the_too_small_message_leads_on_by_keys(make_app) -> None:
    """Issue 36: 6x6 at 60x18 showed only "Please enlarge the terminal", `n` did nothing
    and the way out (`--board`) was written nowhere. Now it names `n`, `q` and the flag,
    and `n` opens the dialog on the largest board that fits (fails before: no dialog)."""
    app = make_app(board="6", record=False)
    async with app.run_test(size=MINIMUM) as pilot:
        await press(pilot)
        text = too_small_text(app)
        assert "3x3, 4x4, 5x5 do" in text and "Press n for a new game" in text, text
        assert "q to quit" in text and "tui-tictactoe --board 5" in text, text
        await press(pilot, "n")
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#board", ChoiceRow).value == "5"
        fit = str(app.screen.query_one("#board-fit", Static).render())
        assert " ".join(fit.split()) == "Fit here (60x18): 3x3, 4x4, 5x5. 6x6 needs 60x19."
        await press(pilot, "enter")
        assert app.game.geometry.size == 5 and not app.game.has_class("-too-small")
        await pilot.resize_terminal(40, 12)  # no board fits: only q leads on
        await press(pilot)
        assert "Press q to quit." in too_small_text(app) and "Press n" not in too_small_text(app)
        await press(pilot, "n")
        assert not isinstance(app.screen, NewGameScreen)
        await pilot.resize_terminal(*MINIMUM)
        await press(pilot, "5", "q")  # mid-round, hidden: the question is told aloud
        await pilot.resize_terminal(40, 12)
        await press(pilot, "q")
        assert not app.is_running


async def test_the_dialog_says_which_boards_fit_before_start(make_app) -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")
        assert not app.screen.query_one("#board-fit", Static).display  # every board fits
        await press(pilot, "escape")
        await pilot.resize_terminal(*MINIMUM)
        await press(pilot, "n", *["down"] * 4)
        fit = app.screen.query_one("#board-fit", Static)
        assert fit.display and not fit.has_class("-warning")
        await press(pilot, "left")  # 3x3 -> 6x6: it does not fit here
        assert fit.has_class("-warning")


async def test_the_note_that_the_info_panel_waits_for_room_goes_once_it_shows(
    make_app, steady
) -> None:
    """'AI info needs 80x20' stayed under the board after the terminal grew and the panel
    appeared beside it (fails before: the note stayed)."""
    app = make_app(strategy=steady())
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "5", "i")  # a move first: the note is what `i` said
        waiting = info_status(True, PANEL_ROOM.width, PANEL_ROOM.height)
        assert app.game.status.note == waiting
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.game.query_one(ReasoningPanel).display
        assert app.game.status.note is None
        assert "needs" not in str(app.game.status.render())
