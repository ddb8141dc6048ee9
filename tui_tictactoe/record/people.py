"""Rounds between people and their Elo ratings: `Record.people`.

A round between people (`Match`) is saved once, by its `round_key`, and a rated one
moves both players' ratings in the same transaction: a round kept means both ratings
moved, a round lost means neither did. A round is rated when it was played in a room,
both seats have a key (guests are never rated), the keys differ, a move was played and
the two seats came from two addresses (else `Match.unrated`: two keys of one person).
Hot seat rounds are kept but never rated: both seats are one person.

Elo: start `START`, factor `K`, X's expected score 1 / (1 + 10^((Ro - Rx) / 400)); a win
scores 1, a draw 0.5, and an abandoned round is a loss for the one who left and a win
for the other (leaving a lost position must not dodge the loss); a round lost on time is
a loss, one claimed from a player who left is theirs abandoned (counted a win for the
one who claimed it, and left for the other, in their stats). X's gain is rounded
to whole points (half away from zero) and O gets minus that: ratings are whole
numbers, and the points one player gains the other loses, exactly.

The SQL is plain (upserts, `ON CONFLICT`), so a PostgreSQL backend can say the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from tui_tictactoe.record.access import Access
from tui_tictactoe.record.validation import check_match, stored_name, utc_text
from tui_tictactoe.record.values import (
    HotSeatStanding,
    Match,
    PeopleRound,
    PeopleStanding,
    PeopleStats,
    RatingEntry,
    board_name,
    empty_people_stats,
)

START = 1200
"""Everyone's rating before their first rated round."""
K = 32
"""The most points one round can move a rating."""


def expected(rating: float, other: float) -> float:
    """The score a player rated `rating` is expected to make against `other` (0 to 1)."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def gain(rating: int, other: int, score: float) -> int:
    """The whole points a player rated `rating` gains (or loses) scoring `score` against
    `other`: K * (score - expected), rounded half away from zero."""
    change = K * (score - expected(rating, other))
    return int(math.copysign(math.floor(abs(change) + 0.5), change))


def x_score(result: str, left_by: str | None) -> float:
    """X's score in a round: 1 a win, 0.5 a draw, 0 a loss; leaving is losing."""
    if result == "abandoned":
        return 0.0 if left_by == "X" else 1.0
    return {"X": 1.0, "O": 0.0}.get(result, 0.5)


def is_rated(match: Match) -> bool:
    """A room round between two different keyed people, with a move played."""
    x, o = match.x.key, match.o.key
    if match.unrated:  # both seats from one address (`RoomView.unrated`): one person
        return False
    return match.kind == "room" and None not in (x, o) and x != o and len(match.moves) > 0


_INSERT = """
INSERT INTO matches (round_key, ended_at, kind, board_size, x_player, x_name, o_player,
                     o_name, first, moves, result, left_by, rated, x_gain, agreed, cause,
                     take_backs)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (round_key) DO NOTHING
RETURNING id
"""
_LOCK = """
INSERT INTO ratings (player, display_name, rating, games) VALUES (?, ?, ?, 0)
ON CONFLICT (player) DO UPDATE SET games = ratings.games
RETURNING rating
"""
"""A player's rating, their row written (a placeholder for a newcomer) so that it is
locked until the round's transaction ends (PostgreSQL; SQLite's write lock is whole)."""
_RATE = "UPDATE ratings SET display_name = ?, rating = ?, games = games + 1 WHERE player = ?"
_COUNTS = """
SELECT kind, board_size, CASE WHEN x_player = ? THEN 'X' ELSE 'O' END, result,
       left_by, cause = 'claimed', COUNT(*)
FROM matches WHERE x_player = ? OR o_player = ?
GROUP BY 1, 2, 3, 4, 5, 6
"""


class _KeptAlready(Exception):
    """The round's key is kept already: undo the save's placeholders, count nothing."""


