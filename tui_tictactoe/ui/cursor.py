"""The keyboard cursor: a cell of the board, or one of the buttons in the row under it."""

from __future__ import annotations

from typing import NamedTuple


class Control(NamedTuple):
    """A button under the board; the keyboard cursor reaches it below the last row."""

    id: str
    label: str
    action: str


CONTROLS = (
    Control("reset", "Reset", "screen.new_round"),
    Control("new-game", "New game", "screen.new_game"),
    Control("exit", "Exit", "app.ask_quit"),  # asks mid-round, like `q`
)


def step(cursor: tuple[int, int], drow: int, dcol: int, size: int) -> tuple[int, int]:
    """Move the cursor one place, stopping at the edges; row `size` is the row of buttons."""
    row = min(max(cursor[0] + drow, 0), size)
    last_col = len(CONTROLS) - 1 if row == size else size - 1
    return row, min(max(cursor[1] + dcol, 0), last_col)
