"""A round as every backend saves it, and the standings' arithmetic in SQL.

Both backends (the SQLite file, `store.Record`, and PostgreSQL, `postgres.store`) check a
round and compute what it adds to its player's standings here, and keep the standings
with one statement made by `add_round_statement`, so what a round counts is written
once. Only the dialect differs: how a parameter is named, what the larger of two
numbers is called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from tui_tictactoe.record.validation import check_round, utc_text
from tui_tictactoe.record.values import RESULTS, FinishedRound, RoundRecord


class PreparedRound(NamedTuple):
    """A checked round, ready to be written: its row and what it adds to the standings."""

    played_at: str  # UTC, ISO 8601, to the second
    player: str
    display_name: str
    board_size: int
    difficulty: str
    symbol: str
    first: str
    moves: tuple[int, ...]
    result: str
    took_back: bool
    standing: dict[str, Any]  # the parameters of `add_round_statement`


def prepare_round(player: str | None, finished: FinishedRound) -> PreparedRound | None:
    """The round checked (ValueError for the caller's bug); None for a guest, who is not kept."""
    difficulty, symbol, first, moves, result, took_back, board_size, display_name, when = finished
    keys = check_round(
        difficulty=difficulty,
        symbol=symbol,
        first=first,
        result=result,
        board_size=board_size,
        moves=moves,
    )
    if player is None:
        return None
    took_back = bool(took_back)
    unbeaten = result in ("win", "draw") and not took_back
    standing = {
        "player": player,
        "board_size": board_size,
        "difficulty": difficulty,
        **{outcome: int(result == outcome) for outcome in RESULTS},
        "took_back": int(took_back),
        "unbeaten": int(unbeaten),
        "clean_win": int(result == "win" and not took_back),
    }
    name = display_name or player
    return PreparedRound(
        utc_text(when),
        player,
        name,
        board_size,
        difficulty,
        symbol,
        first,
        keys,
        result,
        took_back,
        standing,
    )


def round_record(row: Sequence[Any]) -> RoundRecord:
    """A kept round from its row (`Record.ROUND_COLUMNS`), its moves as stored: `5,1,9`."""
    *head, moves, result, took_back = row
    try:
        keys = tuple(int(key) for key in moves.split(",")) if moves else ()
    except (AttributeError, ValueError):
        keys = ()  # a hand-edited row: show the round without its replay
    return RoundRecord._make((*head, keys, result, bool(took_back)))


SAVE_PLAYER = (
    "INSERT INTO players (player, display_name) VALUES (?, ?)"
    " ON CONFLICT (player) DO UPDATE SET display_name = excluded.display_name"
)
"""The name a player is shown by: the one of its latest round."""


# What one round adds to a standings row. In an UPDATE every expression reads the row
# as it was, so `streak + 1` is the streak before plus this round. A migration step that
# changes what is counted changes this with it.
_ADD_ROUND = """INSERT INTO {table} AS old ({columns},
    wins, losses, draws, abandoned, take_backs, streak, best_streak, clean_wins
) VALUES ({key}, {win}, {loss}, {draw}, {abandoned}, {took_back}, {unbeaten}, {unbeaten},
    {clean_win})
ON CONFLICT ({columns}) DO UPDATE SET
    wins = old.wins + {win},
    losses = old.losses + {loss},
    draws = old.draws + {draw},
    abandoned = old.abandoned + {abandoned},
    take_backs = old.take_backs + {took_back},
    streak = CASE WHEN {unbeaten} = 1 THEN old.streak + 1 ELSE 0 END,
    best_streak = {greatest}(old.best_streak, CASE WHEN {unbeaten} = 1 THEN old.streak + 1 ELSE 0 END),
    clean_wins = old.clean_wins + {clean_win}
"""

STANDING_KEYS = {
    "standings": ("player", "difficulty"),
    "board_standings": ("player", "board_size", "difficulty"),
}
"""The standings tables, each with its key: per level on all boards, per board and level."""


def add_round_statement(table: str, parameter: Callable[[str], str], greatest: str) -> str:
    """The upsert that adds a round (named parameters: `PreparedRound.standing`) to `table`.

    `parameter` names a parameter in the dialect (`:win`, `%(win)s`); `greatest` is its
    larger-of-two function (`MAX` in SQLite, `GREATEST` in PostgreSQL).
    """
    key = STANDING_KEYS[table]
    names = ("win", "loss", "draw", "abandoned", "took_back", "unbeaten", "clean_win")
    return _ADD_ROUND.format(
        table=table,
        columns=", ".join(key),
        key=", ".join(parameter(column) for column in key),
        greatest=greatest,
        **{name: parameter(name) for name in names},
    )
