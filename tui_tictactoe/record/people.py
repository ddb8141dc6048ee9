"""Rounds between people and their Elo ratings: what `Record` does with them.

A round between people (`Match`) is saved once, by its `round_key`, and a rated one
moves both players' ratings in the same transaction: a round kept means both ratings
moved, a round lost means neither did. A round is rated when it was played in a room,
both seats have a key (guests are never rated), the keys differ and a move was played.
Hot seat rounds are kept but never rated: both seats are one person.

Elo: start `START`, factor `K`, X's expected score 1 / (1 + 10^((Ro - Rx) / 400)); a win
scores 1, a draw 0.5, and an abandoned round is a loss for the one who left and a win
for the other (leaving a lost position must not dodge the loss). X's gain is rounded
to whole points (half away from zero) and O gets minus that: ratings are whole
numbers, and the points one player gains the other loses, exactly.

The SQL is plain (upserts, `ON CONFLICT`), so a PostgreSQL backend can say the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .schema import write_transaction
from .validation import check_match, stored_name, utc_text
from .values import (
    HotSeatStanding,
    Match,
    PeopleRound,
    PeopleStanding,
    PeopleStats,
    RatingEntry,
    board_name,
    empty_people_stats,
)

if TYPE_CHECKING:
    import sqlite3

T = TypeVar("T")

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
    return match.kind == "room" and None not in (x, o) and x != o and len(match.moves) > 0


_INSERT = """
INSERT INTO matches (round_key, ended_at, kind, board_size, x_player, x_name, o_player,
                     o_name, first, moves, result, left_by, rated, x_gain)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (round_key) DO NOTHING
"""
_RATE = """
INSERT INTO ratings (player, display_name, rating, games) VALUES (?, ?, ?, 1)
ON CONFLICT (player) DO UPDATE SET
    display_name = excluded.display_name, rating = excluded.rating, games = games + 1
"""
_ROUNDS = """
SELECT id, ended_at, kind, board_size, x_player, x_name, o_player, o_name, first, moves,
       result, left_by, x_gain, rated
FROM matches WHERE x_player = :player OR o_player = :player
ORDER BY id DESC LIMIT :limit
"""
_COUNTS = """
SELECT kind, board_size, CASE WHEN x_player = :player THEN 'X' ELSE 'O' END, result,
       left_by, COUNT(*)
FROM matches WHERE x_player = :player OR o_player = :player
GROUP BY 1, 2, 3, 4, 5
"""


def save(conn: sqlite3.Connection, match: Match, keys: tuple[int, ...]) -> bool:
    """Keep the round, and for a rated one both new ratings, in one transaction.

    The ratings are read under the write lock (`BEGIN IMMEDIATE`), so no other save
    comes between the read and the write. A round already kept (its `round_key`) is
    not kept or rated again: True all the same, it is committed.
    """
    rated = is_rated(match)
    with write_transaction(conn):
        points, x_rating, o_rating = 0, START, START
        if rated:
            x_rating, o_rating = (_rating(conn, seat.key) for seat in (match.x, match.o))
            points = gain(x_rating, o_rating, x_score(match.result, match.left_by))
        inserted = conn.execute(
            _INSERT,
            (
                match.round_key,
                utc_text(match.ended_at),
                match.kind,
                match.board_size,
                match.x.key,
                stored_name(match.x.name),
                match.o.key,
                stored_name(match.o.name),
                match.first,
                ",".join(map(str, keys)),
                match.result,
                match.left_by,
                int(rated),
                points,
            ),
        ).rowcount
        if inserted and rated:
            conn.execute(_RATE, (match.x.key, stored_name(match.x.name), x_rating + points))
            conn.execute(_RATE, (match.o.key, stored_name(match.o.name), o_rating - points))
    return True


def _rating(conn: sqlite3.Connection, player: str | None) -> int:
    row = conn.execute("SELECT rating FROM ratings WHERE player = ?", (player,)).fetchone()
    return START if row is None else int(row[0])


def read_stats(conn: sqlite3.Connection, player: str) -> PeopleStats:
    """The player's rounds against people counted per board, and their rating."""
    stats = empty_people_stats(player)
    rooms: dict[str, list[int]] = {board: list(s) for board, s in stats.rooms.items()}
    hot_seat: dict[str, list[int]] = {board: list(s) for board, s in stats.hot_seat.items()}
    for kind, size, seat, result, left_by, count in conn.execute(
        _COUNTS, {"player": player}
    ).fetchall():
        board = board_name(size)
        if kind == "room" and board in rooms:
            _count_room(rooms[board], seat, result, left_by, count)
        elif kind == "hotseat" and board in hot_seat:
            index = ("X", "O", "draw", "abandoned").index(result)
            hot_seat[board][index] += count
    row = conn.execute("SELECT rating, games FROM ratings WHERE player = ?", (player,)).fetchone()
    return PeopleStats(
        player,
        None if row is None else int(row[0]),
        0 if row is None else int(row[1]),
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


def read_rounds(conn: sqlite3.Connection, player: str, limit: int) -> list[PeopleRound]:
    rows = conn.execute(_ROUNDS, {"player": player, "limit": limit}).fetchall()
    return [_people_round(player, row) for row in rows]


def _people_round(player: str, row: tuple[Any, ...]) -> PeopleRound:
    (number, ended, kind, size, x_key, x_name, o_key, o_name, first, moves, result, left_by,
     x_gain, rated) = row  # fmt: skip
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
        change, bool(rated),
    )  # fmt: skip


def read_ratings(conn: sqlite3.Connection, limit: int) -> list[RatingEntry]:
    rows = conn.execute(
        "SELECT player, display_name, rating, games FROM ratings WHERE games > 0"
        " ORDER BY rating DESC, games DESC, player LIMIT ?",
        (limit,),
    ).fetchall()
    return [RatingEntry(*row) for row in rows]


class PeopleRecord:
    """`Record`'s methods for rounds between people (its base: `store.py` has the rest).

    Like every `Record` method they never raise for the file's sake: `_run` degrades
    and leaves a notice. An invalid `Match` is the caller's bug: ValueError.
    """

    if TYPE_CHECKING:

        def _run(
            self, operation: Callable[[sqlite3.Connection], T], fallback: T, lost: str
        ) -> T: ...

    def save_match(self, match: Match) -> bool:
        """Keep a round between people, and move both ratings if it is rated, in one
        transaction; True once committed (or already kept under its `round_key`)."""
        keys = check_match(match)
        return self._run(lambda conn: save(conn, match, keys), False, "this round was not recorded")

    def people_stats(self, player: str | None) -> PeopleStats:
        """The player's rounds against people per board (rooms, hot seat) and rating."""
        if player is None:
            return empty_people_stats("guest")
        return self._run(
            lambda conn: read_stats(conn, player),
            empty_people_stats(player),
            "the record could not be read",
        )

    def people_rounds(self, player: str | None, limit: int = 10) -> list[PeopleRound]:
        """The player's latest rounds against people, newest first, from their side."""
        if player is None:
            return []
        return self._run(
            lambda conn: read_rounds(conn, player, limit), [], "the record could not be read"
        )

    def ratings(self, limit: int = 10) -> list[RatingEntry]:
        """The top `limit` people by Elo rating (most rated rounds first among equals)."""
        return self._run(
            lambda conn: read_ratings(conn, limit), [], "the leaderboard could not be read"
        )
