"""What a game is set up with, and the one list of allowed values for each option.

The command line, the new-game dialog and `GameController` all read their
choices from `CHOICES`, so a value is allowed in one place or in none.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..engine.board import SYMBOLS, Symbol
from ..engine.geometry import Geometry, geometry
from ..engine.strategies import DIFFICULTIES

Side = Literal["human", "ai"]
SIDES: tuple[Side, Side] = ("human", "ai")

WIN_LENGTHS: dict[str, int] = {"3": 3, "4": 4, "5": 4}
"""Board sizes offered and the line that wins on each: 4x4 and 5x5 play four in a row."""
BOARDS: tuple[str, ...] = tuple(WIN_LENGTHS)

CHOICES: dict[str, tuple[str, ...]] = {
    "symbol": SYMBOLS,
    "first": SIDES,
    "difficulty": DIFFICULTIES,
    "board": BOARDS,
}
"""Allowed values of every option that is a choice, in the order they are offered."""


class GameOptions(NamedTuple):
    """A game's set-up: the human's symbol, who starts the first round, the AI's level."""

    symbol: Symbol = "X"
    first: Side = "human"
    difficulty: str = "hard"
    alternate: bool = False  # the side that did not start last round starts the next
    board: str = "3"  # the board's size, one of BOARDS (a string, like every choice)

    @property
    def geometry(self) -> Geometry:
        """The board this game is played on (3x3 three in a row, else four in a row)."""
        return geometry(int(self.board), WIN_LENGTHS[self.board])

    def validated(self) -> GameOptions:
        """These options, if every value is allowed; else ValueError naming the bad one."""
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(
                    f"{name} must be one of {', '.join(allowed)}, not {shorten(repr(value))}"
                )
        if not isinstance(self.alternate, bool):
            raise ValueError(
                f"alternate must be True or False, not {shorten(repr(self.alternate))}"
            )
        return self


def board_geometry(size: int) -> Geometry:
    """The geometry of a board `size` cells wide as the game plays it (a replayed round)."""
    return GameOptions(board=str(size)).geometry


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with an ellipsis: error messages echo what they got."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
