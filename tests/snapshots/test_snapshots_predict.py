"""Snapshots of predict (`p`): three marks made (80x24), graded with the truth on the board
(80x24, 60x18), back in the game with the overlay and the score (60x18), and 6x6 graded at
its smallest terminal (60x19), its unproven cells ungraded.

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from support import SIZE, ScriptedStrategy, make_app, press, settle
from textual.pilot import Pilot

from tui_tictactoe.ui.screens.predict_screen import PredictScreen

Snap = Callable[..., bool]

MARKS = ("right", "down", "w", "down", "d", "left", "l")
"""Cell 6 a win, 9 a draw, 8 a loss (after X 5 and the AI's 1: the cursor starts on 2)."""


def predicted(*keys: str, first: str = "5") -> Callable[[Pilot[None]], Awaitable[None]]:
    """Play `first`, open predict, press `keys` (and let a search answer)."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await press(pilot, first, "p")
        assert isinstance(pilot.app.screen, PredictScreen)
        await press(pilot, *keys)
        await settle(pilot)

    return run_before


def scripted_app() -> object:
    return make_app(record=False, strategy=ScriptedStrategy((0, 0)))


def test_predict_three_marks_made(snap_compare: Snap) -> None:
    assert snap_compare(scripted_app(), terminal_size=SIZE, run_before=predicted(*MARKS))


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_predict_graded(snap_compare: Snap, size: tuple[int, int]) -> None:
    run_before = predicted(*MARKS, "enter")
    assert snap_compare(scripted_app(), terminal_size=size, run_before=run_before)


def test_predict_back_in_the_game_with_the_overlay(snap_compare: Snap) -> None:
    run_before = predicted(*MARKS, "enter", "enter")
    assert snap_compare(scripted_app(), terminal_size=(60, 18), run_before=run_before)


def test_predict_graded_on_6x6(snap_compare: Snap) -> None:
    app = make_app(record=False, board="6", strategy=ScriptedStrategy((2, 2)))
    run_before = predicted("w", "right", "d", "right", "l", "enter", first="enter")
    assert snap_compare(app, terminal_size=(60, 19), run_before=run_before)
