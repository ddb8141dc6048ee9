"""`PostgresHub`: the rooms in PostgreSQL, so several `serve-ssh` hosts are one world.

Each host runs one `PostgresHub` (behind its `HubServer`, like `MemoryHub`). A room is
its rows; a change is one transaction that locks the room's row, applies `room.Room`'s
rule (the generation check included), writes it back and `NOTIFY`s the other hosts with
the room's new generation and rows, in two flights (pipeline mode) on one of a few
connections: two hosts never both apply a move (the second waits for the lock and finds
the position moved on). Readers of `updates` are this host's own: a change made
elsewhere reaches them by its notification (its rows, else read again), or at the next
re-read (`reread` s): a lost notification delays a view, never loses it. Hosts beat
every `heartbeat` s; a seat held through a host silent for `host_timeout` counts as
dropped. Readers' views say when the database is out of reach (`RoomView.unreachable`).
See docs/rooms.md, "Rooms across hosts".
"""

from __future__ import annotations

import contextlib
import secrets
import sys
import uuid
from collections.abc import AsyncGenerator, Callable
from functools import partial
from typing import Any, TypeVar

from tui_tictactoe.record.values import new_round_key
from tui_tictactoe.rooms import codes, matching, refusals
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.limits import UNTIMED, RoomLimits
from tui_tictactoe.rooms.matching import Place, QueueState
from tui_tictactoe.rooms.operations import OPERATIONS
from tui_tictactoe.rooms.postgres import queue as pg_queue
from tui_tictactoe.rooms.postgres import rows as pg_rows
from tui_tictactoe.rooms.postgres import sweep as pg_sweep
from tui_tictactoe.rooms.postgres.link import POOL_SIZE, Link
from tui_tictactoe.rooms.postgres.readers import Readers
from tui_tictactoe.rooms.postgres.rows import (
    LOBBY,
    Loaded,
    closed,
    hashed,
    insert_room,
    is_code,
    micro,
    nothing,
    save,
)
from tui_tictactoe.rooms.postgres.schema import ensure_schema
from tui_tictactoe.rooms.postgres.tasks import HubTasks
from tui_tictactoe.rooms.postgres.wrong_codes import SharedWrongCodes, no_room
from tui_tictactoe.rooms.refusals import NoRoom, too_many_lobby_names
from tui_tictactoe.rooms.room import (
    LOBBY_NAMES,
    LOBBY_WINDOW,
    SIZES,
    Room,
    check_new_room,
)
from tui_tictactoe.rooms.view import (
    SEATS,
    Person,
    Refused,
    RoomSummary,
    RoomView,
    SeatName,
    Ticket,
)
from tui_tictactoe.rooms.wrong_codes import GLOBAL_LIMIT, NETWORK_LIMIT

T = TypeVar("T")
CHANNEL = "tui_tictactoe_rooms"
HEARTBEAT = 2.0
"""Seconds between a host's heartbeats."""
HOST_TIMEOUT = 10.0
"""Seconds of silence after which a host's seats count as dropped."""
REREAD = 1.0
"""Seconds between re-reads of the rooms that have readers here (and the sweep of graces)."""
_CODE_TRIES = 64


_log_to_stderr: Callable[[str], None] = partial(print, file=sys.stderr, flush=True)


