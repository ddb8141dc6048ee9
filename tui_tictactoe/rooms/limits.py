"""`RoomLimits`: every number a room hub is started with, declared once with its default.

`MemoryHub` and `PostgresHub` take it whole, `serve-ssh`'s settings hold it, and its
command-line options (`--reconnect-grace`, `--move-time`, ...) are made from the fields
that carry an `Option` (`servers.arguments.add_room_options`), so argparse, `--help`,
`--config` and `--print-config` read their defaults here. A new limit is a field here
and the rule that reads it (docs: CONTRIBUTING.md, "a new room limit").

Imported by the command line's parser on every start: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple


class Option(NamedTuple):
    """A limit `serve-ssh` takes on its command line: `--NAME-WITH-DASHES`, its help
    (`{default}` is the field's default, shown as `60` for 60.0), and its values: a
    number of seconds (0 to a week) or a whole number from `low` to `high`."""

    help: str
    kind: Literal["seconds", "count"] = "count"
    low: int = 0
    high: int = 0


def _option(
    default: object,
    text: str,
    kind: Literal["seconds", "count"] = "count",
    *,
    low: int = 0,
    high: int = 0,
) -> Any:
    """A field with its command-line option (`Any`: what `dataclasses.field` returns)."""
    return field(default=default, metadata={"option": Option(text, kind, low, high)})


@dataclass(frozen=True)
class RoomLimits:
    """What a hub allows, and how long it waits. Frozen: a hub's limits change only by
    handing it new ones (`dataclasses.replace`)."""

    reconnect_grace: float = _option(
        60.0,
        "how long a player whose link dropped keeps their seat (default {default}); "
        "the other player may claim the round after half of it",
        "seconds",
    )
    """Seconds a dropped player keeps their seat: a budget for the round (`Room.away`)."""
    move_time: float = _option(
        60.0,
        "how long a player in a room has for each move before the round is lost on "
        "time (default {default}; 0: no clock); a room keeps the time it opened with",
        "seconds",
    )
    """Seconds a mover has in each new room (0: no clock); the room keeps it."""
    max_spectators: int = _option(
        8,
        "spectators per room (default {default}); each is a session, counted by "
        "--max-sessions and --max-per-address",
        low=0,
        high=1000,
    )
    max_rooms: int | None = _option(
        None,
        "live rooms in all, also those whose players' links dropped (default: --max-sessions)",
        low=1,
        high=100_000,
    )
    """Live rooms in all (None: no cap; `serve-ssh` makes it --max-sessions)."""
    rooms_per_address: int = _option(
        3,
        "live rooms opened from one IP address, counted until each closes (default {default})",
        low=1,
        high=1000,
    )
    """Live rooms counting against one address at a time: opened from it, or a seat held
    from it (`Room.counts_against`; a room counts until it closes, also while its
    creator's link is down): a few for a person, not a lobby full of spam."""
    wrong_code_limit: int = 5
    """Wrong room codes one address may try per `wrong_code_window` seconds."""
    wrong_code_window: float = 60.0
    places_per_address: int = 3
    """Places one address may hold in the quick-match queues at once (one a session)."""
    max_places: int = 1000
    """Places in all the queues together."""
    place_timeout: float = 10.0
    """Seconds a place lives without a question (a dead session or host): then it is gone."""
    opening_time: float = 30.0
    """Seconds a quick match's first move may take, and its first reply: then no game."""


DEFAULTS = RoomLimits()
"""The limits `serve-ssh` serves with unless told otherwise."""

UNTIMED = RoomLimits(move_time=0.0)
"""A hub's limits when none are given (tests, benchmarks, a library user): as served,
but no move clock, so nothing falls due unless a test asks for it."""


def options() -> dict[str, tuple[Option, object]]:
    """The limits with a command-line option: field name -> its option and default."""
    return {
        each.name: (each.metadata["option"], each.default)
        for each in fields(RoomLimits)
        if "option" in each.metadata
    }
