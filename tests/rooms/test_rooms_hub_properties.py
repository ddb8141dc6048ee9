"""`MemoryHub` under random sequences of everything people do: two players (one with
a key, guests without), spectators, moves in and out of turn and on stale generations,
drops, returns, leaves, rematches, draws and take-backs offered and answered, rounds
claimed, the clock running past the grace and the move clock (`MOVE_TIME`). After every step
the hub's view of the room must be consistent and every live subscriber must hold it, and
no seat's holder may have been away longer than the grace in all in one round (a budget,
not a grace for each drop: leaving and coming back again and again stalls no round)."""

from __future__ import annotations

import asyncio
import inspect
import random
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine.board import GameBoard, other
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.view import SEATS, Person, Refused, RoomView, Ticket

PEOPLE = (
    Person("ann", "key-ann", "10.0.0.1"),
    Person("bob", "key-bob", "10.0.0.2"),
    Person("gus", "", "10.0.0.3"),
    Person("gil", "", "10.0.0.3"),
    Person("sam", "key-sam", "10.0.0.4"),
)
OPS: tuple[str, ...] = ("create", "join", "watch", "rematch", "rematch", "leave", "drop")
OPS += ("advance", "expire", "subscribe", "wrong", "finish", "public", "watching")
OPS += ("offer", "answer", "offer_answer", "take_back", "claim") + ("move",) * 12
MOVE_TIME = 25.0
"""Each room's move clock: `advance` (0 to 70 s) runs it out now and then."""
GRACE = 60.0  # the hubs' reconnect grace (their default): each seat's time away in a round
Step = tuple[str, int, int]


async def maybe(result: Any) -> Any:
    """`MemoryHub`'s view() and expire() answer at once; `PostgresHub`'s are awaited."""
    return await result if inspect.isawaitable(result) else result


async def look(hub: Any, code: str) -> RoomView:
    view = await maybe(hub.view(code))
    assert isinstance(view, RoomView)
    return view


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    """The hub, what each person holds, and what the checks remember between steps."""

    hub: Any  # MemoryHub, or PostgresHub (test_rooms_pg_hub_properties.py)
    clock: Clock
    tickets: list[tuple[int, str, Ticket]] = field(default_factory=list)  # (who, role, ...)
    tokens: dict[int, str] = field(default_factory=dict)  # the last seat token, for guests
    code: str = ""
    last: RoomView | None = None
    score: list[int] = field(default_factory=lambda: [0, 0, 0])
    away: dict[str, float] = field(default_factory=dict)  # seat -> seconds away this round
    checked_at: float = 0.0  # the clock at the last check

    def held(self, who: int, role: str) -> Ticket | None:
        """The ticket `who` got last for `role` (a person may hold several)."""
        mine = [ticket for w, r, ticket in self.tickets if (w, r) == (who, role)]
        return mine[-1] if mine else None

    def seat_holder(self, seat: str) -> Ticket | None:
        """The newest ticket anyone got for `seat`."""
        mine = [ticket for _, _, ticket in self.tickets if ticket.seat == seat]
        return mine[-1] if mine else None

    followers: list[tuple[Ticket, asyncio.Task[None], list[RoomView]]] = field(default_factory=list)


async def act(world: World, step: Step) -> None:
    op, who, arg = step
    role = "watch" if arg % 5 == 4 else "play"
    hub, person, ticket = world.hub, PEOPLE[who], world.held(who, role)
    try:
        if op == "create" and not world.code:
            ticket = await hub.create(person, 3 + arg % 3, SEATS[arg % 2], arg % 4 == 3)
            world.code = ticket.code
            world.tickets.append((who, "play", ticket))
        elif op in ("join", "watch", "wrong") and world.code:
            await enter(world, op, who, arg)
            return
        elif op == "move" and world.code:
            await move(world, ticket, arg)
        elif op == "rematch" and world.code:
            await rematch(world, ticket, arg)
        elif op == "finish" and world.code:
            for turn in range(25):  # the players take turns to the end (or a refusal)
                await move(world, None, arg * (turn + 1), honest=True)
        elif op in ("leave", "drop") and ticket is not None:
            await getattr(hub, op)(ticket)
        elif op == "advance":
            world.clock.now += arg
        elif op == "expire":
            await maybe(hub.expire())
        elif op == "public" and ticket is not None:  # the creator's choice (else refused)
            await hub.set_public(ticket, arg % 2 == 1)
        elif op == "watching" and ticket is not None:  # a player's (else refused)
            await hub.set_watching(ticket, arg % 3 != 0)
        elif op in ("offer", "answer", "offer_answer") and world.code:
            await offer(world, op, ticket, arg)
        elif op == "take_back" and world.code:
            await take_back(world, ticket, arg)
        elif op == "claim" and world.code:  # mostly a seated player
            held = world.seat_holder(SEATS[arg % 2]) if arg % 3 else ticket
            if held is not None:
                await hub.claim(held)
        elif op == "subscribe" and ticket is not None:
            follow(world, ticket)
    except Refused as refused:
        assert refused.reason.endswith((".", ")")), refused.reason


