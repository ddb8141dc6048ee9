"""Two `serve-ssh` hosts through PgBouncer in transaction mode, as docs/hosting.md sets
them up: `--database-url` names the bouncer, `--database-listen-url` PostgreSQL itself.

Real parts only: the test's PgBouncer (`pgbouncer.py`, 2 server connections) in front of
the worker's PostgreSQL, the installed `tui-tictactoe serve-ssh` in a process of its own
(host A), a `SshServer` in the test's loop (host B), real SSH clients and game processes
(whose record goes through the bouncer too). Nothing is timed: each wait is for a screen.
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

import test_serve_ssh
from pgbouncer import Bouncer
from test_serve_ssh import START_TIMEOUT
from test_serve_ssh_hosts import listening_port, serve_ssh
from test_serve_ssh_hosts import processes as processes  # the fixture
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter, new_room, until

from tui_tictactoe.record import Record

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


async def test_two_hosts_play_a_round_through_the_bouncer(
    pgbouncer: Bouncer,
    pg_url: str,
    host: Any,
    processes: list[subprocess.Popen[bytes]],
    tmp_path: Path,
) -> None:
    through = pgbouncer.url(pg_url)
    key = tmp_path / "host_key"
    a = serve_ssh(
        [
            "--port",
            "0",
            "--database-url",
            through,
            "--database-listen-url",
            pg_url,
            "--host-key",
            str(key),
        ],
        tmp_path / "a",
    )
    processes.append(a)
    port_a, _ = await listening_port(a)
    hosted = await host(rooms=True, database_url=through, listen_url=pg_url, host_key=key)

    ann, code = await new_room(port_a, key=ANN_KEY)  # made on A
    bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")  # on B
    await ann.shows("Your turn: you play X.")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        name, mark = ("ann", "O") if mover is ann else ("bob", "X")
        mover.send(str(cell))
        await other.shows(f"{name} played {cell}. Your turn: you play {mark}.")
    ann.send("3")
    for session in (ann, bob):
        await session.shows("ann wins!")
    view = await hosted.server.rooms.hub.view(code)
    assert view.result == "X" and view.moves == (1, 4, 2, 5, 3)

    record = Record.open_url(through)  # the games' record, through the bouncer too
    try:  # the round once for each, though both sessions saved it; ratings moved once
        ann_fp, bob_fp = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
        await until("the round kept", lambda: len(record.people.rounds(bob_fp)) == 1)
        await until("the round kept", lambda: len(record.people.rounds(ann_fp)) == 1)
        games = {entry.player: entry.games for entry in record.people.ratings()}
        assert games == {ann_fp: 1, bob_fp: 1}
        assert record.notice is None
    finally:
        record.close()

    a.send_signal(signal.SIGTERM)  # in order: what host A logged, whole
    _, err = a.communicate(timeout=START_TIMEOUT)
    hub_lines = [line for line in err.decode().splitlines() if "room hub" in line]
    assert not [line for line in hub_lines if "failed" in line or "out of reach" in line]
