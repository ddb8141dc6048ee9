"""Snapshots of the search explorer (`t`): plain minimax 20 steps in, at 80x24 and 60x18;
alpha-beta at its first cut; the engine at its first memory hit; the end with the best line;
the empty 4x4 board, too big, first level first; a guess of alpha and beta typed (`g`), and
graded (60x18).

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from support import SIZE, make_app, press
from textual.pilot import Pilot

from tui_tictactoe.engine.search_steps import StepKind
from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen

Snap = Callable[..., bool]


def explore(*keys: str, until: StepKind | None = None) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Play 5, open the explorer, press `keys`, then step until a step of kind `until`."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await press(pilot, "5", "t", *keys)
        screen = pilot.app.screen
        assert isinstance(screen, ExplorerScreen)
        while until is not None and screen.walk.current.kind != until:
            screen.action_step()
        await pilot.pause()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_explorer_20_steps_into_plain_minimax(snap_compare: Snap, size: tuple[int, int]) -> None:
    run_before = explore(*["right"] * 20)
    assert snap_compare(make_app(record=False), terminal_size=size, run_before=run_before)


def test_explorer_alpha_beta_at_its_first_cut(snap_compare: Snap) -> None:
    run_before = explore("m", until="cut")
    assert snap_compare(make_app(record=False), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_explorer_the_engine_at_its_first_hit(snap_compare: Snap, size: tuple[int, int]) -> None:
    run_before = explore("m", "m", until="hit")
    assert snap_compare(make_app(record=False), terminal_size=size, run_before=run_before)


def test_explorer_at_the_end_with_the_best_line(snap_compare: Snap) -> None:
    run_before = explore("m", "end")
    assert snap_compare(make_app(record=False), terminal_size=SIZE, run_before=run_before)


def test_explorer_too_big_on_the_empty_4x4_board(snap_compare: Snap) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await press(pilot, "t", *["right"] * 6)

    app = make_app(record=False, board="4")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_explorer_a_guess_being_typed(snap_compare: Snap) -> None:
    """`g` in alpha-beta: the box over the keys, the key bar of a guess."""
    run_before = explore("m", *["right"] * 3, "g", *"-inf 2")
    assert snap_compare(make_app(record=False), terminal_size=SIZE, run_before=run_before)


def test_explorer_a_guess_graded_60x18(snap_compare: Snap) -> None:
    """Both bounds wrong, named on two lines, and the node entered with its real window."""
    run_before = explore("m", *["right"] * 3, "g", *"0 0", "enter")
    assert snap_compare(make_app(record=False), terminal_size=(60, 18), run_before=run_before)
