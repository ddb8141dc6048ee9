"""What the record accepts: every option value checked against the one table, `options.CHOICES`.

Arguments are checked before anything is written (an invalid one is the caller's
bug: ValueError). Settings read back are filtered instead: a value this program no
longer offers, or a hand-edited row, is ignored, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..options import CHOICES
from .values import RESULTS

if TYPE_CHECKING:
    from datetime import datetime


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """`value` if it is one of `allowed`; else ValueError naming the option."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value  # type: ignore[return-value]


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
    if moment.tzinfo is None:
        raise ValueError("played_at must carry a time zone")
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def settings_to_store(given: Mapping[str, object]) -> dict[str, str]:
    """The given settings (None: not given) as stored text; ValueError for a bad one.

    Choices (`CHOICES`) as they are, `alternate` as "1" or "0", `theme` any name.
    """
    values: dict[str, str] = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in CHOICES:
            values[name] = check_choice(name, value, CHOICES[name])
        elif name == "alternate":
            if not isinstance(value, bool):
                raise ValueError(f"alternate must be True or False, not {value!r}")
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
    if stored.get("alternate") in ("0", "1"):
        settings["alternate"] = stored["alternate"] == "1"
    if stored.get("theme"):
        settings["theme"] = stored["theme"]
    return settings
