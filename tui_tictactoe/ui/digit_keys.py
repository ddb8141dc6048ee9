"""The keys 1-9, which play a cell by its number, on 3x3 only.

The key bar lists them as one entry, "1-9 Play" (see `widgets/key_bar.py`), the
cells show their numbers faintly, and the help lists them.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen

DIGIT_KEYS = [
    Binding(str(key), f"play({key})", f"Play {key}", show=False, priority=True)
    for key in range(1, 10)
]
"""Priority bindings, like every game key (see `GameScreen.BINDINGS`)."""


def digits_play(screen: Screen[object], action: str) -> bool:
    """For `check_action`: False for the digits on boards bigger than 3x3 (nine keys
    cannot name 16 cells)."""
    if action.startswith("play"):
        geometry = getattr(screen, "geometry", None)
        return geometry is None or geometry.cells <= 9
    return True
