"""The plain modes' help fits an 80-column terminal, a line each: a screen reader or a
narrow `ssh` window reads one line as one line, never a line cut in the middle."""

from __future__ import annotations

import pytest

from tui_tictactoe.commands.plain.room import HELP
from tui_tictactoe.commands.plain.text import help_lines


def test_a_plain_room_help_line_fits_80_columns() -> None:
    assert all(len(line) < 80 for line in HELP), [line for line in HELP if len(line) >= 80]


@pytest.mark.parametrize("side", [3, 4, 5, 6])
def test_a_plain_game_help_line_fits_80_columns(side: int) -> None:
    lines = help_lines(side * side)
    assert all(len(line) < 80 for line in lines), [line for line in lines if len(line) >= 80]
