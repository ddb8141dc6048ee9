"""The room screen and the lobby in Pilot, on a `MemoryHub` in the test's event loop.

One app is ann's session; bob (and others) act on the hub directly, as their own
sessions would, or run as a second app in the same loop. The board on ann's screen
must change only when the hub's view arrives.
"""

from __future__ import annotations

import time

import pytest
from hostile import HOSTILE
from room_tools import (
    ANN,
    BOB,
    EVE,
    Clock,
    burst,
    drawn,
    make_hub,
    note,
    room_app,
    room_of,
    settle,
    shown_board,
    state,
    title,
)
from support import driver_click

from tui_tictactoe.controller.status import PLAYING_ON
from tui_tictactoe.identity import displayable, set_apart
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.room import WATCHING_OFF
from tui_tictactoe.rooms.status import LEAVE_QUESTION, NO_ANALYSIS_FOR_PLAYERS, NO_HINT
from tui_tictactoe.rooms.view import Person, Ticket
from tui_tictactoe.ui.rooms.lobby_screen import LobbyScreen
from tui_tictactoe.ui.rooms.room_refused import RoomRefused
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.widgets.key_bar import KeyBar

SIZE = (80, 24)


async def bob_plays(hub, bob: Ticket, cell: int) -> None:
    await hub.move(bob, cell, hub.view(bob.code).generation)


async def test_create_join_and_a_whole_round_by_keys() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        assert state(app) == f"Waiting for a second player: give them the code {code}."
        assert title(app).endswith(f"Room {code} · ann (X) vs … (O)")
        bob = await hub.join(code, BOB)
        await settle(pilot)
        assert state(app) == "Your turn: you play X."
        await pilot.press("5")
        await settle(pilot)
        assert shown_board(app) == "....X...."
        assert state(app) == "Waiting for bob (O)."
        await bob_plays(hub, bob, 1)
        await settle(pilot)
        assert state(app) == "bob played 1. Your turn: you play X."
        await pilot.press("left", "enter")  # 4, by the cursor
        await settle(pilot)
        await bob_plays(hub, bob, 2)
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        assert shown_board(app) == "OO.XXX..."
        assert state(app) == "ann wins! r: a rematch."
        assert room_of(app).grid.has_class("-over")
        assert hub.view(code).score == (1, 0, 0)


async def test_a_move_out_of_turn_is_refused_with_the_hubs_reason_and_nothing_shown() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "O")
    await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert state(app) == "Waiting for bob (O)."
        await pilot.press("5")
        await settle(pilot)
        assert note(app) == "Not your turn: bob plays O."
        assert shown_board(app) == "........."
        await pilot.press("h")
        assert note(app) == NO_HINT.text
        await pilot.press("a")
        assert note(app) == NO_ANALYSIS_FOR_PLAYERS.text


def cursor_cells(app) -> list[str]:
    return [cell.id or "" for cell in room_of(app).grid.cells if cell.has_class("-cursor")]


async def test_a_digit_or_a_click_moves_the_cursor_there_played_or_refused() -> None:
    """The cursor is drawn with the hub's answer (no frame of its own before it), but it
    is drawn: on the new mark, on a cell refused out of turn, and on a clicked cell."""
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert cursor_cells(app) == ["cell-1-1"]
        await pilot.press("1")
        await settle(pilot)
        assert shown_board(app) == "X........"
        assert cursor_cells(app) == ["cell-0-0"]
        await pilot.press("9")  # bob's turn: refused, yet the cursor went there
        await settle(pilot)
        assert note(app) == "Not your turn: bob plays O."
        assert cursor_cells(app) == ["cell-2-2"]
        await bob_plays(hub, bob, 5)
        await settle(pilot)
        await pilot.click("#cell-0-2")
        await settle(pilot)
        assert shown_board(app) == "X.X.O...."
        assert cursor_cells(app) == ["cell-0-2"]


