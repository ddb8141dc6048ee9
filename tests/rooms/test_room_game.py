"""A session's picture of a room (`rooms.game.RoomGame`) and what its screen says
(`rooms.status`): from hand-built `RoomView`s, and following a real `MemoryHub`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from room_tools import ANN, BOB, HERE, game_of, view

from tui_tictactoe.rooms.game import MoveRequest, RoomGame, rebuilt
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import (
    ROOM_ADDRESS_ENV,
    RoomAddress,
    RoomRequest,
    enter,
    room_address,
)
from tui_tictactoe.rooms.status import (
    NO_ANALYSIS_FOR_PLAYERS,
    NO_REMATCH_NOW,
    UNREACHABLE,
    UNREACHABLE_TO_MOVE,
    analysis_refused,
    invite_lines,
    rematch_refused,
    room_state,
    room_title,
    score_line,
    seconds_left,
)
from tui_tictactoe.rooms.view import Offer, Person, Refused, SeatView, Ticket

CAROL = Person("carol", "k-carol")


def said(game: RoomGame, now: float = 0.0) -> str:
    return room_state(game, now).text


# -- views: newer replaces, older dropped ------------------------------------------


def test_a_newer_view_replaces_the_board_and_an_older_one_is_dropped() -> None:
    game = game_of("X")
    assert game.take(view((5,), generation=3))
    assert not game.take(view((5, 1, 9), generation=2))  # older
    assert not game.take(view((5, 1, 9), generation=3))  # the same generation again
    assert not game.take(view((5, 1, 9), generation=9, code="ZZZZ"))  # another room
    assert not game.take(view((5, 1, 9), generation=9, size=7))  # no such board
    assert game.board.to_string() == "....X...."
    assert game.take(view((5, 1), generation=4))
    assert game.board.to_string() == "O...X...."


def test_the_same_view_is_taken_again_when_the_hub_loses_or_finds_its_database() -> None:
    game = game_of("X", view((5,), generation=3))
    assert game.take(view((5,), generation=3, unreachable=True))
    assert not game.take(view((5,), generation=3, unreachable=True))  # said already
    assert not game.take(view((), generation=2))  # older, whatever it says
    assert game.take(view((5,), generation=3))  # back: the same generation, unmarked
    assert game.view is not None and not game.view.unreachable
    assert game.take(view((5, 1), generation=4, unreachable=True))
    assert game.board.to_string() == "O...X...."


@given(st.permutations(range(1, 10)))
def test_whatever_order_views_arrive_in_the_newest_is_held(order: list[int]) -> None:
    moves = (5, 1, 9, 3, 2, 8, 4, 6, 7)
    game = game_of(None)
    for generation in order:
        game.take(view(moves[:generation], generation=generation))
    assert game.view is not None and game.view.generation == 9
    assert game.board.to_string() == rebuilt(view(moves)).to_string()


def test_the_board_alternates_from_who_started() -> None:
    assert rebuilt(view((5, 1), first="O")).to_string() == "X...O...."
    assert rebuilt(view((1, 2, 3), size=4)).geometry.size == 4


def test_a_bad_cell_from_the_hub_ends_the_board_there_not_raised() -> None:
    assert rebuilt(view((5, 1, 99, 3))).to_string() == "O...X...."  # the legal prefix
    assert rebuilt(view((5, 5, 1))).to_string() == "....X...."
    assert rebuilt(view((0, 5))).to_string() == "........."


def test_a_move_is_a_request_on_the_generation_held() -> None:
    assert game_of("X").move_request(5) is None  # no view yet
    game = game_of("X", view(generation=7))
    assert game.move_request(5) == MoveRequest(Ticket("ABCD", "X", "tok"), 5, 7)
    assert game.board.to_string() == "." * 9  # nothing played here: the hub decides


# -- the status line ----------------------------------------------------------------


def test_the_player_to_move_the_other_and_a_spectator_each_read_their_line() -> None:
    one_move = view((5,))
    assert said(game_of("O", one_move)) == "ann played 5. Your turn: you play O."
    assert said(game_of("X", one_move)) == "Waiting for bob (O)."
    assert said(game_of(None, one_move)) == "ann played 5. bob to play."
    assert said(game_of("X", view())) == "Your turn: you play X."
    assert said(game_of(None, view())) == "ann to play."
    assert room_state(game_of("O", one_move), 0).tone == "turn"


def test_while_the_database_is_unreachable_every_one_is_told_the_room_waits() -> None:
    down = view((5,), unreachable=True)
    assert said(game_of("O", down)) == UNREACHABLE_TO_MOVE  # the player to move
    assert said(game_of("X", down)) == UNREACHABLE  # the other
    assert said(game_of(None, down)) == UNREACHABLE  # a spectator
    over = view((1, 4, 2, 5, 3), result="X", unreachable=True)
    assert said(game_of("O", over)) == UNREACHABLE  # no move is anyone's: a rematch waits
    assert room_state(game_of("O", down), 0).tone == "refused"
    assert said(game_of("O", view((5,)))) == "ann played 5. Your turn: you play O."
    assert said(game_of("X", view(closed=True, unreachable=True))).endswith("every player left.")
    assert max(len(UNREACHABLE), len(UNREACHABLE_TO_MOVE)) <= 57  # the board's column


def test_results_for_winner_loser_and_spectator() -> None:
    won = view((1, 4, 2, 5, 3), result="X")
    assert said(game_of("X", won)).startswith("ann wins!")
    assert room_state(game_of("X", won), 0).tone == "win"
    assert room_state(game_of("O", won), 0).tone == "loss"
    assert room_state(game_of(None, won), 0).tone == "win"
    assert said(game_of(None, view((5,), result="draw"))) == "Draw."


def test_a_player_who_left_is_still_named() -> None:
    game = game_of("X", view((5,), generation=5))
    game.take(
        view((5,), generation=6, seats=(HERE[0], SeatView()), result="abandoned", left_by="O")
    )
    assert said(game).startswith("bob left: the round is abandoned.")
    assert "Waiting for a second player." in said(game)


@pytest.mark.parametrize("result", ["X", "O", "draw"])
@pytest.mark.parametrize(("seat", "waiting"), [("X", " Waiting for a second player."), (None, "")])
def test_who_left_between_rounds_is_named(result: str, seat: str | None, waiting: str) -> None:
    """Found by hand: `q` from bob once the round was over left ann reading only
    "Waiting for a second player." beside an empty seat; the view carries no name."""
    over = view((1, 4, 2, 5, 3), generation=5, result=result)
    game = game_of(seat, over)
    head = {"X": "ann wins!", "O": "bob wins!", "draw": "Draw."}[result]
    game.take(over._replace(generation=6, seats=(HERE[0], SeatView())))
    assert said(game) == f"{head} bob left.{waiting}"
    game.take(over._replace(generation=7, seats=(HERE[0], SeatView()), watchers=1))
    assert said(game) == f"{head} bob left.{waiting}", "said until the seat is taken again"
    game.take(over._replace(generation=8, result=None, moves=(), round=2))
    assert "left" not in said(game)  # someone sat down: a new round


def test_a_seat_empty_from_the_first_view_names_no_one() -> None:
    game = game_of("X", view((5,), result="draw", seats=(HERE[0], SeatView())))
    assert said(game) == "Draw. Waiting for a second player."


@pytest.mark.parametrize(
    ("seat", "asked", "line"),
    [
        ("X", (), "r: a rematch."),
        ("X", ("O",), "bob wants a rematch: press r."),
        ("X", ("X",), "Waiting for bob to press r."),
        ("O", ("X",), "ann wants a rematch: press r."),
        (None, ("X",), "ann wants a rematch."),
        (None, (), ""),
    ],
)
def test_the_rematch_state(seat: str | None, asked: tuple[str, ...], line: str) -> None:
    game = game_of(seat, view((5,), result="draw", rematch=asked))
    assert said(game) == f"Draw. {line}".rstrip()


def test_a_dropped_player_is_waited_for_with_the_seconds_left() -> None:
    away = view((5,), seats=(HERE[0], SeatView(BOB, False, 160.0)))
    game = game_of("X", away)
    assert said(game, now=100.0) == "bob left: waiting 60 s for them to come back."
    assert said(game, now=100.5) == "bob left: waiting 60 s for them to come back."
    assert said(game, now=159.2) == "bob left: waiting 1 s for them to come back."
    assert said(game_of(None, away), now=130.0).startswith("bob left: waiting 30 s")
    assert seconds_left(10.0, 20.0) == 0


def test_a_free_seat_waits_for_a_second_player() -> None:
    alone = view(seats=(HERE[0], SeatView()))
    assert said(game_of("X", alone)) == "Waiting for a second player: give them the code ABCD."
    assert said(game_of(None, alone)) == "Waiting for a second player."


def test_a_closed_room_and_no_view_yet() -> None:
    assert "has closed" in said(game_of(None, view(closed=True)))
    assert said(game_of("X")) == "Entering the room…"


def test_the_title_counts_watchers_and_shows_free_seats() -> None:
    assert room_title(game_of(None, view(watchers=2))) == (
        "Room ABCD · ann (X) vs bob (O) · 2 watching"
    )
    alone = view(seats=(HERE[0], SeatView()))
    assert room_title(game_of("X", alone)) == "Room ABCD · ann (X) vs … (O)"
    assert score_line(game_of("X", alone)) == "ann 0 · … 0 · draws 0 · round 1"
    assert room_title(game_of("X")) == "Room ABCD"
    assert score_line(game_of("X", view(score=(2, 1, 3), round=7))) == (
        "ann 2 · bob 1 · draws 3 · round 7"
    )


def test_names_are_made_displayable_and_kept_as_text() -> None:
    hostile = SeatView(Person("\x1b[31m[@click=app.quit]x[/]\u202e", "k"), True)
    game = game_of(None, view((5,), seats=(hostile, HERE[1])))
    assert said(game) == "“[@click=app.quit]x[/]” played 5. bob to play."
    assert room_title(game).startswith("Room ABCD · “[@click=app.quit]x[/]” (X)")


def test_a_name_cannot_pose_as_the_frame_around_it() -> None:
    """Issue 28: the name `bob (O) · 5 watching` made a title read
    `Room ZPDP · bob (O) · 5 watching (X) vs opp (O)`."""
    poser = SeatView(Person("bob (O) · 5 watching", "k"), True)
    game = game_of(None, view((5,), seats=(poser, HERE[1])))
    assert room_title(game) == "Room ABCD · “bob (O) · 5 watching” (X) vs bob (O)"
    assert said(game) == "“bob (O) · 5 watching” played 5. bob to play."
    quoting = SeatView(Person("ann” (X) vs “eve", "k"), True)
    game = game_of(None, view((5,), seats=(quoting, HERE[1])))
    assert room_title(game).startswith("Room ABCD · “ann' (X) vs 'eve” (X) vs")
    for plain in ("ann", "j.doe", "o'brien", "zoë", "user_1"):  # one plain word: as it is
        alone = SeatView(Person(plain, "k"), True)
        assert room_title(game_of(None, view(seats=(alone, HERE[1])))).startswith(
            f"Room ABCD · {plain} (X)"
        )


def test_two_people_of_one_name_are_told_apart_by_their_keys() -> None:
    one = SeatView(Person("bob", "SHA256:q2mvG7XhAAAAAAAA"), True)
    two = SeatView(Person("bob", "SHA256:Zz9kLm3pBBBBBBBB"), True)
    game = game_of("X", view((5,), seats=(one, two)))
    assert room_title(game) == (
        "Room ABCD · bob (SHA256:q2mvG7Xh…) (X) vs bob (SHA256:Zz9kLm3p…) (O)"
    )
    guest = SeatView(Person("bob", ""), True)  # a guest has no key to show: the other does
    assert room_title(game_of("X", view(seats=(one, guest)))) == (
        "Room ABCD · bob (SHA256:q2mvG7Xh…) (X) vs bob (O)"
    )


def test_invite_lines_join_while_a_seat_is_free_then_watch_and_the_guest_token() -> None:
    address = RoomAddress("games.example.org", 2022)
    alone = game_of("X", view(seats=(HERE[0], SeatView())), token="T0KEN")
    assert invite_lines(alone, address, guest=False) == (
        "Friend: ssh -t -p 2022 games.example.org -- --join ABCD",
    )
    assert invite_lines(alone, address, guest=True)[1] == (
        "Your seat back: --join ABCD --seat T0KEN"
    )
    full = game_of(None, view())
    assert invite_lines(full, address, guest=True) == (
        "Watch: ssh -t -p 2022 games.example.org -- --watch ABCD",
    )


@pytest.mark.parametrize(
    ("value", "address"),
    [
        ("games.example.org 2022", RoomAddress("games.example.org", 2022)),
        ("[::1] 22", RoomAddress("[::1]", 22)),
        ("", RoomAddress("HOST", 2222)),
        ("host", RoomAddress()),
        ("host 0", RoomAddress()),
        ("host 70000", RoomAddress()),
        ("host \uff12\uff12", RoomAddress()),  # full-width digits
        ("ho$t 22", RoomAddress()),
        ("a b c", RoomAddress()),
        ("h" * 300 + " 22", RoomAddress()),
    ],
)
def test_the_server_address_is_read_and_checked(value: str, address: RoomAddress) -> None:
    assert room_address({ROOM_ADDRESS_ENV: value}) == address
    assert room_address({}) == RoomAddress("HOST", 2222)


def test_analysis_is_a_spectators_at_once_on_3x3_and_rematch_only_after_the_round() -> None:
    assert analysis_refused(game_of("X", view()), ANN) == NO_ANALYSIS_FOR_PLAYERS
    assert analysis_refused(game_of("X", view(size=4)), ANN) == NO_ANALYSIS_FOR_PLAYERS
    assert analysis_refused(game_of(None, view(size=4)), CAROL) is None  # in a thread
    assert game_of(None, view(size=4)).analysis() is None
    spectator = game_of(None, view((5,)))
    assert analysis_refused(spectator, CAROL) is None
    assert spectator.analysis_request() is None  # 3x3 needs no thread
    analysis = spectator.analysis()
    assert analysis is not None and analysis.to_move == "O" and len(analysis.moves) == 8
    assert game_of("X", view((5,))).analysis() is None
    assert game_of(None, view((5,), result="abandoned", left_by="X")).analysis() is None
    assert rematch_refused(game_of("X", view())) == NO_REMATCH_NOW
    assert rematch_refused(game_of("X", view(result="draw"))) is None
    assert rematch_refused(game_of(None, view(result="draw"))) is not None


# -- following a real hub -------------------------------------------------------------


async def test_two_sessions_and_a_spectator_follow_a_memory_hub_through_a_round() -> None:
    hub = MemoryHub(rng=random.Random(3))
    ann = await enter(hub, RoomRequest("new"), ANN)
    bob = await enter(hub, RoomRequest("join", ann.code), BOB)
    eve = await enter(hub, RoomRequest("watch", ann.code), Person("eve"))
    games = [RoomGame(ann), RoomGame(bob), RoomGame(eve)]

    def catch_up() -> None:
        for game in games:
            assert game.take(hub.view(ann.code))

    catch_up()
    for player, cell in [(0, 1), (1, 4), (0, 2), (1, 5), (0, 3)]:
        request = games[player].move_request(cell)
        assert request is not None
        await hub.move(*request)
        catch_up()
        assert {game.board.to_string() for game in games} == {
            rebuilt(hub.view(ann.code)).to_string()
        }
    assert [said(game) for game in games] == [
        "ann wins! r: a rematch.",
        "ann wins! r: a rematch.",
        "ann wins!",
    ]


async def test_a_move_on_an_old_generation_or_out_of_turn_is_refused_by_the_hub() -> None:
    hub = MemoryHub(rng=random.Random(4))
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    old = RoomGame(ann)
    old.take(hub.view(ann.code))
    stale = old.move_request(5)
    await hub.move(ann, 1, hub.view(ann.code).generation)
    await hub.move(bob, 2, hub.view(ann.code).generation)
    assert stale is not None
    with pytest.raises(Refused, match="changed"):
        await hub.move(*stale)
    mine = RoomGame(bob)
    mine.take(hub.view(ann.code))
    request = mine.move_request(9)
    assert request is not None
    with pytest.raises(Refused, match="Not your turn"):
        await hub.move(*request)


async def test_entering_names_the_request() -> None:
    hub = MemoryHub(rng=random.Random(5))
    ticket = await enter(hub, RoomRequest("new", size=4, first="O"), ANN)
    assert hub.view(ticket.code).size == 4 and hub.view(ticket.code).first == "O"
    with pytest.raises(Refused, match="no room"):
        await enter(hub, RoomRequest("join", "ZZZZ"), BOB)
    with pytest.raises(ValueError):
        await enter(hub, RoomRequest(), BOB)


def test_fair_play_a_player_watching_their_own_round_gets_no_analysis() -> None:
    """The same key as a seat's, watching while the round runs: `a` says why not; a
    guest (no key) cannot be told apart; once the round is over it may analyse."""
    refused = analysis_refused(game_of(None, view((5,))), ANN)
    assert refused is not None and refused.text == "Analysis is off while you play in this room."
    assert analysis_refused(game_of(None, view((5,))), Person("ann")) is None
    assert analysis_refused(game_of(None, view((5,), result="abandoned", left_by="X")), ANN) is None


def test_the_movers_last_20_seconds_count_down_on_every_screen() -> None:
    """No clock before the last 20 s (a frame is the same until then), then the mover's
    seconds for both players and a spectator."""
    clocked = view((5,), deadline=100.0)
    assert said(game_of("O", clocked), now=70.0) == "ann played 5. Your turn: you play O."
    assert said(game_of("O", clocked), now=80.5) == "Your turn (O): 20 s left."
    assert said(game_of("X", clocked), now=88.0) == "bob (O): 12 s left."
    assert said(game_of(None, clocked), now=99.9) == "bob (O): 1 s left."
    asked = view((5,), deadline=100.0, offer=Offer("take_back", "X"))
    assert said(game_of("O", asked), now=70.0) == "ann asks to take back 5: y/n"
    assert said(game_of("O", asked), now=88.0) == "ann asks to take back 5: y/n · you: 12 s left"
    assert said(game_of("X", asked), now=88.0) == (
        "You asked to take back 5: waiting for bob · bob: 12 s left"
    )
    lost = view((5,), result="X", cause="time")
    assert said(game_of("O", lost)).startswith("bob ran out of time: ann wins!")


def test_a_claimed_round_and_the_wait_for_a_claim_are_said() -> None:
    away = (SeatView(ANN, True), SeatView(BOB, False, 160.0))
    game = game_of("X", view((5,), seats=away, grace=60.0))
    assert said(game, now=110.0) == "bob left: waiting 50 s; c claims it in 20 s."
    assert said(game, now=130.0) == "bob left: c claims the round, or wait 30 s."
    assert said(game_of(None, view((5,), seats=away, grace=60.0)), now=130.0) == (
        "bob left: waiting 30 s for them to come back."
    )
    claimed = view((5,), result="abandoned", left_by="O", cause="claimed")
    assert said(game_of("X", claimed)).startswith("bob left: ann claimed the round.")


def test_who_may_answer_an_offer_take_back_or_list_the_room() -> None:
    """The rules the room screen's keys follow, read from the view held (`RoomGame`)."""
    moved = view((5,), opener="X")
    x, o, watcher = game_of("X", moved), game_of("O", moved), game_of(None, moved)
    assert x.may_take_back and not o.may_take_back and not watcher.may_take_back
    assert x.opened_by_me and not o.opened_by_me and not watcher.opened_by_me
    assert not any(game.offer_to_me for game in (x, o, watcher))
    offered = view((5,), generation=6, opener="X", offer=Offer("draw", "X"))
    for game in (x, o, watcher):
        game.take(offered)
    assert o.offer_to_me and not x.offer_to_me and not watcher.offer_to_me
    assert not x.may_take_back  # an offer waits: none on top of it
    assert not game_of("X").offer_to_me and not game_of("X").may_take_back  # no view yet
    assert not game_of("X", view(())).may_take_back  # no move to take back
