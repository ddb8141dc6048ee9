"""The room screen's two choices about who gets in: `p` lists the room in the lobby or
makes it private again (the player who opened it), `w` lets spectators in or sends them
away (either player). The hub decides (`room.Room.set_public`, `set_watching`); the
screen asks, says what changed, and shows the state in its key bar from the next view.
A mixin of `RoomScreen`, apart only to keep that module short.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tui_tictactoe.controller.status import Status
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.room import WATCHING_OFF
from tui_tictactoe.rooms.view import RoomView
from tui_tictactoe.ui.widgets import StatusLine

LISTED = Status("Public: the lobby lists this room.", "hint")
PRIVATE = Status("Private: only people with the code get in.", "hint")
WATCHING_ON = Status("Watching on: people with the code may watch.", "hint")
NO_WATCHING = Status("Watching off: spectators were sent away.", "hint")
WATCHERS_ONLY = "You are watching: only the players say who may watch."


class RoomChoices:
    """`action_toggle_public` and `action_toggle_watching` for `RoomScreen`."""

    game: RoomGame
    hub: RoomHub
    status: StatusLine
    entered: bool
    _pending: tuple[Status, Callable[[RoomView], bool]] | None = None  # a note for a view

    async def _ask(self, call: Awaitable[None]) -> bool:
        raise NotImplementedError  # RoomScreen's

    def choices(self) -> dict[str, bool] | None:
        """The key bar's states: the room's listing and watching, and whether this
        player opened it; None until the first view (and for spectators)."""
        view = self.game.view
        if view is None or not self.game.is_player:
            return None
        opener = view.opener is not None and view.opener == self.game.ticket.seat
        offer_to_me = view.offer is not None and view.offer.by != self.game.ticket.seat
        return {
            "room_public": view.public,
            "room_watching": view.watching,
            "opener": opener,
            "offer_to_me": offer_to_me,
        }

    async def action_toggle_public(self) -> None:
        view = self.game.view
        if view is None or not self.entered:
            return
        public = not view.public
        if await self._ask(self.hub.set_public(self.game.ticket, public)):
            self._say_once_shown(LISTED if public else PRIVATE, lambda v: v.public == public)

    async def action_toggle_watching(self) -> None:
        view = self.game.view
        if view is None or not self.entered:
            return
        if not self.game.is_player:
            self.status.say(Status(WATCHERS_ONLY, "refused"))
            return
        watching = not view.watching
        if await self._ask(self.hub.set_watching(self.game.ticket, watching)):
            note = WATCHING_ON if watching else NO_WATCHING
            self._say_once_shown(note, lambda v: v.watching == watching)

    def _say_once_shown(self, note: Status, shown: Callable[[RoomView], bool]) -> None:
        """Say `note` with the view that shows the change: each view clears the note
        (`RoomScreen._show`), and it may come before or after the hub's answer."""
        view = self.game.view
        if view is not None and shown(view):
            self.status.say(note)
            self._pending = None
        else:
            self._pending = (note, shown)

    def on_room_screen_updated(self, _message: Any) -> None:
        """After `RoomScreen`'s own handler (Textual runs each class's in the MRO)."""
        pending, view = self._pending, self.game.view
        if pending is not None and view is not None and pending[1](view):
            self.status.say(pending[0])
            self._pending = None


def ended_reason(game: RoomGame) -> str:
    """What a session whose updates ended without a reason is told."""
    view = game.view
    if view is not None and not view.watching and not game.is_player:
        return WATCHING_OFF
    return f"You are no longer in room {game.ticket.code}."
