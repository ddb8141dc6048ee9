"""Snapshots of the review (`v`) after a round, and of the game screen once a round is over
(`v Review` in the hint's place in the key bar), at 80x24 and 60x18.

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

import pytest
from support import SIZE, play

SIZES = [SIZE, (60, 18)]
IDS = ["80x24", "60x18"]
ROUND = tuple("1234567")
"""The seeded AI's game against these keys: over after six moves, X's 4 a blunder."""


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_game_once_the_round_is_over(snap_compare, make_app, size) -> None:
    """The key bar offers `v Review` where `h Hint` was: two lines still."""
    app = make_app(record=False)
    assert snap_compare(app, terminal_size=size, run_before=play(*ROUND))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_review_of_the_round(snap_compare, make_app, size) -> None:
    """Each move's verdict before and after; the blunder in the error look, its sentence
    and lines under it."""
    app = make_app(record=False)
    assert snap_compare(app, terminal_size=size, run_before=play(*ROUND, "v"))