def read_stats(rows: list[Any], rating: list[Any], player: str) -> PeopleStats:
    """The player's rounds against people counted per board (`_COUNTS`'s rows), and their
    rating (its row, if any)."""
    stats = empty_people_stats(player)
    rooms: dict[str, list[int]] = {board: list(s) for board, s in stats.rooms.items()}
    hot_seat: dict[str, list[int]] = {board: list(s) for board, s in stats.hot_seat.items()}
    for kind, size, seat, result, left_by, claimed, count in rows:
        board = board_name(size)
        if kind == "room" and board in rooms:
            if claimed and result == "abandoned" and left_by != seat:
                result = seat  # claimed from a player who left: the win it is (Elo says so)
            _count_room(rooms[board], seat, result, left_by, int(count))
        elif kind == "hotseat" and board in hot_seat:
            index = ("X", "O", "draw", "abandoned").index(result)
            hot_seat[board][index] += int(count)
    return PeopleStats(
        player,
        int(rating[0][0]) if rating else None,
        int(rating[0][1]) if rating else 0,
        {board: PeopleStanding(*numbers) for board, numbers in rooms.items()},
        {board: HotSeatStanding(*numbers) for board, numbers in hot_seat.items()},
    )


def _count_room(numbers: list[int], seat: str, result: str, left_by: str | None, n: int) -> None:
    """Add `n` rounds of one result, from `seat`'s side, to [won, lost, drawn, abandoned,
    left]."""
    if result == "abandoned":
        numbers[3] += n
        numbers[4] += n if left_by == seat else 0
    elif result == "draw":
        numbers[2] += n
    else:
        numbers[0 if result == seat else 1] += n


def _people_round(player: str, row: tuple[Any, ...]) -> PeopleRound:
    (number, ended, kind, size, x_key, x_name, o_key, o_name, first, moves, result, left_by,
     x_gain, rated, cause) = row  # fmt: skip
    seat = "X" if x_key == player else "O"
    if kind == "room":
        opponent, opponent_key = (o_name, o_key) if seat == "X" else (x_name, x_key)
        if result in ("X", "O"):
            result = "win" if result == seat else "loss"
    else:  # both seats are the player: the result stays the seat's
        seat, opponent, opponent_key = "X", o_name, o_key
    try:
        keys = tuple(int(key) for key in moves.split(",")) if moves else ()
    except (AttributeError, ValueError):
        keys = ()  # a hand-edited row
    change = int(x_gain) if seat == "X" else -int(x_gain)
    return PeopleRound(
        number, ended, kind, size, seat, first, opponent, opponent_key, keys, result, left_by,
        change, bool(rated), cause,
    )  # fmt: skip


