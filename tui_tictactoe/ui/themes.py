"""The game's own colour themes, registered beside Textual's built-in ones.

The menu's Theme lists them with the others, the record remembers the choice, and
tests/ui/test_theme_contrast.py measures each at every colour depth like any built-in theme.
CONTRIBUTING.md's recipe adds one here.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.theme import Theme

HIGH_CONTRAST = Theme(
    name="tictactoe-high-contrast",
    # For low vision and bright rooms: white on black, X in yellow, O in cyan (the two
    # colours furthest apart for the common colour blindnesses), the cursor yellow.
    primary="#00E5FF",
    secondary="#B388FF",
    accent="#FFD600",
    foreground="#FFFFFF",
    background="#000000",
    surface="#0A0A0A",
    panel="#1C1C1C",
    boost="#FFFFFF14",
    success="#00E676",
    warning="#FFAB00",
    error="#FF5252",
    dark=True,
)

THEMES = (HIGH_CONTRAST,)
"""Every theme of the game's own, in the order they were added."""


def register_themes(app: App[Any]) -> None:
    for theme in THEMES:
        app.register_theme(theme)
