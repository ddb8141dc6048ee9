"""Quick match: the queue's values and its one pairing rule, for every hub alike.

A player asks for a game with anyone on a board (`RoomHub.queue_join`) and holds a
`Place` in that board's queue; their session asks how the queue stands every
`POLL` seconds (`RoomHub.queue_poll`), which is also the place's heartbeat: a place not
asked about for `PLACE_TIMEOUT` seconds (its session or its host died) is gone. Two
places paired make a new private room, the two as X and O; the place's own secret
becomes its seat's token, so the room's seat is known only to its holder.

Who pairs with whom is `pairs`, a pure function of the places waiting and the time:
the oldest place first takes the nearest rating on its board within the window of the
one of the two who waited longer (`window`: ±100 at once, 50 wider every 5 s), so
near ratings pair first and nobody waits for ever. The lower-rated plays X (X starts).

Two places of one address (an IPv6 client's /64: `addresses.counting_key`) never pair:
one person with two keys would rate themselves. A place from an address whose rooms are
at its cap (`room.ROOMS_PER_ADDRESS`: a matched room counts against both its players)
is refused, and waits unpaired if its address reaches the cap meanwhile.

A pair may be declined for `DECLINE_WINDOW` seconds, before its room's first move
(`RoomHub.queue_decline`): the room closes, the decliner is out of the queue and the
partner's place is back with the time it joined, so it pairs first. The room's opening
is timed (`OPENING_TIME` for the first move, as much for the first reply): past it the
round is aborted (no game, not rated) and the room closes the same way, the player who
did not play out; so does a player who leaves before the first move. A decline, a stall
and such a leave are counted per address and per key: past `DECLINES` in
`DECLINE_PERIOD` seconds, that player waits before taking a place again. The places of
a pair are kept (and answer with their seat) until the window and the opening are over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tui_tictactoe.rooms.limits import DEFAULTS
from tui_tictactoe.rooms.view import Refused, Ticket

WINDOW_START = 100
"""Rating points apart two players may be paired at once."""
WINDOW_STEP = 50
"""Points the window widens by every `WINDOW_EVERY` seconds a player has waited."""
WINDOW_EVERY = 5.0
POLL = 0.5
"""Seconds between a waiting session's questions to its hub (the place's heartbeat)."""
PLACE_TIMEOUT = DEFAULTS.place_timeout
"""Seconds a place lives without a question, by default (`RoomLimits.place_timeout`)."""
DECLINE_WINDOW = 15.0
"""Seconds after a pairing in which a player (one who was playing the AI) may decline it,
before the room's first move: the partner then goes back to the head of the queue. A
paired place answers every poll with its seat until then."""
OPENING_TIME = DEFAULTS.opening_time
"""Seconds a quick match's first move may take, and its first reply, by default
(`RoomLimits.opening_time`): then no game."""
DECLINES = 3
"""Declines (and stalls, and leaves before the first move) one address or key may make in
`DECLINE_PERIOD` seconds; past them, it waits before it takes a place again."""
DECLINE_PERIOD = 300.0
BACK_WITHIN = 3.0
"""A partner goes back to the queue only if its session asked within these seconds (a
session gone must not be paired with the next stranger)."""
LOWEST_RATING, HIGHEST_RATING = 0, 10_000
"""The ratings a place may name (an Elo rating stays far inside)."""


class Place(NamedTuple):
    """A session's place in the queue of board `size`: `token` is its secret (and, once
    paired, its seat's token)."""

    token: str
    size: int


class QueueState(NamedTuple):
    """The queues now, for a waiting session: how many wait on each board (in the order
    of `room.SIZES`), and the seat it was paired into (None while it waits)."""

    waiting: tuple[int, ...]
    ticket: Ticket | None = None


class Waiter(NamedTuple):
    """A place waiting, as the rule sees it: `since` is when it joined (seconds on the
    hub's clock); `place` orders places that joined at the same moment."""

    place: str
    size: int
    rating: int
    since: float
    address: str = ""  # the counting key ("": a process not behind serve-ssh, never alike)


def window(waited: float) -> int:
    """How far apart in rating a player who waited `waited` seconds may be paired."""
    steps = int(max(0.0, waited) // WINDOW_EVERY)
    return WINDOW_START + WINDOW_STEP * steps


def may_pair(a: Waiter, b: Waiter, now: float) -> bool:
    """Same board, two addresses, and ratings within the window of whichever of the two waited longer."""
    if a.size != b.size or a.place == b.place:
        return False
    if a.address and a.address == b.address:  # one person's two sessions (or keys)
        return False
    longest = now - min(a.since, b.since)
    return abs(a.rating - b.rating) <= window(longest)


def seats(a: Waiter, b: Waiter) -> tuple[Waiter, Waiter]:
    """(X, O): the lower rating plays X and starts; equal ratings, who waited longer."""
    return (a, b) if (a.rating, a.since, a.place) <= (b.rating, b.since, b.place) else (b, a)


def pairs(waiting: Sequence[Waiter], now: float) -> list[tuple[Waiter, Waiter]]:
    """Every pair to make now, each as (X, O): oldest place first, each with the nearest
    rating it may pair with (ties: who joined first). No place is in two pairs, and no
    two places left over could have paired."""
    order = sorted(waiting, key=lambda w: (w.since, w.place))
    free = {w.place: w for w in order}
    made: list[tuple[Waiter, Waiter]] = []
    for first in order:
        if first.place not in free:
            continue
        partners = [w for w in free.values() if may_pair(first, w, now)]
        if not partners:
            continue
        partner = min(partners, key=lambda w: (abs(w.rating - first.rating), w.since, w.place))
        del free[first.place], free[partner.place]
        made.append(seats(first, partner))
    return made


def check_place(size: object, rating: object, sizes: Sequence[int]) -> None:
    """A queue's board is one of `sizes`, and a rating a whole number in range."""
    if isinstance(size, bool) or size not in sizes:
        raise Refused("A quick match's board is " + _sizes(sizes) + " cells wide.")
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise Refused("A rating is a whole number.")
    if not LOWEST_RATING <= rating <= HIGHEST_RATING:
        raise Refused(f"A rating is from {LOWEST_RATING} to {HIGHEST_RATING}.")


def check_place_count(address: str, own: int, total: int, per_address: int, most: int) -> None:
    """Refused past `most` places in all, or `per_address` from `address` ("": a process
    not behind serve-ssh, not counted)."""
    if total >= most:
        raise Refused("The queues are full: try again in a minute.")
    if address and own >= per_address:
        raise Refused(f"Already {own} places in the queues from your address: leave one first.")


def too_many_declines(wait: int) -> str:
    return f"Too many matches declined or left: wait {wait} s."


def decline_keys(address: str, key: str) -> list[str]:
    """What a decline is counted by: the address, and the key (a person with many
    addresses still has one key); "" counts nothing."""
    return [k for k in (address, f"key {key}" if key else "") if k]


def cannot_decline() -> Refused:
    """A decline too late, or of no match."""
    return Refused("There is no match to decline now: the game is on.")


def game_begun() -> Refused:
    return Refused("The game has begun: a move was played, so it cannot be declined.")


def not_queued() -> Refused:
    """A place that is gone (left, expired, or never held)."""
    return Refused("You are no longer in the queue.")


def _sizes(sizes: Sequence[int]) -> str:
    words = [str(size) for size in sizes]
    return ", ".join(words[:-1]) + " or " + words[-1]
