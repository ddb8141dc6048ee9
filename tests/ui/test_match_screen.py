"""The quick match's waiting screen (`ui/rooms/match_screen.py`) on a `MemoryHub` with
a stopped clock: how many wait, the seconds waited, a pairing opening the room, the AI
meanwhile ended by a match with a note, and Esc leaving the queue for the lobby."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

import pytest
from room_tools import ANN, BOB, Clock, make_hub, room_app, settle
from textual.pilot import Pilot

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.matching import Place
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import ROOM_ADDRESS_ENV, RoomRequest
from tui_tictactoe.rooms.view import Person, Refused
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.rooms.lobby_screen import LobbyScreen
from tui_tictactoe.ui.rooms.match_screen import DECLINED, FOUND, MatchScreen
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.screens.game_screen import GameScreen

WAIT = 20.0


@pytest.fixture(autouse=True)
def address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ROOM_ADDRESS_ENV, "games.example.org 2222")


async def until(pilot: Pilot[None], done: Callable[[], bool]) -> None:
    """Wait for a state (the screen polls its hub every half second)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not done():
        assert loop.time() < deadline, "never came"
        await pilot.pause(0.05)


def waiting_screen(app: TicTacToeApp) -> MatchScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, MatchScreen))
    return screen


async def test_a_match_opens_the_pair_room_and_the_screen_counts_seconds_and_places() -> None:
    clock = Clock()
    hub = make_hub(clock)
    app = room_app(hub, RoomRequest("match", size=4), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: waiting_screen(app).place is not None)
        screen = waiting_screen(app)
        await until(pilot, lambda: "4x4 1" in str(screen.counts.render()))
        clock.now += 7
        await pilot.pause(1.2)  # one tick of the seconds
        assert "Waited 7 s" in str(screen.seconds.render())
        bob = await hub.queue_join(BOB, 4, 1100)
        await until(pilot, lambda: isinstance(app.screen, RoomScreen))
        ticket = (await hub.queue_poll(bob)).ticket
        assert ticket is not None and ticket.seat == "X"  # bob's rating is lower
        await hub.move(ticket, 1, hub.view(ticket.code).generation)
        room = app.screen
        assert isinstance(room, RoomScreen)
        await until(pilot, lambda: room.game.view is not None and room.game.view.moves == (1,))
        assert room.game.ticket.seat == "O" and room.game.ticket.code == ticket.code


async def test_the_ai_meanwhile_ends_with_a_note_when_a_player_is_found() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("match", size=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: waiting_screen(app).place is not None)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        assert isinstance(game, GameScreen)
        # Issue 36: nothing said the player was still in the queue, nor that a match ends it.
        assert (game.sub_title or "").endswith(" · still in the queue")
        assert game.status.note == ("Still in the queue: a player found ends this game.", "hint")
        await pilot.press("5")
        await settle(pilot)
        assert (game.sub_title or "").endswith(" · still in the queue")  # on every change
        await hub.queue_join(BOB, 3, 1200)
        screen = waiting_screen(app)
        await until(pilot, lambda: app.screen is screen)  # the game against the AI ended
        assert not any(isinstance(s, GameScreen) for s in app.screen_stack)
        assert str(screen.note.render()).startswith(FOUND)
        assert [hint.keys for hint in screen.key_bar.hints] == ["Enter", "Esc", "?", "q"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RoomScreen))
        room = app.screen
        assert isinstance(room, RoomScreen)
        await until(pilot, lambda: room.status.note is not None and room.status.note.text == FOUND)


async def test_a_declined_match_sends_the_partner_back_first_in_line() -> None:
    """ann plays the AI while waiting, is paired with bob and declines: ann is back in the
    lobby, out of the queue; bob's screen (a second app on the same hub) is back on the
    waiting screen saying so, and pairs with carol who comes next."""
    hub = make_hub()
    ann_app = room_app(hub, RoomRequest("match", size=3))
    bob_app = room_app(hub, RoomRequest("match", size=3), person=BOB)
    async with ann_app.run_test(size=(80, 24)) as ann:
        await until(ann, lambda: waiting_screen(ann_app).place is not None)
        await ann.press("a")
        await until(ann, lambda: isinstance(ann_app.screen, GameScreen))
        async with bob_app.run_test(size=(80, 24)) as bob:  # bob comes once ann plays the AI
            await declined(hub, (ann_app, ann), (bob_app, bob))