async def test_two_apps_in_one_loop_a_player_each() -> None:
    """Textual runs two apps in one event loop: bob's session is a real app too."""
    hub = make_hub()
    ann_app = room_app(hub, RoomRequest("new"), person=ANN)
    async with ann_app.run_test(size=SIZE) as ann_pilot:
        await settle(ann_pilot)
        code = room_of(ann_app).game.ticket.code
        bob_app = room_app(hub, RoomRequest("join", code), person=BOB)
        async with bob_app.run_test(size=SIZE) as bob_pilot:
            await settle(bob_pilot)
            await settle(ann_pilot)
            await ann_pilot.press("5")
            await settle(ann_pilot)
            await settle(bob_pilot)
            assert state(bob_app) == "ann played 5. Your turn: you play O."
            assert shown_board(bob_app) == "....X...."
            await bob_pilot.press("1")
            await settle(bob_pilot)
            await settle(ann_pilot)
            assert state(ann_app) == "bob played 1. Your turn: you play X."


async def test_a_spectator_sees_each_move_and_turns_the_analysis_on() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert state(app) == "ann to play."
        assert title(app).endswith("ann (X) vs bob (O) · 1 watching")
        await pilot.press("5")
        await settle(pilot)
        assert note(app) == "You are watching: only the players play."
        await hub.move(ann, 5, hub.view(ann.code).generation)
        await settle(pilot)
        assert state(app) == "ann played 5. bob to play."
        await pilot.press("a")
        await settle(pilot)
        screen = room_of(app)
        assert screen.grid.has_class("-analysis")
        verdicts = {cell.key: cell.verdict for cell in screen.grid.cells if cell.verdict}
        assert set(verdicts) == {1, 2, 3, 4, 6, 7, 8, 9}
        await bob_plays(hub, bob, 2)  # a losing move for O: the overlay follows the board
        await settle(pilot)
        assert state(app) == "bob played 2. ann to play."
        assert {cell.key for cell in screen.grid.cells if cell.verdict} == {1, 3, 4, 6, 7, 8, 9}
        await pilot.press("a")
        assert not screen.grid.has_class("-analysis")


async def test_a_spectator_who_takes_a_seat_elsewhere_loses_the_analysis() -> None:
    """Fair play: eve watches with the overlay on, then sits in the room from another
    session (her key): the overlay goes off with the view that seats her, and `a` says why."""
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    await hub.move(ann, 5, hub.view(ann.code).generation)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        screen = room_of(app)
        assert screen.grid.has_class("-analysis")
        await hub.leave(bob)  # bob goes: the round is abandoned, a seat is free
        await hub.join(ann.code, EVE)  # eve sits from another session: a new round
        await settle(pilot)
        assert not screen.grid.has_class("-analysis")
        await pilot.press("a")
        await settle(pilot)
        assert note(app) == "Analysis is off while you play in this room."
        assert not screen.grid.has_class("-analysis")


async def test_the_rematch_starts_with_the_other_player() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        bob = await hub.join(code, BOB)
        await settle(pilot)
        await pilot.press("r")
        assert note(app) == "A rematch is asked for once the round is over."
        for mine, theirs in ((1, 4), (2, 5)):
            await pilot.press(str(mine))
            await settle(pilot)
            await bob_plays(hub, bob, theirs)
            await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        await hub.rematch(bob)
        await settle(pilot)
        assert state(app) == "ann wins! bob wants a rematch: press r."
        await pilot.press("r")
        await settle(pilot)
        assert shown_board(app) == "........."
        assert state(app) == "Waiting for bob (O)."
        assert room_of(app).score.content == "ann 1 · bob 0 · draws 0 · round 2"


