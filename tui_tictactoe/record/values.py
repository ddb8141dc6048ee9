"""What the record hands out: small immutable values, no database in sight.

A second backend (a shared PostgreSQL for several servers) returns the same values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..options import CHOICES
from .names import labelled_name

RESULTS: tuple[str, ...] = ("win", "loss", "draw", "abandoned")
"""A round's result from the player's side; `abandoned`: left unfinished for a new round."""

LEADERBOARD_BOARD = 3
"""The board the leaderboard ranks: one board, so a streak is measured against one game."""


def board_name(size: int | str) -> str:
    """How a board size is named to players and in `stats --json`: `3x3`."""
    return f"{size}x{size}"


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
    """A player's record at one difficulty, on one board or on all of them.

    `streak` is the current unbeaten run (wins and draws, up to the latest round
    counted here), `best_streak` the longest ever. A loss, an abandoned round or a
    round with a move taken back ends a streak: walking away from, or undoing, a
    lost position must not keep it alive. Wins, losses and draws count every round,
    taken back or not; abandoned rounds are counted apart; `take_backs` counts the
    rounds (of any result) in which a move was taken back.
    """

    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    take_backs: int = 0
    streak: int = 0
    best_streak: int = 0

    @property
    def rounds(self) -> int:
        return self.wins + self.losses + self.draws + self.abandoned


class Stats(NamedTuple):
    """A player's lifetime record, always with every board and difficulty offered.

    `rounds` counts every round kept, abandoned ones included. `by_board` is keyed by
    `board_name` (`3x3`, in the order of `CHOICES["board"]`), then by difficulty;
    `by_difficulty` counts all boards together, its streaks running across boards.
    """

    player: str
    display_name: str
    rounds: int
    by_difficulty: dict[str, DifficultyStats]
    by_board: dict[str, dict[str, DifficultyStats]]


def empty_stats(player: str, display_name: str | None = None) -> Stats:
    """No rounds at any level: a guest's, a new player's, or a record that cannot be read."""
    return stats_from_rows(player, display_name or player, (), ())


def stats_from_rows(
    player: str,
    display_name: str,
    by_level: Iterable[Sequence[Any]],
    by_board: Iterable[Sequence[Any]],
) -> Stats:
    """`Stats` from standings rows: (difficulty, *numbers) and (board size, difficulty, *numbers).

    Numbers in `DifficultyStats` order. A level or board this program does not offer
    (a hand-edited row) counts in `rounds` only.
    """
    levels = CHOICES["difficulty"]
    boards = {int(size): board_name(size) for size in CHOICES["board"]}
    all_boards = {level: DifficultyStats() for level in levels}
    each_board = {name: dict(all_boards) for name in boards.values()}
    rounds = 0
    for level, *numbers in by_level:
        standing = DifficultyStats(*numbers)
        rounds += standing.rounds
        if level in all_boards:
            all_boards[level] = standing
    for size, level, *numbers in by_board:
        name = boards.get(size) if isinstance(size, int) else None
        if name is not None and level in all_boards:
            each_board[name][level] = DifficultyStats(*numbers)
    return Stats(player, display_name, rounds, all_boards, each_board)


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
    """For the server, on `LEADERBOARD_BOARD`: best unbeaten streaks against hard, most
    wins on medium.

    Both count only rounds played without a take-back: it is a competition.
    """

    hard_streaks: list[LeaderEntry]
    medium_wins: list[LeaderEntry]
