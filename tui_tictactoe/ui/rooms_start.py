"""The app's first screen when it is given a room hub: the lobby, or the room it asked for.

Who this session is to the hub (`Person`) comes from the app (the command layer) or
this process's identity; where others reach the server from `rooms.request`'s
environment variable. Imported only when a hub is given: a game against the AI
never loads the rooms' screens.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..rooms.request import RoomRequest, room_address
from ..rooms.view import Person
from .screens.game_screen import GameScreen
from .screens.lobby_screen import LobbyScreen
from .screens.room_screen import RoomScreen, RoomSetting

if TYPE_CHECKING:
    from textual.screen import Screen

    from .app import TicTacToeApp


def room_setting(app: TicTacToeApp) -> RoomSetting:
    """The hub and who this session is to it, as the app was given them."""
    assert app.hub is not None
    if app.person is not None:
        who, guest = app.person, not app.person.key
    else:
        identity = app.record_link.identity
        who, guest = Person(identity.name, identity.player or ""), identity.player is None
    return RoomSetting(app.hub, who, guest, room_address(), app.room_clock or time.monotonic)


def first_screen(app: TicTacToeApp) -> Screen[None]:
    request = app.room or RoomRequest()
    setting = room_setting(app)
    if request.kind == "lobby":
        size = int(app.controller.options.board)
        return LobbyScreen(setting, lambda: GameScreen(app.controller, app.record_link), size)
    return RoomScreen(setting, request)
