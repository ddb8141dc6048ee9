"""The keys 1-9, which play a cell by its number, on 3x3 only.

They are bound, and listed in the key bar as one entry ("1-9 Play") and in the help,
from the command table (`ui/commands.py`); the cells show their numbers faintly. On
the bigger boards the cells show their numbers too (every message names a cell by
it), but nine keys cannot name 16 or 25 cells: a digit there says how to play instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..controller.status import Status, digits_refused

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..engine.geometry import Geometry

DIGITS = frozenset("123456789")


def digits_play(screen: Screen[Any], action: str) -> bool:
    """For `check_action`: False for the digits on boards bigger than 3x3 (nine keys
    cannot name 16 cells), which keeps them out of the keys panel there."""
    if action.startswith("play"):
        geometry = getattr(screen, "geometry", None)
        return geometry is None or geometry.cells <= 9
    return True


def digit_on_big_board(geometry: Geometry, key: str) -> Status | None:
    """What a digit key says where its binding is off (beyond 3x3); None for other keys."""
    if key in DIGITS and geometry.cells > 9:
        return digits_refused(geometry.size)
    return None
