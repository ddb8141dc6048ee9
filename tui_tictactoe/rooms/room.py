"""One room's state and its rules, as `MemoryHub` keeps it: no I/O, no clock of its own.

Time comes from the hub: before any rule, a hub calls `flag_fall(now)` (the mover's
time run out is the first thing due), and the rules after it in the same change read
that `now` (a move sets the next mover's deadline from it). So the hub's clock, the
database's on PostgreSQL, or a test's, is the only one.

The round itself (its board, who opened it, its result, the take-backs in it, the
pair's score) is an `engine.round.Round`, the one the game at a terminal plays too
(`game_round`): the rules of play are its; the room adds who may act, its offers, its
clock and its seats. Every method that changes the room leaves it consistent and the
hub then moves `generation` on and sends the new `view()` to everyone. Refusals are
full sentences for a status line.

Who may know a room exists is decided here too, for both hubs: a private room is never
listed, and a room its players closed to spectators answers a stranger's watch (or a
join when it is full) exactly as a code that names no room (`NoRoom`, counted as a
wrong code), so no answer, count or wording tells a guesser that a code is live.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import InitVar, dataclass, field, fields
from typing import TypedDict

from tui_tictactoe.engine.board import GameBoard, other
from tui_tictactoe.engine.round import Round, Tally
from tui_tictactoe.options import BOARDS, board_geometry
from tui_tictactoe.rooms import refusals
from tui_tictactoe.rooms.limits import DEFAULTS, RoomLimits
from tui_tictactoe.rooms.refusals import NoRoom as NoRoom
from tui_tictactoe.rooms.refusals import no_room as no_room
from tui_tictactoe.rooms.refusals import too_many_lobby_names as too_many_lobby_names
from tui_tictactoe.rooms.refusals import too_many_wrong_codes as too_many_wrong_codes
from tui_tictactoe.rooms.view import (
    OFFERS,
    SEATS,
    Answer,
    Cause,
    Offer,
    Person,
    Result,
    RoomSummary,
    RoomView,
    SeatName,
    SeatView,
    claim_from,
)

ROOMS_PER_ADDRESS = DEFAULTS.rooms_per_address
"""Live rooms counting against one address at a time, by default (`RoomLimits`)."""
LOBBY_NAMES = 3
"""Names one address may put before strangers (a public room opened or made public, a
seat taken in a public room) per `LOBBY_WINDOW` seconds."""
LOBBY_WINDOW = 60.0
WATCHING_OFF = "The players turned watching off: press q."
SIZES = tuple(int(board) for board in BOARDS)
"""The boards a room may have: the game's own (`options.BOARDS`)."""

Gone = tuple[str, ...]
"""What a rule changed: None, nothing (the hub sends no view); else the tokens of the
places it ended (their updates end after the new view), usually none."""
Keys = Callable[[], str]
"""The hub's maker of fresh round keys, called by a rule that starts a round."""
Score = tuple[int, int, int]
"""A room's score as shown and stored: X's wins, O's wins, draws."""


class RoundFields(TypedDict):
    """The view's fields (and the row's columns) that are the room's round's."""

    round: int
    first: SeatName
    moves: tuple[int, ...]
    score: Score
    result: Result | None
    take_backs: int


ROUND_FIELDS = tuple(RoundFields.__annotations__)


def round_fields(round_: Round) -> RoundFields:
    """The round as the view and the row have it (`ROUND_FIELDS`): moves as cell keys,
    the score as X's wins, O's wins and draws."""
    tally = round_.score
    return RoundFields(
        round=round_.number,
        first=round_.opener,
        moves=round_.keys,
        score=(tally.x, tally.o, tally.draws),
        result=round_.result,
        take_backs=round_.take_backs,
    )


def stored_round(
    size: int,
    first: SeatName,
    number: int,
    moves: Iterable[object],
    score: Iterable[int],
    result: Result | None,
    take_backs: int,
) -> Round:
    """A room's round as its row keeps it (`round_fields`); the board from the moves'
    legal prefix (a stored move the board refuses ends it there)."""
    x, o, draws = score
    tally = Tally(x, o, draws)
    return Round(
        board_geometry(size),
        first,
        number=number,
        score=tally,
        moves=moves,
        result=result,
        take_backs=take_backs,
    )


def check_new_room(size: object, first: object) -> None:
    """A room's board is one of `SIZES` and X or O starts: both hubs ask this first."""
    if isinstance(size, bool) or size not in SIZES:
        raise refusals.bad_size()
    if first not in SEATS:
        raise refusals.bad_first()


