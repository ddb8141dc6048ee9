"""The app's first screen when it is given a room hub: the lobby, or the room it asked for.

Who this session is to the hub (`Person`) comes from the command layer or this
process's identity; where others reach the server from `rooms.request`'s environment
variable. Imported only when a hub is given: a game against the AI never loads the
rooms' screens.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from textual.screen import Screen

from tui_tictactoe.identity import Identity
from tui_tictactoe.record.values import Match
from tui_tictactoe.rooms.request import RoomRequest, RoomsEntry, room_address
from tui_tictactoe.rooms.view import Person
from tui_tictactoe.ui.rooms.lobby_screen import LobbyScreen
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.rooms.room_setting import RoomSetting, SeatKeeper, TurnSignals


def room_setting(
    rooms: RoomsEntry,
    identity: Identity,
    keep: Callable[[Match], None] | None = None,
    rating: Callable[[str], int] | None = None,
    signals: TurnSignals | None = None,
    seats: SeatKeeper | None = None,
) -> RoomSetting:
    """The hub and who this session is to it: `RoomsEntry.person` as the command layer named
    it, else this process's identity (no key: a guest, who is shown their seat token);
    `rating(key)` reads a keyed player's Elo for a quick match (a guest's is the start's)."""
    person = rooms.person
    if person is not None:
        who, guest = person, not person.key
    else:  # `keep` saves a player's finished rounds (`RecordLink.match_ended`)
        who, guest = Person(identity.shown, identity.player or ""), identity.player is None
    own = None if rating is None or guest else partial(rating, who.key)
    clock = rooms.clock or time.time
    return RoomSetting(
        rooms.hub,
        who,
        guest,
        room_address(),
        clock,
        keep,
        rating=own,
        signals=signals,
        seats=seats if guest else None,
    )


def first_screen(
    setting: RoomSetting,
    request: RoomRequest | None,
    play_ai: Callable[[], Screen[None]],
    board_size: int,
) -> Screen[None]:
    """The room `request` names, or the lobby (no request, or `kind` "lobby"); every
    screen of the session may make a lobby (a refused room's way back)."""
    setting = setting._replace(lobby=lambda: LobbyScreen(setting, play_ai, board_size))
    if request is None or request.kind == "lobby":
        return LobbyScreen(setting, play_ai, board_size)
    if request.kind == "match":
        from tui_tictactoe.ui.rooms.match_screen import MatchScreen

        return MatchScreen(setting, play_ai, request.size)
    return RoomScreen(setting, request)
