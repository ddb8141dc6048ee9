"""Game-screen actions kept out of the screen's module, which stays small.

`u`, take back the human's last move and the AI's reply, acts at once, like a
new round, not after the AI's reply. A reply still being computed is dropped by the
controller's generation; the held keys are dropped with it, since they were
typed for the position that is being undone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..controller.status import take_back_status

if TYPE_CHECKING:
    from ..controller import GameOptions
    from .screens.game_screen import GameScreen


def take_back(screen: GameScreen) -> None:
    """Undo on the controller, then show the board and say what was undone (or why not)."""
    result = screen.controller.take_back()
    if result.undone:
        screen.type_ahead.clear()
        screen.workers.cancel_group(screen, "ai")
        screen.hint = None
        screen._show_all()  # the human to move: nothing to ask the AI
    screen.status.say(take_back_status(screen.controller, result))


def remember_options(screen: GameScreen, options: GameOptions) -> None:
    """The options chosen in the new-game dialog become the player's saved settings."""
    link = getattr(screen.app, "record_link", None)  # the app's RecordLink (record_link.py)
    if link is not None:
        link.save_options(options)
