"""Quick match over `serve-ssh` end to end: real SSH clients (asyncssh + pyte), real game
processes, each person from an address of their own on loopback; on one host, and on
two hosts sharing one PostgreSQL database. Nothing is timed: each wait is for a screen.
Hostile matches (issue 35): an address's matched rooms count against it, an empty one
closes at once, one address never pairs with itself, the first move is timed, and one who
leaves matches before the first move waits before queueing again."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import test_serve_ssh
from test_serve_ssh_ops import METRICS, ops_port, until_sample
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter, hub_of, record_of, until

from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.matching import DECLINES, POLL
from tui_tictactoe.rooms.view import Refused
from tui_tictactoe.ui.rooms.match_screen import DECLINED, FOUND

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop
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
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[ANN_KEY]))
        assert record.people.rounds(FINGERPRINT[ANN_KEY])[0].rated
        await until("ann rated", lambda: record.people.stats(FINGERPRINT[ANN_KEY]).rating == 1216)
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
    await ann.shows("4x4 1")  # the place is held: `a` is offered from then on
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


# -- hostile matches (issue 35) ----------------------------------------------------------


async def test_matched_rooms_count_against_the_address_and_empty_ones_close_at_once(
    host: Any,
) -> None:
    """The room-cap attack: mallory (one address) pairs with stranger after stranger and
    drops the links. Each matched room counts against her address (it has no opener): past
    `--rooms-per-address` she gets no place; a room whose two links are gone before the
    first move closes at once, so the server's rooms stay free for everyone else. Two of
    her own sessions never pair with each other."""
    hosted = await host(rooms=True, room_limits=RoomLimits(rooms_per_address=2, max_rooms=6))
    hub = hub_of(hosted)
    mallory, strangers = "127.0.0.66", ["127.0.0.11", "127.0.0.12", "127.0.0.13"]
    held = []
    for i, local in enumerate(strangers[:2]):
        evil = await enter(hosted.port, "--match", "mallory", local=mallory)
        await evil.shows("3x3 1")
        them = await enter(hosted.port, "--match", f"v{i}", local=local)
        await them.shows(f"mallory (X) vs v{i} (O)")
        held.append((evil, them))
    third = await enter(hosted.port, "--match", "mallory", local=mallory)
    await third.shows("This address has 2 rooms open")
    third.conn.close()
    evil, them = held[0]
    evil.conn.close()
    them.conn.close()
    await eventually(lambda: len(hub._rooms) == 1, "the empty matched room closed at once")
    one = await enter(hosted.port, "--match", "mallory", local=mallory)
    await one.shows("3x3 1")  # a room of hers gone: a place again
    two = await enter(hosted.port, "--match", "mallory2", local=mallory)
    await two.shows("3x3 2")  # her two sessions wait apart
    await asyncio.sleep(2 * POLL)  # polls come and go: still no pair
    assert "3x3 2" in two.text and len(hub._rooms) == 1
    stranger = await enter(hosted.port, "--match", "v2", local=strangers[2])
    await stranger.shows("mallory (X) vs v2 (O)")  # the one who waited longest


async def test_a_first_move_that_never_comes_aborts_the_match(host: Any) -> None:
    """ann is paired and never moves: the opening counts down on both screens; at its
    end there is no game, ann is out of the queue, bob is first in it again and plays the
    next player."""
    hosted = await host(rooms=True)
    hub = hub_of(hosted)
    hub.limits = replace(hub.limits, opening_time=8.0)  # the rooms paired from now on
    ann = await enter(hosted.port, "--match", "ann", local="127.0.0.2")
    await ann.shows("3x3 1")
    bob = await enter(hosted.port, "--match", "bob", local="127.0.0.3")
    await bob.shows("ann (X) vs bob (O)")
    pattern = r"Waiting for ann \(X\): (\d+) s, or no game\."
    first = int((await bob.matches(pattern)).group(1))
    await bob.term.wait_until(
        "the count down",
        lambda: (m := re.search(pattern, bob.text)) is not None and int(m.group(1)) < first,
    )
    await ann.matches(r"Your turn: you play X\. \d+ s, or no game\.")
    await ann.shows("You did not play in time: no game, and out of the queue.")
    await bob.shows(DECLINED)
    await bob.shows("3x3 1")
    assert [q.who.name for q in hub_of(hosted)._queue.values()] == ["bob"]
    carol = await enter(hosted.port, "--match", "carol", local="127.0.0.4")
    await carol.shows("bob (X) vs carol (O)")  # bob kept his place: he waited longer


async def test_matched_rooms_count_against_the_address_across_two_hosts(
    pg_url: str, host: Any
) -> None:
    """The same attack over two hosts on one PostgreSQL: her matched room counts against
    her address on every host, and closes at once when both links are gone."""
    a = await host(
        rooms=True, database_url=pg_url, room_limits=RoomLimits(rooms_per_address=1, max_rooms=6)
    )
    b = await host(
        rooms=True, database_url=pg_url, room_limits=RoomLimits(rooms_per_address=1, max_rooms=6)
    )
    evil = await enter(a.port, "--match", "mallory", local="127.0.0.66")
    await evil.shows("3x3 1")
    them = await enter(b.port, "--match", "v0", local="127.0.0.11")
    await them.shows("mallory (X) vs v0 (O)")
    code = (await them.matches(r"Room ([A-Z]{4})")).group(1)
    again = await enter(b.port, "--match", "mallory", local="127.0.0.66")
    await again.shows("rooms open: close one first")
    again.conn.close()
    evil.conn.close()
    them.conn.close()
    hub = a.server.rooms.hub
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while await _live(hub, code):
        assert loop.time() < deadline, "the empty matched room closed at once"
        await asyncio.sleep(0.05)
    late = await enter(b.port, "--match", "mallory", local="127.0.0.66")
    await late.shows("3x3 1")  # the empty room closed at once: a place again


async def _live(hub: Any, code: str) -> bool:
    """Whether room `code` is there (a closed room is not)."""
    try:
        return not (await hub.view(code)).closed
    except Refused:
        return False


async def test_a_partner_who_leaves_before_the_first_move_sends_the_other_back(host: Any) -> None:
    """bob leaves the pair's room before anyone moved: ann is not left in an empty private
    room but first in the queue again, and plays the next player."""
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--match", "ann", local="127.0.0.2")
    await ann.shows("3x3 1")
    bob = await enter(hosted.port, "--match", "bob", local="127.0.0.3")
    await bob.shows("ann (X) vs bob (O)")
    await ann.shows("Your turn: you play X.")
    bob.send("q")
    await ann.shows(DECLINED)
    carol = await enter(hosted.port, "--match", "carol", local="127.0.0.4")
    await carol.shows("ann (X) vs carol (O)")


async def test_a_player_who_leaves_matches_before_the_first_move_waits(host: Any) -> None:
    """Declines as a weapon: mallory (a key, one address) is paired with bob and leaves
    before the first move, `DECLINES` times; bob is sent back to the queue each time. Her
    next `--match` is refused on screen, from her address and with her key from another,
    while carol from an address of her own still takes a place and plays bob."""
    hosted = await host(rooms=True)
    bob = await enter(hosted.port, "--match", "bob", local="127.0.0.11")
    await bob.shows("3x3 1")
    for _ in range(DECLINES):
        evil = await enter(hosted.port, "--match", "mallory", ANN_KEY, local="127.0.0.66")
        await evil.shows("bob (X) vs mallory (O)")  # bob waited longer: X
        await bob.shows("bob (X) vs mallory (O)")  # on the board again, not the queue
        evil.send("q")
        await bob.shows(DECLINED)
        evil.conn.close()
    again = await enter(hosted.port, "--match", "mallory", ANN_KEY, local="127.0.0.66")
    await again.matches(r"Too many matches declined or left: wait \d+ s\.")
    moved = await enter(hosted.port, "--match", "mallory", ANN_KEY, local="127.0.0.67")
    await moved.matches(r"Too many matches declined or left: wait \d+ s\.")
    assert [q.who.name for q in hub_of(hosted)._queue.values()] == ["bob"]
    carol = await enter(hosted.port, "--match", "carol", local="127.0.0.12")
    await carol.shows("bob (X) vs carol (O)")
    await bob.shows("bob (X) vs carol (O)")
