"""A room's field is declared in `Room` (and `RoomView` if it is seen) and stored by its
column: `Room.view` shows, and `postgres.rows` writes and reads, every field of the same
name as it is. These tests hold every field of both declarations to that, so a new one
cannot be missed by the view or by the rows (issue 38)."""

from __future__ import annotations

from dataclasses import fields

from tui_tictactoe.engine.round import Round, Tally
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.postgres import rows
from tui_tictactoe.rooms.room import ROUND_FIELDS, Room
from tui_tictactoe.rooms.view import Answer, Offer, Person, RoomView

NOT_THE_ROOMS = {"unreachable": "the hub's: its database out of reach", "opener": "a seat's"}
"""Fields of the view that are no field of the room, and whose they are."""
STORED_ELSEWHERE = {
    "seats": "room_seats",
    "watchers": "room_watchers",
    "owner": "owner_address",
    "now": "not stored: the time of the change being made",
    "game_round": "its fields' columns (`ROUND_FIELDS`)",
}
"""Fields of the room that are no column of its row, and where they are kept."""


def test_every_field_of_the_view_is_the_rooms_or_its_rounds_or_said_whose() -> None:
    room_fields = {each.name for each in fields(Room)} | set(ROUND_FIELDS)
    for name in RoomView._fields:
        assert name in room_fields or name in NOT_THE_ROOMS, name


def test_every_field_of_the_room_and_its_round_has_a_column_or_said_where() -> None:
    for name in [each.name for each in fields(Room)] + list(ROUND_FIELDS):
        assert name in rows.COLUMNS or name in STORED_ELSEWHERE, name


def test_a_room_is_shown_and_stored_field_by_field() -> None:
    room = Room(
        "ABCD",
        4,
        "O",
        generation=9,
        board_generation=8,
        left_by="X",
        rematch={"O"},
        closed=True,
        round_key="k-3",
        public=True,
        watching=False,
        owner="10.0.0.1",
        offer=Offer("take_back", "X"),
        offered={"X"},
        agreed=True,
        move_time=20.0,
        grace=45.0,
        deadline=1234.5,
        cause="claimed",
        matched=True,
        opening_time=15.0,
        aborted_by="O",
        unrated=True,
        answered=Answer("draw", "O", True),
    )
    room.game_round = Round(
        board_geometry(4),
        "O",
        number=3,
        score=Tally(2, 1, 4),
        moves=[6, 1],
        result="draw",
        take_backs=1,
    )
    room.seats["O"].person = Person("bob")
    view = room.view()
    for name in [each.name for each in fields(Room)] + list(ROUND_FIELDS):
        shown_otherwise = ("first", "rematch", "seats", "watchers")
        if name in RoomView._fields and name not in shown_otherwise:
            assert getattr(view, name) == getattr(room, name), name
    assert (view.first, view.round, view.take_backs) == ("O", 3, 1)
    assert (view.moves, view.score, view.rematch) == ((6, 1), (2, 1, 4), ("O",))
    values = rows.room_values(room, 0.0, incarnation=77)
    loaded = rows._room(tuple(values[column] for column in rows.COLUMNS))
    room.seats["O"].person = None  # seats have rows of their own (`place_rows`)
    assert loaded.room == room and loaded.incarnation == 77
