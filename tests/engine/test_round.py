"""`engine.round.Round`: the rules of play both games share, and both games playing them alike.

The same moves, take-backs and new rounds, driven through a room (`rooms.room.Room`, two
people as a hub seats them) and through the game at one terminal between two people
(`GameController`, hot seat), give the same boards, turns, scores and results: a rule of
play has one home, whoever sits in the other seat."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.controller import GameController, GameOptions, MoveRefused
from tui_tictactoe.engine.board import IllegalMove, other
from tui_tictactoe.engine.players import HumanPlayer
from tui_tictactoe.engine.round import Round, Tally
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.room import Room
from tui_tictactoe.rooms.view import SEATS, Person, Refused

PEOPLE = {"X": Person("ann", "SHA256:ann"), "O": Person("bob", "SHA256:bob")}


def test_a_played_out_round_is_scored_once_and_takes_no_more_moves() -> None:
    game = Round(board_geometry(3))
    for cell in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:  # X: the top row
        game.play(*cell)
    assert game.result == "X" and game.score == Tally(x=1) and game.to_move is None
    with pytest.raises(IllegalMove, match="after the game is over"):
        game.play(2, 2)
    assert game.score == Tally(x=1) and len(game.board.moves) == 5


def test_a_person_plays_through_their_player_and_only_on_their_turn() -> None:
    game = Round(board_geometry(3), "O")
    game.play(1, 1, HumanPlayer("O"))
    assert game.board.game_board[1][1] == "O" and game.mover == "X"
    with pytest.raises(ValueError, match="O moved on X's turn"):
        game.play(0, 0, HumanPlayer("O"))
    assert game.keys == (5,)


def test_a_take_back_undoes_the_takers_last_move_and_the_reply_to_it() -> None:
    game = Round(board_geometry(3), moves=[1, 5, 9])  # X 1, O 5, X 9
    assert game.take_back("O") == ((2, 2), (1, 1))  # O's 5 and X's reply
    assert game.keys == (1,) and game.mover == "O" and game.take_backs == 1
    assert game.take_back("X") == ((0, 0),) and game.take_backs == 2
    assert game.score == Tally(take_backs=1)  # the rounds with a take-back, once each
    assert game.take_back("X") == () and game.take_backs == 2  # nothing of X's left


def test_the_next_round_is_opened_by_the_other_seat_and_an_unfinished_one_is_abandoned() -> None:
    game = Round(board_geometry(3), "X", moves=[5])
    game.next()
    assert (game.number, game.opener, game.keys, game.result) == (2, "O", (), None)
    assert game.score == Tally(abandoned=1)
    game.next()  # no move in it: nothing to abandon
    assert (game.number, game.opener, game.score) == (3, "X", Tally(abandoned=1))
    fixed = Round(board_geometry(3), "X", alternate=False)
    fixed.next()
    assert fixed.opener == "X"


def test_a_round_ended_off_the_board_keeps_its_result_and_counts_it() -> None:
    game = Round(board_geometry(3), moves=[1, 5])
    game.end("draw")  # agreed
    assert game.result == "draw" and game.score == Tally(draws=1) and not game.in_progress
    claimed = Round(board_geometry(3), moves=[1, 5])
    claimed.abandon(winner="O")  # claimed from X, who left
    assert claimed.result == "abandoned" and claimed.score == Tally(o=1, abandoned=1)
    stored = Round(board_geometry(3), moves=[1, 5], result="O", score=Tally(o=1))
    assert stored.result == "O" and stored.board.outcome() is None  # a win on time


# -- the room and the game at one terminal, side by side ----------------------------------


class RoomTable:
    """A room with ann and bob seated, driven as a hub drives it (the generation moved on
    at each change); each action as the people there would make it."""

    def __init__(self, size: int) -> None:
        self.room = Room("ABCD", size, "X", round_key="k1")
        for seat in SEATS:
            self.room.sit(seat, PEOPLE[seat], f"t{seat}")
        self.keys = 1

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def move(self, key: int) -> None:
        room = self.room
        room.generation += 1
        with contextlib.suppress(Refused):
            room.play(room.to_move(), self.key, key, room.board_generation)

    def take_back(self) -> None:
        """The last mover asks, the other agrees (refused: nothing to take back)."""
        room = self.room
        mover = room.to_move()
        if mover is None:
            return
        last = other(mover)
        room.generation += 1
        with contextlib.suppress(Refused):
            room.make_offer(last, self.key, "take_back")
            room.generation += 1
            room.answer(mover, self.key, True)

    def new_round(self) -> None:
        """Both ask for the next round (refused while one is on)."""
        for seat in SEATS:
            self.room.generation += 1
            with contextlib.suppress(Refused):
                self.room.ask_rematch(seat, self.key)


class HotSeat:
    """The game at one terminal between two people, each action as the keys make it."""

    def __init__(self, size: int) -> None:
        options = GameOptions(opponent="human", alternate=True, board=str(size))
        self.game = GameController(options)

    def move(self, key: int) -> None:
        """A key off the board plays nothing (as the room refuses it)."""
        with contextlib.suppress(MoveRefused, IllegalMove, ValueError):
            self.game.play_human_move(*self.game.board.geometry.cell_of_key(key))

    def take_back(self) -> None:
        self.game.take_back()

    def new_round(self) -> None:
        """Only once the round is over: a room starts no round mid-round."""
        if self.game.game_over:
            self.game.new_round()


def seen_in_room(room: Room) -> tuple[object, ...]:
    """What every screen of the room is sent (`Room.view`)."""
    view = room.view()
    return (view.round, view.first, view.moves, view.score, view.result, view.to_move)


def seen_at_terminal(game: GameController) -> tuple[object, ...]:
    outcome = game.outcome
    result = None if outcome is None else outcome.winner or "draw"
    moves = tuple(game.board.geometry.key(*cell) for cell in game.board.moves)
    score = game.score
    to_move = None if game.game_over else game.current_player.symbol
    return (game.round, game.opener, moves, (score.x, score.o, score.draws), result, to_move)


@st.composite
def games(draw: st.DrawFn) -> tuple[int, list[tuple[str, int]]]:
    """A board and what the people do on it: mostly moves (the n-th free cell, so that
    rounds end; a taken cell or one off the board now and then), with take-backs and new
    rounds among them."""
    size = draw(st.sampled_from([3, 4]))
    move = st.tuples(st.just("move"), st.integers(0, size * size - 1))
    other = st.tuples(st.sampled_from(["bad move", "take_back", "new_round"]), st.just(0))
    plan = st.lists(st.one_of(move, move, move, move, move, other), min_size=40, max_size=150)
    return size, draw(plan)


def cell_for(room: Room, kind: str, n: int) -> int:
    """The key a move names: the `n`-th free cell; for a bad move, a taken cell (or the
    one past the board's last, on an empty board)."""
    cells = room.board.geometry.cells
    free = [key for key in range(1, cells + 1) if key not in room.moves]
    if kind == "move" and free:
        return free[n % len(free)]
    return room.moves[-1] if room.moves else cells + 1


@settings(max_examples=100, deadline=None)
@given(games())
def test_a_room_and_the_hot_seat_play_the_same_rounds(
    game: tuple[int, list[tuple[str, int]]],
) -> None:
    size, plan = game
    table, hot_seat = RoomTable(size), HotSeat(size)
    for kind, n in plan:
        key = cell_for(table.room, kind, n)
        for each in (table, hot_seat):
            if kind in ("move", "bad move"):
                each.move(key)
            elif kind == "take_back":
                each.take_back()
            else:
                each.new_round()
        assert seen_in_room(table.room) == seen_at_terminal(hot_seat.game), (kind, key)
        assert table.room.board == hot_seat.game.board
        assert (table.room.take_backs > 0) == hot_seat.game.took_back
