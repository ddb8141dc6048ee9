"""`MemoryHub`: every room in one process's memory, on one asyncio event loop.

The one source of truth of each room while `serve-ssh` runs (its sessions reach it over
a local socket). Every change goes through one method here, moves the room's
generation on by exactly one and writes the new `RoomView` into every subscriber's
mailbox. Nothing here awaits between reading and changing a room, so calls from
many sessions on the loop never interleave inside a change.

A dropped link keeps its seat until `clock() + limits.reconnect_grace` (Unix time by default,
the clock sessions count `back_by` down on, as with `PostgresHub`); an asyncio timer
calls `expire()` when the earliest grace runs out, and every call checks first too,
so a hub on an injected clock is driven by its tests (advance the clock, call any
method or `expire()`). The move clock is kept the same way: `expire()` asks each room
whether the mover's time ran out (`Room.flag_fall`), and the timer waits for the earliest
deadline too, so a round is lost on time once, whoever looks first.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncGenerator, Callable, Collection

from tui_tictactoe.record.values import new_round_key
from tui_tictactoe.rooms import codes, matching, refusals
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.limits import UNTIMED, RoomLimits
from tui_tictactoe.rooms.mailbox import Mailbox
from tui_tictactoe.rooms.matching import Place, QueueState, Waiter
from tui_tictactoe.rooms.operations import OPERATIONS
from tui_tictactoe.rooms.refusals import NoRoom, no_room, too_many_lobby_names
from tui_tictactoe.rooms.room import (
    LOBBY_NAMES,
    LOBBY_WINDOW,
    SIZES,
    Room,
    check_new_room,
    check_room_count,
)
from tui_tictactoe.rooms.view import SEATS, Person, Refused, RoomSummary, RoomView, SeatName, Ticket
from tui_tictactoe.rooms.wrong_codes import GLOBAL_LIMIT, NETWORK_LIMIT, WrongCodes


class _Queued:
    """A place waiting: the rule's view of it, who holds it, and when it was last asked about."""

    __slots__ = ("seen", "waiter", "who")

    def __init__(self, waiter: Waiter, who: Person, seen: float) -> None:
        self.waiter, self.who, self.seen = waiter, who, seen


class _Found:
    """A place paired: its seat, the place as it waited (put back if the partner
    declines), the partner's token, when, and whether its session has been told."""

    __slots__ = ("paired_at", "partner", "queued", "ticket", "told")

    def __init__(self, ticket: Ticket, queued: _Queued, partner: str, paired_at: float) -> None:
        self.ticket, self.queued, self.partner = ticket, queued, partner
        self.paired_at, self.told = paired_at, False


"""96 random bits: a 16-character token, short to copy, impossible to guess."""
_CODE_TRIES = 64


