"""What a player's session keeps of a room's rounds: each finished round as a record `Match`.

Both players' sessions save the round they played, under the key the hub gave it
(`RoomView.round_key`): the record keeps a round once whoever saves it first, so it
is kept (and rated) once even though two processes save it, and still kept when one
of them is gone. A spectator keeps nothing.

A seat whose player left is empty in the view that says the round was abandoned, so
the people who sat are remembered from the views before it.
"""

from __future__ import annotations

from tui_tictactoe.record.names import unmarked
from tui_tictactoe.record.validation import check_match
from tui_tictactoe.record.values import Match, Seat
from tui_tictactoe.rooms.view import SEATS, Person, RoomView, SeatName


class RoundKeeper:
    """Reads a session's views in order; `ended(view)` gives each finished round once."""

    def __init__(self) -> None:
        self.people: dict[SeatName, Person | None] = {seat: None for seat in SEATS}
        self.kept: set[str] = set()

    def ended(self, view: RoomView) -> Match | None:
        """The round `view` finished, as a `Match` to save; None while it is on, for a
        round already given, without a round key, or for a view the record would refuse
        (a hub that lies must not crash the game)."""
        for seat, held in zip(SEATS, view.seats, strict=True):
            if held.person is not None:
                self.people[seat] = held.person
        if view.result is None or not view.round_key or view.round_key in self.kept:
            return None
        x, o = self.people["X"], self.people["O"]
        if x is None or o is None:
            return None
        match = Match(
            x=_seat(x),
            o=_seat(o),
            kind="room",
            board_size=view.size,
            first=view.first,
            moves=view.moves,
            result=view.result,
            left_by=view.left_by if view.result == "abandoned" else None,
            round_key=view.round_key,
            agreed=view.agreed,
            cause=view.cause,
            take_backs=view.take_backs,
            unrated=view.unrated,
        )
        try:
            check_match(match)
        except ValueError:
            return None
        self.kept.add(view.round_key)
        return match


def _seat(person: Person) -> Seat:
    """The record's seat: the name as the hub has it (without the mark a room shows after
    a name another key owns), the key (None for a guest)."""
    return Seat(unmarked(person.name, person.key or None), person.key or None)
