"""A round of a game at one terminal, as the record keeps it: against the AI in the
player's standings, hot seat among the rounds between people.

The controller reports a round as a `RoundSummary`; the record cannot import the
controller (they stand side by side), so it names the fields it reads (`EndedRound`).
Shared by every front end that plays at a terminal: the Textual app (`ui.record_link`,
in its thread workers) and the plain line-by-line game (`commands.plain`, inline).
"""

from __future__ import annotations

from typing import Protocol

from tui_tictactoe.engine.board import other
from tui_tictactoe.record.store import Record
from tui_tictactoe.record.values import FinishedRound, Match, Seat, new_round_key


class EndedRound(Protocol):
    """What the record reads of the controller's `RoundSummary`."""

    @property
    def difficulty(self) -> str: ...
    @property
    def symbol(self) -> str: ...
    @property
    def first(self) -> str: ...
    @property
    def moves(self) -> tuple[int, ...]: ...
    @property
    def result(self) -> str: ...
    @property
    def took_back(self) -> bool: ...
    @property
    def board_size(self) -> int: ...
    @property
    def opponent(self) -> str: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def opener(self) -> str: ...


def hot_seat_match(summary: EndedRound, name: str, player: str) -> Match:
    """A hot-seat round as the record keeps rounds between people: this player in both
    seats, never rated. `EndedRound.result` is X's; a round left unfinished is left by the
    seat whose turn it was (the one that did not play on)."""
    me = Seat(name, player)
    left_by: str | None = None
    if summary.winner is not None:
        result: str = summary.winner
    elif summary.result == "draw":
        result = "draw"
    else:
        result = "abandoned"
        to_move = len(summary.moves) % 2 == 0
        left_by = summary.opener if to_move else other(summary.opener)
    return Match(
        me,
        me,
        "hotseat",
        summary.board_size,
        summary.opener,
        summary.moves,
        result,
        left_by,
        new_round_key(),
    )


def write_round(record: Record, summary: EndedRound, name: str, player: str) -> None:
    """A round against the AI into the player's standings (the record never raises)."""
    finished = FinishedRound(
        summary.difficulty,
        summary.symbol,
        summary.first,
        summary.moves,
        summary.result,
        summary.took_back,
        summary.board_size,
        display_name=name,
    )
    record.save_round(player, finished)


def save_ended(record: Record, summary: EndedRound, name: str, player: str | None) -> None:
    """Keep a round that ended or was left, where it belongs; a guest's (`player` None)
    is not kept, as nobody could see it again."""
    if player is None:
        return
    if summary.opponent == "human":
        record.people.save_match(hot_seat_match(summary, name, player))
    else:
        write_round(record, summary, name, player)