class MemoryHub(RoomHub):
    """A `RoomHub` in one process, within `limits` (replaced whole to change them). See
    docs/rooms.md for the rules it keeps."""

    def __init__(
        self,
        limits: RoomLimits = UNTIMED,
        *,
        clock: Callable[[], float] = time.time,
        rng: codes.Chooser | None = None,
        round_keys: Callable[[], str] = new_round_key,
    ) -> None:
        self.clock = clock
        self.limits = limits
        self._queue: dict[str, _Queued] = {}  # place token -> who waits, and since when
        self._found: dict[str, _Found] = {}  # paired, until the decline window ends
        self._round_keys = round_keys
        self._rng: codes.Chooser = rng if rng is not None else secrets.SystemRandom()
        self.wrong_codes = WrongCodes(
            clock,
            limits.wrong_code_limit,
            limits.wrong_code_window,
            network_limit=NETWORK_LIMIT,
            global_limit=GLOBAL_LIMIT,
        )
        self.lobby_names = WrongCodes(
            clock, LOBBY_NAMES, LOBBY_WINDOW, refusal=too_many_lobby_names
        )
        self.declines = WrongCodes(
            clock, matching.DECLINES, matching.DECLINE_PERIOD, refusal=matching.too_many_declines
        )
        self._rooms: dict[str, Room] = {}
        self._boxes: dict[str, list[Mailbox]] = {}
        self._timer: asyncio.TimerHandle | None = None

    # -- the RoomHub interface ----------------------------------------------

    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        self.expire()
        check_new_room(size, first)
        own = self._rooms_of(who.address)
        check_room_count(who.address, own, len(self._rooms), self.limits)
        if public:
            self._lobby_names(who)
        room = self._open(size, first)
        room.public, room.owner = public, who.address
        room.flag_fall(self.clock())  # nothing due in a new room: the time of this change
        token = self._token()
        room.sit("X", who, token, creator=True)
        self._rooms[room.code] = room
        self._boxes[room.code] = []
        return Ticket(room.code, "X", token)

    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        room = self._find(code, who)
        new_token = self._token()
        if room.public and room.seat_for(who, token) is None and room.free_seat() is not None:
            self._lobby_names(who)  # a new name in a listed room
        wrong = room.wrong_token(who, token)  # a seat token guessed: as a code guessed
        try:
            seat, old_token = room.admit(who, token, new_token, self._round_key())
        except NoRoom:
            wrong = True  # once, as for a code that names no room
            raise
        finally:
            if wrong:
                self.wrong_codes.count(who.address)
        self._changed(room, gone=(old_token,) if old_token else ())
        self._arm_for(room)  # back in their seat: the mover's clock runs again
        return Ticket(room.code, seat, new_token)

    async def watch(self, code: str, who: Person) -> Ticket:
        room = self._find(code, who)
        token = self._token()
        try:
            room.admit_watcher(who, token, self.limits)
        except NoRoom:
            self.wrong_codes.count(who.address)
            raise
        self._changed(room)
        return Ticket(room.code, None, token)

    async def set_public(self, ticket: Ticket, public: bool) -> None:
        room = self._held(ticket)
        if not room.set_public(ticket.seat, public):
            return
        if public and ticket.seat is not None:
            try:
                self._lobby_names(room.seats[ticket.seat].person or Person(""))
            except Refused:
                room.public = False
                raise
        self._changed(room)

    async def seat_call(self, ticket: Ticket, op: str, *args: object) -> None:
        """The operation's rule (`Room`'s) applied to the ticket's room, then sent out."""
        room = self._held(ticket)
        rule = OPERATIONS[op].rule
        assert rule is not None, op
        gone = rule(room, ticket.seat, self._round_key, *args)
        if gone is not None:
            self._changed(room, gone=gone)
            self._arm_for(room)  # a move set the next mover's deadline: the timer waits for it

    async def leave(self, ticket: Ticket) -> None:
        """Idempotent: a ticket that no longer holds anything changes nothing."""
        room = self._present(ticket)
        if room is None:
            return
        if ticket.seat is None:
            del room.watchers[ticket.token]
        else:
            room.free(ticket.seat)
        self._changed(room, gone=(ticket.token,))

    async def drop(self, ticket: Ticket) -> None:
        """A spectator's dropped link is a leave; a player's keeps the seat for the grace."""
        room = self._present(ticket)
        if room is None:
            return
        if ticket.seat is None:
            await self.leave(ticket)
            return
        if not room.seats[ticket.seat].present:
            return
        room.away(ticket.seat, self.clock() + self.limits.reconnect_grace)
        self._changed(room)
        self._arm()

    async def updates(self, ticket: Ticket) -> AsyncGenerator[RoomView, None]:
        """The room now, then its newest view after each change (a slow reader skips
        to the latest), ending after `closed` or once the ticket no longer holds its
        place. Refused (on the first step) if the ticket holds nothing."""
        room = self._held(ticket)
        box = Mailbox(ticket.token, room.view())
        boxes = self._boxes[room.code]
        boxes.append(box)
        try:
            async for view in box.views():
                yield view
        finally:
            if box in boxes:
                boxes.remove(box)

    async def rooms(self) -> list[RoomSummary]:
        self.expire()
        return [room.summary() for room in self._rooms.values() if room.listed()]

    async def queue_join(self, who: Person, size: int, rating: int) -> Place:
        self._expire_queue()
        matching.check_place(size, rating, SIZES)
        for counted in matching.decline_keys(who.address, who.key):
            self.declines.check(counted)
        rooms = self._rooms_of(who.address)
        check_room_count(who.address, rooms, None, self.limits)
        own = sum(q.who.address == who.address for q in self._queue.values())
        matching.check_place_count(
            who.address,
            own,
            len(self._queue),
            self.limits.places_per_address,
            self.limits.max_places,
        )
        token = self._token()
        now = self.clock()
        waiter = Waiter(token, size, rating, now, who.address)
        self._queue[token] = _Queued(waiter, who, now)
        self._pair(now)
        return Place(token, size)

    async def queue_poll(self, place: Place) -> QueueState:
        self._expire_queue()
        now = self.clock()
        queued = self._queue.get(place.token)
        if queued is not None:
            queued.seen = now
            self._pair(now)
        found = self._found.get(place.token)
        if found is None and queued is None:
            raise matching.not_queued()
        if found is not None:
            found.told, found.queued.seen = True, now
        return QueueState(self._waiting_counts(), None if found is None else found.ticket)

    async def queue_leave(self, place: Place) -> None:
        self._queue.pop(place.token, None)
        found = self._found.pop(place.token, None)
        if found is not None and not found.told:  # paired, but its session went first
            await self.leave(found.ticket)

    async def queue_decline(self, place: Place) -> None:
        self._expire_queue()
        found = self._found.get(place.token)
        if found is None:
            raise matching.cannot_decline()
        if found.paired_at < self.clock() - matching.DECLINE_WINDOW:
            raise matching.cannot_decline()
        room = self._rooms.get(found.ticket.code)
        if room is not None and room.moves:
            raise matching.game_begun()
        seat = found.ticket.seat
        if room is None or seat is None or not room.holds(seat, place.token):
            self._found.pop(place.token, None)
            return
        room.free(seat)  # before any move: the room is aborted (`_opening_ended`)
        self._changed(room, gone=(place.token, found.partner))

    # -- beyond the interface -----------------------------------------------

    def view(self, code: str) -> RoomView:
        """Room `code` as it is now (Refused if there is no such room)."""
        room = self._rooms.get(code)
        if room is None:
            raise Refused(f"There is no room {code}.")
        return room.view()

    def away_seats(self) -> list[tuple[str, SeatName, Person]]:
        """Every seat held for a player whose link dropped (the grace running), in every
        room, private ones too: what the host's admin sees of a room no session is in."""
        return [
            (code, seat, held.person)
            for code, room in sorted(self._rooms.items())
            for seat in SEATS
            if (held := room.seats[seat]).person is not None and not held.present
        ]

    def close(self, code: str) -> bool:
        """The host's admin closes room `code`: every seat freed as if left (a round in
        play abandoned), every reader told `closed`. False if there is no such room."""
        room = self._rooms.get(code)
        if room is None:
            return False
        tokens = [held.token for held in room.seats.values() if held.person is not None]
        for seat in SEATS:
            if room.seats[seat].person is not None:
                room.free(seat)
        room.closed = True
        self._changed(room, gone=tokens)
        self._arm()
        return True

    def expire(self, now: float | None = None) -> None:
        """Every room's mover whose time ran out loses on time; then every seat whose
        grace has run out is freed (as `leave`); then wait for the next. `now`: the
        clock's, unless the caller read it already."""
        now = self.clock() if now is None else now
        for room in list(self._rooms.values()):
            due = room.deadline is not None and room.deadline <= now
            if due and room.flag_fall(now):
                self._changed(room)
            for seat in SEATS:
                held = room.seats[seat]
                if held.person is not None and held.back_by is not None and held.back_by <= now:
                    token = held.token
                    room.free(seat)
                    self._changed(room, gone=(token,))
                if room.closed:
                    break
        self._arm()

    async def shutdown(self) -> None:
        """Close every room (each subscriber gets `closed`) and stop the grace timer."""
        for room in list(self._rooms.values()):
            room.closed = True
            self._changed(room)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- inside ---------------------------------------------------------------

    def _waiting_counts(self) -> tuple[int, ...]:
        return tuple(sum(q.waiter.size == size for q in self._queue.values()) for size in SIZES)

    def _expire_queue(self) -> None:
        """Places not asked about for `place_timeout` (their session or host died) go;
        a pair's places go when its decline window and its room's opening are over, and a
        seat paired but never told is dropped at the window's end (its grace runs as any
        seat's)."""
        now = self.clock()
        oldest = now - self.limits.place_timeout
        for token in [t for t, q in self._queue.items() if q.seen < oldest]:
            del self._queue[token]
        over = now - matching.DECLINE_WINDOW
        for token in [t for t, found in self._found.items() if found.paired_at < over]:
            found = self._found.get(token)
            if found is None:
                continue  # gone with its room, closed by the change before
            ticket = found.ticket
            room = self._rooms.get(ticket.code)
            assert ticket.seat is not None
            if not found.told and room is not None and room.holds(ticket.seat, ticket.token):
                found.told = True  # once: its seat is dropped, and waits out its grace
                room.flag_fall(now)  # the time of this change, for the grace it counts
                room.away(ticket.seat, now + self.limits.reconnect_grace)
                self._changed(room)
                self._arm()
            if room is None or not room.in_opening():
                self._found.pop(token, None)

    def _open(self, size: int, first: SeatName, matched: bool = False) -> Room:
        """A new room on this hub's terms (its move clock, its reconnect grace): made here
        for a room someone opens and for a quick match's alike."""
        room = Room(self._new_code(), size, first, round_key=self._round_key())
        return room.opened_under(self.limits, matched=matched)

    def _rooms_of(self, address: str) -> int:
        """Live rooms that count against `address` (opened there, or a seat held from it)."""
        return sum(room.counts_against(address) for room in self._rooms.values())

    def _pair(self, now: float) -> None:
        """Every pair the rule makes now, each in a new private room (while rooms may be
        opened: at the cap the places wait on, and a place whose address has its rooms
        too)."""
        full = {a for a in {q.who.address for q in self._queue.values()} if self._at_cap(a)}
        waiting = [q.waiter for q in self._queue.values() if q.who.address not in full]
        for x, o in matching.pairs(waiting, now):
            most = self.limits.max_rooms
            if most is not None and len(self._rooms) >= most:
                return
            if self._at_cap(x.address) or self._at_cap(o.address):
                continue  # one of them reached it with the pair before: the next time
            room = self._open(x.size, "X", matched=True)
            room.flag_fall(now)
            for seat, waiter, partner in zip(SEATS, (x, o), (o, x), strict=True):
                queued = self._queue.pop(waiter.place)
                room.sit(seat, queued.who, waiter.place)
                ticket = Ticket(room.code, seat, waiter.place)
                self._found[waiter.place] = _Found(ticket, queued, partner.place, now)
            self._rooms[room.code] = room
            self._boxes[room.code] = []

    def _at_cap(self, address: str) -> bool:
        return bool(address) and self._rooms_of(address) >= self.limits.rooms_per_address

    def _opening_ended(self, room: Room) -> None:
        """A quick match's room closed before its game began (aborted: a stall, a leave, a
        decline; or both links gone): the pair's places end; the player who did not play
        is out and counted (`matching.DECLINES`), the other back in the queue with the
        time it joined (if its session still asks: `matching.BACK_WITHIN`)."""
        now = self.clock()
        back = False
        for token in [t for t, f in self._found.items() if f.ticket.code == room.code]:
            found = self._found.pop(token)
            queued = found.queued
            if room.aborted_by is None:
                continue
            if found.ticket.seat == room.aborted_by:
                for counted in matching.decline_keys(queued.who.address, queued.who.key):
                    self.declines.count(counted)
            elif queued.seen >= now - matching.BACK_WITHIN:
                queued.seen, back = now, True
                self._queue[token] = queued
        if back:
            self._pair(now)

    def _find(self, code: str, who: Person) -> Room:
        """The live room a person typed, with wrong codes rate-limited per address (and
        the time of this change given to it, as `_held` does)."""
        now = self.clock()
        self.expire(now)
        self.wrong_codes.check(who.address)
        typed = codes.normalise(code)
        room = self._rooms.get(typed)
        if room is None:
            self.wrong_codes.count(who.address)
            raise no_room(typed)
        room.flag_fall(now)
        return room

    def _lobby_names(self, who: Person) -> None:
        """One more name before strangers from `who`'s address (refused past the limit;
        no address, no count: a process not behind serve-ssh)."""
        if who.address:
            self.lobby_names.check(who.address)
            self.lobby_names.count(who.address)

    def _present(self, ticket: Ticket) -> Room | None:
        """As `_held`, None where the ticket holds nothing (leaving twice is no error)."""
        try:
            return self._held(ticket)
        except Refused:
            return None

    def _held(self, ticket: Ticket) -> Room:
        """The room a ticket is in, if the ticket still holds its place there, given the
        time of this change (`Room.flag_fall`: nothing is due, `expire` saw to it)."""
        now = self.clock()
        self.expire(now)
        room = self._rooms.get(ticket.code)
        if room is None:
            raise refusals.room_closed(ticket.code)
        if not room.holds(ticket.seat, ticket.token):
            raise refusals.not_in_room(ticket.code)
        room.flag_fall(now)
        return room

    def _changed(self, room: Room, gone: Collection[str] = ()) -> None:
        """The one place a room's generation moves on and its view goes out (and the
        updates of the tickets `gone` end after it)."""
        room.generation += 1
        view = room.view()
        boxes = self._boxes.get(room.code, [])
        for box in boxes:
            box.put(view)
            if box.token in gone:
                box.end()
        if room.closed:
            del self._rooms[room.code]
            del self._boxes[room.code]
            if room.matched:
                self._opening_ended(room)

    def _new_code(self) -> str:
        for _ in range(_CODE_TRIES):
            code = codes.new_code(self._rng)
            if code not in self._rooms:
                return code
        raise refusals.no_free_code()

    def _token(self) -> str:
        return codes.new_token(self._rng)

    def _round_key(self) -> str:
        """A fresh key for a round in the record: by default a random UUID
        (`new_round_key`), apart from `rng`, so a seeded hub deals the same codes and
        tokens as before round keys were dealt."""
        return self._round_keys()

    def _arm(self) -> None:
        """Set the timer for the earliest grace or move clock still running (none: no timer)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        ends = [
            seat.back_by
            for room in self._rooms.values()
            for seat in room.seats.values()
            if seat.person is not None and seat.back_by is not None
        ]
        ends += [room.deadline for room in self._rooms.values() if room.deadline is not None]
        if not ends:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a test calling expire() by hand): the next call checks
        self._timer = loop.call_later(max(0.0, min(ends) - self.clock()), self.expire)

    def _arm_for(self, room: Room) -> None:
        """The timer brought forward to `room`'s new deadline if it is the earliest (one
        room looked at, not all: this follows every move)."""
        if room.deadline is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        at = loop.time() + max(0.0, room.deadline - self.clock())
        if self._timer is None or at < self._timer.when():
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_later(at - loop.time(), self.expire)
