"""What the room screen's choices about who gets in say, and when: `p` lists the room in
the lobby or makes it private again (the player who opened it), `w` lets spectators in or
sends them away (either player). The hub decides (`room.Room.set_public`, `set_watching`);
`RoomScreen` asks, and a `PendingNote` it owns says what changed with the view that shows
it. `key_states` is what the key bar shows of the room's choices and offers.
"""

from __future__ import annotations

from collections.abc import Callable

from tui_tictactoe.controller.status import Status
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.room import WATCHING_OFF
from tui_tictactoe.rooms.status import claim_in
from tui_tictactoe.rooms.view import RoomView
from tui_tictactoe.ui.widgets import StatusLine

LISTED = Status("Public: the lobby lists this room.", "hint")
PRIVATE = Status("Private: only people with the code get in.", "hint")
WATCHING_ON = Status("Watching on: people with the code may watch.", "hint")
NO_WATCHING = Status("Watching off: spectators were sent away.", "hint")
WATCHERS_ONLY = "You are watching: only the players say who may watch."


def key_states(game: RoomGame, now: float) -> dict[str, bool] | None:
    """The key bar's states: the room's listing and watching, whether this player opened
    it, an offer waiting for them, a take-back or a claim they may ask for; None until
    the first view (and for spectators)."""
    view = game.view
    if view is None or not game.is_player:
        return None
    return {
        "room_public": view.public,
        "room_watching": view.watching,
        "opener": game.opened_by_me,
        "offer_to_me": game.offer_to_me,
        "take_back": game.may_take_back,
        "claim": claim_in(game, now) == 0,  # the opponent left, half the grace passed
    }


class PendingNote:
    """A note to say with the view that shows the change it is about: each view clears the
    status's note (`RoomScreen._show`), and the view may come before or after the hub's
    answer, so the note waits here for it."""

    def __init__(self, status: StatusLine) -> None:
        self.status = status
        self._pending: tuple[Status, Callable[[RoomView], bool]] | None = None

    def say(self, note: Status, shown: Callable[[RoomView], bool], view: RoomView | None) -> None:
        """Say `note` now if `view` shows the change, else once a view does."""
        self._pending = (note, shown)
        self.seen(view)

    def seen(self, view: RoomView | None) -> None:
        """A view taken: the note waiting for it is said."""
        pending = self._pending
        if pending is not None and view is not None and pending[1](view):
            self.status.say(pending[0])
            self._pending = None


def ended_reason(game: RoomGame) -> str:
    """What a session whose updates ended without a reason is told."""
    view = game.view
    if view is not None and not view.watching and not game.is_player:
        return WATCHING_OFF
    return f"You are no longer in room {game.ticket.code}."