async def move(world: World, ticket: Ticket | None, arg: int, honest: bool = False) -> None:
    """Mostly the player to move on an empty cell; else anyone, anywhere, or stale."""
    view = await look(world.hub, world.code)
    if (honest or arg % 4) and view.to_move is not None:
        ticket = world.seat_holder(view.to_move) or ticket
    empty = [k for k in range(1, view.size**2 + 1) if k not in view.moves]
    wild = not honest and arg % 6 == 5
    cell = arg % 27 if wild or not empty else empty[arg % len(empty)]
    stale = (1 + arg % 5) if not honest and arg % 7 == 0 else 0
    if ticket is not None:
        await world.hub.move(ticket, cell, view.generation - stale)


async def rematch(world: World, ticket: Ticket | None, arg: int) -> None:
    """Mostly both players (in either order), else whoever this is."""
    seats = SEATS if arg % 2 else SEATS[::-1]
    tickets = [world.seat_holder(seat) for seat in seats] if arg % 4 else [ticket]
    for held in tickets:
        if held is not None:
            await world.hub.rematch(held)


async def offer(world: World, op: str, ticket: Ticket | None, arg: int) -> None:
    """A draw offered (mostly by a player), answered (mostly by the other), or both."""
    seat = SEATS[arg % 2]
    if op != "answer":
        held = world.seat_holder(seat) if arg % 3 else ticket
        if held is not None:
            await world.hub.offer(held)
    if op != "offer":
        held = world.seat_holder(other(seat)) if arg % 5 else ticket
        if held is not None:
            await world.hub.answer(held, arg % 4 < 2)


async def take_back(world: World, ticket: Ticket | None, arg: int) -> None:
    """A take-back asked (mostly by who made the last move), then mostly answered."""
    view = await look(world.hub, world.code)
    asker = other(view.to_move) if view.to_move is not None and arg % 3 else SEATS[arg % 2]
    held = world.seat_holder(asker) if arg % 4 else ticket
    if held is not None:
        await world.hub.offer(held, "take_back")
    answerer = world.seat_holder(other(asker))
    if answerer is not None and arg % 5:
        await world.hub.answer(answerer, arg % 2 == 0)


async def enter(world: World, op: str, who: int, arg: int) -> None:
    hub, person = world.hub, PEOPLE[who]
    try:
        if op == "wrong":
            await hub.join("ZZZZ" if world.code != "ZZZZ" else "YYYY", person)
        elif op == "join":
            token = world.tokens.get(who, "") if arg % 2 else ""
            ticket = await hub.join(world.code.lower(), person, token)
            world.tickets.append((who, "play", ticket))
            world.tokens[who] = ticket.token
        else:
            world.tickets.append((who, "watch", await hub.watch(world.code, person)))
    except Refused:
        pass


async def exists(hub: Any, code: str) -> bool:
    try:
        await look(hub, code)
    except Refused:
        return False
    return True


def follow(world: World, ticket: Ticket) -> None:
    seen: list[RoomView] = []

    async def read() -> None:
        try:
            async for view in world.hub.updates(ticket):
                seen.append(view)
        except Refused:
            pass

    world.followers.append((ticket, asyncio.create_task(read()), seen))


async def live(hub: Any, ticket: Ticket) -> bool:
    """Whether the hub still takes `ticket` (asked through `updates`, which changes nothing)."""
    stream = hub.updates(ticket)
    try:
        await anext(stream)
    except (Refused, StopAsyncIteration):
        return False
    finally:
        await stream.aclose()
    return True


def check_board(view: RoomView) -> None:
    """The moves are legal, alternate from `first`, and the result is the board's."""
    board, seat = GameBoard(board_geometry(view.size)), view.first
    for cell in view.moves:
        assert board.outcome() is None
        board.make_move(*board.geometry.cell_of_key(cell), seat)  # IllegalMove if refused
        seat = other(seat)
    outcome = board.outcome()
    if view.agreed:  # a draw both players took mid-round
        assert view.result == "draw" and outcome is None and view.moves
    elif view.result == "abandoned":
        assert outcome is None and view.left_by in SEATS and view.moves
    elif view.cause == "time":  # the mover ran out: the other seat won, the board not over
        assert outcome is None and view.moves and view.result == other(seat)
    elif outcome is None:
        assert view.result is None
    else:
        assert view.result == (outcome.winner or "draw")
    assert view.to_move == (None if view.result else seat)
    assert view.cause in (None, "time", "claimed")
    assert view.cause != "claimed" or view.result == "abandoned"
    if view.deadline is not None:  # a clock runs: a round on, past a move, both seated
        opponent = view.seats[SEATS.index(other(seat))]  # of the mover: they could play
        assert view.result is None and view.moves and opponent.present
        assert all(held.person is not None for held in view.seats)


