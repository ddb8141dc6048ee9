"""Snapshots of the big boards (4x4, 5x5) at 80x24 and 60x20, seeded.

5x5 at 60x20 leaves cells two rows high: they drop their top border (see
`GameGrid._fit_borders`) so the marks still show. Every SVG was looked at before
it was accepted.
"""

from __future__ import annotations

from support import SIZE, SMALL, play


def test_4x4_mid_game(snap_compare, make_app) -> None:
    app = make_app(board="4")
    assert snap_compare(app, terminal_size=SIZE, run_before=play("right", "enter"))


def test_4x4_mid_game_60x20(snap_compare, make_app) -> None:
    app = make_app(board="4", symbol="O", first="ai")
    assert snap_compare(app, terminal_size=SMALL, run_before=play("up", "enter"))


def test_5x5_mid_game(snap_compare, make_app) -> None:
    app = make_app(board="5", difficulty="medium")
    assert snap_compare(app, terminal_size=SIZE, run_before=play("enter", "left", "enter"))


def test_5x5_mid_game_60x20(snap_compare, make_app) -> None:
    app = make_app(board="5", difficulty="medium", first="ai")
    assert snap_compare(app, terminal_size=SMALL, run_before=play("up", "enter"))
