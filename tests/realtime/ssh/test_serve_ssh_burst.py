"""serve-ssh under a burst of players: a first frame from the server at once, games below
the server's priority, starts taken in turn, and warm games that play like cold ones.

Functional only: the figures (first frame p95 at 64 players at once, a key's reply) are
`benchmarks/bench_ssh.py --scale`'s.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import asyncssh
import test_serve_ssh
from server_tools import game_pids
from test_serve_ssh import (
    LAUNCHERS,
    RESULTS,
    STEP_TIMEOUT,
    by_key,
    children_of,
    connect,
    gone,
    open_game,
    parent,
    play,
    play_round,
    until_recorded,
)

from tui_tictactoe.servers.ssh.session import STARTING

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


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


# -- warm games ---------------------------------------------------------------------


async def warm_pool(hosted: Any, size: int) -> set[int]:
    """The fork server's warm games, once there are `size` of them (its children that are
    no session's game)."""
    fork_server = hosted.server.fork_server
    assert fork_server is not None
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        pool = set(children_of(fork_server.process.pid)) - set(game_pids(hosted.server))
        if len(pool) == size:
            return pool
        assert time.monotonic() < deadline, f"the pool holds {len(pool)}, not {size}"
        await asyncio.sleep(0.02)


def wake_ups(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])
    raise AssertionError("no voluntary_ctxt_switches in /proc")


async def test_a_warm_game_is_the_sessions_own_options_identity_and_record(host: Any) -> None:
    """Everything of the session reaches a game forked before it came: the exec line's
    options, the player's key and name (title, record), TERM and COLORTERM."""
    hosted = await host(warm_games=2)
    pool = await warm_pool(hosted, 2)
    key = asyncssh.generate_private_key("ssh-ed25519")
    player = key.get_fingerprint("sha256")
    conn = await connect(hosted.port, username="erin", key=key)
    term = await open_game(
        conn, "--difficulty easy", term_type="screen-256color", env={"COLORTERM": "truecolor"}
    )
    await term.first_frame()
    assert await hosted.new_pid() in pool  # it was one of the warm games
    assert "erin · " in term.lines[0], term.text
    assert b"\x1b[38;2;" in term.output  # COLORTERM=truecolor reached it
    assert term.lines[0].rstrip().endswith("· easy"), term.lines[0]  # the exec line's option
    await play_round(term, by_key(term))
    term.send("q")
    assert await term.wait_closed() == 0
    await until_recorded(player, "erin")


async def test_the_pool_refills_after_use_and_a_killed_warm_game_is_replaced(host: Any) -> None:
    hosted = await host(warm_games=2)
    pool = await warm_pool(hosted, 2)
    term = await play(hosted.port)
    taken = await hosted.new_pid()
    assert taken in pool
    refilled = await warm_pool(hosted, 2)
    assert pool - {taken} < refilled and taken not in refilled
    victim = next(iter(refilled))
    os.kill(victim, signal.SIGKILL)  # a warm game dies while it waits
    await gone([victim])
    replaced = await warm_pool(hosted, 2)
    assert victim not in replaced
    again = await play(hosted.port, local="127.0.0.2")
    assert await hosted.new_pid({taken}) in replaced
    assert await play_round(again, by_key(again)) in RESULTS
    assert await play_round(term, by_key(term)) in RESULTS


async def test_no_warm_games_forks_each_on_demand(host: Any) -> None:
    hosted = await host(warm_games=0)
    await warm_pool(hosted, 0)
    term = await play(hosted.port)
    pid = await hosted.new_pid()
    assert parent(pid) == hosted.server.fork_server.process.pid
    assert await warm_pool(hosted, 0) == set()
    assert await play_round(term, by_key(term)) in RESULTS


async def test_warm_games_sleep_until_a_player_comes_and_die_with_the_fork_server(
    host: Any,
) -> None:
    hosted = await host(warm_games=3)
    pool = await warm_pool(hosted, 3)
    # A game just forked may still be on its way to sleep (one switch more as it blocks):
    # the window starts once none has moved for half a second.
    woken = {pid: wake_ups(pid) for pid in pool}
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        await asyncio.sleep(0.5)
        now = {pid: wake_ups(pid) for pid in pool}
        if now == woken or time.monotonic() > deadline:
            break
        woken = now
    await asyncio.sleep(2)
    assert {pid: wake_ups(pid) for pid in pool} == woken  # not once: no timer, no CPU
    os.kill(hosted.server.fork_server.process.pid, signal.SIGKILL)
    await gone(list(pool))
    term = await play(hosted.port)  # games start as fresh processes from now on
    assert parent(await hosted.new_pid()) == os.getpid()
    assert await play_round(term, by_key(term)) in RESULTS