class PostgresHub(RoomHub):
    """A `RoomHub` on PostgreSQL, one per host. `await start()` before use (it creates
    or upgrades the tables and starts the heartbeat, the listener and the re-reads);
    `await shutdown()` when the host stops. Also an async context manager."""

    def __init__(
        self,
        url: str,
        limits: RoomLimits = UNTIMED,
        *,
        rng: codes.Chooser | None = None,
        clock: Callable[[], float] | None = None,
        host_id: str | None = None,
        heartbeat: float = HEARTBEAT,
        host_timeout: float = HOST_TIMEOUT,
        reread: float = REREAD,
        listen: bool = True,
        channel: str = CHANNEL,
        listen_url: str | None = None,
        log: Callable[[str], None] = _log_to_stderr,
        round_keys: Callable[[], str] = new_round_key,
        connections: int = POOL_SIZE,
    ) -> None:
        self.url = url
        self.limits = limits  # as MemoryHub's; a room keeps the clock it opened with
        self._round_keys = round_keys  # each round's key for the record, as MemoryHub's
        self.host_id = host_id or uuid.uuid4().hex
        self.heartbeat, self.host_timeout, self.reread = heartbeat, host_timeout, reread
        self.channel = channel
        self.listen_url = listen_url or url
        self._log = log
        self._clock = clock
        self._rng: codes.Chooser = rng if rng is not None else secrets.SystemRandom()
        self._link = Link(url, connections)
        self.wrong_codes = SharedWrongCodes(
            self._link,
            self._now,
            limits.wrong_code_limit,
            limits.wrong_code_window,
            network_limit=NETWORK_LIMIT,
            global_limit=GLOBAL_LIMIT,
        )
        self.lobby_names = SharedWrongCodes(
            self._link, self._now, LOBBY_NAMES, LOBBY_WINDOW, "lobby", too_many_lobby_names
        )
        self.declines = SharedWrongCodes(  # counted by `pg_queue.opening_ended`
            self._link,
            self._now,
            matching.DECLINES,
            matching.DECLINE_PERIOD,
            "decline",
            matching.too_many_declines,
        )
        self.readers = Readers()
        self._mine: set[str] = set()  # hashes of the seat tokens this host's sessions hold
        self._away: list[tuple[str, SeatName, Person]] = []  # as of the last beat
        self.tasks = HubTasks(
            self.readers,
            log,
            beat=self.beat,
            expire=self.expire,
            read=self._read,
            heartbeat=heartbeat,
            reread=reread,
            listen_url=self.listen_url if listen else None,
            channel=channel,
        )

    async def __aenter__(self) -> PostgresHub:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.shutdown()

    async def start(self) -> None:
        """Tables made or upgraded, this host's first heartbeat, the background tasks.
        Raises `Refused` if the database cannot be reached, `NewerRoomSchema` if it is
        newer than this program."""
        async with self._link.session() as conn:
            await ensure_schema(conn)
        await self.beat()
        self.tasks.start()

    # -- the RoomHub interface ----------------------------------------------

    async def create(self, who: Person, size: int, first: SeatName, public: bool = False) -> Ticket:
        check_new_room(size, first)
        await self.expire()  # rooms whose grace ran out no longer count against anyone
        if public and who.address:
            await self.lobby_names.check(who.address)
        token = ""
        for _ in range(_CODE_TRIES):
            room = self._new_room(size, first)
            room.public, room.owner = public, who.address
            token = token or self._token()  # drawn as MemoryHub does, after the code
            room.sit("X", who, hashed(token), creator=True)
            if await self._insert(room):
                self._mine.add(hashed(token))
                if public and who.address:
                    await self.lobby_names.count(who.address)
                return Ticket(room.code, "X", token)
        raise refusals.no_free_code()

    async def join(self, code: str, who: Person, token: str = "") -> Ticket:
        typed = await self._typed(code, who)
        busy = await self.lobby_names.wait(who.address) if who.address else 0
        named, wrong = False, False  # a name put in a listed room; a seat token guessed

        def take(loaded: Loaded, _now: float) -> Ticket:
            nonlocal named, wrong
            room, held = loaded.room, hashed(token)
            named = room.public and room.seat_for(who, held) is None and bool(who.address)
            if named and room.free_seat() is not None and busy > 0:
                raise Refused(too_many_lobby_names(busy))
            wrong = room.wrong_token(who, held)
            new_token = self._token()
            seat, _ = room.admit(who, held, hashed(new_token), self._round_keys())
            room.generation += 1
            return Ticket(room.code, seat, new_token)

        try:
            ticket = await self.wrong_codes.counted(
                who.address, self._change(typed, take, no_room(typed))
            )
        except NoRoom:
            wrong = False  # counted once, as for a code that names no room
            raise
        finally:
            if wrong:
                await self.wrong_codes.count(who.address)
        if named:
            await self.lobby_names.count(who.address)
        self._mine.add(hashed(ticket.token))
        return ticket

    async def watch(self, code: str, who: Person) -> Ticket:
        typed = await self._typed(code, who)

        def sit_down(loaded: Loaded, _now: float) -> Ticket:
            token = self._token()
            loaded.room.admit_watcher(who._replace(address=""), hashed(token), self.limits)
            loaded.room.generation += 1
            return Ticket(loaded.room.code, None, token)

        change = self._change(typed, sit_down, no_room(typed))
        return await self.wrong_codes.counted(who.address, change)

    async def set_public(self, ticket: Ticket, public: bool) -> None:
        owner = ""  # the creator's address, counted for a room they list
        if public and (found := (await self._read([ticket.code])).get(ticket.code)):
            owner = found.room.owner
        busy = await self.lobby_names.wait(owner) if owner else 0

        def choose(loaded: Loaded, _now: float) -> bool:
            self._check_held(loaded, ticket)
            if not loaded.room.set_public(ticket.seat, public):
                return False
            if public and busy > 0:
                loaded.room.public = False
                raise Refused(too_many_lobby_names(busy))
            loaded.room.generation += 1
            return public

        if await self._change(ticket.code, choose, closed(ticket)) and owner:
            await self.lobby_names.count(owner)

    async def seat_call(self, ticket: Ticket, op: str, *args: object) -> None:
        """The operation's rule (`Room`'s) applied to the ticket's room in its transaction."""
        rule = OPERATIONS[op].rule
        assert rule is not None, op

        def apply(loaded: Loaded, _now: float) -> None:
            self._check_held(loaded, ticket)
            if rule(loaded.room, ticket.seat, self._round_keys, *args) is not None:
                loaded.room.generation += 1

        await self._change(ticket.code, apply, closed(ticket))

    async def leave(self, ticket: Ticket) -> None:
        """Idempotent: a ticket that no longer holds anything changes nothing."""
        token = hashed(ticket.token)
        self._mine.discard(token)

        def go(loaded: Loaded, _now: float) -> None:
            room = loaded.room
            if not room.holds(ticket.seat, token):
                return
            if ticket.seat is None:
                del room.watchers[token]
            else:
                room.free(ticket.seat)
            room.generation += 1

        await self._change(ticket.code, go, nothing)

    async def drop(self, ticket: Ticket) -> None:
        """A spectator's dropped link is a leave; a player's keeps the seat for the grace."""
        if ticket.seat is None:
            await self.leave(ticket)
            return
        token = hashed(ticket.token)
        self._mine.discard(token)

        def away(loaded: Loaded, now: float) -> None:
            room = loaded.room
            assert ticket.seat is not None
            if not room.holds(ticket.seat, token) or not room.seats[ticket.seat].present:
                return
            room.away(ticket.seat, micro(now + self.limits.reconnect_grace))
            room.generation += 1

        await self._change(ticket.code, away, nothing)

    async def updates(self, ticket: Ticket) -> AsyncGenerator[RoomView, None]:
        """The room now, then its newest view after each change (made here or on another
        host), ending after `closed` or once the ticket no longer holds its place.
        Refused (on the first step) if the ticket holds nothing."""

        def current(loaded: Loaded, _now: float) -> Loaded:
            self._check_held(loaded, ticket)
            return loaded

        loaded = await self._change(ticket.code, current, closed(ticket))
        reader = self.readers.add(ticket.seat, hashed(ticket.token), loaded)
        try:
            async for view in reader.box.views():
                yield view
        finally:
            self.readers.remove(ticket.code, reader)

    async def rooms(self) -> list[RoomSummary]:
        await self.expire()
        async with self._link.transaction() as conn:
            listed = [code for (code,) in await (await conn.execute(LOBBY)).fetchall()]
        found = await self._read(listed) if listed else {}
        rooms = (found[code].room for code in listed if code in found)
        return [room.summary() for room in rooms if room.listed()]

    async def queue_join(self, who: Person, size: int, rating: int) -> Place:
        matching.check_place(size, rating, SIZES)
        for counted in matching.decline_keys(who.address, who.key):
            await self.declines.check(counted)
        await self.expire()  # rooms whose grace ran out no longer count against anyone
        token = self._token()
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            lost = await self._swept(conn, now)  # places gone silent no longer count
            place = (size, rating)
            await pg_queue.join(conn, hashed(token), who, place, self.host_id, now, self.limits)
        await self._give_up(lost)
        self._mine.add(hashed(token))  # its seat's token, once paired
        await self._pair()
        return Place(token, size)

    async def queue_poll(self, place: Place) -> QueueState:
        token = hashed(place.token)
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            oldest = now - self.limits.place_timeout
            lost = await self._swept(conn, now)
            held = await pg_queue.touch(conn, token, now)
            if held is not None and held[0] is None:
                await pg_queue.pair(conn, now, oldest, self._new_match, self.limits)
                held = await pg_queue.touch(conn, token, now)
            counts = await pg_queue.waiting(conn)
        await self._give_up(lost)
        if held is None:
            self._mine.discard(token)
            raise matching.not_queued()
        code, seat = held
        if code is None or seat not in ("X", "O"):
            return QueueState(counts)
        return QueueState(counts, Ticket(code, "X" if seat == "X" else "O", place.token))

    async def queue_leave(self, place: Place) -> None:
        token = hashed(place.token)
        async with self._link.transaction() as conn:
            paired = await pg_queue.forget(conn, token)
        if paired is not None:  # paired, but the session went before it was told
            await self._give_up([(paired, token)])
        self._mine.discard(token)

    async def queue_decline(self, place: Place) -> None:
        token = hashed(place.token)
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            paired = await pg_queue.paired_room(conn, token, now - matching.DECLINE_WINDOW)
        if paired is None:
            raise matching.cannot_decline()
        code, held = paired
        seat: SeatName = "X" if held == "X" else "O"

        def close(loaded: Loaded, _now: float) -> None:
            room = loaded.room
            if room.moves:
                raise matching.game_begun()
            if room.holds(seat, token):
                room.free(seat)  # before any move: aborted (`pg_queue.opening_ended`)
                room.generation += 1

        await self._change(code, close, nothing)  # refused once it began
        self._mine.discard(token)
        await self._pair()

    # -- beyond the interface -----------------------------------------------

    async def view(self, code: str) -> RoomView:
        """Room `code` as it is now (Refused if there is no such room)."""
        found = (await self._read([code])).get(code)
        if found is None or found.room.closed:
            raise Refused(f"There is no room {code}.")
        return found.room.view()

    async def expire(self) -> None:
        """Every room with a grace run out, or a place held through a silent host, put
        right (each in a transaction of its own: idempotent, whichever host comes first)."""
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            due = await pg_sweep.due_rooms(conn, now, self.host_id, self.host_timeout)
        for code in due:
            await self._change(code, _keep, nothing)

    async def beat(self) -> None:
        """This host's heartbeat; seats of its own sessions that another host took for
        dropped (the database was out of reach a while) are taken back."""
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            await pg_sweep.beat(conn, self.host_id, now)
            back = await pg_sweep.wrongly_away(conn, self.host_id, sorted(self._mine))
            away = await pg_sweep.away_seats(conn)
        self._away = [
            (code, "X" if seat == "X" else "O", Person(name, key or "", address or ""))
            for code, seat, name, key, address in away
        ]
        for code, token in back:
            await self._change(code, pg_sweep.present_again(token), nothing)

    def away_seats(self) -> list[tuple[str, SeatName, Person]]:
        """As `MemoryHub.away_seats`, every host's rooms, as of this host's last beat."""
        return list(self._away)

    async def close(self, code: str) -> bool:
        """As `MemoryHub.close`, for every host: the room's seats freed and it closed (its
        readers on every host told by the notification). False if there is no such room."""

        shut_now: list[str] = []  # `_change` answers `missing()` for a room that closed

        def shut(loaded: Loaded, _now: float) -> None:
            room = loaded.room
            shut_now.append(room.code)
            for seat in SEATS:
                if room.seats[seat].person is not None:
                    room.free(seat)
            room.closed = True
            room.generation += 1

        self._away = [each for each in self._away if each[0] != code]
        await self._change(code, shut, nothing)
        return bool(shut_now)

    async def shutdown(self) -> None:
        """This host stops: its background tasks end, its players' seats wait out their
        grace (they may come back through another host), its spectators leave, and its
        readers' updates end. The rooms themselves go on."""
        await self.tasks.stop()
        with contextlib.suppress(Refused):
            async with self._link.transaction() as conn:
                held = await pg_sweep.rooms_of_host(conn, self.host_id)
            for code in held:
                await self._change(code, self._leave_host, nothing)
            async with self._link.transaction() as conn:
                await conn.execute("DELETE FROM room_hosts WHERE host_id = %s", (self.host_id,))
        self.readers.end_all()
        await self._link.close()

    # -- inside ---------------------------------------------------------------

    async def _pair(self) -> None:
        """Pair what may be paired now (a new place may complete a pair at once)."""
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            oldest = now - self.limits.place_timeout
            await pg_queue.pair(conn, now, oldest, self._new_match, self.limits)

    async def _swept(self, conn: Any, now: float) -> list[tuple[str, str]]:
        """The queue swept (`pg_queue.sweep`), and the places paired but never told by the
        window's end: the seats to give up."""
        window_over = now - matching.DECLINE_WINDOW
        lost = await pg_queue.sweep(conn, now - self.limits.place_timeout, window_over)
        return lost + await pg_queue.untold(conn, window_over)

    def _new_match(self, size: int) -> Room:
        """A quick match's room: X starts, and its opening is timed."""
        return self._new_room(size, matched=True)

    def _new_room(self, size: int, first: SeatName = "X", matched: bool = False) -> Room:
        """A new room on this hub's terms (its move clock, its reconnect grace), a fresh
        code and round key: for a room someone opens and a quick match's (X starts) alike."""
        room = Room(codes.new_code(self._rng), size, first, round_key=self._round_keys())
        return room.opened_under(self.limits, matched=matched)

    async def _give_up(self, seats: list[tuple[str, str]]) -> None:
        """Seats paired for places whose session never came (by token hash): freed."""
        for code, token in seats:

            def go(loaded: Loaded, _now: float, token: str = token) -> None:
                for seat, held in loaded.room.seats.items():
                    if held.person is not None and held.token == token:
                        loaded.room.free(seat)
                        loaded.room.generation += 1

            await self._change(code, go, nothing)

    async def _change(
        self, code: str, op: Callable[[Loaded, float], T], missing: Callable[[], T]
    ) -> T:
        """Room `code` changed in one transaction that holds its row: first what is due
        (hosts gone silent, graces run out, as `MemoryHub.expire`), then `op`, whose
        refusal is raised after what was due is saved. `missing()` if there is no room.
        Two flights: the time, the room locked, the live hosts; then the writes and COMMIT."""
        if not is_code(code):
            return missing()
        clock = None if self._clock is None else micro(self._clock())

        reads = partial(pg_sweep.queue_change, code=code, now=clock, timeout=self.host_timeout)

        async def write(
            conn: Any, read: pg_sweep.Read
        ) -> tuple[Loaded | None, Any, Refused | None]:
            now, found, live = read
            if found is None or found.room.closed:
                return found, None, None
            pg_sweep.put_right(found, now, self.limits.reconnect_grace, self._alive(live))
            result, refusal = None, None
            try:
                if not found.room.closed:  # closed just now: as if it were not there
                    result = op(found, now)
            except Refused as error:
                refusal = error
            if found.changed and found.room.closed and found.room.matched:
                by = found.room.aborted_by  # a quick match's room closed: its places end
                await pg_queue.opening_ended(conn, code, by, now, matching.DECLINE_PERIOD)
            if found.changed:
                await save(conn, found, now, self.host_id)
                await pg_sweep.notify(conn, self.channel, found)
            return found, result, refusal

        found, result, refusal = await self._link.change(reads, write)
        if found is not None and found.changed:
            self.readers.deliver(found)
        if found is None or found.room.closed:
            return missing()  # no room, or it closed now (the last player left, or expired)
        if refusal is not None:
            raise refusal
        return result  # type: ignore[no-any-return]  # op returned it

    async def _insert(self, room: Room) -> bool:
        """A new room's rows; False if its code is live already (draw another)."""
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            return await insert_room(conn, room, now, self.host_id, self.limits)

    async def _now(self, conn: object) -> float:
        """The time of this change: the injected clock's, else the database's."""
        if self._clock is not None:
            return micro(self._clock())
        return await pg_sweep.database_now(conn)  # type: ignore[arg-type]

    def _alive(self, live: set[str] | None) -> Callable[[str], bool]:
        """Whether a place's host still beats: this host always; every host while the
        database itself started less than `host_timeout` ago (`live` is None)."""
        return lambda host: host == self.host_id or live is None or host in live

    def _leave_host(self, loaded: Loaded, now: float) -> None:
        pg_sweep.put_right(loaded, now, self.limits.reconnect_grace, lambda h: h != self.host_id)

    def _check_held(self, loaded: Loaded, ticket: Ticket) -> None:
        if not loaded.room.holds(ticket.seat, hashed(ticket.token)):
            raise refusals.not_in_room(ticket.code)

    async def _typed(self, code: str, who: Person) -> str:
        await self.wrong_codes.check(who.address)  # counted for every host (the database's)
        return codes.normalise(code)

    def _token(self) -> str:
        return codes.new_token(self._rng)

    async def _read(self, codes_read: list[str]) -> dict[str, Loaded]:
        """Rooms as of one moment (one flight: REPEATABLE READ, no lock)."""
        return await self._link.read(lambda c: pg_rows.queue_load(c, codes_read, False), True)


def _keep(_loaded: Loaded, _now: float) -> None:
    """No change of its own: what is due is put right on the way in."""
