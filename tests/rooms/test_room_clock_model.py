"""The move clock, claims and take-backs in the room model alone (`Room`, no hub): random
sequences of moves, offers and answers, claims, dropped links and the clock moving on,
each step begun as a hub begins it (`flag_fall`, then graces run out). Whatever the
order, a round ends once: its result never changes, the score counts each decided round
once, and no clock runs on a round that is over."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.rooms.room import Room, may_analyse
from tui_tictactoe.rooms.view import SEATS, Person, Refused, claim_from

PEOPLE = {"X": Person("ann", "SHA256:ann"), "O": Person("bob", "SHA256:bob")}
GRACE, MOVE_TIME = 20.0, 10.0

steps = st.lists(
    st.tuples(
        st.sampled_from(["move", "draw", "take_back", "yes", "no", "claim", "drop", "back"]),
        st.sampled_from(SEATS),
        st.integers(1, 9),
        st.sampled_from([0.0, 0.5, 3.0, 9.9, 10.0, 15.0, 30.0]),
    ),
    max_size=60,
)


class Table:
    """One room with ann and bob, driven as a hub drives it, with what was seen."""

    def __init__(self) -> None:
        self.room = Room("ABCD", 3, "X", move_time=MOVE_TIME, grace=GRACE, round_key="k1")
        for seat in SEATS:
            self.room.sit(seat, PEOPLE[seat], f"t{seat}")
        self.now, self.keys = 1000.0, 1
        self.results: dict[str, object] = {}  # round key -> its result, once set
        self.score = [0, 0, 0]

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def due(self) -> None:
        """What a hub does first in every change: the flag, then graces run out."""
        room = self.room
        deadline = room.deadline
        if room.flag_fall(self.now):
            assert deadline is not None and self.now >= deadline
        for seat in SEATS:
            held = room.seats[seat]
            if held.back_by is not None and held.back_by <= self.now:
                room.free(seat)
                room.sit(seat, PEOPLE[seat], f"t{seat}", self.key())  # back for a new round

    def act(self, kind: str, seat: str, cell: int) -> None:
        room = self.room
        room.generation += 1  # as a hub moves it on each change (a move names the newest)
        if kind == "move":
            room.play(seat, self.key, cell, room.board_generation)  # type: ignore[arg-type]
        elif kind in ("draw", "take_back"):
            room.make_offer(seat, self.key, kind)  # type: ignore[arg-type]
        elif kind in ("yes", "no"):
            room.answer(seat, self.key, kind == "yes")  # type: ignore[arg-type]
        elif kind == "claim":
            held = room.seats["O" if seat == "X" else "X"]
            room.claim(seat, self.key)  # type: ignore[arg-type]
            assert held.back_by is not None and self.now >= claim_from(held.back_by, GRACE)
        elif kind == "drop" and room.seats[seat].present:  # type: ignore[index]
            room.away(seat, self.now + GRACE)  # type: ignore[arg-type]
        elif kind == "back":
            room.resume(seat, f"t{seat}")  # type: ignore[arg-type]

    def check(self) -> None:
        room = self.room
        new = False
        if room.result is not None:
            new = room.round_key not in self.results
            seen = self.results.setdefault(room.round_key, (room.result, room.cause))
            assert seen == (room.result, room.cause), "a round ended twice"
            assert room.deadline is None and room.offer is None
        gained = sum(room.score) - sum(self.score)
        counted = new and room.result != "abandoned"
        assert gained == int(counted) or room.score == (0, 0, 0), "a result scored twice"
        self.score = list(room.score)
        if room.deadline is not None:
            assert room.moves and room.to_move() is not None
            assert room.deadline <= self.now + MOVE_TIME
        if room.cause == "time":
            assert room.result in SEATS
        if room.offer is not None:
            assert room.result is None and room.moves


@settings(max_examples=300, deadline=None)
@given(steps)
def test_clocks_claims_and_offers_interleaved_never_end_a_round_twice(
    plan: list[tuple[str, str, int, float]],
) -> None:
    table = Table()
    for kind, seat, cell, wait in plan:
        table.now += wait
        table.due()
        with contextlib.suppress(Refused):
            table.act(kind, seat, cell)
        table.check()
        if table.room.result is not None and kind == "move":
            for who in SEATS:  # a rematch now and then: a new round under a new key
                with contextlib.suppress(Refused):
                    table.room.ask_rematch(who, table.key)


def test_a_take_back_rebuilds_the_board_and_counts() -> None:
    table = Table()
    room = table.room
    room.flag_fall(table.now)
    for kind, seat, cell in (("move", "X", 1), ("move", "O", 5), ("take_back", "O", 0)):
        table.act(kind, seat, cell)
    table.act("yes", "X", 0)
    assert room.moves == (1,) and room.take_backs == 1 and room.to_move() == "O"
    table.act("move", "O", 5)  # the same cell is free again
    assert list(room.moves) == [1, 5]


def test_a_player_watching_their_own_round_sees_no_analysis() -> None:
    table = Table()
    room = table.room
    assert not may_analyse(room.view(), PEOPLE["X"])
    assert may_analyse(room.view(), Person("carol", "SHA256:carol"))
    assert may_analyse(room.view(), Person("ann"))  # a guest: no key to tell
    table.act("move", "X", 1)
    room.game_round.end("X")
    assert may_analyse(room.view(), PEOPLE["X"])  # the round is over: analyse away
