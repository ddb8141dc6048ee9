"""PostgreSQL restarted mid-round under two `serve-ssh` hosts (issue 23): the players are
told on screen, no move is lost once it is back, and the round is saved once.

Real parts only: a PostgreSQL server of the test's own (`own_cluster`, stopped with
`pg_ctl stop -m fast` and started again on the same port), two `SshServer`s in the
test's loop on it (`--database-url`), real SSH clients (asyncssh) reading real game
processes' screens with pyte. Nothing is timed: each wait is for a screen or a state.
"""

from __future__ import annotations

from typing import Any

import psycopg
import test_serve_ssh
from pg_cluster import Cluster
from test_serve_ssh_rooms import (
    ANN_KEY,
    BOB_KEY,
    FINGERPRINT,
    enter,
    new_room,
    same_board_as_the_hub,
    until,
)

from tui_tictactoe.rooms.postgres.link import UNREACHABLE as REFUSED_MOVE
from tui_tictactoe.rooms.status import UNREACHABLE, UNREACHABLE_TO_MOVE

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
WAIT = 30.0  # seconds, generous: a sweep (1 s) notices, the machine is shared


def rows(url: str, query: str) -> list[tuple[Any, ...]]:
    """The rows of the test's own query; none while the games have not made the record's
    tables yet (they make them on first use)."""
    with psycopg.connect(url) as conn:
        try:
            return conn.execute(query).fetchall()
        except psycopg.errors.UndefinedTable:
            return []


async def test_postgresql_restarted_mid_round_over_ssh(own_cluster: Cluster, host: Any) -> None:
    url = own_cluster.new_database()
    a = await host(rooms=True, database_url=url)
    b = await host(rooms=True, database_url=url)
    ann, code = await new_room(a.port, key=ANN_KEY)  # on host A
    bob = await enter(b.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")  # on B
    carol = await enter(b.port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")
    await carol.shows("bob played 1. ann to play.")

    own_cluster.stop()  # pg_ctl stop -m fast: every connection of both hosts is cut
    await ann.shows(UNREACHABLE_TO_MOVE, WAIT)  # told, though nobody pressed a key
    await bob.shows(UNREACHABLE, WAIT)
    await carol.shows(UNREACHABLE, WAIT)
    ann.send("9")  # a move now lands nowhere: refused, and the board stays as it was
    await ann.shows(REFUSED_MOVE)
    assert "Your turn" not in ann.text
    assert any("room hub: the database is out of reach" in line for line in a.log), a.log

    own_cluster.start()  # the same port: the hosts connect again by themselves
    await ann.shows("bob played 1. Your turn: you play X.", WAIT)
    await bob.shows("Waiting for ann (X).", WAIT)
    await carol.shows("bob played 1. ann to play.", WAIT)
    for session in (ann, bob, carol):
        assert UNREACHABLE not in session.text and UNREACHABLE_TO_MOVE not in session.text
    assert any("room hub: the database is back" in line for line in a.log), a.log
    hub = a.server.rooms.hub
    assert (await hub.view(code)).moves == (5, 1)  # nothing lost, nothing landed while down

    for mover, cell, other, said in (
        (ann, 9, bob, "ann played 9. Your turn: you play O."),
        (bob, 2, ann, "bob played 2. Your turn: you play X."),
        (ann, 3, bob, "ann played 3. Your turn: you play O."),
        (bob, 7, ann, "bob played 7. Your turn: you play X."),
    ):
        mover.send(str(cell))
        await other.shows(said)
    ann.send("6")
    for session in (ann, bob, carol):
        await session.shows("ann wins!")
    view = await hub.view(code)
    assert (view.result, view.moves) == ("X", (5, 1, 9, 2, 3, 7, 6))
    assert await b.server.rooms.hub.view(code) == view  # one room, whichever host reads it
    for session in (ann, bob, carol):
        await same_board_as_the_hub(session, view)

    # Both players' games saved the round (each on its own link, made again after the
    # restart): the record keeps it once, and rates it once.
    query = "SELECT round_key, x_player, o_player, moves, result FROM matches"
    await until("the round kept", lambda: len(rows(url, query)) == 1)
    ann_fp, bob_fp = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
    assert rows(url, query) == [(view.round_key, ann_fp, bob_fp, list(view.moves), "X")]
    ratings = rows(url, "SELECT player, games FROM ratings ORDER BY rating DESC")
    assert ratings == [(ann_fp, 1), (bob_fp, 1)]
