"""What the record accepts: every option value checked against the one table, `options.CHOICES`.

Arguments are checked before anything is written (an invalid one is the caller's
bug: ValueError). Settings read back are filtered instead: a value this program no
longer offers, or a hand-edited row, is ignored, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tui_tictactoe.engine import GameBoard, IllegalMove
from tui_tictactoe.options import CHOICES, board_geometry
from tui_tictactoe.record.values import CAUSES, KINDS, MATCH_RESULTS, RESULTS, SEATS, Match

if TYPE_CHECKING:
    from datetime import datetime


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """`value` if it is one of `allowed`; else ValueError naming the option."""
    for choice in allowed:
        if value == choice:
            return choice
    raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def check_round(
    *, difficulty: str, symbol: str, first: str, result: str, board_size: int, moves: Sequence[int]
) -> tuple[int, ...]:
    """A round's fields checked; its moves as a tuple of cell keys."""
    check_choice("difficulty", difficulty, CHOICES["difficulty"])
    check_choice("symbol", symbol, CHOICES["symbol"])
    check_choice("first", first, CHOICES["first"])
    check_choice("result", result, RESULTS)
    if not isinstance(board_size, int) or board_size < 1:
        raise ValueError(f"board_size must be a positive whole number, not {board_size!r}")
    cells = board_size * board_size
    keys = tuple(moves)
    if any(not isinstance(key, int) or not 1 <= key <= cells for key in keys):
        raise ValueError(f"moves must be cell keys from 1 to {cells}, not {keys!r}")
    return keys


def utc_text(when: datetime | None) -> str:
    """A round's time as stored: UTC, ISO 8601, to the second (None: now); ValueError if naive."""
    from datetime import UTC, datetime  # on first use: start-up

    moment = when if when is not None else datetime.now(UTC)
    if not isinstance(moment, datetime):
        raise ValueError(f"a time must be a datetime, not {_short(moment)}")
    if moment.tzinfo is None:
        raise ValueError("played_at must carry a time zone")
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


FLAGS = ("alternate", "bell")
"""Yes-or-no settings: alternating starts, and the bell when it becomes your turn in a room."""


def settings_to_store(given: Mapping[str, object]) -> dict[str, str]:
    """The given settings (None: not given) as stored text; ValueError for a bad one.

    Choices (`CHOICES`) as they are, `alternate` and `bell` as "1" or "0", `theme` any name.
    """
    values: dict[str, str] = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in CHOICES:
            values[name] = check_choice(name, value, CHOICES[name])
        elif name in FLAGS:
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, not {value!r}")
            values[name] = "1" if value else "0"
        elif name == "theme":
            if not isinstance(value, str) or not value:
                raise ValueError(f"theme must be a theme's name, not {value!r}")
            values[name] = value
        else:
            raise ValueError(f"no setting is called {name!r}")
    return values


def valid_settings(stored: Mapping[str, str]) -> dict[str, Any]:
    """The stored settings this program understands; anything else is ignored, not an error."""
    settings: dict[str, Any] = {
        name: stored[name] for name, allowed in CHOICES.items() if stored.get(name) in allowed
    }
    for name in FLAGS:
        if stored.get(name) in ("0", "1"):
            settings[name] = stored[name] == "1"
    if stored.get("theme"):
        settings["theme"] = stored["theme"]
    return settings


ROUND_KEY_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:"
)
ROUND_KEY_LIMIT = 100
NAME_LIMIT = 1000
"""Characters of a seat's name kept (the rest is cut) and of a key accepted: names are
stored as given and cleaned when shown, but no name may fill the disk."""


