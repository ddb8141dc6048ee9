"""What the controller reports about rounds: the score, how one ended, what a take-back undid.

Plain values, so the record (or anything else listening) never needs the
controller itself, and the status wording can be tested without a UI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from tui_tictactoe.engine.board import Cell, Symbol

Result = Literal["win", "loss", "draw", "abandoned"]
"""A round's result from the human's side (between people, X's); the record's `RESULTS`."""


@dataclass(frozen=True, slots=True)
class Score:
    """The running tally of one game: against the AI `human` and `ai` count the wins; between
    people (hot seat) `x` and `o` count each seat's.

    A value, read from the round's `engine.round.Tally` (by seat) for the person's side
    (`GameController.score`): a score handed to the screen stays what it was when handed."""

    human: int = 0
    ai: int = 0
    draws: int = 0
    abandoned: int = 0  # rounds left unfinished for a new one: no dodging a loss unseen
    take_backs: int = 0  # rounds in which the human took a move back
    x: int = 0  # rounds X won, between people
    o: int = 0  # rounds O won, between people


class RoundSummary(NamedTuple):
    """A round that has ended (or was left for a new one), as the record keeps it.

    Between people (`opponent` "human") `symbol` is X, `result` is X's, `first` is "human"
    (both seats are), and `opener` says which seat moved first: the AI's standings never
    hold these rounds (the people's-rounds table will)."""

    difficulty: str
    symbol: str  # the human's (between people: X)
    first: str  # who started this round: "human" or "ai"
    moves: tuple[int, ...]  # cell keys (1 = top-left, reading order), both sides, in order
    result: Result
    took_back: bool
    board_size: int
    opponent: str = "ai"  # who sat in the other seat: "ai", or "human" (hot seat)
    winner: Symbol | None = None  # the seat that won; None for a draw or an abandoned round
    opener: Symbol = "X"  # the seat that moved first


class TakeBack(NamedTuple):
    """What `GameController.take_back` undid, newest first; or why it undid nothing."""

    undone: tuple[Cell, ...]
    refused: Literal["nothing", "over"] | None = None