class People:
    """The record's rounds between people (`record.people`), written once for both backends
    on the hooks of the `Record` that owns it (`Access`) and the few of their own below
    (`MATCH_COLUMNS`, `_stored_moves`, `_saving_match`: `PostgresPeople` has its own).

    Like every `Record` method they never raise for the database's sake: `run` degrades
    and leaves a notice. An invalid `Match` is the caller's bug: ValueError.
    """

    def __init__(
        self,
        access: Access,
        owners: Callable[[Any, list[RatingEntry]], list[RatingEntry]],
    ) -> None:
        """`owners` marks each rating's entry whether its key owns its name
        (`Moderation.with_owners`)."""
        self._access = access
        self._owners = owners

    MATCH_COLUMNS = (
        "id, ended_at, kind, board_size, x_player, x_name, o_player, o_name, first, moves,"
        " result, left_by, x_gain, rated, cause"
    )
    """A kept round between people's columns, as `_people_round` reads them (the time as UTC
    text, the moves as `5,1,9`): a backend that keeps them otherwise converts them here."""

    def _stored_moves(self, keys: tuple[int, ...]) -> Any:
        """The moves as the `moves` column keeps them (here text: `5,1,9`)."""
        return ",".join(map(str, keys))

    def _saving_match(self, conn: Any) -> AbstractContextManager[Any]:
        """What a save runs in, undone whole when its round is kept already: here the
        write transaction (`Access.writing`)."""
        return self._access.writing(conn)

    def save_match(self, match: Match) -> bool:
        """Keep a round between people, and move both ratings if it is rated, in one
        transaction; True once committed (or already kept under its `round_key`)."""
        keys = check_match(match)
        return self._access.run(
            lambda conn: self._save_match(conn, match, keys), False, "this round was not recorded"
        )

    def _save_match(self, conn: Any, match: Match, keys: tuple[int, ...]) -> bool:
        """The round and, if rated, both new ratings; a round already kept changes nothing.

        Both ratings are read with their rows locked, in the order of the players' keys
        (`_LOCK`, one statement a player), before the round goes in: two rooms finishing
        at once with the same two people, in either seats, never wait on each other
        crosswise (no deadlock), and a later round's id comes after every earlier one it
        read a rating of, so the rounds replayed by id give the ratings kept. SQLite's
        `BEGIN IMMEDIATE` serialises every save anyway.
        """
        rated = is_rated(match)
        try:
            with self._saving_match(conn):
                points, x_rating, o_rating = 0, START, START
                if rated:
                    seats = sorted((match.x, match.o), key=lambda seat: str(seat.key))
                    rating = {
                        seat.key: int(
                            self._access.query(
                                conn, _LOCK, (seat.key, stored_name(seat.name), START)
                            )[0][0]
                        )
                        for seat in seats
                    }
                    x_rating, o_rating = rating[match.x.key], rating[match.o.key]
                    points = gain(x_rating, o_rating, x_score(match.result, match.left_by))
                row = (match.round_key, utc_text(match.ended_at), match.kind, match.board_size,
                       match.x.key, stored_name(match.x.name), match.o.key,
                       stored_name(match.o.name), match.first, self._stored_moves(keys),
                       match.result, match.left_by, rated, points, match.agreed,
                       match.cause, match.take_backs)  # fmt: skip
                if not self._access.query(conn, _INSERT, row):
                    raise _KeptAlready  # undo the placeholders: count nothing twice
                if rated:
                    for seat, new in ((match.x, x_rating + points), (match.o, o_rating - points)):
                        self._access.query(conn, _RATE, (stored_name(seat.name), new, seat.key))
        except _KeptAlready:
            pass
        return True

    def stats(self, player: str | None) -> PeopleStats:
        """The player's rounds against people per board (rooms, hot seat) and rating."""
        if player is None:
            return empty_people_stats("guest")

        def read(conn: Any) -> PeopleStats:
            rows = self._access.query(conn, _COUNTS, (player, player, player))
            rating = self._access.query(
                conn, "SELECT rating, games FROM ratings WHERE player = ? AND games > 0", (player,)
            )
            return read_stats(rows, rating, player)

        return self._access.run(read, empty_people_stats(player), "the record could not be read")

    def rounds(self, player: str | None, limit: int = 10) -> list[PeopleRound]:
        """The player's latest rounds against people, newest first, from their side."""
        if player is None:
            return []

        def read(conn: Any) -> list[PeopleRound]:
            rows = self._access.query(
                conn,
                f"SELECT {self.MATCH_COLUMNS} FROM matches WHERE x_player = ? OR o_player = ?"
                " ORDER BY id DESC LIMIT ?",
                (player, player, limit),
            )
            return [_people_round(player, row) for row in rows]

        return self._access.run(read, [], "the record could not be read")

    def players_named(self, name: str, limit: int = 10) -> list[str]:
        """The keys of the players whose key or shown name is `name` (of rounds against the
        AI or people), sorted: how a host names a player to `stats --player`."""

        def read(conn: Any) -> list[str]:
            rows = self._access.query(
                conn,
                "SELECT player FROM players WHERE player = ? OR display_name = ? UNION"
                " SELECT player FROM ratings WHERE player = ? OR display_name = ?"
                " ORDER BY player LIMIT ?",
                (name, name, name, name, limit),
            )
            return [row[0] for row in rows]

        return self._access.run(read, [], "the record could not be read")

    def ratings(self, limit: int = 10) -> list[RatingEntry]:
        """The top `limit` people by Elo rating (most rated rounds first among equals)."""

        def read(conn: Any) -> list[RatingEntry]:
            rows = self._access.query(
                conn,
                "SELECT player, display_name, rating, games FROM ratings WHERE games > 0"
                " ORDER BY rating DESC, games DESC, player LIMIT ?",
                (limit,),
            )
            return self._owners(conn, [RatingEntry(*row) for row in rows])

        return self._access.run(read, [], "the leaderboard could not be read")
