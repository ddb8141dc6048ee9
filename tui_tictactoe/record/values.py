"""What the record hands out: small immutable values, no database in sight.

A second backend (a shared PostgreSQL for several servers) returns the same values.
"""

from __future__ import annotations

from typing import NamedTuple

from ..options import CHOICES
from .names import labelled_name

RESULTS: tuple[str, ...] = ("win", "loss", "draw", "abandoned")
"""A round's result from the player's side; `abandoned`: left unfinished for a new round."""


class RoundRecord(NamedTuple):
    """One finished round, with its moves, so the stats screen can replay it."""

    id: int
    played_at: str  # UTC, ISO 8601
    player: str
    display_name: str
    board_size: int
    difficulty: str
    symbol: str  # the player's
    first: str  # who started: "human" (the player) or "ai"
    moves: tuple[int, ...]  # cell keys (1 = top-left, reading order), both sides, in order
    result: str  # from the player's side: one of RESULTS
    took_back: bool  # the player took a move back during the round


class DifficultyStats(NamedTuple):
    """A player's record at one difficulty.

    `streak` is the current unbeaten run (wins and draws, up to the latest round
    at this level), `best_streak` the longest ever. A loss, an abandoned round or a
    round with a move taken back ends a streak: walking away from, or undoing, a
    lost position must not keep it alive. Wins, losses and draws count every round,
    taken back or not; abandoned rounds are counted apart.
    """

    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def rounds(self) -> int:
        return self.wins + self.losses + self.draws + self.abandoned


class Stats(NamedTuple):
    """A player's lifetime record: every difficulty of `CHOICES["difficulty"]`, always all of them.

    `rounds` counts every round kept, abandoned ones included.
    """

    player: str
    display_name: str
    rounds: int
    by_difficulty: dict[str, DifficultyStats]


def empty_stats(player: str, display_name: str | None = None) -> Stats:
    """No rounds at any level: a guest's, a new player's, or a record that cannot be read."""
    by_difficulty = {level: DifficultyStats() for level in CHOICES["difficulty"]}
    return Stats(player, display_name or player, 0, by_difficulty)


class LeaderEntry(NamedTuple):
    player: str
    display_name: str
    value: int

    @property
    def label(self) -> str:
        """The name, and for a player known by a key the start of its fingerprint: SSH
        user names are whatever the client says, so two "alice"s must look different."""
        return labelled_name(self.display_name, self.player)


class Leaderboard(NamedTuple):
    """For the server: best unbeaten streaks against hard, most wins on medium.

    Both count only rounds played without a take-back: it is a competition.
    """

    hard_streaks: list[LeaderEntry]
    medium_wins: list[LeaderEntry]
