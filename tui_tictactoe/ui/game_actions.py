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
    from .record_link import RecordLink
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


def _record_link(screen: GameScreen) -> RecordLink | None:
    return getattr(screen.app, "record_link", None)  # the app's RecordLink (record_link.py)


def options_to_offer(screen: GameScreen) -> GameOptions:
    """What the new-game dialog opens with: saved settings that arrived after play had
    begun and wait for the next game, else the game's own options."""
    link = _record_link(screen)
    waiting = link.waiting if link is not None else None
    return waiting or screen.controller.options


def waiting_options(screen: GameScreen) -> GameOptions | None:
    """Saved settings waiting for the next round (once): `r` starts a game with them."""
    link = _record_link(screen)
    return link.take_waiting() if link is not None else None


def remember_options(screen: GameScreen, shown: GameOptions, chosen: GameOptions) -> None:
    """The dialog showed `shown` and the player started a game with `chosen`: tell the
    record, which keeps what they changed as their settings."""
    link = _record_link(screen)
    if link is not None:
        link.options_chosen(shown, chosen)
