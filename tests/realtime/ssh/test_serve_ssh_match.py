"""Quick match over `serve-ssh` end to end: real SSH clients (asyncssh + pyte), real game
processes, each person from an address of their own on loopback; on one host, and on
two hosts sharing one PostgreSQL database. Nothing is timed: each wait is for a screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import test_serve_ssh
from test_serve_ssh_ops import METRICS, ops_port, until_sample
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter, hub_of, record_of, until

from tui_tictactoe.ui.screens.match_screen import DECLINED, FOUND

host = test_serve_ssh.host  # the fixture: a GameServer in the test's loop
WAIT = 30.0


async def eventually(done: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not done():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.05)


async def test_two_players_matched_on_one_host_share_a_room_and_play(host: Any) -> None:
    hosted = await host(rooms=True, metrics=METRICS)
    ann = await enter(hosted.port, "--match", "ann", local="127.0.0.2")
    await ann.shows("Waiting for a player on 3x3")
    await ann.shows("3x3 1")
    bob = await enter(hosted.port, "--match", "bob", local="127.0.0.3")
    await ann.shows("ann (X) vs bob (O)")  # equal ratings: who waited longer plays X
    await bob.shows("ann (X) vs bob (O)")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("Your turn: you play O.")
    assert hub_of(hosted)._queue == {}  # both places became seats
    await until_sample(ops_port(hosted), "tui_tictactoe_sessions", {"kind": "match"}, 2)


async def test_a_matched_round_is_rated_and_the_next_place_names_the_new_rating(
    host: Any, tmp_path: Path
) -> None:
    """Players with keys: the round of a quick match is kept and rated as any room's, and
    ann's next place in the queue names her new rating (read from the record)."""
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--match", "ann", ANN_KEY, local="127.0.0.2")
    await ann.shows("3x3 1")
    bob = await enter(hosted.port, "--match", "bob", BOB_KEY, local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        mover.send(str(cell))
        await other.matches(rf"played {cell}\. Your turn")
    ann.send("3")
    await bob.shows("ann wins!")
    record = record_of(tmp_path)
    try:
        await until("the round kept", lambda: record.people_rounds(FINGERPRINT[ANN_KEY]))
        assert record.people_rounds(FINGERPRINT[ANN_KEY])[0].rated
        await until("ann rated", lambda: record.people_stats(FINGERPRINT[ANN_KEY]).rating == 1216)
    finally:
        record.close()
    again = await enter(hosted.port, "--match --board 5", "ann", ANN_KEY, local="127.0.0.4")
    await again.shows("5x5 1")
    ratings = [queued.waiter.rating for queued in hub_of(hosted)._queue.values()]
    assert ratings == [1216]


async def test_the_ai_meanwhile_is_ended_by_a_match_and_esc_leaves_the_queue(host: Any) -> None:
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--match --board 4", "ann", local="127.0.0.2")
    await ann.shows("Waiting for a player on 4x4")
    ann.send("a")
    await ann.shows("Your turn")  # the game against the AI, over the waiting screen
    carol = await enter(hosted.port, "--match --board 4", "carol", local="127.0.0.4")
    await ann.shows(FOUND)  # the game against the AI ends; Enter plays carol
    await ann.shows("Enter plays them")
    ann.send("\r")
    await ann.shows("ann (X) vs carol (O)")
    await carol.shows("ann (X) vs carol (O)")
    dave = await enter(hosted.port, "--match", "dave", local="127.0.0.5")
    await dave.shows("3x3 1")
    dave.send("\x1b")
    await dave.shows("Public rooms")  # the lobby
    await eventually(lambda: hub_of(hosted)._queue == {}, "dave left the queue")


async def test_a_declined_match_sends_the_partner_back_to_the_queue(host: Any) -> None:
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--match", "ann", local="127.0.0.2")
    await ann.shows("3x3 1")
    ann.send("a")
    await ann.shows("Your turn")
    bob = await enter(hosted.port, "--match", "bob", local="127.0.0.3")
    await bob.shows("ann (X) vs bob (O)")
    await ann.shows("Esc declines")
    ann.send("\x1b")
    await ann.shows("Public rooms")  # ann is in the lobby
    await bob.shows(DECLINED)
    carol = await enter(hosted.port, "--match", "carol", local="127.0.0.4")
    await bob.shows("bob (X) vs carol (O)")  # bob waited longer: X
    await carol.shows("bob (X) vs carol (O)")


async def test_a_dropped_link_leaves_the_queue(host: Any) -> None:
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--match --board 5", "ann", local="127.0.0.2")
    await ann.shows("5x5 1")
    assert len(hub_of(hosted)._queue) == 1
    ann.conn.close()
    await eventually(lambda: hub_of(hosted)._queue == {}, "the place went with the link")
    bob = await enter(hosted.port, "--match --board 5", "bob", local="127.0.0.3")
    await bob.shows("5x5 1")  # bob alone: ann's place is not there to pair with


async def test_two_players_on_two_hosts_are_matched_through_postgresql(
    pg_url: str, host: Any
) -> None:
    a = await host(rooms=True, database_url=pg_url)
    b = await host(rooms=True, database_url=pg_url)
    ann = await enter(a.port, "--match", "ann", local="127.0.0.2")
    await ann.shows("3x3 1")
    bob = await enter(b.port, "--match", "bob", local="127.0.0.3")
    await bob.shows("ann (X) vs bob (O)")
    await ann.shows("ann (X) vs bob (O)")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("Your turn: you play O.")
