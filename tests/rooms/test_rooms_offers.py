"""A draw offered between the players, on both hubs (`MemoryHub` and `PostgresHub`): it
waits in the room for the other seat's answer, yes ends the round as an agreed draw,
no (or any move) clears it, one offer a seat per move; spectators and the offerer
cannot answer it; the answer stays in the room (for every screen, the asker's too) until
the position changes or another offer is made. The random sequences with offers are in test_rooms_hub_properties.py."""

from __future__ import annotations

import pytest
import test_rooms_hub
from test_rooms_hub import ANN, BOB, CAROL, Hub, look

from tui_tictactoe.rooms.view import Answer, Offer, Refused, Ticket

hub = test_rooms_hub.hub  # the fixture: each backend in turn, on its clock
clock = test_rooms_hub.clock


async def seated(hub: Hub) -> tuple[Ticket, Ticket, Ticket]:
    """ann (X, to move) and bob (O) at a 3x3 table, a spectator, ann has played 5."""
    ann = await hub.create(ANN, 3, "X")
    bob = await hub.join(ann.code, BOB)
    eve = await hub.watch(ann.code, CAROL)
    await hub.move(ann, 5, (await look(hub, ann.code)).generation)
    return ann, bob, eve


async def test_a_draw_accepted_ends_the_round_as_an_agreed_draw(hub: Hub) -> None:
    ann, bob, eve = await seated(hub)
    before = await look(hub, ann.code)
    await hub.offer(ann, "draw")
    view = await look(hub, ann.code)
    assert view.offer == Offer("draw", "X") and view.generation == before.generation + 1
    await hub.offer(ann)  # made already: nothing changes
    assert (await look(hub, ann.code)).generation == view.generation
    for wrong in (ann, eve):  # its maker and a spectator cannot answer it
        with pytest.raises(Refused):
            await hub.answer(wrong, True)
    await hub.answer(bob, True)
    view = await look(hub, ann.code)
    assert (view.result, view.agreed, view.offer, view.score) == ("draw", True, None, (0, 0, 1))
    with pytest.raises(Refused, match="round is over"):
        await hub.move(bob, 1, view.generation)
    await hub.rematch(ann)
    await hub.rematch(bob)
    view = await look(hub, ann.code)
    assert (view.result, view.agreed, view.offer, view.round) == (None, False, None, 2)


async def test_the_answer_is_kept_for_every_screen_until_the_position_changes(hub: Hub) -> None:
    ann, bob, _eve = await seated(hub)
    await hub.offer(bob)  # bob, on his own turn
    await hub.answer(ann, False)
    view = await look(hub, ann.code)
    assert (view.answered, view.offer) == (Answer("draw", "O", False), None)
    await hub.move(bob, 1, view.generation)  # the position changed: old news
    assert (await look(hub, ann.code)).answered is None
    await hub.offer(bob, "take_back")
    assert (await look(hub, ann.code)).answered is None
    await hub.answer(ann, True)
    view = await look(hub, ann.code)
    assert (view.answered, view.moves, view.to_move) == (Answer("take_back", "O", True), (5,), "O")
    await hub.offer(ann)  # another offer: the answer before it is gone
    assert (await look(hub, ann.code)).answered is None


async def test_a_draw_declined_or_played_past_is_gone_and_one_offer_a_move(hub: Hub) -> None:
    ann, bob, eve = await seated(hub)
    await hub.offer(bob)
    with pytest.raises(Refused, match="bob offers a draw"):
        await hub.offer(ann)  # one offer at a time
    await hub.answer(ann, False)
    view = await look(hub, ann.code)
    assert view.offer is None and view.result is None
    with pytest.raises(Refused, match="One offer a move"):
        await hub.offer(bob)
    await hub.offer(ann)  # the other seat still may
    await hub.move(bob, 1, view.generation)  # a move clears the offer ...
    view = await look(hub, ann.code)
    assert view.offer is None and view.result is None
    await hub.offer(bob)  # ... and gives each seat its offer again
    with pytest.raises(Refused, match="watching"):
        await hub.offer(eve)
    with pytest.raises(Refused, match="no such offer"):
        await hub.offer(ann, "resign")


async def test_no_offer_before_a_move_nor_without_a_second_player(hub: Hub) -> None:
    ann = await hub.create(ANN, 3, "X")
    with pytest.raises(Refused, match="second player"):
        await hub.offer(ann)
    bob = await hub.join(ann.code, BOB)
    with pytest.raises(Refused, match="Play a move first"):
        await hub.offer(bob)
    with pytest.raises(Refused, match="Nothing to answer"):
        await hub.answer(ann, True)