async def test_the_other_leaving_is_told() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bob = await hub.join(room_of(app).game.ticket.code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await hub.leave(bob)
        await settle(pilot)
        assert state(app).startswith("bob left: the round is abandoned.")
        assert title(app).endswith("ann (X) vs … (O)")


async def test_the_other_leaving_between_rounds_is_named() -> None:
    """Found by hand: `q` after the round left only "Waiting for a second player." and an
    empty seat; the view names no one who left, the session remembers who sat there."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bob = await hub.join(room_of(app).game.ticket.code, BOB)
        await settle(pilot)
        for mine, theirs in ((1, 4), (2, 5)):
            await pilot.press(str(mine))
            await settle(pilot)
            await bob_plays(hub, bob, theirs)
            await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        await hub.leave(bob)  # bob's q, between rounds
        await settle(pilot)
        assert state(app) == "ann wins! bob left. Waiting for a second player."
        await hub.join(room_of(app).game.ticket.code, Person("cy"))
        await settle(pilot)
        assert state(app) == "Waiting for cy (O).", "a new round: no one has left it"


async def test_a_dropped_link_counts_down_on_the_hubs_clock() -> None:
    clock = Clock()
    hub = make_hub(clock)
    app = room_app(hub, RoomRequest("new"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bob = await hub.join(room_of(app).game.ticket.code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await hub.drop(bob)
        await settle(pilot)
        assert state(app) == "bob left: waiting 60 s; c claims it in 30 s."
        assert "c Claim" not in bar(room_of(app))
        clock.now += 30
        room_of(app)._show_state()  # what the screen's one-second tick does
        assert state(app) == "bob left: c claims the round, or wait 30 s."
        assert "c Claim" in bar(room_of(app))  # the tick shows the key once it may
        back = await hub.join(bob.code, BOB)
        await settle(pilot)
        assert state(app) == "Waiting for bob (O)."
        await bob_plays(hub, back, 1)
        await settle(pilot)
        assert state(app) == "bob played 1. Your turn: you play X."


async def test_q_mid_round_asks_once_then_y_leaves_and_the_hub_frees_the_seat() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        await hub.join(code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("q")
        assert note(app) == LEAVE_QUESTION.text
        await pilot.press("left")  # any other key: no, and nothing else
        assert note(app) == PLAYING_ON.text
        await pilot.press("y")  # `y` is only an answer
        assert app.return_code is None
        await pilot.press("q")
        assert note(app) == LEAVE_QUESTION.text
        await pilot.press("y")
        await pilot.pause()
        assert app.return_code == 0
    assert hub.view(code).seats[0].person is None
    assert hub.view(code).result == "abandoned"


def key_in_bar(app, key: str) -> tuple[KeyBar, tuple[int, int]]:
    """The room's key bar and where in it a click presses `key`."""
    bar = room_of(app).query_one(KeyBar)
    (hint,) = [hint for hint in bar.hints if hint.press == key]
    for y, line in enumerate(bar.lines(bar.size.width)):
        x = line.find(f"{hint.keys} {hint.label}")
        if x >= 0:
            return bar, (x, y)
    raise AssertionError(f"{key} is not in the bar")


async def test_a_click_after_the_leave_question_only_answers_no() -> None:
    """Issue 36: a click on a cell while the room asked whether to leave played it. Now
    a click answers no and does nothing else, as any key but q does; the next click
    plays. A click on the key bar's q presses q: it leaves."""
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        bob = await hub.join(code, BOB)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await bob_plays(hub, bob, 1)
        await settle(pilot)
        await pilot.press("q")
        assert note(app) == LEAVE_QUESTION.text
        corner = room_of(app).query_one("#cell-0-2")
        await driver_click(pilot, corner)
        await settle(pilot)
        assert hub.view(code).moves == (5, 1) and note(app) == PLAYING_ON.text
        await pilot.press("y")  # no longer an answer
        assert app.return_code is None
        await driver_click(pilot, corner)  # the question gone, a click plays
        await settle(pilot)
        assert hub.view(code).moves == (5, 1, 3)
        await bob_plays(hub, bob, 2)
        await settle(pilot)
        await pilot.press("q")
        assert note(app) == LEAVE_QUESTION.text
        bar, at = key_in_bar(app, "q")
        await driver_click(pilot, bar, at)
        await settle(pilot)
        assert app.return_code == 0
    assert hub.view(code).result == "abandoned"


async def test_hostile_names_are_shown_as_text() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"), person=Person("[b]ann", "k"))
    async with app.run_test(size=(200, 24)) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        for name, _ in HOSTILE:
            them = await hub.join(code, Person(name, "k-them"))
            await settle(pilot)
            shown = set_apart(displayable(name))
            assert f"“[b]ann” (X) vs {shown} (O)" in title(app)
            assert drawn(room_of(app).score) == f"“[b]ann” 0 · {shown} 0 · draws 0 · round 1"
            await hub.leave(them)
            await settle(pilot)


async def test_the_room_fits_60x18() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=Person("ann"))
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        screen = room_of(app)
        assert not screen.has_class("-too-small")
        for widget in (screen.status, screen.invite, screen.score, screen.key_bar):
            region = widget.region
            assert region.height >= 1 and region.bottom <= 18, widget
        assert str(screen.invite.content).count("\n") == 1  # a guest: the seat token too
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=(59, 18)) as pilot:
        await settle(pilot)
        assert room_of(app).has_class("-too-small")
    app = room_app(hub, person=EVE)  # the lobby
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.rooms.region.height >= 3 and lobby.rooms.region.bottom <= 17
        assert lobby.menu.region.height >= 7  # its five entries and the border