def check_match(match: Match) -> tuple[int, ...]:
    """A round between people checked whole, its moves replayed by the rules; its moves.

    The moves must be a game the rules allow, started by `first`, and the result what
    they make: the winning seat's line, a full board for a draw, and for an abandoned
    round a game not yet over, with `left_by` (given then only).
    """
    if not isinstance(match, tuple) or len(match) != len(Match._fields):
        raise ValueError(f"save_match takes a Match, not {_short(match)}")
    for seat, who in zip(SEATS, (match.x, match.o), strict=True):
        _check_seat(seat, who)
    check_choice("kind", match.kind, KINDS)
    check_choice("board", str(match.board_size), CHOICES["board"])
    check_choice("first", match.first, SEATS)
    check_choice("result", match.result, MATCH_RESULTS)
    if (match.result == "abandoned") != (match.left_by is not None):
        raise ValueError("left_by is the seat that left an abandoned round, and None otherwise")
    if match.left_by is not None:
        check_choice("left_by", match.left_by, SEATS)
    if type(match.unrated) is not bool:
        raise ValueError("unrated is True or False")
    if type(match.agreed) is not bool or (match.agreed and match.result != "draw"):
        raise ValueError("agreed is True only for a draw both players agreed to mid-round")
    _check_cause(match)
    key = match.round_key
    if not (
        isinstance(key, str)
        and 0 < len(key) <= ROUND_KEY_LIMIT
        and set(key) <= ROUND_KEY_CHARACTERS
    ):
        raise ValueError(
            f"round_key must be 1 to {ROUND_KEY_LIMIT} letters, digits or -_.:, not {_short(key)}"
        )
    utc_text(match.ended_at)  # None (now) or a time with a zone
    return _replayed(match)


def _check_cause(match: Match) -> None:
    """A cause is None, "time" for a won round, or "claimed" for an abandoned one; the
    take-backs a count."""
    if match.cause is not None:
        check_choice("cause", match.cause, CAUSES)
        wanted = SEATS if match.cause == "time" else ("abandoned",)
        if match.result not in wanted:
            raise ValueError(f"a round ended by {match.cause!r} has result {' or '.join(wanted)}")
    takes = match.take_backs
    if isinstance(takes, bool) or not isinstance(takes, int) or not 0 <= takes <= 10**6:
        raise ValueError(f"take_backs is a count, not {_short(takes)}")


def _check_seat(seat: str, who: object) -> None:
    name, key = who if isinstance(who, tuple) and len(who) == 2 else (None, None)
    if not isinstance(name, str):
        raise ValueError(f"seat {seat} must be (name, key), not {_short(who)}")
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= NAME_LIMIT):
        raise ValueError(f"seat {seat}'s key must be None (a guest) or text, not {_short(key)}")


def stored_name(name: str) -> str:
    """A seat's name as kept: as given, cut to NAME_LIMIT characters."""
    return name[:NAME_LIMIT]


def _short(value: object) -> str:
    """A bad value in an error message, bounded: it may be a client's whole input."""
    text = ascii(value)
    return text if len(text) <= 60 else text[:59] + "..."


def _replayed(match: Match) -> tuple[int, ...]:
    """The moves, played in turn from `first`: ValueError unless the result is theirs."""
    cells = match.board_size * match.board_size
    keys = tuple(match.moves)
    try:
        board = GameBoard.from_moves(board_geometry(match.board_size), match.first, keys)
    except IllegalMove as refused:
        if refused.refusal == "not-a-key":
            raise ValueError(
                f"moves must be cell keys from 1 to {cells}, not {_short(keys)}"
            ) from None
        raise ValueError(f"moves {_short(keys)} are not a game the rules allow") from None
    ended = {"X": board.winner() == "X", "O": board.winner() == "O"}
    ended["draw"] = board.is_full() and board.winner() is None
    if match.agreed:  # agreed mid-round: a game not over, a move made at least
        ended["draw"] = bool(keys) and not board.is_game_over()
    ended["abandoned"] = not board.is_game_over()
    if match.cause == "time":  # the mover ran out: a game not over, a move made at least
        loser = match.first if len(keys) % 2 == 0 else ("O" if match.first == "X" else "X")
        ended["X"] = ended["O"] = bool(keys) and not board.is_game_over()
        ended[loser] = False
    if not ended[match.result]:
        raise ValueError(f"result {match.result!r} is not how moves {_short(keys)} end")
    return keys
