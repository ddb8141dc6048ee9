"""What the metrics learn of the rooms, from the hub's socket (`rooms.socket.server.HubWatch`).

The hub sees every move and every round's end of a room that has a session on this host:

- a move's time to the other screen: from the `move` request reaching the hub to the
  room's view with that move sent to each other screen (the opponent's, a spectator's)
  on this host. A screen on another host (`--database-url`) is timed there only if the
  move came in there, so a move between hosts is not timed.
- rounds, by board and result: once, by the host of the room's X seat (the opener's),
  or of O when X is the one who left. Rounds against the AI are the game's alone and
  are not counted (they are in the player's record).
- rooms now: rooms with an update stream open on this host.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tui_tictactoe.rooms.view import RoomView, Ticket
from tui_tictactoe.servers.ops.events import ServerEvents

MOVES_KEPT = 64
"""Moves of a room timed at once, at most (a round has at most a board's cells of them)."""


class RoomWatch:
    """A `HubWatch` that tells `events` (`ServerEvents`)."""

    def __init__(self, events: ServerEvents, clock: Callable[[], float] = time.monotonic) -> None:
        self.events = events
        self.clock = clock
        self._moved: dict[str, list[tuple[str | None, int, int, float, set[Ticket]]]] = {}
        # code -> the moves asked here this round: seat, cell, round, when, the screens told
        self._round: dict[str, int] = {}  # code -> the round of the last view sent
        self._streams: Counter[str] = Counter()  # code -> update streams open here
        self._followed: set[Ticket] = set()
        self._rounds: dict[str, int] = {}  # code -> the last round counted

    @property
    def rooms(self) -> int:
        return len(self._streams)

    def asked(self, op: str, args: tuple[Any, ...]) -> None:
        if op == "move" and args and isinstance(args[0], Ticket):
            ticket, cell = args[0], args[1]
            round_ = self._round.get(ticket.code, 0)
            moves = self._moved.setdefault(ticket.code, [])
            moves.append((ticket.seat, cell, round_, self.clock(), set()))
            del moves[:-MOVES_KEPT]  # a round has at most a board's cells of them

    def sent(self, ticket: Ticket, view: RoomView) -> None:
        if ticket not in self._followed:
            self._followed.add(ticket)
            self._streams[ticket.code] += 1
        self._time_move(ticket, view)
        self._round[view.code] = view.round
        if view.result is not None and self._rounds.get(view.code) != view.round:
            counter = "O" if view.left_by == "X" else "X"
            if ticket.seat == counter:
                self._rounds[view.code] = view.round
                self.events.round_ended(view.size, view.result)

    def _time_move(self, ticket: Ticket, view: RoomView) -> None:
        """A screen's mailbox keeps only the newest view, so a move may come with a later
        one (a spectator's view can hold two new moves): each move is timed at the first
        view that holds it, once per screen."""
        moves = self._moved.get(view.code)
        if not moves:
            return
        if moves[0][2] != view.round:  # a new round: those moves are history
            del self._moved[view.code]
            return
        now = self.clock()
        for seat, cell, _, asked_at, told in moves:
            if ticket.seat != seat and ticket not in told and cell in view.moves:
                told.add(ticket)
                self.events.move_delivered(now - asked_at)

    def stream_ended(self, ticket: Ticket) -> None:
        if ticket not in self._followed:
            return
        self._followed.discard(ticket)
        self._streams[ticket.code] -= 1
        if self._streams[ticket.code] <= 0:
            del self._streams[ticket.code]
            for kept in (self._moved, self._rounds, self._round):
                kept.pop(ticket.code, None)