def check_seats(view: RoomView) -> None:
    for seat in view.seats:
        if seat.person is None:
            assert not seat.present and seat.back_by is None
        else:
            assert seat.person.address == ""
            assert seat.present == (seat.back_by is None)
    assert set(view.rematch) <= set(SEATS)
    assert view.result is not None or not view.rematch
    assert view.watching or view.watchers == 0  # watching off: no spectator stays
    if view.answered is not None:  # the last answer, until the position changes
        assert view.offer is None
    if view.agreed:  # a draw agreed: its yes is what every screen was told last
        assert view.answered is not None and view.answered[0::2] == ("draw", True)
    if view.offer is not None:  # waits mid-round, made by a seated player, after a move
        assert view.result is None and view.moves
        assert view.seats[SEATS.index(view.offer.by)].person is not None


def check_score(world: World, view: RoomView) -> None:
    """The score counts the rounds won and drawn since the pair at the table sat down."""
    last = world.last
    if last is None or any(
        old.person is None and new.person is not None
        for old, new in zip(last.seats, view.seats, strict=True)
    ):
        world.score = [0, 0, 0]
    if last is not None and last.result is None and view.result in ("X", "O", "draw"):
        world.score[("X", "O", "draw").index(view.result)] += 1
    assert list(view.score) == world.score


async def check(world: World) -> None:
    for _ in range(4):
        await asyncio.sleep(0)  # the followers read what is waiting
    hub = world.hub
    listed = {s.code for s in await hub.rooms()}
    if world.code and not await exists(hub, world.code):
        world.code, world.last = "", None
    assert listed <= {world.code}
    holders: dict[str | None, list[int]] = {"X": [], "O": [], None: []}
    for who, _, ticket in world.tickets:
        if world.code and ticket.code == world.code and await live(hub, ticket):
            holders[ticket.seat].append(who)
    for _ in range(4):  # the probes above are calls: one may have applied a grace that
        await asyncio.sleep(0)  # ran out (MemoryHub's are lazy), so the followers read again
    for ticket, task, seen in world.followers:
        if task.done():
            assert not seen or seen[-1].closed or not await live(hub, ticket)
        else:  # still reading: the ticket holds its place, and the reader has the newest
            assert await live(hub, ticket)
            assert seen[-1] == (await look(hub, ticket.code))
    if not world.code:
        return
    view = await look(hub, world.code)
    assert len(holders["X"]) <= 1 and len(holders["O"]) <= 1  # one player a seat
    assert view.watchers == len(holders[None])
    for seat, seat_view in zip(SEATS, view.seats, strict=True):
        assert [PEOPLE[w].name for w in holders[seat]] == (
            [seat_view.person.name] if seat_view.person else []
        )
    if world.last is not None:
        assert view.generation > world.last.generation or view == world.last
    entrance = view.watching or any(seat.person is None for seat in view.seats)
    assert (world.code in listed) == (view.public and entrance)  # private: never listed
    check_board(view)
    check_seats(view)
    check_score(world, view)
    check_away(world, view)
    world.last = view


def check_away(world: World, view: RoomView) -> None:
    """No seat's holder is away longer than the grace in all in a round on: the time
    between two checks counts where both saw the same holder away, the round on."""
    last, elapsed = world.last, world.clock.now - world.checked_at
    world.checked_at = world.clock.now
    if last is None or last.round != view.round:
        world.away = {}
    for seat, old, new in zip(SEATS, last.seats if last else view.seats, view.seats, strict=True):
        if new.person is None or old.person != new.person:
            world.away.pop(seat, None)
            continue
        on = last is not None and last.result is None and view.result is None
        if on and not old.present and not new.present:
            world.away[seat] = world.away.get(seat, 0.0) + elapsed
        assert world.away.get(seat, 0.0) <= GRACE + 1e-6, (seat, world.away)


async def run(steps: list[Step], seed: int) -> None:
    clock = Clock()
    hub = MemoryHub(
        replace(UNTIMED, max_spectators=2, move_time=MOVE_TIME),
        clock=clock,
        rng=random.Random(seed),
    )
    world = World(hub, clock)
    for step in steps:
        await act(world, step)
        await check(world)
    for _, task, _ in world.followers:
        task.cancel()


STALL: list[Step] = [("move", 0, 1)]
STALL += [("drop", 0, 0), ("advance", 0, 25), ("join", 0, 0)] * 4
"""ann, not to move, leaves for 25 s and comes back at once, again and again: bob, to
move, could never play (a grace for each drop would let her do it for ever)."""
STEPS = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(0, len(PEOPLE) - 1), st.integers(0, 70)),
    max_size=100,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(STALL, 1)
@given(STEPS, st.integers(0, 2**32))
def test_random_sessions_keep_every_room_consistent(steps: list[Step], seed: int) -> None:
    asyncio.run(run([("create", 0, 0), ("join", 1, 0), *steps], seed))
