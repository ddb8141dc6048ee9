"""What a hub tells every session of a room: plain, immutable values, sent whole.

A session never patches its picture of a room: each `RoomView` replaces the one
before (a newer `generation` wins, an older one is dropped), so a lost or doubled
message can delay a screen but never make it differ from the hub.

These declarations are also the wire's: `socket.codec` reads and writes each value from
its fields' types, and a field whose type has no bound of its own says its `Kind`.
"""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple


class Kind(NamedTuple):
    """What a field holds beyond its Python type, for the wire (`socket.wire.KINDS` has a
    reader for each): a room code, a name, a board's size, a list's bound... Needed where
    the type bounds nothing by itself (`str`, `tuple[X, ...]`) or bounds too little."""

    name: str


SeatName = Literal["X", "O"]
SEATS: tuple[SeatName, SeatName] = ("X", "O")

Result = Literal["X", "O", "draw", "abandoned"]
"""How a round ended: the winning seat, a draw, or left by a player (`RoomView.left_by`)."""

OfferKind = Literal["draw", "take_back"]
OFFERS: tuple[OfferKind, ...] = ("draw", "take_back")
"""What one player may offer the other mid-round: the other answers yes or no. A
take-back is asked by the player who made the last move (yes undoes it: their turn again)."""

Cause = Literal["time", "claimed"]
CAUSES: tuple[Cause, ...] = ("time", "claimed")
"""Why a round ended before its board did, beside a draw agreed: the mover's time ran out
(the result is the other seat's win), or the player left behind claimed the round of one
who left (the result is "abandoned" by `left_by`, before the grace ran out)."""


def claim_from(back_by: float, grace: float) -> float:
    """When the player left behind may claim the round: once half the round's reconnect
    grace is spent (`back_by` is when what is left of it runs out: `Room.away`), so half
    the grace after a first drop, sooner (or at once) after earlier absences."""
    return back_by - grace / 2


class Offer(NamedTuple):
    """An offer waiting for the other player's answer: what, and which seat made it."""

    kind: OfferKind
    by: SeatName


class Answer(NamedTuple):
    """The last answer to an offer, kept until the position changes (a move, a new round)
    or another offer is made, so every screen says it, the asker's too ("bob declined
    the draw"): what was offered, by which seat, and whether the other said yes."""

    kind: OfferKind
    by: SeatName
    yes: bool


class Person(NamedTuple):
    """Who a session is, as the server knows them: the SSH user name (already made
    displayable, `identity.displayable`), the key's fingerprint ("" for a guest) and the
    client's address (wrong room codes are rate-limited per address). The same key
    coming back is the same person; a guest proves it with a seat token."""

    name: Annotated[str, Kind("name")]
    key: Annotated[str, Kind("key")] = ""
    address: Annotated[str, Kind("address")] = ""


class SeatView(NamedTuple):
    """One seat: who sits there (None while free), whether their link is up, and, while
    it is down, when the grace for them runs out: Unix time in seconds, on the hub's
    clock (`time.time` for `MemoryHub`, the database's `now()` for `PostgresHub`), so a
    session on any host counts down with its own `time.time()`."""

    person: Person | None = None
    present: bool = False
    back_by: float | None = None


class RoomView(NamedTuple):
    """A room as it is now. Moves are cell keys (1 = top-left, reading order), the
    first by `first`, then alternating: the board is rebuilt from them."""

    code: Annotated[str, Kind("code")]
    size: Annotated[int, Kind("size")]  # 3, 4, 5 or 6 (`options.WIN_LENGTHS`: the line)
    generation: int  # +1 on every change to anything below
    round: Annotated[int, Kind("round")]  # 1, 2, ...
    first: SeatName  # who started this round
    moves: Annotated[tuple[int, ...], Kind("moves")]
    seats: tuple[SeatView, SeatView]  # X, then O
    score: tuple[int, int, int]  # X's wins, O's wins, draws
    result: Result | None = None  # None while the round is on
    left_by: SeatName | None = None  # with result "abandoned": who left (or ran out of grace)
    rematch: Annotated[tuple[SeatName, ...], Kind("seats")] = ()  # asked for the next round
    watchers: Annotated[int, Kind("watchers")] = 0
    closed: bool = False  # the last player left: the room is gone
    round_key: Annotated[str, Kind("round_key")] = ""  # the round's key in the record
    # Not the room's but its hub's: the hub cannot reach the room's database now, so this
    # is the room as last read and no change can land until it is back (`PostgresHub`).
    # Outside the generation: the same view comes again with it set, then cleared.
    unreachable: bool = False
    public: bool = False  # listed in the lobby (else only its code brings people in)
    watching: bool = True  # spectators may come in with the code (the players' choice)
    opener: SeatName | None = None  # the seat of who opened the room: `public` is theirs
    offer: Offer | None = None  # an offer waiting for the other seat's y or n
    agreed: bool = False  # with result "draw": both players agreed to it mid-round
    # The move clock: when the mover's time runs out (the hub's clock, as `back_by`);
    # None while no clock runs (off, before the first move, the round over, or the
    # mover's opponent away: the mover could not play then).
    deadline: float | None = None
    cause: Cause | None = None  # why the round ended early: "time" or "claimed"
    take_backs: int = 0  # moves taken back by consent this round
    grace: float = 0.0  # the room's reconnect grace: a claim comes after half of it
    # A quick match's room: before its first reply, `deadline` is the opening's (the
    # first move, then the first reply): when it passes, the round is aborted (no game,
    # not rated), the room closes with `aborted_by` the seat that did not play, and the
    # other player is back in the queue. `unrated`: both seats came from one address.
    matched: bool = False
    aborted_by: SeatName | None = None
    unrated: bool = False
    answered: Answer | None = None  # the last offer's answer, until the position changes

    @property
    def to_move(self) -> SeatName | None:
        """The seat whose turn it is; None once the round is over."""
        if self.result is not None:
            return None
        if len(self.moves) % 2 == 0:
            return self.first
        return "O" if self.first == "X" else "X"


class RoomSummary(NamedTuple):
    """A public room as the lobby lists it: one with a free seat (Enter joins) or one
    its players let people watch (Enter watches). Private rooms are never listed."""

    code: Annotated[str, Kind("code")]
    size: Annotated[int, Kind("size")]
    players: Annotated[tuple[str, ...], Kind("players")]  # seated people's names (0-2)
    watchers: Annotated[int, Kind("watchers")]

    @property
    def free(self) -> bool:
        """A seat is free: Enter in the lobby joins (else it watches)."""
        return len(self.players) < 2


class Ticket(NamedTuple):
    """What a session holds after creating, joining or watching a room: its seat (None for
    a spectator) and, for a player, the secret token that gives the seat back after a
    dropped link (shown to guests, who have no key to prove who they are)."""

    code: Annotated[str, Kind("code")]
    seat: SeatName | None
    token: Annotated[str, Kind("token")] = ""


class Refused(Exception):
    """The hub said no; `reason` is a full sentence for the status line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
