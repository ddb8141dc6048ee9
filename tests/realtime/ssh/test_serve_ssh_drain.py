"""Draining a `serve-ssh` host (SIGUSR1) behind a real HAProxy that checks `/readyz` (issue 32).

Real parts only: two hosts on one throwaway PostgreSQL (`pg_cluster.py`), host A the
installed `tui-tictactoe serve-ssh` in a process of its own (so that its exit status is
real), host B a `SshServer` in the test's loop; a real HAProxy in TCP mode with an HTTP
health check on each host's `/readyz` (`option httpchk`), sending players to A first
(`balance first`); real SSH clients and games. Draining A mid-round: no move is lost, the
round ends and is kept once, a new player lands on B, and A exits 0 once its last round
has ended. Each player is told to join again (through any host). A host with its rooms in
memory (no database) says what is true there: the room ended with the host. Nothing is
timed: each wait is for a screen, a log line or an exit.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import test_serve_ssh
from pg_cluster import free_port
from server_tools import HAPROXY, until_listening
from test_serve_ssh import START_TIMEOUT
from test_serve_ssh_hosts import listening_port, processes, serve_ssh
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter, new_room, seated, until

from tui_tictactoe.record import Record

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
__all__ = ["processes"]  # the fixture, used by name


@pytest.fixture
async def balancer(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """`start([(ssh_port, health_port), ...])`: HAProxy on a free port, each host checked
    with `GET /readyz` every 100 ms, the first host that is up taking every player."""
    if HAPROXY is None:
        pytest.skip("haproxy was not found; apt-get install haproxy (.ci/run does)")
    running: list[subprocess.Popen[bytes]] = []

    async def start(hosts: list[tuple[int, int]]) -> int:
        port = free_port()
        servers = "".join(
            f"    server h{n} 127.0.0.1:{ssh} check port {health} inter 100 fall 1 rise 1\n"
            for n, (ssh, health) in enumerate(hosts)
        )
        config = (
            "global\n    maxconn 200\n"
            "defaults\n    mode tcp\n    timeout connect 5s\n    timeout client 1m\n"
            "    timeout server 1m\n    timeout check 2s\n    retries 3\n    option redispatch\n"
            f"frontend ssh\n    bind 127.0.0.1:{port}\n    default_backend hosts\n"
            "backend hosts\n    balance first\n    option httpchk GET /readyz\n" + servers
        )
        path = tmp_path / "haproxy.cfg"
        path.write_text(config)
        assert HAPROXY is not None
        proc = subprocess.Popen([HAPROXY, "-db", "-f", str(path)], stderr=subprocess.DEVNULL)
        running.append(proc)
        await until_listening(port, proc)
        return port

    yield start
    for proc in running:
        proc.terminate()
        proc.wait(10)


async def test_draining_a_host_mid_round_loses_nothing_and_sends_new_players_elsewhere(
    pg_url: str,
    host: Any,
    processes: list[subprocess.Popen[bytes]],
    balancer: Any,
    tmp_path: Path,
) -> None:
    key = tmp_path / "host_key"
    health_a, health_b = free_port(), free_port()
    args = ["--port", "0", "--database-url", pg_url, "--host-key", str(key)]
    a = serve_ssh([*args, "--metrics", f"127.0.0.1:{health_a}"], tmp_path / "a")
    processes.append(a)
    port_a, _ = await listening_port(a)
    b = await host(rooms=True, database_url=pg_url, host_key=key, metrics=("127.0.0.1", health_b))
    front = await balancer([(port_a, health_a), (b.port, health_b)])

    ann, code = await new_room(front, key=ANN_KEY)  # through HAProxy: on A, the first host
    bob = await enter(front, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    assert not b.server.clients, "the players should be on A"
    await ann.shows("Your turn: you play X.")
    ann.send("1")
    await bob.shows("ann played 1. Your turn: you play O.")

    a.send_signal(signal.SIGUSR1)  # drain A mid-round
    for player in (ann, bob):
        await player.shows("This server restarts after your")  # the toast wraps

    carol = await enter(front, None, "carol", local="127.0.0.3")  # a new player: on B
    await until("carol on B", lambda: len(b.server.clients) == 1)
    bob.send("4")
    await ann.shows("bob played 4. You")  # the notice's toast covers the rest of the line
    for mover, other, cell in ((ann, bob, 2), (bob, ann, 5)):
        name = "ann" if mover is ann else "bob"
        mover.send(str(cell))
        await other.shows(f"{name} played {cell}. You")
    assert a.poll() is None  # the round still in play: A waits for it
    ann.send("3")
    for player in (ann, bob):  # the result shown before the game goes (RESULT_SECONDS)
        await player.shows("ann wins!")
    for player in (ann, bob):
        assert await player.term.wait_closed(START_TIMEOUT) == 0  # the game ended itself
    said = ann.term.output.decode(errors="replace").replace("\r\n", "")  # unwrapped
    assert f"connect again with --join {code} (through any host)" in said
    assert await asyncio.to_thread(a.wait, 30) == 0  # A exits once its last round ended
    assert a.stderr is not None
    log = a.stderr.read().decode()
    assert "draining" in log and "drained (last game ended)" in log, log
    assert "Traceback" not in log, log

    assert b.server.rooms is not None
    view = await b.server.rooms.hub.view(code)
    assert view is not None and view.moves == (1, 4, 2, 5, 3) and view.result == "X"
    record = Record.open_url(pg_url)
    try:  # the round kept once for each player
        ann_fp, bob_fp = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
        await until("the round kept", lambda: len(record.people.rounds(ann_fp)) == 1)
        await until("the round kept", lambda: len(record.people.rounds(bob_fp)) == 1)
        assert record.people.rounds(ann_fp)[0].moves == (1, 4, 2, 5, 3)
    finally:
        record.close()

    ann = await enter(front, f"--join {code}", "ann", ANN_KEY)  # back: through B now
    await ann.shows("ann wins!")
    carol.send("q")


async def test_draining_a_host_with_rooms_in_memory_says_the_room_ended_with_it(
    processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    """Issue 35: no database, the hub in the server's memory: after the drain the room is
    gone with the host, so the players are not told to `--join` it (a wrong code then)."""
    server = serve_ssh(["--port", "0", "--host-key", str(tmp_path / "key")], tmp_path / "a")
    processes.append(server)
    port, _ = await listening_port(server)
    ann, bob, code = await seated(port)
    ann.send("1")
    await bob.shows("ann played 1. Your turn: you play O.")
    server.send_signal(signal.SIGUSR1)
    for player in (ann, bob):
        await player.shows("This server restarts after your")
    for mover, other, cell in ((bob, ann, 4), (ann, bob, 2), (bob, ann, 5), (ann, bob, 3)):
        name = "ann" if mover is ann else "bob"
        mover.send(str(cell))
        if cell != 3:
            await other.shows(f"{name} played {cell}. You")
    for player in (ann, bob):
        assert await player.term.wait_closed(START_TIMEOUT) == 0
        said = player.term.output.decode(errors="replace").replace("\r\n", "")  # unwrapped
        assert f"room {code} ended with it. Connect again to play." in said, said[-400:]
        assert "--join" not in said.rpartition("This server restarted")[2]  # its last words
    assert await asyncio.to_thread(server.wait, 30) == 0
