"""What the controller reports about rounds: the score, how one ended, what a take-back undid.

Plain values, so the record (or anything else listening) never needs the
controller itself, and the status wording can be tested without a UI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from ..engine.board import Cell

Result = Literal["win", "loss", "draw", "abandoned"]
"""A round's result from the human's side; the record's `RESULTS`."""


@dataclass
class Score:
    human: int = 0
    ai: int = 0
    draws: int = 0
    abandoned: int = 0  # rounds left unfinished for a new one: no dodging a loss unseen
    take_backs: int = 0  # rounds in which the human took a move back


class RoundSummary(NamedTuple):
    """A round that has ended (or was left for a new one), as the record keeps it."""

    difficulty: str
    symbol: str  # the human's
    first: str  # who started this round: "human" or "ai"
    moves: tuple[int, ...]  # cell keys (1 = top-left, reading order), both sides, in order
    result: Result
    took_back: bool
    board_size: int


class TakeBack(NamedTuple):
    """What `GameController.take_back` undid, newest first; or why it undid nothing."""

    undone: tuple[Cell, ...]
    refused: Literal["nothing", "over"] | None = None