# -- the lobby ----------------------------------------------------------------------


async def test_the_lobby_makes_a_room_and_q_in_the_room_goes_back_to_it() -> None:
    hub = make_hub()
    app = room_app(hub)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("down", "enter")  # New room
        await settle(pilot)
        screen = room_of(app)
        code = screen.game.ticket.code
        assert hub.view(code).seats[0].person == ANN
        await pilot.press("q")  # no move yet: leaves without asking
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.return_code is None


async def test_the_lobby_refuses_bad_and_unknown_codes_and_q_types_in_the_box() -> None:
    hub = make_hub()
    app = room_app(hub)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await pilot.press("tab", "q", "1", "enter")  # "1" is not taken by the box
        assert lobby.code.value == "q"
        assert app.return_code is None
        assert "never use I, L, O or Q" in str(lobby.note.content)
        lobby.code.value = ""
        await pilot.press(*"zzzz", "enter")
        await settle(pilot)
        assert str(lobby.note.content) == "There is no room ZZZZ: check the code."
        assert len(lobby.code.value) <= 32


async def test_a_refused_code_in_the_box_costs_a_pause_as_a_new_session_does() -> None:
    """Issue 35: a session kept in the lobby guessed codes faster than a session per code."""
    hub = make_hub()
    ann = await hub.create(Person("ann"), 3, "X")
    app = room_app(hub, person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        wrong = "ZZZZ" if ann.code != "ZZZZ" else "YYYY"
        await pilot.press("tab", *wrong.lower(), "enter")
        await settle(pilot)
        assert str(lobby.note.content) == f"There is no room {wrong}: check the code."
        counted = hub.wrong_codes.wait(BOB.address), len(hub.wrong_codes)
        lobby.code.value = ""
        await pilot.press(*ann.code.lower(), "enter")  # at once: not asked of the hub
        await settle(pilot)
        assert str(lobby.note.content).startswith("One code at a time: wait ")
        assert isinstance(app.screen, LobbyScreen)
        assert (hub.wrong_codes.wait(BOB.address), len(hub.wrong_codes)) == counted
        while time.monotonic() < lobby.code_after:  # the pause, waited for as such
            await pilot.pause(0.05)
        await pilot.press("enter")
        await settle(pilot)
        assert room_of(app).game.seat == "O"


async def test_the_lobby_joins_by_code_and_lists_public_rooms_to_join_or_watch() -> None:
    hub = make_hub()
    ann = await hub.create(Person("[@click=app.quit]ann"), 3, "X", True)
    hidden = await hub.create(Person("secret-sam"), 3, "X")  # private: never listed
    app = room_app(hub, person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.rooms.option_count == 1
        assert str(lobby.rooms.get_option_at_index(0).prompt) == (
            f"{ann.code} · “[@click=app.quit]ann” · 3x3 · a seat free"
        )
        await pilot.press("tab", *ann.code.lower(), "enter")
        await settle(pilot)
        assert room_of(app).game.seat == "O"
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        lobby.set_focus(lobby.rooms)
        await pilot.press("enter")  # a free seat: Enter joins
        await settle(pilot)
        assert room_of(app).game.seat == "O"
        await pilot.press("q")
        await settle(pilot)
        await hub.join(ann.code, Person("carol", "SHA256:carol"))
        await lobby.read_rooms()
        await settle(pilot)
        assert str(lobby.rooms.get_option_at_index(0).prompt).endswith("3x3 · full: watch")
        lobby.set_focus(lobby.rooms)
        await pilot.press("enter")  # full: Enter watches
        await settle(pilot)
        assert room_of(app).game.seat is None
        assert hub.view(ann.code).watchers == 1
    assert hub.view(hidden.code).watchers == 0


async def test_the_lobby_opens_a_public_room_and_p_and_w_in_it() -> None:
    hub = make_hub()
    app = room_app(hub)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # New public room
        await settle(pilot)
        screen = room_of(app)
        code = screen.game.ticket.code
        assert hub.view(code).public and [s.code for s in await hub.rooms()] == [code]
        assert any(hint.label == "Make private" for hint in screen.key_bar.hints)
        await pilot.press("p")
        await settle(pilot)
        assert not hub.view(code).public and await hub.rooms() == []
        assert note(app) == "Private: only people with the code get in."
        assert any(hint.label == "Make public" for hint in screen.key_bar.hints)
        guest = await hub.watch(code, EVE)
        stream = hub.updates(guest)
        await anext(stream)
        await pilot.press("w")
        await settle(pilot)
        assert hub.view(code).watching is False and hub.view(code).watchers == 0
        assert any(hint.label == "Allow watchers" for hint in screen.key_bar.hints)
        assert note(app) == "Watching off: spectators were sent away."
        last = [view async for view in stream][-1]  # the spectator's updates ended
        assert last.watching is False


async def test_a_name_in_the_lobby_cannot_pose_as_the_frame_around_it() -> None:
    """Issue 28: a name that imitates the list's frame stands in quotes."""
    hub = make_hub()
    poser = await hub.create(Person("bob · 3x3 · 5 watching"), 3, "X", public=True)
    app = room_app(hub, person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert str(lobby.rooms.get_option_at_index(0).prompt) == (
            f"{poser.code} · “bob · 3x3 · 5 watching” · 3x3 · a seat free"
        )


async def test_the_lobby_plays_the_ai() -> None:
    hub = make_hub()
    app = room_app(hub)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # Play the AI
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.controller.board.to_string().count("X") == 1


def refusal_of(app) -> RoomRefused:
    screen = app.screen
    assert isinstance(screen, RoomRefused), screen
    return screen


def bar(screen) -> list[str]:
    """The key bar as the player reads it."""
    return [f"{hint.keys} {hint.label}" for hint in screen.query_one(KeyBar).hints]


@pytest.mark.parametrize("option", ["join", "watch"])
async def test_a_refused_entry_says_why_and_offers_the_lobby_and_quit(option: str) -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest(option, "ZZZZ"))  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        refusal = refusal_of(app)
        assert (
            drawn(refusal.query_one("#refused-reason")) == "There is no room ZZZZ: check the code."
        )
        assert bar(refusal) == ["↑↓ Move", "Enter Choose", "l Lobby", "? Help", "q Quit"]
        await pilot.press("w", "3")  # no room to watch: w is not offered, and does nothing
        await settle(pilot)
        assert app.screen is refusal
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


async def full_room(hub: MemoryHub) -> str:
    ann = await hub.create(ANN, 3, "X")
    await hub.join(ann.code, BOB)
    return ann.code


async def test_a_guest_refused_a_full_room_watches_it_from_the_refusal() -> None:
    """Issue 29: `--join CODE` without `--seat` to a full room left an empty board, keys
    that played nothing and 'Entering the room…'; now the next steps, and `w` watches."""
    hub = make_hub()
    code = await full_room(hub)
    app = room_app(hub, RoomRequest("join", code), person=Person("guest"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        refusal = refusal_of(app)
        assert f"Room {code} is full" in drawn(refusal.query_one("#refused-reason"))
        assert bar(refusal) == [
            "↑↓ Move", "Enter Choose", "w Watch", "l Lobby", "? Help", "q Quit"
        ]  # fmt: skip
        await pilot.press("3", "r")  # keys of a room: nothing here
        await settle(pilot)
        assert app.screen is refusal and hub.view(code).watchers == 0
        await pilot.press("w")
        await settle(pilot)
        assert room_of(app).game.seat is None and hub.view(code).watchers == 1
        assert "1-9 Play" not in bar(app.screen)
        await pilot.press("q")  # nothing under the room but the one left: the app ends
        await settle(pilot)
        assert app.return_code == 0


async def test_a_refused_first_room_goes_to_a_new_lobby_where_q_quits() -> None:
    hub = make_hub()
    code = await full_room(hub)
    app = room_app(hub, RoomRequest("join", code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # the list: Watch, then Back to the lobby
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.focused is lobby.menu
        await pilot.press("down", "enter")  # a new room from there, and back
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is lobby and app.return_code is None
        await pilot.press("q")
        await settle(pilot)
        assert app.return_code == 0


async def test_a_spectator_sent_away_goes_back_to_the_lobby_it_came_from() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X", True)
    await hub.join(ann.code, BOB)
    app = room_app(hub, person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.set_focus(lobby.rooms)
        await pilot.press("enter")  # full: watches
        await settle(pilot)
        assert room_of(app).game.seat is None
        await hub.set_watching(ann, False)
        await settle(pilot)
        refusal = refusal_of(app)
        assert drawn(refusal.query_one("#refused-reason")) == WATCHING_OFF
        assert "w Watch" not in bar(refusal)
        await pilot.press("l")
        await settle(pilot)
        assert app.screen is lobby and app.return_code is None


async def test_back_from_a_room_joined_by_code_q_quits_and_the_bar_says_so() -> None:
    """Issue 29: the focus came back to the code box, where `q` typed a letter under a
    key bar that said it quits."""
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    app = room_app(hub, person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert "q Quit" in bar(lobby) and "Enter Choose" in bar(lobby)
        await pilot.press("tab")
        assert "q Quit" not in bar(lobby) and "Enter Join" in bar(lobby)
        await pilot.press(*ann.code.lower(), "enter")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is lobby
        assert isinstance(lobby, LobbyScreen)  # again: `is` narrowed it to a plain Screen
        assert lobby.focused is lobby.menu
        assert "q Quit" in bar(lobby) and lobby.code.value == ""
        await pilot.press("q")
        await settle(pilot)
        assert app.return_code == 0


async def test_the_score_line_drops_a_guest_who_left_as_the_title_does() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        guest = await hub.join(code, Person("gus"))
        await settle(pilot)
        assert "gus" in title(app) and drawn(room_of(app).score).startswith("ann 0 · gus 0")
        await hub.leave(guest)
        await settle(pilot)
        assert "gus" not in title(app)
        assert drawn(room_of(app).score) == "ann 0 · … 0 · draws 0 · round 1"


async def test_a_burst_of_moves_lands_once_the_second_refused_by_the_hub() -> None:
    hub = make_hub()
    app = room_app(hub, RoomRequest("new"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        code = room_of(app).game.ticket.code
        await hub.join(code, BOB)
        await settle(pilot)
        await burst(pilot, ["1", "2", "3"])  # as a paste or a slow link delivers them
        await settle(pilot)
        assert hub.view(code).moves == (1,)
        assert shown_board(app) == "X........"
        # The refusals of 2 and 3 were about the board before 1 landed: the new view
        # clears them, as the game clears a note when the position changes.
        assert state(app) == "Waiting for bob (O)."


async def test_a_4x4_room_joined_takes_its_size_from_the_hub() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 4, "O")
    app = room_app(hub, RoomRequest("join", ann.code), person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = room_of(app)
        assert len(screen.grid.cells) == 16
        assert state(app) == "Your turn: you play O."
        await pilot.press("5")
        assert note(app) == "On 4x4 use the arrows and Enter: digits play 3x3 only."
        await pilot.press("enter")  # the cursor starts in the middle: cell 11
        await settle(pilot)
        assert hub.view(ann.code).moves == (11,)
        assert shown_board(app)[10] == "O"
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")  # searched cell by cell (tests/ui/test_room_analysis.py)
        assert note(app) == "Analysis on: every empty cell's verdict."
        await pilot.press("a")
        assert note(app) == "Analysis off."
