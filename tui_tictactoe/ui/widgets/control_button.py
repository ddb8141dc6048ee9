"""The buttons under the board (Reset, New game, Exit)."""

from __future__ import annotations

from tui_tictactoe.ui.widgets.narrow_button import NarrowButton


class ControlButton(NarrowButton, can_focus=False):
    """A button the keyboard reaches by the game's cursor (the CSS class `-cursor`), not by focus.

    Nothing on the game screen takes focus, so a burst of keys is never ahead of
    a focus change (see `GameScreen`).
    """
