"""What a game is set up with: `GameOptions`, checked against the one table of allowed
values (`tui_tictactoe.options`, re-exported here for the controller's users)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from tui_tictactoe.engine.board import Symbol
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.options import (
    BOARDS,
    CHOICES,
    OPPONENTS,
    SIDES,
    WIN_LENGTHS,
    Opponent,
    Side,
    board_geometry,
)

__all__ = [
    "BOARDS",
    "CHOICES",
    "OPPONENTS",
    "SETTINGS",
    "SIDES",
    "WIN_LENGTHS",
    "GameOptions",
    "Opponent",
    "Side",
    "board_geometry",
]


class GameOptions(NamedTuple):
    """A game's set-up: the human's symbol, who starts the first round, the AI's level,
    and who sits in the other seat. Against a person (`opponent` "human", hot seat) the
    symbol, who starts and the level do nothing: X starts, and both seats are people."""

    symbol: Symbol = "X"
    first: Side = "human"
    difficulty: str = "hard"
    alternate: bool = False  # the side that did not start last round starts the next
    board: str = "3"  # the board's size, one of BOARDS (a string, like every choice)
    opponent: Opponent = "ai"  # the other seat: the AI, or a second person here (hot seat)

    @property
    def geometry(self) -> Geometry:
        """The board this game is played on (3x3 three in a row, else four in a row)."""
        return board_geometry(self.board)

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

    def with_settings(
        self, settings: Mapping[str, object], given: Mapping[str, object]
    ) -> GameOptions:
        """These options with the player's saved `settings` over them, and the options
        `given` in this run (flags, the dialog) over those: a flag wins for its run."""
        saved = {name: settings[name] for name in SETTINGS if name in settings}
        # Checked where each was read: the record's validation, the play options' choices.
        merged: dict[str, Any] = {**saved, **given}
        return self._replace(**merged)


SETTINGS = ("symbol", "first", "difficulty", "alternate", "board", "opponent")
"""Game options kept as settings in the record (the app's theme is kept too, apart)."""


def shorten(text: str, limit: int = 40) -> str:
    """`text`, cut to `limit` characters with an ellipsis: error messages echo what they got."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