def check_room_count(address: str, own: int, total: int | None, limits: RoomLimits) -> None:
    """Refused past the limits' `max_rooms` live rooms in all (`total`; None: not
    counted here), or their `rooms_per_address` opened from `address` ("": a process
    not behind serve-ssh, which names no address, is not counted)."""
    most = limits.max_rooms
    if most is not None and total is not None and total >= most:
        raise refusals.too_many_rooms(None)
    if address and own >= limits.rooms_per_address:
        raise refusals.too_many_rooms(own)


@dataclass
class Seat:
    """A seat: who holds it and with which token (the latest join's), and whether
    their link is up (`back_by`: when the grace for a dropped link runs out). `spent`:
    the seconds of this round's grace its holder used up in absences that ended (the
    grace is a budget for the round, not for each drop: `Room.away`)."""

    person: Person | None = None
    token: str = ""
    present: bool = False
    back_by: float | None = None
    creator: bool = False  # opened the room: only they say whether it is listed
    spent: float = 0.0

    def view(self) -> SeatView:
        """What others see: the name and key, never the address (only rate limits use it)."""
        person = None if self.person is None else self.person._replace(address="")
        return SeatView(person, self.present, self.back_by)


@dataclass
class Room:
    """A room: seats, spectators, offers, the clock, and the round on its board with the
    pair's score (`game_round`)."""

    code: str
    size: int
    first: InitVar[SeatName]  # who opens the first round (then `game_round.opener`)
    generation: int = 1
    board_generation: int = 1  # the generation at the last change to the position
    seats: dict[SeatName, Seat] = field(default_factory=lambda: {s: Seat() for s in SEATS})
    left_by: SeatName | None = None
    rematch: set[SeatName] = field(default_factory=set)
    watchers: dict[str, Person] = field(default_factory=dict)  # token -> spectator
    closed: bool = False
    round_key: str = ""  # made by the hub for each round: both players' saves name it
    public: bool = False  # listed in the lobby; else only its code brings anyone in
    watching: bool = True  # spectators may come in (with the code); the players decide
    owner: str = ""  # the creator's address: the room counts against it until it closes
    offer: Offer | None = None  # waiting for the other seat's answer; any move clears it
    offered: set[SeatName] = field(default_factory=set)  # offered since the last move
    agreed: bool = False  # the round's draw was agreed, not played out
    move_time: float = 0.0  # seconds a mover has (0: no clock), fixed when the room opens
    grace: float = 0.0  # the reconnect grace it opened under: a claim after half of it
    deadline: float | None = None  # when the mover's time runs out (`_sync_clock`)
    cause: Cause | None = None  # the round ended on "time" or "claimed"
    matched: bool = False  # a quick match's: its opening is timed, its seats' places kept
    opening_time: float = 0.0  # seconds for the first move and for the first reply (0: none)
    aborted_by: SeatName | None = None  # the seat whose opening ran out, left or declined
    unrated: bool = False  # the pair at the table came from one address: no round is rated
    answered: Answer | None = None  # the last offer's answer, until the position changes
    now: float = 0.0  # the time of the change being made: set by `flag_fall`, not stored
    game_round: Round = field(init=False)  # a row's is `stored_round`

    def __post_init__(self, first: SeatName) -> None:
        self.game_round = Round(board_geometry(self.size), first)

    # The round as the rules below read it (changed only through `game_round`).

    @property
    def board(self) -> GameBoard:
        return self.game_round.board

    @property
    def round(self) -> int:
        return self.game_round.number

    @property
    def moves(self) -> tuple[int, ...]:
        """The round's moves as cell keys (1 = top-left, reading order)."""
        return self.game_round.keys

    @property
    def result(self) -> Result | None:
        return self.game_round.result

    @property
    def score(self) -> Score:
        tally = self.game_round.score
        return tally.x, tally.o, tally.draws

    @property
    def take_backs(self) -> int:
        """Moves taken back by consent this round."""
        return self.game_round.take_backs

    def opened_under(self, limits: RoomLimits, *, matched: bool = False) -> Room:
        """A new room on its hub's terms, kept for its life: the move clock and the
        reconnect grace; a quick match's (`matched`) also its timed opening."""
        self.move_time, self.grace = limits.move_time, limits.reconnect_grace
        if matched:
            self.matched, self.opening_time = True, limits.opening_time
        return self

    # -- what everyone sees -------------------------------------------------

    def view(self) -> RoomView:
        """What everyone sees: every field the view shares with the room as it is
        (`_SHOWN`), and the few it shows otherwise."""
        return RoomView(
            **{name: getattr(self, name) for name in _SHOWN},
            **round_fields(self.game_round),
            seats=(self.seats["X"].view(), self.seats["O"].view()),
            rematch=tuple(seat for seat in SEATS if seat in self.rematch),
            watchers=len(self.watchers),
            opener=next((seat for seat in SEATS if self.seats[seat].creator), None),
        )

    def listed(self) -> bool:
        """Shown in the lobby: public, and someone may come in (a free seat, or watching)."""
        return self.public and not self.closed and (self.free_seat() is not None or self.watching)

    def summary(self) -> RoomSummary:
        return RoomSummary(self.code, self.size, self.summary_players(), len(self.watchers))

    def summary_players(self) -> tuple[str, ...]:
        return tuple(s.person.name for s in self.seats.values() if s.person is not None)

    def name(self, seat: SeatName) -> str:
        person = self.seats[seat].person
        return person.name if person is not None else f"the {seat} player"

    def to_move(self) -> SeatName | None:
        return self.game_round.to_move

    # -- who holds what -----------------------------------------------------

    def holds(self, seat: SeatName | None, token: str) -> bool:
        """True if a ticket for `seat` with `token` is current here."""
        if not token:
            return False
        if seat is None:
            return token in self.watchers
        return same_token(self.seats[seat].token, token)

    def seat_for(self, who: Person, token: str) -> SeatName | None:
        """The seat `who` already holds: by the seat's token, or by the same key."""
        for name, seat in self.seats.items():
            if seat.person is None:
                continue
            if same_token(seat.token, token):
                return name
            if who.key and seat.person.key == who.key:
                return name
        return None

    def free_seat(self) -> SeatName | None:
        for name in SEATS:
            if self.seats[name].person is None:
                return name
        return None

    def players(self) -> int:
        return sum(seat.person is not None for seat in self.seats.values())

    def counts_against(self, address: str) -> bool:
        """Whether this live room counts against `address` ("": nobody's): its opener's,
        and every seated player's, however the room was made (a quick match has no
        opener, so it counts against both its players)."""
        if not address or self.closed:
            return False
        if self.owner == address:
            return True
        return any(
            s.person is not None and s.person.address == address for s in self.seats.values()
        )

    def addresses(self) -> set[str]:
        """Every address this room counts against (`counts_against`)."""
        found = {s.person.address for s in self.seats.values() if s.person is not None}
        return {a for a in found | {self.owner} if a}

    def in_opening(self) -> bool:
        """A quick match's first round before its first reply: the first move and the first
        reply each have `opening_time`, or the round is aborted (`flag_fall`)."""
        return (
            self.matched
            and self.opening_time > 0
            and self.round == 1
            and self.result is None
            and not self.closed
            and len(self.moves) < 2
            and self.players() == 2
        )

    # -- who comes in ---------------------------------------------------------

    def wrong_token(self, who: Person, token: str) -> bool:
        """A seat token that holds no seat here (counted as a wrong code by the hubs)."""
        return bool(token) and self.seat_for(who, token) is None

    def admit(self, who: Person, token: str, new_token: str, next_key: str) -> tuple[SeatName, str]:
        """`who` joins: their own seat back (same key or token), else the free seat. The
        seat and the token it replaced ("" for a newcomer). A full room closed to
        spectators is, to an outsider, no room at all."""
        seat = self.seat_for(who, token)
        if seat is not None:  # the same person back: a new link takes the seat over
            old = self.seats[seat].token
            self.resume(seat, new_token)
            return seat, old
        seat = self.free_seat()
        if seat is None:
            if not self.watching:
                raise no_room(self.code)
            raise refusals.room_full(self.code)
        self.sit(seat, who, new_token, next_key)
        return seat, ""

    def admit_watcher(self, who: Person, token: str, limits: RoomLimits) -> None:
        """A spectator comes in with the code, unless the players turned watching off
        (then: as no room) or the room has the limits' `max_spectators` spectators."""
        most = limits.max_spectators
        if not self.watching:
            raise no_room(self.code)
        if len(self.watchers) >= most:
            raise refusals.spectators_full(self.code, most)
        self.watchers[token] = who

    def set_public(self, seat: SeatName | None, public: bool) -> bool:
        """Listed in the lobby or not: the creator's choice alone. Whether it changed."""
        if seat is None or not self.seats[seat].creator:
            raise refusals.not_opener()
        changed, self.public = self.public != public, public
        return changed

    def set_watching(self, seat: SeatName | None, _keys: Keys, watching: bool) -> Gone | None:
        """Spectators allowed or not: either player's choice. Off sends the spectators
        away (their tokens are what is gone)."""
        if seat is None:
            raise refusals.watching("say who may watch")
        if self.watching == watching:
            return None
        self.watching = watching
        gone = () if watching else tuple(self.watchers)
        for token in gone:
            del self.watchers[token]
        return gone

    # -- changes ------------------------------------------------------------

    def sit(
        self,
        seat: SeatName,
        who: Person,
        token: str,
        next_key: str | None = None,
        creator: bool = False,
    ) -> None:
        """`who` takes the free `seat`: a new pair at the table starts a new score, and,
        if the last round is over (won, drawn, or left by the seat's last holder), a new
        round under `next_key`: the newcomer never inherits "you left" or a result that
        was not theirs. The `creator` (opening the room) keeps the say over its listing."""
        self.seats[seat] = Seat(who, token, present=True, creator=creator)
        self.game_round.score = Tally()
        held = [s.person.address for s in self.seats.values() if s.person is not None]
        self.unrated = len(held) == 2 and bool(held[0]) and held[0] == held[1]
        self.offered.discard(seat)
        if self.result is not None and next_key is not None:
            self._new_round(next_key)
        self._sync_clock()

    def resume(self, seat: SeatName, token: str) -> None:
        """The seat's holder is back (a new link): the round goes on as it was, and the
        time they were away stays spent from the round's grace (what was left of it at
        `back_by`, less what is left now)."""
        held = self.seats[seat]
        if not held.present and held.back_by is not None and self._budgeted():
            held.spent = min(self.grace, max(0.0, self.grace - (held.back_by - self.now)))
        held.token, held.present, held.back_by = token, True, None
        self._sync_clock()

    def away(self, seat: SeatName, back_by: float) -> None:
        """The seat's link dropped (at `now`): it is kept until `back_by`, the hub's
        grace, or, while a round is on, until what is left of the round's grace runs out:
        time away adds up over the round, so a player who leaves and comes back again and
        again cannot stall it (their opponent may claim once half of it is spent, and the
        seat goes when all of it is, as after one long absence). A quick match's room that
        nobody is present in before its first move closes at once: a matched room has no
        opener to come back for it, and an empty one only holds a room."""
        held = self.seats[seat]
        if self._budgeted():
            back_by = _micro(self.now + max(0.0, self.grace - held.spent))
        held.present, held.back_by = False, back_by
        self._sync_clock()
        present = any(s.present for s in self.seats.values() if s.person is not None)
        if self.matched and self.round == 1 and not self.moves and not present:
            self.abort(None)

    def abort(self, by: SeatName | None) -> None:
        """A quick match's opening ends without a game: the room closes, no round is kept
        (so none rated), and the hub sends the seat that did not play `by` (stalled, left
        or declined) out of the queue and the other back to its place (None: both gone)."""
        self.aborted_by = by
        self.seats = {s: Seat() for s in SEATS}
        self.rematch.clear()
        self.offer, self.offered = None, set()
        self.closed, self.deadline = True, None

    def free(self, seat: SeatName) -> None:
        """The seat's holder is gone for good: a round they were playing is abandoned
        (a round with no move yet just waits for the next player; in a quick match's
        room, where nobody else comes, the room is aborted and the other player goes back
        to the queue)."""
        if self.matched and self.round == 1 and not self.moves and self.players() == 2:
            self.abort(seat)
            return
        if self.game_round.in_progress:
            self.game_round.abandon()
            self.left_by = seat
            self.board_generation = self.generation + 1
        self.seats[seat] = Seat()
        self.rematch.clear()
        self.offer = None  # no one left to answer it
        if self.players() == 0:
            self.closed = True
        self._sync_clock()

    def play(self, seat: SeatName | None, _keys: Keys, cell: object, generation: int) -> Gone:
        """Play `cell` (a key, 1 = top-left) for `seat`, or refuse and change nothing."""
        self._check_can_play(seat, self.to_move() != seat)
        assert seat is not None  # a spectator was refused
        if not _is_generation(generation, self.board_generation, self.generation):
            raise refusals.stale_move()
        index = self._cell_index(cell)
        if index in self.moves:
            raise refusals.cell_taken(index)
        self.game_round.play(*self.board.geometry.cell_of_key(index))  # scored if it ends
        self.offer, self.offered = None, set()  # a move answers every offer: no
        self.answered = None
        self.board_generation = self.generation + 1
        self._sync_clock(restart=True)
        return ()

    def flag_fall(self, now: float) -> bool:
        """What is due at `now`, the first step of every change (the hub's clock): the
        mover whose deadline has passed loses the round on time. Whether it fell. A mover
        whose link's grace ran out first abandoned it instead (the hub frees the seat
        next), so a hub that looks late decides as one that looked on time."""
        self.now = now
        deadline, mover = self.deadline, self.to_move()
        if deadline is None or now < deadline or mover is None:
            return False
        if self.in_opening():  # the first move (or reply) did not come: no game
            stalled = mover if self.seats[other(mover)].present else other(mover)
            self.abort(stalled)
            return True
        back_by = self.seats[mover].back_by
        if back_by is not None and back_by <= deadline:
            return False
        self.game_round.end(other(mover))  # a win on time
        self.cause, self.offer = "time", None
        self.board_generation = self.generation + 1
        self._sync_clock()
        return True

    def claim(self, seat: SeatName | None, _keys: Keys) -> Gone:
        """`seat` claims the round of an opponent whose link dropped, once half the grace
        has passed (`view.claim_from`): abandoned by them, as if the grace had run out."""
        if seat is None:
            raise refusals.watching("claim a round")
        if self.result is not None:
            raise refusals.round_over()
        them = other(seat)
        held = self.seats[them]
        if held.person is None or held.present or held.back_by is None:
            raise refusals.nothing_to_claim()
        if not self.moves:
            raise refusals.claim_before_move()
        wait = claim_from(held.back_by, self.grace) - self.now
        if wait > 0:
            raise refusals.claim_later(self.name(them), wait)
        self.game_round.abandon(winner=seat)  # a win for the one who claimed it, as Elo counts it
        self.left_by, self.cause = them, "claimed"
        self.offer = None
        self.board_generation = self.generation + 1
        self._sync_clock()
        return ()

    def ask_rematch(self, seat: SeatName | None, keys: Keys) -> Gone | None:
        """`seat` wants the next round; with both asking it starts, the other first,
        under a fresh key from `keys`. Asked already: nothing changes."""
        if seat is None:
            raise refusals.watching("ask for a rematch")
        if seat in self.rematch:
            return None
        if self.result is None:
            raise refusals.round_still_on()
        if self.players() < 2:
            raise refusals.waiting_for_second()
        self.rematch.add(seat)
        if len(self.rematch) == 2:
            self._new_round(keys())
        return ()

    def make_offer(self, seat: SeatName | None, _keys: Keys, kind: str) -> Gone | None:
        """`seat` offers the other player `kind` (a draw, or to take back the move `seat`
        just made), mid-round, once a move: it waits in the room for their answer
        (`answer`); made already, nothing changes."""
        if kind not in OFFERS:
            raise refusals.no_such_offer()
        self._check_can_play(seat, False)
        assert seat is not None
        if self.offer is not None:
            if self.offer == (kind, seat):
                return None
            raise refusals.offer_pending(self.name(self.offer.by), self.offer.kind)
        if not self.moves:
            if kind == "take_back":
                raise refusals.nothing_to_take_back()
            raise refusals.offer_before_move(kind)
        if kind == "take_back" and self.to_move() == seat:
            raise refusals.take_back_theirs(self.name(other(seat)))
        if seat in self.offered:
            raise refusals.one_offer_a_move()
        self.offer = Offer(next(k for k in OFFERS if k == kind), seat)
        self.offered.add(seat)
        self.answered = None
        return ()

    def answer(self, seat: SeatName | None, _keys: Keys, yes: bool) -> Gone:
        """The other player's answer to the offer waiting: yes does it (a draw ends the
        round, agreed; a take-back undoes the last move), no clears it; either way the
        offer is gone."""
        if seat is None:
            raise refusals.watching("answer an offer")
        offer = self.offer
        if offer is None or offer.by == seat:
            raise refusals.nothing_to_answer()
        self.offer = None
        if yes and offer.kind == "draw":
            self.game_round.end("draw")
            self.agreed = True
            self.board_generation = self.generation + 1
        elif yes and offer.kind == "take_back":
            self._take_back(offer.by)
        self.answered = Answer(offer.kind, offer.by, yes)  # for every screen, the asker's
        self._sync_clock()
        return ()

    # -- inside -------------------------------------------------------------

    def _check_can_play(self, seat: SeatName | None, out_of_turn: bool) -> None:
        """Refused unless `seat` may act on the round now (a spectator, the round over, the
        other seat empty or away; `out_of_turn` for a move)."""
        if seat is None:
            raise refusals.watching("play")
        opponent = other(seat)
        if self.result is not None:
            raise refusals.round_over()
        if self.seats[opponent].person is None:
            raise refusals.waiting_for_second(self.code)
        if not self.seats[opponent].present:
            raise refusals.waiting_for_return(self.name(opponent))
        if out_of_turn:
            raise refusals.not_your_turn(self.name(opponent), opponent)

    def _cell_index(self, cell: object) -> int:
        cells = self.board.geometry.cells
        if isinstance(cell, bool) or not isinstance(cell, int) or not 1 <= cell <= cells:
            shown = str(cell) if isinstance(cell, int) and abs(cell) < 10**6 else "that"
            raise refusals.no_cell(shown, cells)
        return cell

    def _take_back(self, by: SeatName) -> None:
        """`by`'s move undone, by consent (the last: `make_offer` takes no other): its maker
        to move again (with a fresh clock), one more take-back counted in this round."""
        self.game_round.take_back(by)
        self.offered = set()  # a new position: each may offer again
        self.board_generation = self.generation + 1
        self._sync_clock(restart=True)

    def _sync_clock(self, restart: bool = False) -> None:
        """The move clock after a change: it runs (from `now`) while the round is on past
        its first move, both seats held and the mover's opponent present (else the mover
        could not play); `restart` gives the mover their full time (a new mover)."""
        mover = self.to_move()
        if self.in_opening():  # the opening's clock: whoever is away, it runs
            if restart or self.deadline is None:
                self.deadline = round((self.now + self.opening_time) * 1_000_000) / 1_000_000
            return
        running = (
            self.move_time > 0
            and mover is not None
            and bool(self.moves)
            and self.players() == 2
            and self.seats[other(mover)].present
        )
        if not running:
            self.deadline = None
        elif restart or self.deadline is None:
            self.deadline = _micro(self.now + self.move_time)

    def _budgeted(self) -> bool:
        """Time away is counted against the round's grace now: a round on, a grace set
        (a room stored before the room kept its grace has none: the hub's counts alone)."""
        return self.result is None and self.grace > 0

    def _new_round(self, round_key: str) -> None:
        """The next round (`Round.next`: the other seat opens it) under `round_key`."""
        self.game_round.next()
        self.round_key = round_key
        self.left_by, self.agreed = None, False
        self.cause, self.deadline = None, None
        self.offer, self.offered, self.answered = None, set(), None
        self.rematch.clear()
        self.board_generation = self.generation + 1
        for held in self.seats.values():  # a new round, a whole grace for each
            held.spent = 0.0
            if held.person is not None and not held.present and self.grace > 0:
                held.back_by = _micro(self.now + self.grace)


