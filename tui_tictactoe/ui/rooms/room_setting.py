"""`RoomSetting`: what every rooms' screen of a session shares (the room, the lobby, a
refusal), apart so that each can name it without importing the others."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import NamedTuple, Protocol

from textual.screen import Screen

from tui_tictactoe.record.values import Match
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.request import RoomAddress
from tui_tictactoe.rooms.view import Person


class TurnSignals(Protocol):
    """How a player hears of their turn from another window (`TicTacToeApp`): the bell,
    once a turn, and the terminal window's title."""

    def ring_for_turn(self, turn: Hashable) -> bool: ...

    def set_window_title(self, title: str) -> None: ...


class SeatKeeper(Protocol):
    """Where a guest's seat is kept between two sessions of theirs (`TicTacToeApp`: a
    browser tab's session storage, told through serve-web; elsewhere nothing, the token is
    on screen): `keep_seat(code, token)` on taking a seat, `keep_seat("", "")` on leaving."""

    def keep_seat(self, code: str, token: str) -> None: ...


class RoomSetting(NamedTuple):
    """What every room screen of a session shares: the hub, who this session is to it
    (a guest is shown their seat token), where others reach the server, and the hub's
    clock (a dropped player's `back_by` is Unix time on it: `time.time` by default), and where
    a player's finished rounds are kept (`RecordLink.match_ended`), how to make a lobby
    (a refused room's way back: `RoomRefused`; None where there is no lobby), how to read
    this player's rating for a quick match (blocking: the record; None: the starting 1200),
    how the player hears of their turn in another window (`TurnSignals`: the app), and
    where a guest's seat token is kept for a reload (`SeatKeeper`: the app)."""

    hub: RoomHub
    who: Person
    guest: bool = False
    address: RoomAddress = RoomAddress()
    clock: Callable[[], float] = time.time
    keep: Callable[[Match], None] | None = None  # a player's finished rounds, for the record
    lobby: Callable[[], Screen[None]] | None = None
    rating: Callable[[], int] | None = None  # this player's Elo, read in a thread (quick match)
    signals: TurnSignals | None = None  # the bell and the window's title: the app
    seats: SeatKeeper | None = None  # a guest's seat, kept for a reload of the page: the app
