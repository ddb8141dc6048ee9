"""Whatever a player presses, clicks or resizes to, the app keeps running and shows the truth.

Seeded random sessions: keys one by one and in bursts (as SSH and paste deliver
them), clicks anywhere, terminal resizes, across the game, the new-game dialog
and the help. After each step the board on screen must be the controller's
board, the score must add up and the status must say something; at the end the
game must still play.
"""

from __future__ import annotations

import random

import pytest
from support import SIZE, board, burst, press, settle
from textual.pilot import Pilot
from textual.widgets import Button

from tui_tictactoe.controller.status import turn_status
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.widgets import Scoreboard

# Every key the app binds anywhere, some it does not, and none that quits
# (quitting by the Exit button is still possible: see `step`).
KEYS = [
    *"123456789",
    *["up", "down", "left", "right", "enter", "space", "tab", "shift+tab"],
    *["r", "n", "a", "h", "i", "question_mark", "escape", "t", "m", "plus", "minus"],
    *["x", "z", "0", "home", "end", "pageup", "delete", "backspace", "f1", "ctrl+p"],
]


def check(app: TicTacToeApp) -> None:
    """What the game screen shows agrees with the controller, whatever screen is on top."""
    game = app.game
    controller = game.controller
    assert board(app) == controller.board.to_string()
    assert len(game.query(Button)) == 12
    scoreboard = game.query_one(Scoreboard)
    score = controller.score
    assert (scoreboard.human, scoreboard.ai, scoreboard.draws) == (
        score.human,
        score.ai,
        score.draws,
    )
    assert score.human + score.ai + score.draws <= controller.round
    # The status line's first line is the state of play, whatever note is under it.
    assert game.status.state == turn_status(controller)


async def step(pilot: Pilot[None], rng: random.Random) -> None:
    app = pilot.app
    roll = rng.random()
    if roll < 0.70:
        await pilot.press(rng.choice(KEYS))
    elif roll < 0.85:
        await burst(pilot, rng.choices(KEYS, k=rng.randint(2, 6)))
    elif roll < 0.95:
        width, height = app.size
        await pilot.click(offset=(rng.randrange(width), rng.randrange(height)))
    else:
        await pilot.resize_terminal(rng.randint(30, 110), rng.randint(10, 36))
        await pilot.pause()
    await settle(pilot)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_random_sessions_never_crash_and_always_show_the_truth(make_app, seed) -> None:
    rng = random.Random(seed)
    app = make_app(seed=seed, difficulty=rng.choice(["easy", "medium", "hard"]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(120):
            await step(pilot, rng)
            if not app.is_running:
                break  # the Exit button was pressed: a clean exit is a fine ending
            check(app)
        if app.is_running:
            # Back to a playable game: close whatever is open, full size, new round.
            await pilot.resize_terminal(*SIZE)
            while not isinstance(app.screen, GameScreen):
                await pilot.press("escape")
            await press(pilot, "r")
            check(app)
            if app.controller.is_human_turn:
                before = app.controller.board.to_string()
                empty = before.index(".")
                await press(pilot, str(empty + 1))
                assert app.controller.board.to_string() != before
            check(app)
    assert app.return_code in (None, 0)