def may_analyse(view: RoomView, who: Person) -> bool:
    """Fair play: the analysis overlay is for spectators, never for a player watching their
    own round while it runs (their key in a seat; a guest has no key to tell by). Read from
    the view, which every screen of the room has."""
    if view.result is not None or not who.key:
        return True
    return all(held.person is None or held.person.key != who.key for held in view.seats)


def same_token(held: str, typed: object) -> bool:
    """Whether a token typed or sent by a client is the seat's (compared in constant
    time; anything but a short ASCII string is no token)."""
    if not held or not isinstance(typed, str) or not typed.isascii() or len(typed) > 64:
        return False
    return secrets.compare_digest(held, typed)


def _micro(seconds: float) -> float:
    """A time at the database's precision (a whole microsecond), as both hubs keep it."""
    return round(seconds * 1_000_000) / 1_000_000


def _is_generation(generation: object, oldest: int, newest: int) -> bool:
    """A move made on the current position: at or after its last change, not ahead."""
    if isinstance(generation, bool) or not isinstance(generation, int):
        return False
    return oldest <= generation <= newest


_SHOWN_OTHERWISE = ("seats", "rematch", "watchers")
_SHOWN = tuple(
    each.name
    for each in fields(Room)
    if each.name in RoomView._fields and each.name not in _SHOWN_OTHERWISE
)
"""The fields a room shows in its view as they are (same name, same value): a new one is
declared in `Room` and `RoomView`, and nothing more here. Its round's are `round_fields`."""
