"""The draw offer on the room screen, in Pilot on a `MemoryHub`: `d` offers, the other
player's screen asks "y/n" and its key bar shows `y` and `n`, `y` takes the draw, `n`
or any other key declines; `y` with no offer waiting still answers the leave question."""

from __future__ import annotations

from room_tools import ANN, BOB, make_hub, note, room_app, room_of, settle, state

from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.status import LEAVE_QUESTION
from tui_tictactoe.rooms.view import Offer

SIZE = (80, 24)


def bar_keys(app) -> list[str]:
    return [hint.keys for hint in room_of(app).key_bar.hints]


async def test_d_offers_and_the_other_player_takes_the_draw_with_y() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    ann_app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    bob_app = room_app(hub, RoomRequest("join", ann.code, bob.token), person=BOB)
    async with ann_app.run_test(size=SIZE) as ann_pilot, bob_app.run_test(size=SIZE) as bob_pilot:
        await settle(ann_pilot)
        await settle(bob_pilot)
        assert "d" in bar_keys(ann_app) and "y" not in bar_keys(bob_app)
        await ann_pilot.press("d")
        await settle(ann_pilot)
        assert "Play a move first" in note(ann_app)
        await ann_pilot.press("5", "d")
        await settle(ann_pilot)
        await settle(bob_pilot)
        assert hub.view(ann.code).offer == Offer("draw", "X")
        assert state(bob_app) == "ann offers a draw: y/n"
        assert state(ann_app) == "You offered a draw: waiting for bob."
        assert {"y", "n"} <= set(bar_keys(bob_app)) and "y" not in bar_keys(ann_app)
        await bob_pilot.press("y")
        await settle(bob_pilot)
        await settle(ann_pilot)
        view = hub.view(ann.code)
        assert (view.result, view.agreed, view.score) == ("draw", True, (0, 0, 1))
        for app in (ann_app, bob_app):
            assert state(app).startswith("Draw agreed.")
        assert "y" not in bar_keys(bob_app)


async def test_n_or_any_other_key_declines_and_y_still_answers_the_leave_question() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    await hub.move(ann, 5, hub.view(ann.code).generation)
    app = room_app(hub, RoomRequest("join", ann.code, bob.token), person=BOB)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bob = room_of(app).game.ticket  # the app's join gave bob a new token
        await hub.offer(ann)
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert hub.view(ann.code).offer is None and hub.view(ann.code).result is None
        await hub.move(bob, 1, hub.view(ann.code).generation)  # a move: ann may offer again
        await hub.offer(ann)
        await settle(pilot)
        assert state(app) == "ann offers a draw: y/n"
        await pilot.press("h")  # any other key declines (and does what it does)
        await settle(pilot)
        assert hub.view(ann.code).offer is None and hub.view(ann.code).result is None
        await pilot.press("q")
        await settle(pilot)
        assert note(app) == LEAVE_QUESTION.text
        await pilot.press("y")  # no offer waits: y answers the question, and bob leaves
        await settle(pilot)
        assert hub.view(ann.code).seats[1].person is None


async def test_u_asks_to_take_back_and_y_undoes_the_move_on_both_screens() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    ann_app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    bob_app = room_app(hub, RoomRequest("join", ann.code, bob.token), person=BOB)
    async with ann_app.run_test(size=SIZE) as ann_pilot, bob_app.run_test(size=SIZE) as bob_pilot:
        await settle(ann_pilot)
        await settle(bob_pilot)
        assert "u" not in bar_keys(ann_app)  # no move of hers to take back
        await ann_pilot.press("5")
        await settle(ann_pilot)
        await settle(bob_pilot)
        assert "u" in bar_keys(ann_app) and "u" not in bar_keys(bob_app)
        await bob_pilot.press("u")  # not his move: the hub says whose
        await settle(bob_pilot)
        assert note(bob_app) == "Only ann may ask to take back their move: it is your turn."
        await ann_pilot.press("u")
        await settle(ann_pilot)
        await settle(bob_pilot)
        assert state(bob_app) == "ann asks to take back 5: y/n"
        assert state(ann_app) == "You asked to take back 5: waiting for bob."
        assert {"y", "n"} <= set(bar_keys(bob_app))
        await bob_pilot.press("y")
        await settle(bob_pilot)
        await settle(ann_pilot)
        view = hub.view(ann.code)
        assert (view.moves, view.take_backs, view.to_move) == ((), 1, "X")
        assert state(ann_app) == "bob agreed to the take-back. Your turn: you play X."
        assert state(bob_app) == "You agreed to the take-back. Waiting for ann (X)."
        for app in (ann_app, bob_app):  # the cell is empty on both boards
            assert room_of(app).game.board.count("X") == 0


async def test_a_take_back_declined_keeps_the_move_and_one_request_a_move() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token), person=ANN)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5", "u")
        await settle(pilot)
        await hub.answer(bob, False)
        await settle(pilot)
        assert hub.view(ann.code).moves == (5,)
        assert state(app) == "bob declined the take-back. Waiting for bob (O)."  # she hears it
        await pilot.press("u")
        await settle(pilot)
        assert note(app) == "One offer a move: play on, then offer again."