async def declined(
    hub: MemoryHub,
    ann_side: tuple[TicTacToeApp, Pilot[None]],
    bob_side: tuple[TicTacToeApp, Pilot[None]],
) -> None:
    """ann, playing the AI, declines bob: what each side then sees, and carol pairs with bob."""
    ann_app, ann = ann_side
    bob_app, bob = bob_side
    await until(bob, lambda: isinstance(bob_app.screen, RoomScreen))
    await until(ann, lambda: waiting_screen(ann_app).deciding is not None)
    ann_place = waiting_screen(ann_app).place
    assert ann_place is not None
    await ann.press("escape")
    await until(ann, lambda: isinstance(ann_app.screen, LobbyScreen))
    bob_waits = waiting_screen(bob_app)
    await until(bob, lambda: bob_app.screen is bob_waits)
    assert str(bob_waits.note.render()) == DECLINED
    carol = await hub.queue_join(Person("carol", "k-carol"), 3, 1200)
    await until(bob, lambda: isinstance(bob_app.screen, RoomScreen))
    ticket = (await hub.queue_poll(carol)).ticket
    assert ticket is not None
    view = hub.view(ticket.code)
    assert [s.person.name for s in view.seats if s.person] == ["bob", "carol"]
    with pytest.raises(Refused):
        await hub.queue_poll(ann_place)  # ann is out of the queue


async def test_escape_leaves_the_queue_for_the_lobby() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("match", size=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: waiting_screen(app).place is not None)
        place = waiting_screen(app).place
        assert isinstance(place, Place)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        bob = await hub.queue_join(BOB, 3, 1200)
        assert (await hub.queue_poll(bob)).waiting == (1, 0, 0, 0)  # ann is gone


async def test_the_lobby_offers_play_someone_and_esc_comes_back() -> None:
    hub: MemoryHub = make_hub()
    app = room_app(hub)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lobby = app.screen
        await pilot.press("up", "enter")  # the last entry
        await until(pilot, lambda: isinstance(app.screen, MatchScreen))
        await until(pilot, lambda: waiting_screen(app).place is not None)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.screen_stack == [lobby]  # the lobby it came from, not a new one


async def test_a_refusal_says_why_and_the_key_bar_drops_the_ai() -> None:
    hub = make_hub(limits=replace(UNTIMED, places_per_address=0))
    app = room_app(hub, RoomRequest("match", size=3), person=ANN._replace(address="10.0.0.9"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = waiting_screen(app)
        await until(pilot, lambda: screen.done)
        assert "Already 0 places" in str(screen.note.render())
        assert [hint.keys for hint in screen.key_bar.hints] == ["Esc", "?", "q"]


@pytest.mark.parametrize(("person", "rating"), [(ANN, 1530), (ANN._replace(key=""), 1200)])
async def test_the_place_names_the_players_rating_from_the_record(person, rating) -> None:
    """A keyed player's Elo from the record (read in a thread); a guest's is the start's."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("match", size=3), person=person)
    app.record_link.rating = lambda player: 1530 if player == ANN.key else -1  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: waiting_screen(app).place is not None)
        assert [queued.waiter.rating for queued in hub._queue.values()] == [rating]


async def test_a_match_found_rings_the_bell_once_and_each_turn_after_once() -> None:
    """ann (O) hears the match found, then her first turn; bob (X) would hear his first
    turn only once, the match's ring and that turn being one name."""
    clock = Clock()
    hub = make_hub(clock)
    app = room_app(hub, RoomRequest("match", size=3), clock=clock)
    rang: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.record_link.turn_bell.ring = lambda: rang.append(1)
        await until(pilot, lambda: waiting_screen(app).place is not None)
        bob = await hub.queue_join(BOB, 3, 1100)
        await until(pilot, lambda: isinstance(app.screen, RoomScreen))
        assert rang == [1]  # the match found
        ticket = (await hub.queue_poll(bob)).ticket
        assert ticket is not None and ticket.seat == "X"
        await settle(pilot)
        assert rang == [1]  # bob's turn: nothing for ann
        await hub.move(ticket, 5, hub.view(ticket.code).generation)
        room = app.screen
        assert isinstance(room, RoomScreen)
        await until(pilot, lambda: room.game.view is not None and room.game.view.moves == (5,))
        await settle(pilot)
        assert rang == [1, 1]  # her turn, once
        await settle(pilot)
        assert rang == [1, 1]
