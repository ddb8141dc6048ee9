"""`v` in a room (issue 39): once the round is over a player and a spectator review it on
the review screen, the room's moves from who moved first; mid-round it says when. The key
bar offers `v Review` in the place of `d Draw?` once the round is over, and fits 60 columns."""

from __future__ import annotations

import itertools

from room_tools import ANN, BOB, EVE, make_hub, note, room_app, room_of, settle
from textual.pilot import Pilot

from tui_tictactoe.engine.review import review_moves
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.view import Ticket
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.rooms.room_keys import room_keys
from tui_tictactoe.ui.screens.review_screen import NO_MOVES, REVIEW_LATER, ReviewScreen
from tui_tictactoe.ui.widgets.key_bar import wrap_hints

SIZE = (80, 24)
ROUND = (5, 1, 4, 2, 6)
"""X (ann, first) wins on the middle row; O's 2 lets it happen."""


async def play(hub: MemoryHub, *played: tuple[Ticket, int]) -> None:
    for ticket, cell in played:
        await hub.move(ticket, cell, hub.view(ticket.code).generation)


def keys(app: TicTacToeApp) -> list[str]:
    return [hint.keys for hint in room_of(app).key_bar.hints]


async def reviewed(pilot: Pilot[None]) -> ReviewScreen:
    await pilot.press("v")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen), screen
    for _ in range(500):  # the review's thread (the room's worker never completes)
        if screen.done:
            return screen
        await pilot.pause(0.01)
    raise AssertionError("the review did not finish")


async def test_a_player_reviews_the_round_once_it_is_over_and_not_before() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("join", ann.code, ann.token))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ann = room_of(app).game.ticket  # the join took the seat again: its ticket now
        await play(hub, (ann, 5), (bob, 1))
        await settle(pilot)
        assert "d" in keys(app) and "v" not in keys(app)
        await pilot.press("v")
        await settle(pilot)
        assert app.screen is room_of(app) and note(app) == REVIEW_LATER
        await play(hub, (ann, 4), (bob, 2), (ann, 6))
        await settle(pilot)
        assert hub.view(ann.code).result is not None
        assert "v" in keys(app) and "d" not in keys(app)
        screen = await reviewed(pilot)
        expected = review_moves(board_geometry(3), "X", ROUND)
        assert screen.done and screen.found == list(expected.moves)
        assert [move.number for move in screen.found if move.blunder] == [4]  # O's 2
        assert screen.sub_title == f"review · room {ann.code} · round 1 · 5 moves"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is room_of(app)


async def test_a_spectator_reviews_the_round_once_it_is_over() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 4, "O")  # bob (O) moves first, on 4x4
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play(hub, (bob, 6))
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert app.screen is room_of(app) and note(app) == REVIEW_LATER
        assert "v" not in keys(app)
        await hub.offer(bob, "draw")
        await hub.answer(ann, True)
        await settle(pilot)
        assert hub.view(ann.code).result == "draw" and "v" in keys(app)
        screen = await reviewed(pilot)
        expected = review_moves(board_geometry(4), "O", (6,))
        assert screen.found == list(expected.moves) and screen.found[0].symbol == "O"


async def test_a_room_closed_before_its_first_move_has_nothing_to_review() -> None:
    hub = make_hub()
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    app = room_app(hub, RoomRequest("watch", ann.code), person=EVE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await hub.leave(bob)
        await hub.leave(ann)
        await settle(pilot)
        assert room_of(app).game.view.closed  # type: ignore[union-attr]
        await pilot.press("v")
        await settle(pilot)
        assert app.screen is room_of(app) and note(app) == NO_MOVES


def test_the_room_bar_fits_60_columns_in_two_lines_in_every_state() -> None:
    names = ("room_public", "room_watching", "opener", "offer_to_me", "take_back", "claim")
    flags: list[tuple[bool, ...]] = list(itertools.product((True, False), repeat=2 + 6))
    for side, (player, over, *states) in itertools.product((3, 6), flags):
        if over and any(states[3:]):
            continue  # an offer, a take-back, a claim: mid-round only
        choices = dict(zip(names, states, strict=True)) if player else None
        hints = room_keys(side, None if player else False, player, choices, over)
        assert any(hint.keys == "v" for hint in hints) == over
        lines, gap = wrap_hints(hints, 60)
        assert len(lines) <= 2 or not over, hints  # mid-round y, n, u, c may make three
        for line in lines:
            assert len((" " * gap).join(f"{h.keys} {h.label}" for h in line)) <= 60
