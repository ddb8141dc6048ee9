"""The app at its edges: the menu, screens stacked fast, a terminal too small.

(Keys typed before the first frame, a terminal that goes away and quitting while the AI
thinks need a real terminal: see test_pty_regressions.py.)
"""

from __future__ import annotations

import pytest
from support import SIZE, ai_played, ai_thinking, board, burst, press, settle, status
from textual import events
from textual.geometry import Region, Size
from textual.widgets import Footer, OptionList

from tui_tictactoe.record import RoundRecord
from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, GameScreen
from tui_tictactoe.ui.screens.help_screen import HelpScreen
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.menu_screen import MenuScreen, ThemeMenu
from tui_tictactoe.ui.screens.new_game_screen import NewGameScreen
from tui_tictactoe.ui.screens.replay_screen import ReplayScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen
from tui_tictactoe.ui.widgets.too_small import too_small_text

# -- the menu (Ctrl+P) ---------------------------------------------------------------


async def test_the_menu_offers_the_game_and_nothing_that_writes_files(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        names = [item.name for item in app.menu_items(app.game)]
        for name in ("Theme", "Keys", "Quit", "Reset", "New game", "Analysis", "Hint"):
            assert name in names
        assert "AI info" in names and "Help" in names
        assert not {"Screenshot", "Maximize", "Minimize"} & set(names)
        keys = [item.key for item in app.menu_items(app.game)]
        assert len(set(keys)) == len(keys)  # one key per command


async def test_a_game_command_runs_from_the_menu_by_its_key(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert board(app) == "........."
        assert app.controller.round == 2


async def test_a_command_runs_from_the_menu_by_a_click(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await pilot.press("ctrl+p")
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        # The second line of the list is the second command: "New game".
        assert await pilot.click(menu, offset=(4, 1))
        await settle(pilot)
        assert isinstance(app.screen, NewGameScreen)


async def test_a_click_outside_the_menu_closes_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert await pilot.click(offset=(0, 0))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and board(app) == "........."


async def test_a_key_typed_with_ctrl_p_picks_before_the_menu_has_mounted(make_app) -> None:
    """In a real terminal the menu could be closed by its first key before it mounted (a
    NoMatches in the chaos test, seed 777, not reproduced under Pilot's timing): a burst
    of Ctrl+P and a command key must run the command and leave the game playable."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await burst(pilot, ["ctrl+p", "k", "ctrl+p", "c", "escape"])
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.is_running
        assert app.screen.query("HelpPanel")  # `k` showed the keys


async def test_help_over_the_menu_and_back(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p", "question_mark")
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack] == [GameScreen, MenuScreen, HelpScreen]
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


async def test_a_second_menu_never_opens_whatever_is_on_top(make_app) -> None:
    """Help over an open palette, then Ctrl+P, crashed with DuplicateIds."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.action_open_menu()
        await pilot.pause()
        await app.push_screen(HelpScreen())  # however it got there
        await pilot.press("ctrl+p")
        app.action_open_menu()
        app.search_themes()
        await pilot.pause(0.2)
        stack = [type(screen) for screen in app.screen_stack]
        assert stack == [GameScreen, MenuScreen, HelpScreen]
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


A_ROUND = RoundRecord(1, "", "p", "p", 3, "hard", "X", "human", (1, 2, 5), "win", False)
SCREENS = {
    "help": lambda app: HelpScreen(),
    "menu": lambda app: MenuScreen(app.menu_items(app.screen)),
    "themes": lambda app: ThemeMenu(sorted(app.available_themes), app.theme, lambda _: None),
    "new game": lambda app: NewGameScreen(app.controller.options),
    "stats": lambda app: StatsScreen(app.record_link),
    "replay": lambda app: ReplayScreen(A_ROUND),
    "leaderboard": lambda app: LeaderboardScreen(app.record_link),
}


@pytest.mark.parametrize("name", SCREENS)
async def test_every_screen_survives_being_closed_before_it_has_mounted(make_app, name) -> None:
    """A replay closed by the key after the one that opened it ran its on_mount with its
    widgets already gone: NoMatches (chaos test, seed 20240, step 474 in CI)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(3):
            app.push_screen(SCREENS[name](app))
            app.pop_screen()  # before the screen has had a turn to mount
            await pilot.pause(0.05)
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, GameScreen)
        await press(pilot, "5")
        assert board(app).count("X") == 1


async def test_a_stale_resize_is_ignored_by_every_screen(make_app) -> None:
    """Textual 8.2.8 laid a screen out again at a size the terminal no longer had, and two
    screens then bounced two sizes between them for ever (chaos test, seed 20240)."""
    app = make_app()
    async with app.run_test(size=(184, 41)) as pilot:
        await press(pilot, "5")
        await pilot.press("ctrl+p")
        await pilot.pause()

        def layout() -> list[list[Region]]:
            # Not the footer's keys: the footer under the palette recomposes them whenever
            # Textual gets to it (seen before and after the resize in CI), at the same size.
            return [
                [
                    widget.region
                    for widget in screen.query("*")
                    if not isinstance(widget.parent, Footer)
                ]
                for screen in app.screen_stack
            ]

        before = layout()
        stale = Size(139, 52)
        for screen in app.screen_stack:
            screen.post_message(events.Resize(stale, stale))
        await pilot.pause(0.2)
        assert layout() == before
        await pilot.resize_terminal(100, 30)  # a current one is not ignored
        await pilot.pause(0.2)
        assert app.game.key_bar.region.width == 100
        await pilot.press("escape")
        await press(pilot, "1")
        assert board(app)[0] == "X"


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


@pytest.mark.parametrize(
    ("width", "height"),
    [(w, h) for w in range(1, MIN_SIZE.width) for h in (1, 2, 3, MIN_SIZE.height - 1)],
)
def test_the_too_small_message_always_fits(width: int, height: int) -> None:
    import textwrap

    text = too_small_text(Size(width, height), MIN_SIZE)
    room = max(width - 2, 1)
    lines = textwrap.wrap(text, room, break_long_words=False)
    assert all(len(line) <= room for line in lines) or text == "…"
    assert len(lines) <= height or text == "…"
    if width >= 44 and height >= 3:
        assert str(MIN_SIZE.width) in text and str(MIN_SIZE.height) in text
        assert str(width) in text


async def test_keys_typed_while_too_small_are_dropped_even_while_the_ai_thinks() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        await pilot.press("9")
        await pilot.resize_terminal(*SIZE)
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "O...X...."


# -- a hosted game at the size cap ----------------------------------------------------


def notices(app) -> list[str]:
    """The notifications on screen now, as the player reads them."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


@pytest.mark.parametrize("hosted", [True, False], ids=["hosted", "local"])
async def test_a_hosted_game_at_the_size_cap_says_so_once(make_app, monkeypatch, hosted) -> None:
    from tui_tictactoe.limits import MAX_COLUMNS, MAX_ROWS
    from tui_tictactoe.ui.app import SIZE_CAP_NOTICE

    if hosted:  # as serve-ssh and serve-web start a game (a guest here)
        monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "")
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert not notices(app)  # below the cap: nothing to say  # below the cap: nothing to say
        for size in ((MAX_COLUMNS, 40), (120, 40), (100, MAX_ROWS), (MAX_COLUMNS, MAX_ROWS)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        shown = [notice for notice in notices(app) if SIZE_CAP_NOTICE in notice]
        assert len(shown) == (1 if hosted else 0)
