"""Pilot tests: the app played through clicks and keys, as a person would."""

from __future__ import annotations

import pytest
from rich.markdown import Markdown
from support import (
    SIZE,
    ai_played,
    ai_thinking,
    board,
    burst,
    cell,
    driver_click,
    key_event,
    note,
    press,
    settle,
    status,
    under_cursor,
)
from textual import events
from textual.geometry import Size
from textual.widgets import Button, Static

from tui_tictactoe.controller import AIReply
from tui_tictactoe.controller.status import PLAYING_ON, QUIT_QUESTION
from tui_tictactoe.engine.strategies import RandomStrategy
from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, GameScreen
from tui_tictactoe.ui.screens.help_screen import HelpScreen
from tui_tictactoe.ui.screens.new_game_screen import NewGameScreen
from tui_tictactoe.ui.type_ahead import LIMIT, TOO_MANY
from tui_tictactoe.ui.widgets import GameCell, GameGrid, Scoreboard
from tui_tictactoe.ui.widgets.key_bar import KeyBar

# -- the start ---------------------------------------------------------------


async def test_start_shows_empty_board_your_turn_and_zero_score(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        ids = sorted(cell.id for cell in app.query(GameCell))
        assert ids == [f"cell-{r}-{c}" for r in range(3) for c in range(3)]
        assert board(app) == "........."
        assert status(app) == "Your turn: you play X."
        scoreboard = app.query_one(Scoreboard)
        assert (scoreboard.human, scoreboard.ai, scoreboard.draws, scoreboard.round) == (0, 0, 0, 1)
        assert str(app.query_one("#reset", Button).label) == "Reset"
        assert str(app.query_one("#exit", Button).label) == "Exit"
        assert under_cursor(app) is cell(app, 1, 1)
        assert app.focused is None  # nothing takes focus: the cursor is drawn


async def test_buttons_keep_their_look_after_the_dialog_and_help(make_app) -> None:
    """Cells and buttons are plain `Button` subclasses styled by the game's CSS, on every screen."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        buttons = list(app.query(Button))
        assert len(buttons) == 12

        def looks() -> list[tuple[object, ...]]:
            return [
                (b.styles.border, b.styles.background, b.styles.color, b.styles.text_style)
                for b in buttons
            ]

        before = looks()
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert len(app.screen.query(Button)) == 2
        await pilot.press("escape", "question_mark", "question_mark")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert looks() == before


async def test_the_cursor_is_drawn_on_one_widget_and_nothing_takes_focus(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        for keys, expected in (
            (["up"], "#cell-0-1"),
            (["left", "down", "down"], "#cell-2-0"),
            (["down"], "#reset"),
            (["right", "right", "right"], "#exit"),
            (["up"], "#cell-2-2"),
        ):
            await press(pilot, *keys)
            assert under_cursor(app) is app.game.query_one(expected)
            assert app.focused is None
        assert await pilot.click("#cell-0-0")
        await settle(pilot)
        assert under_cursor(app) is cell(app, 0, 0)


async def test_ai_that_starts_moves_at_once(make_app) -> None:
    app = make_app(first="ai", symbol="O")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert board(app).count("X") == 1
        assert board(app).count("O") == 0
        assert status(app) == ai_played(app) + "Your turn: you play O."


# -- playing -----------------------------------------------------------------


async def test_click_plays_and_ai_answers(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert await pilot.click("#cell-0-0")
        await settle(pilot)
        shown = board(app)
        assert shown[0] == "X"
        assert shown.count("O") == 1
        assert status(app) == ai_played(app) + "Your turn: you play X."
        assert app.game.cursor == (0, 0)


async def test_arrows_move_the_cursor_and_enter_or_space_play(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "up", "left", "enter")
        assert board(app)[0] == "X"
        assert under_cursor(app) is cell(app, 0, 0)
        empty = board(app).index(".", 1)  # the first empty cell after the top-left one
        await press(pilot, *["right"] * (empty % 3), *["down"] * (empty // 3), "space")
        assert board(app)[empty] == "X"


async def test_arrows_stop_at_the_edges(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "up", "up", "up", "left", "left", "left")
        assert app.game.cursor == (0, 0)
        assert under_cursor(app) is cell(app, 0, 0)


async def test_digits_play_the_cells_in_reading_order(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        for key in range(1, 10):
            await press(pilot, str(key))
            assert board(app)[key - 1] == "X"
            assert board(app).count("X") == 1
            assert app.game.cursor == app.controller.board.geometry.cell_of_key(key)
            await press(pilot, "r")


async def test_keys_in_a_burst_act_like_keys_typed_slowly(make_app) -> None:
    """`down right enter` arriving at once (SSH, paste, tmux) plays the bottom-right cell."""

    async def play(typed_together: bool) -> str:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            for keys in (["down", "right", "enter"], ["up", "up", "left", "space"]):
                if typed_together:
                    await burst(pilot, keys)
                else:
                    for key in keys:
                        await pilot.press(key)
                await settle(pilot)
            return board(app)

    slow = await play(typed_together=False)
    assert slow[8] == "X"
    assert slow[1] == "X"
    assert await play(typed_together=True) == slow


async def test_digits_in_a_burst_are_all_played_in_order(make_app, gated) -> None:
    """`5` and `2` in one write: 2 arrives while the AI thinks and is played after its reply."""
    strategy = gated((0, 0))
    app = make_app(strategy=strategy)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "52")
        await strategy.until_thinking()
        await pilot.pause()
        assert board(app) == "....X...."
        assert status(app) == "AI is thinking…"
        strategy.gate.set()
        await settle(pilot)
        await settle(pilot)
        # O took 1 (its script), then the held 2 was played, then O answered it.
        assert board(app) == "OXO.X...."
        assert status(app) == "AI played 3. Your turn: you play X."


async def test_the_ais_last_move_is_marked_and_named(make_app, scripted) -> None:
    app = make_app(strategy=scripted((2, 0), (0, 2)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        marked = [c for c in app.game.grid.cells if c.has_class("-last-ai")]
        assert marked == [cell(app, 2, 0)]
        assert status(app) == "AI played 7. Your turn: you play X."
        await press(pilot, "1")
        marked = [c for c in app.game.grid.cells if c.has_class("-last-ai")]
        assert marked == [cell(app, 0, 2)]
        assert status(app) == "AI played 3. Your turn: you play X."
        await press(pilot, "r")
        assert not any(c.has_class("-last-ai") for c in app.game.grid.cells)


# -- the end of a round ---------------------------------------------------------


async def test_a_win_highlights_the_line_and_counts(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        assert board(app) == "XXXOO...."
        assert status(app) == "You win with X! Press r for a new round."
        winning = {c.id for c in app.query(GameCell) if c.has_class("-winning")}
        assert winning == {"cell-0-0", "cell-0-1", "cell-0-2"}
        assert app.game.status.state.tone == "win"
        assert app.query_one(Scoreboard).human == 1
        assert app.controller.score.human == 1


async def test_a_loss_highlights_the_ai_line_and_counts(make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0), (0, 1), (0, 2)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "9", "8", "4")
        assert board(app) == "OOOX...XX"
        assert status(app) == "The AI wins with O. Press r for a new round."
        winning = {c.id for c in app.query(GameCell) if c.has_class("-winning")}
        assert winning == {"cell-0-0", "cell-0-1", "cell-0-2"}
        assert app.game.status.state.tone == "loss"
        assert app.query_one(Scoreboard).ai == 1


async def test_a_draw_is_shown_as_such_and_counts(make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0), (2, 1), (1, 2), (2, 0)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "2", "4", "9", "3")
        assert board(app) == "OXXXXOOOX"
        assert status(app) == "It's a draw. Press r for a new round."
        assert app.query_one(GameGrid).has_class("-draw")
        assert not any(c.has_class("-winning") for c in app.query(GameCell))
        assert app.query_one(Scoreboard).draws == 1


async def test_easy_ai_can_be_beaten(make_app) -> None:
    """Easy sees only its own wins, so taking the hint every move beats it (seeded game)."""
    app = make_app(difficulty="easy", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        while not app.controller.game_over:
            move = app.controller.teacher.hint()
            assert move is not None
            await press(pilot, str(app.controller.board.geometry.key(*move)))
        assert board(app) == "X.OX.OX.."
        assert status(app) == "You win with X! Press r for a new round."
        assert app.query_one(Scoreboard).human == 1


# -- moves that change nothing ----------------------------------------------------


async def test_a_quick_second_click_on_the_cell_just_played_is_answered(make_app) -> None:
    """Textual 8.2.8's `Button.__init__` sets a 0.2 s press flash on each instance, over
    the cell's class-wide 0, and a click during the flash is dropped: a player who
    double-clicks heard nothing of the second click (fails with the instance's 0.2 s)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert await pilot.click("#cell-0-0")
        assert await pilot.click("#cell-0-0")  # at once: no settle, no pause between
        await settle(pilot)
        assert board(app)[0] == "X"
        assert note(app) == "Cell 1 is already taken by X."


async def test_occupied_cell_changes_nothing_and_says_why(make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        before = board(app)
        for key in ("5", "1", "5"):
            await press(pilot, key)
            assert board(app) == before
        assert await pilot.click("#cell-1-1")
        await settle(pilot)
        assert board(app) == before
        assert note(app) == "Cell 5 is already taken by X."
        assert app.game.status.note.tone == "refused"
        assert status(app).endswith("Your turn: you play X.")  # the state stays above it
        assert not app.screen.query("Toast")  # one status line, no pile of toasts


async def test_moves_after_the_end_change_nothing(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        before, score = board(app), app.controller.score.human
        await press(pilot, "9", "down", "enter")
        assert await pilot.click("#cell-2-0")
        await settle(pilot)
        assert board(app) == before
        assert app.controller.score.human == score
        assert note(app) == "No move: the round is over."
        assert status(app) == "You win with X! Press r for a new round."  # the result stays


async def test_keys_and_clicks_while_the_ai_thinks_wait_for_its_reply() -> None:
    async with ai_thinking((0, 0), (0, 1)) as (app, pilot, strategy):
        await pilot.pause()
        assert status(app) == "AI is thinking…"
        await pilot.press("1")  # will be taken by the AI's reply: refused then
        await pilot.press("up", "left")  # the cursor moves only after the reply, in order
        assert await pilot.click("#cell-2-2")
        await pilot.pause()
        assert board(app) == "....X...."
        assert under_cursor(app) is cell(app, 1, 1)
        strategy.gate.set()
        await settle(pilot)
        await settle(pilot)
        # O played 1, the held `1` was refused, the cursor went up and left, and the
        # click played 9, which O answered with 2.
        assert board(app) == "OO..X...X"
        assert under_cursor(app) is cell(app, 2, 2)
        assert status(app) == "AI played 2. Your turn: you play X."


async def test_a_burst_beyond_the_type_ahead_limit_is_cut_and_said() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await burst(pilot, ["left", "right"] * (LIMIT // 2) + ["9", "8"])
        assert note(app) == TOO_MANY and status(app) == "AI is thinking…"
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "O...X...."  # the cursor keys replayed; 9 and 8 were dropped


async def test_a_new_round_drops_the_keys_held_for_the_ai() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.press("9", "8", "r")
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "........."
        assert app.controller.round == 2


# -- the AI thread ---------------------------------------------------------------


async def test_reset_while_thinking_drops_the_stale_move() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.press("r")
        assert board(app) == "........."
        assert app.controller.round == 2
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "........."
        assert status(app) == "Your turn: you play X."
        await press(pilot, "9")  # the new round plays normally
        assert board(app) == "O.......X"


async def test_reset_while_the_starting_ai_thinks_keeps_only_the_new_move() -> None:
    """Both searches finish after the reset: only the new round's move may land."""
    async with ai_thinking((1, 1), keys=(), first="ai") as (app, pilot, strategy):
        await pilot.press("r")
        strategy.gate.set()
        await settle(pilot)
        await settle(pilot)
        assert board(app) == "....O...."
        assert app.controller.round == 2


async def test_a_reply_for_an_earlier_round_is_ignored(make_app) -> None:
    """Even one that slips past the worker's cancellation check."""
    app = make_app(first="ai", strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        stale = app.controller.generation
        await press(pilot, "r")
        await settle(pilot)
        before = board(app)
        free = app.controller.board.get_empty_cells()[0]
        app.game.post_message(GameScreen.Replied(AIReply(stale, free)))
        app.game.post_message(GameScreen.Replied(AIReply(stale, None, "stale")))
        await pilot.pause()
        assert board(app) == before
        assert status(app) == ai_played(app) + "Your turn: you play X."


async def test_new_game_while_thinking_drops_the_stale_move() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#start")
        await pilot.pause()
        assert app.controller.round == 1
        assert board(app) == "........."
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "........."
        assert status(app) == "Your turn: you play X."


async def test_an_ai_exception_is_shown_not_raised(make_app, failing) -> None:
    app = make_app(strategy=failing())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        failed = "The AI failed: press r for a new round. (RuntimeError: the AI tripped"
        assert status(app).startswith(failed)
        assert app.game.status.state.tone == "error"
        await press(pilot, "1")
        assert board(app) == "....X...."
        assert status(app).startswith(failed)  # the failure stays; the note says the rest
        assert note(app) == "No move: the AI failed."
        await press(pilot, "r")
        assert board(app) == "........."
        assert status(app) == "Your turn: you play X."


async def test_quit_while_thinking_ends_the_app() -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        controller = app.controller
        await pilot.press("q", "y")  # mid-round `q` asks first
        await pilot.pause()
        assert not app.is_running
        strategy.gate.set()  # a thread cannot be killed: it finishes, its reply is dropped
    assert controller.board.to_string() == "....X...."


async def test_q_in_the_middle_of_a_round_asks_once(make_app) -> None:
    for answer in ("q", "y"):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await press(pilot, "5", "q")
            assert app.is_running
            assert note(app) == QUIT_QUESTION.text
            await pilot.press(answer)
            await pilot.pause()
            assert not app.is_running, answer


async def test_any_other_key_after_the_question_only_answers_no(make_app) -> None:
    """Issue 36: `n` opened the New game dialog, `r` abandoned the round and a digit played
    its cell. Now every key but a yes, and a click on the board, answers no: nothing else."""
    for keys in (["n"], ["r"], ["free"], ["a"], ["click"]):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await press(pilot, "5", "q")
            before, free = board(app), board(app).index(".")
            for key in keys:
                if key == "click":
                    await driver_click(pilot, cell(app, free // 3, free % 3))
                else:
                    await press(pilot, str(free + 1) if key == "free" else key)
            await settle(pilot)
            assert isinstance(app.screen, GameScreen), keys  # no dialog opened
            assert board(app) == before and app.controller.round == 1, keys
            assert not app.game.show_analysis, keys
            assert note(app) == PLAYING_ON.text, keys
            await press(pilot, "y")  # no longer an answer
            assert app.is_running
            if key == "click":  # the click acts once the question is gone
                await driver_click(pilot, cell(app, free // 3, free % 3))
                await settle(pilot)
            else:  # the key acts once the question is gone
                await press(pilot, str(free + 1))
            assert board(app)[free] == "X", keys
            await press(pilot, "q")  # asks again, once
            assert app.is_running and note(app) == QUIT_QUESTION.text


async def test_a_click_on_the_key_bars_q_after_the_question_quits(make_app) -> None:
    """A click on a key in the bar presses it: on q it says yes, as q does (it answered no
    when a click anywhere but Exit did)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "q")
        assert note(app) == QUIT_QUESTION.text
        bar = app.game.query_one(KeyBar)
        (hint,) = [hint for hint in bar.hints if hint.press == "q"]
        (at,) = [
            (line.find(f"{hint.keys} {hint.label}"), y)
            for y, line in enumerate(bar.lines(bar.size.width))
            if f"{hint.keys} {hint.label}" in line
        ]
        await driver_click(pilot, bar, at)
        await settle(pilot)
        assert not app.is_running


async def test_a_burst_after_the_question_answers_no_once(make_app) -> None:
    """Keys in one burst: the first answers no, the ones after it act."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "q")
        free = board(app).index(".")
        await burst(pilot, [str(free + 1), str(free + 1)])
        await settle(pilot)
        assert board(app)[free] == "X" and app.is_running


async def test_exit_and_the_menus_quit_ask_once_mid_round_like_q(make_app) -> None:
    """Exit (clicked, or Enter on it) and the menu's Quit ask, as `q` does; a second
    request of any of them, or `y`, quits; Ctrl+Q never asks."""
    asks = {
        "click Exit": ["#exit"],
        "Enter on Exit": ["down", "down", "right", "enter"],
        "menu Quit": ["ctrl+p", "end", "enter"],
    }
    answers = {
        "q": ["q"],
        "y": ["y"],
        "click Exit": ["#exit"],
        "menu Quit": ["ctrl+p", "end", "enter"],
        "menu Quit by its key": ["ctrl+p", "q"],
    }
    for first, keys in asks.items():
        then_ways = {**answers, **({"Enter again": ["enter"]} if "Enter" in first else {})}
        for then, answer in then_ways.items():
            app = make_app()
            async with app.run_test(size=SIZE) as pilot:
                await press(pilot, "5")
                for asked, attempt in enumerate((keys, answer)):
                    assert app.is_running, (first, then)
                    for key in attempt:
                        if key.startswith("#"):
                            assert await pilot.click(key)
                        else:
                            await pilot.press(key)
                    await pilot.pause()
                    if not asked:
                        assert note(app) == QUIT_QUESTION.text, first
                        assert app.controller.in_progress, (first, then)
                        await pilot.pause(0.25)  # a Button ignores a click while it flashes
                assert not app.is_running, (first, then)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        assert await pilot.click("#exit")
        await press(pilot, "left")  # plays on: the question is gone
        assert note(app) != QUIT_QUESTION.text
        await pilot.pause(0.25)
        assert await pilot.click("#exit")
        assert app.is_running and note(app) == QUIT_QUESTION.text
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_the_quit_question_waits_for_the_ais_reply(make_app) -> None:
    """The AI's reply does not replace the question: the next `q` still answers it."""
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.press("q")
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "O...X...." and note(app) == QUIT_QUESTION.text
        assert status(app) == "AI played 1. Your turn: you play X."  # above the question
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_q_quits_at_once_before_the_first_move_and_after_the_round(
    make_app, scripted
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "q")
        assert not app.is_running
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3", "q")
        assert not app.is_running
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "ctrl+q")  # Ctrl+Q never asks
        assert not app.is_running


@pytest.mark.parametrize("then_quit", [False, True])
async def test_ctrl_q_quits_ahead_of_the_input_queued_before_it(make_app, then_quit) -> None:
    """Input queued before Ctrl+Q (a burst the app has not caught up with) is dropped:
    behind resizes, the help and dialogs on a loaded machine the quit came seconds late."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        backlog = ["5", "question_mark", "n", "ctrl+p"]
        for key in backlog:  # all queued before the app handles any of them
            app.post_message(key_event(key))
        app.post_message(events.Resize(Size(100, 40), Size(100, 40)))
        if then_quit:
            app.post_message(key_event("ctrl+q"))
        await pilot.pause()
        await pilot.pause()
        if not then_quit:  # the control: the same backlog, handled, plays and opens screens
            assert board(app) != "........." and app.is_screen_installed("help")
            return
    assert app.return_code == 0 and not app.is_running
    assert not app.controller.board.moves and not app.is_screen_installed("help")


async def test_q_in_the_dialog_mid_round_asks_too(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "n", "q")
        assert isinstance(app.screen, NewGameScreen) and app.is_running
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


# -- rounds and games ------------------------------------------------------------


async def test_reset_button_starts_a_new_round_and_keeps_the_score(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        assert await pilot.click("#reset")
        await settle(pilot)
        assert board(app) == "........."
        assert app.query_one(Scoreboard).round == 2
        assert app.query_one(Scoreboard).human == 1


async def test_a_reset_mid_round_shows_as_abandoned_in_the_score(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        scoreboard = app.query_one(Scoreboard)
        assert "Abandoned" not in str(scoreboard.render())
        await press(pilot, "1", "r")
        assert app.controller.score.abandoned == 1
        assert "Abandoned 1" in str(scoreboard.render())
        assert "You (X) 0" in str(scoreboard.render())
        await pilot.resize_terminal(MIN_SIZE.width, MIN_SIZE.height)
        await pilot.pause()
        shown = str(scoreboard.render())
        assert "Abandoned 1" in shown and "Round 2" in shown
        assert len(shown) <= scoreboard.size.width  # the symbols make room when narrow


async def test_arrows_reach_the_buttons_and_enter_presses_them(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await press(pilot, "down", "down", "left")
        assert under_cursor(app) is app.query_one("#reset")
        await press(pilot, "enter")
        assert board(app) == "........."
        assert app.controller.round == 2
        await press(pilot, "up")
        assert under_cursor(app) is cell(app, 2, 0)


async def test_alternate_lets_the_ai_start_the_next_round(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 1)), alternate=True)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "r")
        assert board(app) == "....O...."


async def test_exit_button_and_q_and_ctrl_q_quit(make_app) -> None:
    for how in ("#exit", "q", "ctrl+q"):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            if how.startswith("#"):
                assert await pilot.click(how)
            else:
                await pilot.press(how)
            await pilot.pause()
            assert not app.is_running, how


# -- screens ---------------------------------------------------------------------


async def test_help_opens_and_closes(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        content = app.screen.query_one("#help > Static", Static).content
        assert isinstance(content, Markdown)
        text = content.markup  # rich Markdown
        assert "How the AI thinks" in text
        assert "minimax" in text
        await pilot.press("5")  # game keys do nothing under the help
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert board(app) == "........."
        await pilot.press("question_mark", "question_mark")
        assert isinstance(app.screen, GameScreen)


async def test_new_game_options_apply_and_reset_the_score(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        assert app.controller.score.human == 1
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        # Symbol O; the AI starts; easy; alternate. By keyboard only: Up/Down move
        # between the rows, Left/Right change a row, Enter starts from anywhere.
        await pilot.press("right", "down", "left", "down", "right")  # both wrap around
        await pilot.press("down", "left", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        options = app.controller.options
        assert (options.symbol, options.first, options.difficulty, options.alternate) == (
            "O",
            "ai",
            "easy",
            True,
        )
        controller = app.controller
        assert controller.human_symbol == "O"
        assert controller.score.human == 0
        assert controller.round == 1
        assert board(app) == "...X....."  # the AI, now X, started: its script says (1, 0)
        assert status(app) == "AI played 4. Your turn: you play O."
        assert "you O vs AI X · easy" in app.game.sub_title


async def test_new_game_cancelled_changes_nothing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        before, options = board(app), app.controller.options
        await pilot.press("n", "right", "down", "right", "escape")
        assert isinstance(app.screen, GameScreen)
        assert app.controller.options == options
        assert board(app) == before


# -- the menu (Ctrl+P) ----------------------------------------------------------------


async def test_menu_survives_keys_in_a_burst(make_app) -> None:
    """Textual's palette crashed on `ctrl+p pageup` and `ctrl+p enter enter` typed fast."""
    from tui_tictactoe.ui.screens.menu_screen import MenuScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        for keys in (["ctrl+p", "pageup"], ["ctrl+p", "pagedown", "escape"]):
            await burst(pilot, keys)
            await pilot.pause(0.2)
        assert isinstance(app.screen, GameScreen)
        await burst(pilot, ["ctrl+p", "home", "enter", "ctrl+p", "escape"])
        await settle(pilot)
        # Enter ran the first command (a new round) once, and closed the menu; the
        # second Ctrl+P opened it again and Escape closed it.
        assert isinstance(app.screen, GameScreen)
        assert app.controller.round == 2 and board(app) == "........."
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("escape")
        await press(pilot, "5")
        assert board(app)[4] == "X"


async def test_theme_menu_shows_the_highlighted_theme_and_escape_goes_back(make_app) -> None:
    from tui_tictactoe.ui.screens.menu_screen import ThemeMenu

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        original = app.theme
        themes = sorted(app.available_themes)
        app.action_change_theme()
        await pilot.pause()
        assert isinstance(app.screen, ThemeMenu)
        await pilot.press("down")
        assert app.theme == themes[themes.index(original) + 1]  # shown at once
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.theme == original
        await pilot.press("ctrl+p", "c", "end")
        await burst(pilot, ["enter", "enter"])
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.theme == themes[-1]


async def test_the_theme_menu_keeps_now_apart_from_a_long_name(make_app) -> None:
    from textual.widgets import OptionList

    from tui_tictactoe.ui.screens.menu_screen import ThemeMenu

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        longest = max(app.available_themes, key=len)
        app.theme = longest
        await pilot.pause()
        app.action_change_theme()
        await pilot.pause()
        assert isinstance(app.screen, ThemeMenu)
        menu = app.screen.query_one(OptionList)
        prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert len(longest) > 11  # a name longer than the game menu's column
        assert f"{longest}  (now)" in " ".join(prompts)


# -- terminal size -----------------------------------------------------------------


async def test_too_small_shows_a_message_and_recovers(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "3")
        await pilot.resize_terminal(MIN_SIZE.width - 1, 20)
        await pilot.pause()
        screen = app.game
        message = screen.query_one("#too-small", Static)
        assert screen.has_class("-too-small")
        assert message.display and not screen.query_one("#play").display
        assert "enlarge the terminal" in str(message.content)
        await pilot.resize_terminal(60, MIN_SIZE.height - 1)
        await pilot.pause()
        assert screen.has_class("-too-small")
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert not screen.has_class("-too-small")
        assert not message.display and screen.query_one("#play").display
        assert under_cursor(app) is cell(app, 0, 2)
        await press(pilot, "left", "enter")  # still playable where it left off
        assert board(app)[1] == "X"


async def test_starting_too_small_shows_the_message(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        assert app.game.has_class("-too-small")
