"""Snapshots of a room (a player, a spectator with the analysis, a result) and the lobby,
on a seeded `MemoryHub` with a stopped clock and a fixed server address.

Plain `def`: `snap_compare` runs the app itself; the hub's calls run in `run_before`, in
the app's event loop. Look at the SVG before accepting it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from room_tools import ANN, BOB, EVE, Clock, make_hub, room_app, room_of, settle
from textual.pilot import Pilot

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import ROOM_ADDRESS_ENV, RoomRequest
from tui_tictactoe.rooms.view import Person, Ticket
from tui_tictactoe.ui.rooms.match_screen import MatchScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ROOM_ADDRESS_ENV, "games.example.org 2222")


async def moves(hub: MemoryHub, *played: tuple[Ticket, int]) -> None:
    for ticket, cell in played:
        await hub.move(ticket, cell, hub.view(ticket.code).generation)


def test_room_player(snap_compare) -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        bob = await hub.join(code, BOB)
        await hub.watch(code, EVE)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await moves(hub, (bob, 1))
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_take_back_asked(snap_compare) -> None:
    """The one asked: "ann asks to take back 5: y/n", and y Agree, n Decline in the bar."""
    hub = make_hub()

    async def set_up() -> tuple[str, str]:
        ann = await hub.create(ANN, 3, "X")
        bob = await hub.join(ann.code, BOB)
        await moves(hub, (ann, 5))
        await hub.offer(ann, "take_back")
        return ann.code, bob.token

    code, token = asyncio.run(set_up())
    app = room_app(hub, RoomRequest("join", code, token), person=BOB)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_draw_offered_on_ones_turn(snap_compare) -> None:
    """ann offered a draw on her own turn: "You offered a draw. Your turn: you play X."
    (her move still, her clock runs), not "waiting for bob" (issue 35)."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        bob = await hub.join(code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await moves(hub, (bob, 1))
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_draw_declined_heard_by_the_asker(snap_compare) -> None:
    """The asker hears the answer: "bob declined the draw. Your turn: you play X."."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        bob = await hub.join(code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await moves(hub, (bob, 1))
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await hub.answer(bob, False)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_spectator_with_analysis(snap_compare) -> None:
    hub = make_hub()

    async def set_up() -> str:  # nothing in MemoryHub waits: any loop will do
        ann = await hub.create(ANN, 3, "X")
        bob = await hub.join(ann.code, BOB)
        await moves(hub, (ann, 5), (bob, 1))
        return ann.code

    app = room_app(hub, RoomRequest("watch", asyncio.run(set_up())), person=EVE)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_spectator_with_analysis_on_4x4(snap_compare) -> None:
    """The big board's overlay, found in a thread to the end (the title says "done")."""
    hub = make_hub()

    async def set_up() -> str:
        ann = await hub.create(ANN, 4, "X")
        bob = await hub.join(ann.code, BOB)
        await moves(hub, (ann, 6), (bob, 16), (ann, 7), (bob, 1), (ann, 8))  # O must block 5
        return ann.code

    app = room_app(hub, RoomRequest("watch", asyncio.run(set_up())), person=EVE)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        for _ in range(500):  # bounded by steps: the search is exact, its verdicts fixed
            found = room_of(app).game.analysis_found
            if found is not None and found.done:
                break
            await pilot.pause(0.02)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_result(snap_compare) -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        ann = room_of(app).game.ticket
        bob = await hub.join(ann.code, BOB)
        await moves(hub, (ann, 1), (bob, 4), (ann, 2), (bob, 5), (ann, 3))
        await hub.rematch(bob)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_review(snap_compare) -> None:
    """`v` once the room's round is over: the same review screen, the room's moves; bob's
    4 (move 2) the blunder."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        ann = room_of(app).game.ticket
        bob = await hub.join(ann.code, BOB)
        await moves(hub, (ann, 1), (bob, 4), (ann, 2), (bob, 5), (ann, 3))
        await settle(pilot)
        await pilot.press("v")
        for _ in range(500):  # the review's thread (the room's worker never completes)
            await pilot.pause(0.01)
            if getattr(app.screen, "done", False):
                break
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_room_guest_at_60x18(snap_compare) -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"), person=Person("guest"))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=(60, 18), run_before=run_before)


def test_lobby(snap_compare) -> None:
    hub = make_hub()

    async def set_up() -> None:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        await hub.watch(ann.code, Person("zed"))
        await hub.create(Person("cy"), 4, "O")

    asyncio.run(set_up())
    app = room_app(hub, person=EVE)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


@pytest.mark.parametrize("size", [SIZE, (60, 18)])
def test_room_refused_full(snap_compare, size: tuple[int, int]) -> None:
    """`--join CODE` to a full room: the reason, and watch, the lobby or quit."""
    hub = make_hub()

    async def set_up() -> str:
        ann = await hub.create(ANN, 3, "X")
        await hub.join(ann.code, BOB)
        return ann.code

    app = room_app(hub, RoomRequest("join", asyncio.run(set_up())), person=Person("guest"))
    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_match_waiting(snap_compare) -> None:
    """The quick match's waiting screen: 12 s waited (a stopped clock moved by hand),
    one more player waiting on 4x4. The places outlive the 12 s (a place unasked for
    `place_timeout`, 10 s, is gone: a loaded run swept ann's before her screen asked again)."""
    clock = Clock()
    hub = make_hub(clock, limits=replace(UNTIMED, place_timeout=3600.0))
    app = room_app(hub, RoomRequest("match", size=3), clock=clock)

    async def run_before(pilot: Pilot[None]) -> None:
        await hub.queue_join(BOB, 4, 1200)
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        while "3x3 1" not in str(screen.counts.render()):
            await pilot.pause(0.05)
        clock.now += 12
        screen._show_seconds()
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_match_found_during_a_game_against_the_ai(snap_compare) -> None:
    """A player found while ann played the AI: that game ended, Enter plays them, Esc declines."""
    clock = Clock()
    hub = make_hub(clock)
    app = room_app(hub, RoomRequest("match", size=3), clock=clock)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        while screen.place is None:
            await pilot.pause(0.05)
        await pilot.press("a")
        await settle(pilot)
        await hub.queue_join(BOB, 3, 1200)
        clock.now += 5
        screen._show_seconds()  # 5 s waited, then found: the count stops there
        while screen.deciding is None:
            await pilot.pause(0.05)
        clock.now += 5
        screen._show_seconds()
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
