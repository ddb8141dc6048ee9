"""Every refusal of a room's rules, worded once: both hubs raise these, the screens say them.

A refusal is a typed exception (`view.Refused`, `NoRoom` for a room the asker may not
know of) whose `reason` is a full sentence for a status line of 57 columns at the least.
The words are made here and nowhere else, so `MemoryHub` and `PostgresHub` (and the
socket between a game and the hub) can never say the same thing two ways.
"""

from __future__ import annotations

import math

from tui_tictactoe.options import BOARDS
from tui_tictactoe.rooms.view import Refused, SeatName


class NoRoom(Refused):
    """No room this asker may know of by that code: none, or one closed to them. Both
    hubs count it as a wrong code, so the two cannot be told apart."""


def no_room(code: str) -> NoRoom:
    """The one answer for an unknown code and for a room the asker has no right to see."""
    return NoRoom(f"There is no room {code}: check the code.")


def sizes_text() -> str:
    """The boards a room may have, from `options.BOARDS`: "3, 4, 5 or 6"."""
    return ", ".join(BOARDS[:-1]) + " or " + BOARDS[-1]


def bad_size() -> Refused:
    return Refused(f"A room's board is {sizes_text()} cells wide.")


def bad_first() -> Refused:
    return Refused("X or O starts the first round.")


def no_free_code() -> Refused:
    return Refused("No free room code came up: try again.")


def room_closed(code: str) -> Refused:
    return Refused(f"Room {code} has closed.")


def not_in_room(code: str) -> Refused:
    return Refused(f"You are no longer in room {code}.")


def watching(what: str) -> Refused:
    """A spectator asked for what only the players do (`what`: "play", ...)."""
    return Refused(f"You are watching: only the players {what}.")


def too_many_wrong_codes(wait: int) -> str:
    return f"Too many wrong codes: wait {wait} s."


def too_many_lobby_names(wait: int) -> str:
    return f"Too many public rooms from here: wait {wait} s."


def too_many_rooms(own: int | None) -> Refused:
    """Past the rooms in all (`own` None) or those opened from one address."""
    if own is None:
        return Refused("The server has all the rooms it can hold: try again later.")
    return Refused(f"This address has {own} rooms open: close one first.")


def is_full(refusal: Refused) -> bool:
    """Whether `refusal` is the server's cap on rooms in all (not one address's)."""
    return refusal.reason == too_many_rooms(None).reason


def room_full(code: str) -> Refused:
    # Short: a status line under the board is 57 columns at the least.
    return Refused(f"Room {code} is full: watch it with --watch {code}.")


def spectators_full(code: str, most: int) -> Refused:
    return Refused(f"Room {code} has as many spectators as it takes ({most}).")


def not_opener() -> Refused:
    return Refused("Only the player who opened the room says if it is listed.")


def round_over() -> Refused:
    return Refused("The round is over: press r for a rematch.")


def waiting_for_second(code: str = "") -> Refused:
    return Refused(f"Waiting for a second player: give them the code{' ' + code if code else ''}.")


def waiting_for_return(name: str) -> Refused:
    return Refused(f"Waiting for {name} to come back.")


def not_your_turn(name: str, seat: SeatName) -> Refused:
    return Refused(f"Not your turn: {name} plays {seat}.")


def stale_move() -> Refused:
    return Refused("The board changed before your move arrived: look and play again.")


def no_cell(shown: str, cells: int) -> Refused:
    return Refused(f"There is no cell {shown}: cells go from 1 to {cells}.")


def cell_taken(cell: int) -> Refused:
    return Refused(f"Cell {cell} is taken: pick an empty one.")


def round_still_on() -> Refused:
    return Refused("The round is still on: a rematch comes after it.")


# -- offers between the players (a draw, a take-back) ----------------------------------

OFFER_WORDS = {"draw": "a draw", "take_back": "a take-back"}
"""What each kind of offer is called in a sentence ("ann offers a draw")."""


def no_such_offer() -> Refused:
    return Refused("There is no such offer.")


def offer_before_move(kind: str) -> Refused:
    return Refused(f"Play a move first: {OFFER_WORDS[kind]} is offered mid-round.")


def offer_pending(name: str, kind: str) -> Refused:
    return Refused(f"{name} offers {OFFER_WORDS[kind]}: y takes it, n declines.")


def one_offer_a_move() -> Refused:
    return Refused("One offer a move: play on, then offer again.")


def nothing_to_answer() -> Refused:
    return Refused("Nothing to answer: no offer is waiting for you.")


def nothing_to_take_back() -> Refused:
    return Refused("Nothing to take back: no move was played this round.")


def take_back_theirs(name: str) -> Refused:
    return Refused(f"Only {name} may ask to take back their move: it is your turn.")


# -- the clock, and a round claimed from a player who left ----------------------------


def nothing_to_claim() -> Refused:
    return Refused("Nothing to claim: your opponent is still here.")


def claim_before_move() -> Refused:
    return Refused("Nothing to claim: no move was played this round.")


def claim_later(name: str, wait: float) -> Refused:
    return Refused(f"{name} may come back: claim the round in {math.ceil(wait)} s.")


ANALYSIS_WHILE_PLAYING = "Analysis is off while you play in this room."
"""Fair play: a player watching their own round (`room.may_analyse`) sees no analysis."""
