"""Every operation of a room hub in one table: its arguments, its answer, its rule.

The wire's requests (`wire.OPS`) and the socket client's calls (`socket.client.SocketHub`)
are made from `OPERATIONS`, and every operation a seat holder makes on their room (a
move, a rematch, an offer and its answer, watching on or off) names the `Room` method
that is its rule: each hub only loads the room, applies that rule and stores and sends
the result (`RoomHub.seat_call`), so a rule is written once, in `room.py`. Adding one is
a row here, a method in `hub.RoomHub`, the rule in `Room`, and the screen's key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tui_tictactoe.options import BOARDS
from tui_tictactoe.rooms.matching import HIGHEST_RATING, LOWEST_RATING
from tui_tictactoe.rooms.room import Gone, Keys, Room
from tui_tictactoe.rooms.view import SeatName

Rule = Callable[[Room, SeatName | None, Keys], Gone | None]
"""A rule with its arguments bound: what it changed (`room.Gone`), or None for nothing."""


class Arg(NamedTuple):
    """One argument: its name on the wire and its kind, which `wire` checks it as
    (an int's bounds, for "int", are `low` and `high`)."""

    name: str
    kind: str  # person, ticket, typed_code, token, seat, bool, int, offer, place
    low: int = 0
    high: int = 0


class Operation(NamedTuple):
    """A `RoomHub` method as the wire and the hubs know it."""

    name: str
    args: tuple[Arg, ...]
    answer: str = "none"  # none, ticket, rooms, place or queue: what a reply carries
    rule: Callable[..., Gone | None] | None = None  # a seat holder's rule in `Room`


MAX_ID = 2**53 - 1
"""Ids, generations and counters stay integers that any JSON reader keeps exactly."""
SMALLEST, LARGEST = int(BOARDS[0]), int(BOARDS[-1])
_TICKET = Arg("ticket", "ticket")

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "create",
            (
                Arg("who", "person"),
                Arg("size", "int", SMALLEST, LARGEST),
                Arg("first", "seat"),
                Arg("public", "bool"),
            ),
            "ticket",
        ),
        Operation(
            "join",
            (Arg("code", "typed_code"), Arg("who", "person"), Arg("token", "token")),
            "ticket",
        ),
        Operation("watch", (Arg("code", "typed_code"), Arg("who", "person")), "ticket"),
        Operation("set_public", (_TICKET, Arg("public", "bool"))),
        Operation("set_watching", (_TICKET, Arg("watching", "bool")), rule=Room.set_watching),
        Operation(
            "move",
            (_TICKET, Arg("cell", "int", 1, LARGEST**2), Arg("generation", "int", 0, MAX_ID)),
            rule=Room.play,
        ),
        Operation("rematch", (_TICKET,), rule=Room.ask_rematch),
        Operation("offer", (_TICKET, Arg("kind", "offer")), rule=Room.make_offer),
        Operation("answer", (_TICKET, Arg("yes", "bool")), rule=Room.answer),
        Operation("claim", (_TICKET,), rule=Room.claim),
        Operation("leave", (_TICKET,)),
        Operation("drop", (_TICKET,)),
        Operation("updates", (_TICKET,)),
        Operation("rooms", (), "rooms"),
        Operation(
            "queue_join",
            (
                Arg("who", "person"),
                Arg("size", "int", SMALLEST, LARGEST),
                Arg("rating", "int", LOWEST_RATING, HIGHEST_RATING),
            ),
            "place",
        ),
        Operation("queue_poll", (Arg("place", "place"),), "queue"),
        Operation("queue_leave", (Arg("place", "place"),)),
        Operation("queue_decline", (Arg("place", "place"),)),
    )
}
"""Every `RoomHub` operation, in the interface's order."""
