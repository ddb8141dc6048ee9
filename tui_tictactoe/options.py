"""The one table of allowed option values: symbols, who starts, difficulties, board sizes,
who plays the other seat.

At the bottom of the package, above the engine only: the command line, the new-game
dialog, the controller, the record's validation and the servers all read their choices
from `CHOICES`, so a value is allowed in one place or in none.
"""

from __future__ import annotations

from typing import Literal

from tui_tictactoe.engine.board import SYMBOLS
from tui_tictactoe.engine.geometry import Geometry, geometry
from tui_tictactoe.engine.strategies import DIFFICULTIES

Side = Literal["human", "ai"]
SIDES: tuple[Side, Side] = ("human", "ai")

Opponent = Literal["ai", "human"]
OPPONENTS: tuple[Opponent, Opponent] = ("ai", "human")
"""Who sits in the other seat: the AI, or a second person at this keyboard (hot seat)."""

WIN_LENGTHS: dict[str, int] = {"3": 3, "4": 4, "5": 4, "6": 5}
"""Board sizes offered and the line that wins on each: 4x4 and 5x5 play four in a row, 6x6
five (searched within a second, not solved: `engine.bounded`)."""
BOARDS: tuple[str, ...] = tuple(WIN_LENGTHS)

CHOICES: dict[str, tuple[str, ...]] = {
    "symbol": SYMBOLS,
    "first": SIDES,
    "difficulty": DIFFICULTIES,
    "board": BOARDS,
    "opponent": OPPONENTS,
}
"""Allowed values of every option that is a choice, in the order they are offered."""


def board_geometry(size: int | str) -> Geometry:
    """The board `size` cells wide as the game plays it (`WIN_LENGTHS`: the line that wins)."""
    return geometry(int(size), WIN_LENGTHS[str(size)])
