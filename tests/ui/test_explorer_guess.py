"""Guessing alpha and beta in the search explorer (`g`): the typed bounds read or refused in
one line, the node guessed is the next one entered and its window the search's own, the
grade's words; on the screen a guess typed and graded steps to the node, a bad one stays
to be fixed, Escape takes it back (the explorer stays), `-` and Space type into the box,
and `g` is offered in the alpha-beta search only."""

from __future__ import annotations

import pytest
from support import SIZE, make_app, press

from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.predictions import grade_window
from tui_tictactoe.engine.search_steps import WIDE, steps
from tui_tictactoe.ui.explorer_view import (
    GUESS_LENGTH,
    Position,
    Walk,
    guess_target,
    parse_window,
    window_words,
)
from tui_tictactoe.ui.screens.explorer_screen import (
    GUESS_KEY,
    GUESSING_KEYS,
    ExplorerScreen,
    explorer_keys,
)
from tui_tictactoe.ui.screens.game_screen import GameScreen


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("-inf 3", (-WIDE, 3)),
        ("-∞, +∞", (-WIDE, WIDE)),
        ("  0   -2 ", (0, -2)),
        ("+4 INF", (4, WIDE)),
    ],
)
def test_typed_bounds_are_read(text: str, window: tuple[int, int]) -> None:
    assert parse_window(text) == window


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("3", "type two bounds"),
        ("1 2 3", "type two bounds"),
        ("x 3", "'x' is no bound"),
        ("5000 3", "beyond any score"),
        ("1" * (GUESS_LENGTH + 1), "at most"),
    ],
)
def test_bad_bounds_are_refused_in_one_line(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said) as refused:
        parse_window(text)
    assert "\n" not in str(refused.value)


def position_after(board: str, mover: str) -> Position:
    found = Position.of_board(GameBoard.from_string(board), mover, "X", {"X": "you", "O": "the AI"})
    assert found is not None
    return found


@pytest.mark.parametrize(("board", "mover"), [("....X....", "O"), ("X...O....", "X")])
def test_the_guess_is_about_the_next_node_entered_with_the_searchs_window(
    board: str, mover: str
) -> None:
    """Every step of the walk: where the next step enters a node, the target is that node
    and its window the step's (maximiser's view); a right guess is graded right, a wrong
    bound is named."""
    position = position_after(board, mover)
    walk = Walk(position, "alphabeta")
    guessed = 0
    while (step := walk.upcoming) is not None:
        target = guess_target(walk)
        if step.kind == "enter":
            assert step.alpha is not None and step.beta is not None
            window = position.window(step.alpha, step.beta)
            assert target == (step.path, window)
            assert grade_window(window, window).right
            wrong = grade_window((window[0] - 1, window[1]), window)
            assert not wrong.right and not wrong.alpha_right and wrong.beta_right
            assert "alpha is" in window_words(wrong, position, step.path)
            assert "beta is" not in window_words(wrong, position, step.path)
            guessed += 1
        else:
            assert isinstance(target, str) and "enters no node" in target
        walk.forward()
    entered = steps(position.me, position.them, position.geometry, "alphabeta")
    assert guessed == sum(step.kind == "enter" for step in entered) - 1  # all but the root
    assert guess_target(walk) == "No node left to guess: the search is over (Home starts again)"
    assert "m switches" in str(guess_target(Walk(position, "minimax")))


def test_the_words_of_a_right_guess() -> None:
    position = position_after("....X....", "O")
    found = grade_window((-WIDE, 3), (-WIDE, 3))
    assert window_words(found, position, (0, 1)) == "Right: alpha -∞, beta +3 at 1, 2"
    both = grade_window((0, 0), (-WIDE, 3))
    assert window_words(both, position, (0, 1)) == (
        "At 1, 2: alpha -∞, not 0; beta +3, not 0 (your best so far, the AI's)"
    )
    beta = grade_window((-WIDE, 0), (-WIDE, 3))
    assert window_words(beta, position, (0,)) == "At 1: beta is +3, not 0: the AI's best so far"


def test_g_is_in_the_key_bar_of_the_alpha_beta_search_only() -> None:
    assert GUESS_KEY in explorer_keys("alphabeta")
    assert GUESS_KEY not in explorer_keys("minimax") and GUESS_KEY not in explorer_keys("engine")


def explorer(app: object) -> ExplorerScreen:
    screen = getattr(app, "screen", None)
    assert isinstance(screen, ExplorerScreen)
    return screen


def said(screen: ExplorerScreen) -> str:
    return str(screen.why.content)


async def test_a_guess_typed_is_graded_and_steps_to_its_node() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "t", "m")
        screen = explorer(app)
        assert screen.method == "alphabeta" and GUESS_KEY in screen.key_bar.hints
        await pilot.press("right")
        await pilot.pause()
        target = guess_target(screen.walk)
        assert not isinstance(target, str)
        index = screen.walk.index
        await pilot.press("g")
        await pilot.pause()
        assert screen.guess_box is not None and app.focused is screen.guess_box
        assert screen.key_bar.hints == GUESSING_KEYS
        # `-` is a minus here, not Slower; Space a space, not Play; `i` a letter of inf.
        speed = screen.speed
        await pilot.press(*"-inf 3")
        await pilot.pause()
        assert screen.guess_box.value == "-inf 3" and screen.speed == speed
        assert screen.timer is None and screen.walk.index == index
        await pilot.press("enter")
        await pilot.pause()
        assert screen.guess_box is None and screen.walk.index == index + 1
        assert screen.walk.current.path == target[0]
        expected = window_words(grade_window((-WIDE, 3), target[1]), screen.position, target[0])
        assert said(screen) == expected
        assert GUESS_KEY in screen.key_bar.hints
        await pilot.press("right")  # the grade goes as the walk moves on
        await pilot.pause()
        assert said(screen) != expected


async def test_a_bad_guess_stays_to_be_fixed_and_escape_takes_a_guess_back() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "t", "m", "right", "g")
        screen = explorer(app)
        index = screen.walk.index
        await pilot.press("3", "enter")
        await pilot.pause()
        assert screen.guess_box is not None and "type two bounds" in said(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ExplorerScreen) and screen.guess_box is None
        assert screen.walk.index == index and "No guess" in said(screen)
        assert app.focused is screen.search_tree
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_guess_holds_at_most_its_length_and_only_the_characters_of_bounds() -> None:
    """A bound for hostile input (a spectator over SSH may open the explorer): 40 digits
    typed keep 24, and a letter that is no part of a bound is not let in."""
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "t", "m", "right", "g")
        screen = explorer(app)
        assert screen.guess_box is not None
        await pilot.press(*"1" * 40, "x", "q")
        await pilot.pause()
        assert screen.guess_box.value == "1" * GUESS_LENGTH
        assert isinstance(app.screen, ExplorerScreen)  # q typed nothing and quit nothing


async def test_g_in_plain_minimax_says_where_it_works() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "t", "g")
        screen = explorer(app)
        assert screen.guess_box is None and "m switches to it" in said(screen)
        assert GUESS_KEY not in screen.key_bar.hints
