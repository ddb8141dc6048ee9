"""serve-ssh under a burst of players: a first frame from the server at once, games below
the server's priority, starts taken in turn, and warm games that play like cold ones.

Functional only: the figures (first frame p95 at 64 players at once, a key's reply) are
`benchmarks/bench_ssh.py --scale`'s.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import test_serve_ssh
from test_serve_ssh import (
    LAUNCHERS,
    RESULTS,
    by_key,
    connect,
    open_game,
    play,
    play_round,
)

from tui_tictactoe.servers.ssh_session import STARTING

host = test_serve_ssh.host  # the fixture: a GameServer in the test's loop, with its log


def niceness(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return int(stat.read().rpartition(b")")[2].split()[16])


@LAUNCHERS
async def test_the_server_draws_a_first_frame_that_the_game_replaces(
    host: Any, fork_server: bool
) -> None:
    hosted = await host(fork_server=fork_server)
    term = await open_game(await connect(hosted.port))
    await term.wait_until("the server's first frame", lambda: STARTING.encode() in term.output)
    # Before anything of the game's: on the alternate screen, which the game draws over.
    assert term.output.startswith(b"\x1b[?1049h"), term.output[:80]
    await term.first_frame()
    assert STARTING not in term.text
    assert await play_round(term, by_key(term)) in RESULTS


async def test_a_plain_session_gets_no_frame_of_the_server(host: Any) -> None:
    hosted = await host()
    term = await open_game(await connect(hosted.port), "--plain")
    await term.wait_until("the plain game's board", lambda: b"Your turn" in term.output)
    assert STARTING.encode() not in term.output
    assert b"\x1b[" not in term.output


@LAUNCHERS
async def test_games_run_below_the_servers_priority(host: Any, fork_server: bool) -> None:
    hosted = await host(fork_server=fork_server)
    await play(hosted.port)
    pid = await hosted.new_pid()
    assert niceness(pid) == min(19, niceness(os.getpid()) + 10)
    if hosted.server.fork_server is not None:  # the fork server itself answers at once
        assert niceness(hosted.server.fork_server.process.pid) == niceness(os.getpid())


async def test_starts_taken_in_turn_all_start_and_give_their_place_back(host: Any) -> None:
    hosted = await host()
    hosted.server.starts = asyncio.Semaphore(1)  # one game starting at a time
    terms = await asyncio.gather(*(play(hosted.port, local=f"127.0.0.{1 + i}") for i in range(3)))
    for term in terms:
        assert term.visible_board() is not None
    await terms[0].wait_until("every place given back", lambda: not hosted.server.starts.locked())
    again = await play(hosted.port)
    assert await play_round(again, by_key(again)) in RESULTS
