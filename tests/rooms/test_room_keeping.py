"""`RoundKeeper`: a player's session turns each finished round of a room into one record
`Match`, under the hub's round key, from the views it takes (a real `MemoryHub`)."""

from __future__ import annotations

from room_tools import ANN, BOB, make_hub

from tui_tictactoe.record import Record
from tui_tictactoe.record.values import Match, Seat
from tui_tictactoe.rooms.keeping import RoundKeeper
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.view import Person, RoomView, Ticket

GUEST = Person("guest-7", "")


async def pair(hub: MemoryHub, x: Person = ANN, o: Person = BOB) -> tuple[Ticket, Ticket]:
    ann = await hub.create(x, 3, "X")
    bob = await hub.join(ann.code, o)
    return ann, bob


async def play(
    hub: MemoryHub, tickets: dict[str, Ticket], keeper: RoundKeeper, *cells: int
) -> list[Match | None]:
    """Play `cells` in turn; what the keeper gave for each view after a move."""
    code = next(iter(tickets.values())).code
    given = [keeper.ended(hub.view(code))]
    for cell in cells:
        view = hub.view(code)
        assert view.to_move is not None
        await hub.move(tickets[view.to_move], cell, view.generation)
        given.append(keeper.ended(hub.view(code)))
    return given


async def test_a_win_is_given_once_with_both_seats_and_the_hubs_key() -> None:
    hub = make_hub()
    ann, bob = await pair(hub)
    keeper = RoundKeeper()
    given = await play(hub, {"X": ann, "O": bob}, keeper, 1, 4, 2, 5, 3)
    assert given[:-1] == [None] * 5  # nothing while the round is on
    match = given[-1]
    view = hub.view(ann.code)
    assert match is not None and view.result == "X"
    assert (match.x, match.o) == (Seat("ann", "k-ann"), Seat("bob", "k-bob"))
    assert (match.kind, match.board_size, match.first, match.moves) == ("room", 3, "X", view.moves)
    assert (match.result, match.left_by, match.round_key) == ("X", None, view.round_key)
    assert keeper.ended(view) is None  # the same round again (a later view of it): not again
    await hub.rematch(ann)
    assert keeper.ended(hub.view(ann.code)) is None  # a rematch asked: still that round


async def test_the_next_round_is_given_under_its_own_key() -> None:
    hub = make_hub()
    ann, bob = await pair(hub)
    keeper = RoundKeeper()
    first = (await play(hub, {"X": ann, "O": bob}, keeper, 1, 4, 2, 5, 3))[-1]
    await hub.rematch(ann)
    await hub.rematch(bob)
    draw = (await play(hub, {"X": ann, "O": bob}, keeper, 1, 2, 3, 5, 4, 6, 8, 7, 9))[-1]
    assert first is not None and draw is not None
    assert (draw.result, draw.first) == ("draw", "O")
    assert draw.round_key != first.round_key


async def test_an_abandoned_round_names_the_one_who_left_though_their_seat_is_empty() -> None:
    hub = make_hub()
    ann, bob = await pair(hub, ANN, GUEST)
    keeper = RoundKeeper()
    await play(hub, {"X": ann, "O": bob}, keeper, 5, 1)
    await hub.leave(bob)
    view = hub.view(ann.code)
    assert view.result == "abandoned" and view.seats[1].person is None
    match = keeper.ended(view)
    assert match is not None
    assert (match.o, match.result, match.left_by) == (Seat("guest-7", None), "abandoned", "O")


async def test_nothing_without_a_key_a_second_player_or_a_valid_round() -> None:
    hub = make_hub()
    ann, bob = await pair(hub)
    await play(hub, {"X": ann, "O": bob}, RoundKeeper(), 1, 4, 2, 5, 3)
    won = hub.view(ann.code)
    assert RoundKeeper().ended(won._replace(round_key="")) is None
    lonely = won._replace(seats=(won.seats[0], won.seats[0]._replace(person=None)))
    assert RoundKeeper().ended(lonely) is None  # never saw who sat in O
    lies: RoomView = won._replace(result="O")  # the moves say X won: the record would refuse
    assert RoundKeeper().ended(lies) is None


async def test_both_sessions_saving_keep_the_round_and_move_the_ratings_once(
    tmp_path,
    monkeypatch,
) -> None:
    monkeypatch.setenv("TUI_TICTACTOE_DATA_DIR", str(tmp_path))
    hub = make_hub()
    ann, bob = await pair(hub)
    ann_keeper, bob_keeper = RoundKeeper(), RoundKeeper()
    await play(hub, {"X": ann, "O": bob}, ann_keeper, 1, 4, 2, 5)
    bob_keeper.ended(hub.view(ann.code))
    await hub.move(ann, 3, hub.view(ann.code).generation)
    view = hub.view(ann.code)
    record = Record.open()
    try:
        for keeper in (ann_keeper, bob_keeper):
            match = keeper.ended(view)
            assert match is not None
            assert record.people.save_match(match)
        rounds = record.people.rounds("k-ann")
        assert len(rounds) == 1 and len(record.people.rounds("k-bob")) == 1
        ratings = {entry.player: (entry.rating, entry.games) for entry in record.people.ratings()}
        assert ratings == {"k-ann": (1216, 1), "k-bob": (1184, 1)}
    finally:
        record.close()


async def test_a_6x6_room_round_is_kept_in_the_record_on_both_backends(backend: str) -> None:
    """Five in a row on 6x6 (X on the long diagonal), from the hub through the keeper into
    the record, counted under 6x6 for both players (fails before: 6x6 was no room size)."""
    hub = make_hub()
    ann = await hub.create(ANN, 6, "X")
    bob = await hub.join(ann.code, BOB)
    keeper = RoundKeeper()
    given = await play(hub, {"X": ann, "O": bob}, keeper, 1, 2, 8, 3, 15, 4, 22, 5, 29)
    match = given[-1]
    assert match is not None and (match.board_size, match.result) == (6, "X")
    with Record.open() as record:
        assert record.people.save_match(match)
        ann_stats, bob_stats = (
            record.people.stats("k-ann"),
            record.people.stats("k-bob"),
        )
    assert ann_stats.rooms["6x6"].wins == 1 and bob_stats.rooms["6x6"].losses == 1
