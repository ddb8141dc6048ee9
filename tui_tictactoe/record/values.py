"""What the record hands out: small immutable values, no database in sight.

A second backend (a shared PostgreSQL for several servers) returns the same values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tui_tictactoe.options import CHOICES
from tui_tictactoe.record.names import labelled_name

if TYPE_CHECKING:
    from datetime import datetime

RESULTS: tuple[str, ...] = ("win", "loss", "draw", "abandoned")
"""A round's result from the player's side; `abandoned`: left unfinished for a new round."""

LEADERBOARD_BOARD = 3
"""The board the leaderboard ranks: one board, so a streak is measured against one game."""


def board_name(size: int | str) -> str:
    """How a board size is named to players and in `stats --json`: `3x3`."""
    return f"{size}x{size}"


class FinishedRound(NamedTuple):
    """A round against the AI to keep in its player's standings (`Record.save_round`):
    one value from the game that played it to the row that keeps it. Checked when saved
    (`validation.check_round`); `display_name` None is the player's id, `played_at` None
    is now."""

    difficulty: str
    symbol: str  # the player's
    first: str  # who started: "human" (the player) or "ai"
    moves: Sequence[int]  # cell keys (1 = top-left, reading order), both sides, in order
    result: str  # from the player's side: one of RESULTS
    took_back: bool = False  # the player took a move back during the round
    board_size: int = 3
    display_name: str | None = None
    played_at: datetime | None = None


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
    owns_name: bool = False  # the first key that used the name (`moderation`)

    @property
    def label(self) -> str:
        """The name, and for a player known by a key the start of its fingerprint: SSH
        user names are whatever the client says, so two "alice"s must look different.
        The key that owns the name is listed under it alone: no other takes its place."""
        return labelled_name(self.display_name, self.player, self.owns_name)


class Leaderboard(NamedTuple):
    """For the server, on `LEADERBOARD_BOARD`: best unbeaten streaks against hard, most
    wins on medium.

    Both count only rounds played without a take-back: it is a competition.
    """

    hard_streaks: list[LeaderEntry]
    medium_wins: list[LeaderEntry]


# -- rounds between people (schema 3) -------------------------------------------------

KINDS: tuple[str, ...] = ("hotseat", "room")
"""Where people played each other: two at one keyboard, or a room over serve-ssh."""
MATCH_RESULTS: tuple[str, ...] = ("X", "O", "draw", "abandoned")
"""How a round between people ended: the winning seat, a draw, or left by `left_by`."""
SEATS: tuple[str, ...] = ("X", "O")
CAUSES: tuple[str, ...] = ("time", "claimed")
"""Why a room's round ended before its board did: the mover's time ran out (the other
seat won), or the player left behind claimed the round of one whose link dropped (an
abandoned round, `left_by` the one who left, before their grace ran out)."""


class Seat(NamedTuple):
    """Who sat in a seat: the name they played under (stored as given, cleaned when shown)
    and their key (the record's player: the local user, or an SSH key's fingerprint); key
    None for a guest, whose side of the round is kept but never rated."""

    name: str
    key: str | None


class Match(NamedTuple):
    """One round between people, as `People.save_match` takes it.

    `round_key` is made by the caller once per round (`new_round_key()`) and sent with
    every attempt to save it: a save retried after a lost acknowledgement is kept once.
    `ended_at` None: now.
    """

    x: Seat
    o: Seat
    kind: str  # one of KINDS
    board_size: int
    first: str  # the seat that started: "X" or "O"
    moves: tuple[int, ...]  # cell keys, both seats, in order
    result: str  # one of MATCH_RESULTS
    left_by: str | None  # with result "abandoned" only: the seat that left
    round_key: str
    ended_at: Any = None  # datetime with a time zone, or None
    agreed: bool = False  # with result "draw": both players agreed to it mid-round
    cause: str | None = None  # one of CAUSES: "time" (result: the winner), "claimed"
    take_backs: int = 0  # moves taken back by consent in this round
    unrated: bool = False  # the room's two seats came from one address: kept, never rated


def new_round_key() -> str:
    """A fresh `Match.round_key`: random, so two hosts never make the same one."""
    import uuid  # on first use: start-up

    return str(uuid.uuid4())


class PeopleRound(NamedTuple):
    """A kept round between people, from one player's side (`People.rounds`)."""

    id: int
    ended_at: str  # UTC, ISO 8601
    kind: str
    board_size: int
    symbol: str  # the player's seat; in a hot seat round "X"
    first: str  # the seat that started
    opponent: str  # the other seat's name, as stored
    opponent_key: str | None
    moves: tuple[int, ...]
    result: str  # from the player's side: win, loss, draw, abandoned (hot seat: X, O, ...)
    left_by: str | None  # the seat that left an abandoned round
    rating_change: int  # the player's Elo points from this round
    rated: bool  # the round moved ratings (a room round between two keyed people)
    cause: str | None = None  # `Match.cause`: "time" or "claimed" (a room round ended early)


class PeopleStanding(NamedTuple):
    """A player's rounds in rooms on one board: `abandoned` counts rounds left by either
    player, `left` those the player left (rated as their loss)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    left: int = 0

    @property
    def rounds(self) -> int:
        return self.wins + self.losses + self.draws + self.abandoned


class HotSeatStanding(NamedTuple):
    """Rounds at one keyboard on one board: both seats are this player, so X and O count."""

    x_wins: int = 0
    o_wins: int = 0
    draws: int = 0
    abandoned: int = 0

    @property
    def rounds(self) -> int:
        return self.x_wins + self.o_wins + self.draws + self.abandoned


class PeopleStats(NamedTuple):
    """A player's record against people, per board (every board offered, by `board_name`).

    `rating` is the Elo rating (None: never rated), `rated` the rounds it counts.
    """

    player: str
    rating: int | None
    rated: int
    rooms: dict[str, PeopleStanding]
    hot_seat: dict[str, HotSeatStanding]

    @property
    def rounds(self) -> int:
        return sum(s.rounds for s in self.rooms.values()) + sum(
            s.rounds for s in self.hot_seat.values()
        )


def empty_people_stats(player: str) -> PeopleStats:
    boards = [board_name(size) for size in CHOICES["board"]]
    return PeopleStats(
        player,
        None,
        0,
        {board: PeopleStanding() for board in boards},
        {board: HotSeatStanding() for board in boards},
    )


class RatingEntry(NamedTuple):
    """A row of the people's leaderboard: Elo rating and rated rounds."""

    player: str
    display_name: str
    rating: int
    games: int
    owns_name: bool = False  # the first key that used the name (`moderation`)

    @property
    def label(self) -> str:
        """The name, and the start of the key's fingerprint (see `LeaderEntry.label`)."""
        return labelled_name(self.display_name, self.player, self.owns_name)
