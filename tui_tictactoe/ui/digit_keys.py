"""The keys 1-9, which play a cell by its number, on 3x3 only.

They are bound, and listed in the key bar as one entry ("1-9 Play") and in the help,
from the command table (`ui/commands.py`); the cells show their numbers faintly.
"""

from __future__ import annotations

from textual.screen import Screen


def digits_play(screen: Screen[object], action: str) -> bool:
    """For `check_action`: False for the digits on boards bigger than 3x3 (nine keys
    cannot name 16 cells)."""
    if action.startswith("play"):
        geometry = getattr(screen, "geometry", None)
        return geometry is None or geometry.cells <= 9
    return True
