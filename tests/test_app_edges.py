"""The app at its edges: the command palette, screens stacked fast, a terminal too small.

(Keys typed before the first frame, a terminal that goes away and quitting while the AI
thinks need a real terminal: see test_pty_regressions.py.)
"""

from __future__ import annotations

import pytest
from support import SIZE, ai_played, ai_thinking, board, burst, press, settle, status
from textual.geometry import Size
from textual.widgets import Input

from tui_tictactoe.ui.screens.command_palette import GameCommandPalette
from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, GameScreen
from tui_tictactoe.ui.screens.help_screen import HelpScreen
from tui_tictactoe.ui.widgets.too_small import too_small_text

# -- the command palette -----------------------------------------------------------


async def test_the_palette_offers_the_game_and_nothing_that_writes_files(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        titles = [command.title for command in app.get_system_commands(app.game)]
        for title in ("Theme", "Keys", "Quit", "New round", "New game", "Analysis", "Hint"):
            assert title in titles
        assert "AI info" in titles and "Help" in titles
        assert not {"Screenshot", "Maximize", "Minimize"} & set(titles)


async def test_a_game_command_runs_from_the_palette(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await pilot.press("ctrl+p")
        await burst(pilot, "new round")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert board(app) == "........."
        assert app.controller.round == 2


async def test_question_mark_and_q_are_text_in_the_palette(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press("question_mark", "q")
        await pilot.pause()
        assert isinstance(app.screen, GameCommandPalette)
        assert app.screen.query_one(Input).value == "?q"
        assert app.is_running


async def test_no_help_and_no_quit_over_the_palette_before_its_search_has_focus(make_app) -> None:
    """In a burst, `?` or `q` can arrive before the palette's search box has focus (once it
    has, the box takes printable keys itself): they must not act over the palette."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_command_palette()
        assert not await app.run_action("help")
        assert not await app.run_action("quit_by_key")  # `q`; Ctrl+Q still quits
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack] == [GameScreen, GameCommandPalette]
        assert app.is_running


async def test_a_second_palette_never_opens_whatever_is_on_top(make_app) -> None:
    """Help over an open palette, then Ctrl+P, crashed with DuplicateIds."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await pilot.pause()
        await app.push_screen(HelpScreen())  # however it got there
        await pilot.press("ctrl+p")
        app.action_command_palette()
        app.search_themes()
        await pilot.pause(0.2)
        stack = [type(screen) for screen in app.screen_stack]
        assert stack == [GameScreen, GameCommandPalette, HelpScreen]
        assert app.is_running


async def test_the_dialog_started_twice_in_a_burst_starts_one_game(make_app) -> None:
    """Enter twice on the new-game dialog dismissed it twice: InvalidStateError."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await burst(pilot, ["n", "enter", "enter", "n", "escape", "escape"])
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.controller.round == 1 and board(app) == "........."


# -- a terminal too small ------------------------------------------------------------


async def test_no_key_plays_while_the_game_is_hidden(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        before, round = board(app), app.controller.round
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await press(pilot, "1", "down", "enter", "space", "r", "n", "h", "a")
        assert isinstance(app.screen, GameScreen)
        assert (board(app), app.controller.round) == (before, round)
        await pilot.resize_terminal(*SIZE)
        await press(pilot, "1")
        assert board(app)[0] == "X"
        assert status(app) == ai_played(app) + "Your turn: you play X."


@pytest.mark.parametrize(("width", "height"), [(w, h) for w in range(1, 50) for h in (1, 2, 3, 17)])
def test_the_too_small_message_always_fits(width: int, height: int) -> None:
    import textwrap

    text = too_small_text(Size(width, height), MIN_SIZE)
    room = max(width - 2, 1)
    lines = textwrap.wrap(text, room, break_long_words=False)
    assert all(len(line) <= room for line in lines) or text == "…"
    assert len(lines) <= height or text == "…"
    if width >= 44 and height >= 3:
        assert "50" in text and "18" in text and str(width) in text


async def test_keys_typed_while_too_small_are_dropped_even_while_the_ai_thinks() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await pilot.press("9")
        await pilot.resize_terminal(*SIZE)
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "O...X...."
