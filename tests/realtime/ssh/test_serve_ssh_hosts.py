"""Several `serve-ssh` hosts on one PostgreSQL database are one world (`--database-url`).

Real parts only: a throwaway PostgreSQL cluster (`pg_cluster.py`), real SSH clients
(asyncssh, the helpers of `test_serve_ssh_rooms`), real game processes. Host A is the
installed `tui-tictactoe serve-ssh` in a process of its own, so that it can die by
SIGKILL; host B is a `SshServer` in the test's loop (the `host` fixture). Both present
the same host key (`--host-key FILE`). Nothing is timed: each wait is for a screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_serve_ssh
from pg_cluster import free_port
from pty_terminal import command
from test_serve_ssh import START_TIMEOUT, descendants, environment, gone
from test_serve_ssh_private import never_shows
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter, new_room, seated, until

from tui_tictactoe.cli import build_parser
from tui_tictactoe.record import Record
from tui_tictactoe.record.location import DATABASE_URL_ENV
from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.servers.room_service import shown_url
from tui_tictactoe.servers.ssh.main import settings_from
from tui_tictactoe.ui.rooms.lobby_screen import REFRESH

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


def serve_ssh(args: list[str], data: Path, **env: str) -> subprocess.Popen[bytes]:
    """`tui-tictactoe serve-ssh ARGS` in a process of its own, its log on a pipe."""
    environ = {key: value for key, value in os.environ.items() if key != DATABASE_URL_ENV}
    environ.update(TUI_TICTACTOE_DATA_DIR=str(data), **env)
    return subprocess.Popen([*command(), "serve-ssh", *args], stderr=subprocess.PIPE, env=environ)


async def listening_port(server: subprocess.Popen[bytes]) -> tuple[int, str]:
    """The port a started `serve-ssh` listens on, and its host key's fingerprint."""
    assert server.stderr is not None
    line = await asyncio.wait_for(asyncio.to_thread(server.stderr.readline), START_TIMEOUT)
    found = re.search(rb"listening on 127\.0\.0\.1:(\d+) \(host key (\S+)\)", line)
    assert found, line
    return int(found.group(1)), found.group(2).decode()


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Servers started as processes: killed, with every process under them, at the end."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for server in started:
        for pid in descendants(server.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
        server.wait()


# -- start-up -------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_database_out_of_reach_stops_the_start_with_one_line_and_status_1(
    how: str, tmp_path: Path
) -> None:
    url = f"postgresql://ttt:s3cret@127.0.0.1:{free_port()}/world"
    args, env = (["--database-url", url], {}) if how == "option" else ([], {DATABASE_URL_ENV: url})
    server = serve_ssh(["--port", "0", *args], tmp_path, **env)
    _, err = server.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert server.returncode == 1, lines
    assert lines == [
        f"tui-tictactoe serve-ssh: cannot use the database {shown_url(url)}: "
        "The room database cannot be reached: try again in a moment."
    ]
    assert "s3cret" not in lines[0] and "ttt:***@" in lines[0]  # the password stays hidden


def test_a_url_that_is_not_postgresql_stops_the_start(tmp_path: Path) -> None:
    server = serve_ssh(["--port", "0", "--database-url", "mysql://h/db"], tmp_path)
    _, err = server.communicate(timeout=60)
    assert server.returncode == 1
    assert err.decode().splitlines() == [
        "tui-tictactoe serve-ssh: not a postgresql:// URL: mysql://h/db"
    ]


@pytest.mark.parametrize(
    "url",
    [
        "host=db.internal user=ttt password=s3cret dbname=world",  # libpq's key=value form
        "host=db.internal password = 's3cret and more' dbname=world",
        "postgresql:host=db.internal password=s3cret",
    ],
)
def test_a_key_value_database_url_is_refused_without_its_password(url: str, tmp_path: Path) -> None:
    server = serve_ssh(["--port", "0", "--database-url", url], tmp_path)
    _, err = server.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert server.returncode == 1, lines
    assert len(lines) == 1 and "db.internal" in lines[0], lines
    assert "s3cret" not in lines[0] and "password" in lines[0] and "***" in lines[0]


def test_the_options_and_the_environment_make_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parse = build_parser().parse_args
    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    assert settings_from(parse(["serve-ssh"])).database_url is None  # SQLite, as before
    monkeypatch.setenv(DATABASE_URL_ENV, "postgresql://env/db")
    assert settings_from(parse(["serve-ssh"])).database_url == "postgresql://env/db"
    words = ["serve-ssh", "--database-url", "postgresql://pgbouncer:6432/db"]
    given = settings_from(parse(words))
    assert (given.database_url, given.listen_url) == ("postgresql://pgbouncer:6432/db", None)
    listen = settings_from(parse([*words, "--database-listen-url", "postgresql://pg/db"]))
    assert listen.listen_url == "postgresql://pg/db"


def test_shown_url_hides_the_password_only() -> None:
    assert shown_url("postgresql://u:p@h:5/d?sslmode=require") == "postgresql://u:***@h:5/d"
    assert shown_url("postgresql://u@h/d") == "postgresql://u@h/d"
    assert shown_url("postgresql:///d?host=/tmp") == "postgresql:///d"
    assert shown_url("host=h password=p dbname=d") == "host=h password=*** dbname=d"
    assert shown_url("password = 'p q\\' r' sslpassword=s") == "password = *** sslpassword=***"


async def test_every_game_gets_the_database_and_the_rooms_are_postgresql(
    pg_url: str, host: Any
) -> None:
    listen = pg_url.replace("127.0.0.1", "localhost")  # the same server, named otherwise
    hosted = await host(rooms=True, database_url=pg_url, listen_url=listen, fork_server=False)
    assert hosted.server.rooms is not None
    hub = hosted.server.rooms.hub
    assert isinstance(hub, PostgresHub) and (hub.url, hub.listen_url) == (pg_url, listen)
    _ann, code = await new_room(hosted.port, key=ANN_KEY)
    pid = await hosted.new_pid()
    assert environment(pid)[DATABASE_URL_ENV] == pg_url  # so its record is on PostgreSQL
    assert await hosted.server.rooms.hub.view(code)  # the room is a row of the database
    bare = await host(rooms=False, database_url=pg_url, fork_server=False)
    await enter(bare.port, "--difficulty easy", "bob", local="127.0.0.2")
    assert environment(await bare.new_pid())[DATABASE_URL_ENV] == pg_url  # without rooms too
    without = await host(rooms=False, fork_server=False)
    await enter(without.port, "--difficulty easy", "carol", local="127.0.0.3")
    assert DATABASE_URL_ENV not in environment(await without.new_pid())


async def test_database_connections_bounds_the_hubs_connections(pg_url: str, host: Any) -> None:
    """`--database-connections 2`: however many rooms change at once, the host's hub holds
    at most 2 connections to the database, plus its one LISTEN (a pooler's size is that)."""
    import psycopg

    from tui_tictactoe.rooms.view import Person

    args = build_parser().parse_args(["serve-ssh", "--database-connections", "2"])
    assert settings_from(args).database_connections == 2
    hosted = await host(rooms=True, database_url=pg_url, database_connections=2, fork_server=False)
    assert hosted.server.rooms is not None
    hub = hosted.server.rooms.hub
    counted: list[int] = []

    def hub_connections() -> int:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = 'tui-tictactoe-rooms'"
            ).fetchone()
        return int(row[0]) if row else 0

    async def watch_connections(done: asyncio.Event) -> None:
        while not done.is_set():
            counted.append(await asyncio.to_thread(hub_connections))
            await asyncio.sleep(0.005)

    done = asyncio.Event()
    watcher = asyncio.create_task(watch_connections(done))
    people = [Person(f"p{n}", "", f"127.0.1.{n}") for n in range(40)]
    await asyncio.gather(*(hub.create(person, 3, "X", True) for person in people))  # listed
    done.set()
    await watcher
    assert len({summary.code for summary in await hub.rooms()}) == len(people)
    assert max(counted) <= 2 + 1  # the pool, and LISTEN
    assert max(counted) >= 2  # the pool was in use


# -- two hosts, one world ---------------------------------------------------------------


async def test_two_hosts_one_room_and_a_host_killed_mid_round(
    pg_url: str, host: Any, processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    key = tmp_path / "host_key"
    args = ["--port", "0", "--database-url", pg_url, "--host-key", str(key)]
    a = serve_ssh([*args, "--reconnect-grace", "30"], tmp_path / "a")
    processes.append(a)
    port_a, fingerprint_a = await listening_port(a)
    hosted = await host(
        rooms=True,
        database_url=pg_url,
        host_key=key,
        room_limits=RoomLimits(reconnect_grace=30.0),
    )
    port_b = hosted.port
    assert hosted.server.fingerprint == fingerprint_a  # one key: players see one server

    ann, code = await new_room(port_a, key=ANN_KEY)  # made on A
    host_key = ann.conn.get_server_host_key()
    assert host_key is not None and host_key.get_fingerprint("sha256") == fingerprint_a
    bob = await enter(port_b, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")  # from B
    carol = await enter(port_a, f"--watch {code}", "carol", local="127.0.0.3")  # watched on A
    dave = await enter(port_b, f"--watch {code}", "dave", local="127.0.0.4")  # ... and on B
    await ann.shows("Your turn: you play X.")
    await bob.shows("Waiting for ann (X).")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4)):
        name, mark = ("ann", "O") if mover is ann else ("bob", "X")
        mover.send(str(cell))
        await other.shows(f"{name} played {cell}. Your turn: you play {mark}.")
        for watcher in (carol, dave):
            await watcher.shows(
                f"{name} played {cell}. {'bob' if mover is ann else 'ann'} to play."
            )

    a_processes = descendants(a.pid)
    a.send_signal(signal.SIGKILL)  # host A dies mid-round, ann's and carol's links with it
    a.wait()
    assert await ann.term.wait_closed(START_TIMEOUT) is None  # cut off: no exit status
    await gone(a_processes, within=START_TIMEOUT)  # its games end with it

    ann = await enter(port_b, f"--join {code}", "ann", ANN_KEY)  # back through B, same key
    await ann.shows("bob played 4. Your turn: you play X.")
    for mover, other, cell in ((ann, bob, 2), (bob, ann, 5)):
        name, mark = ("ann", "O") if mover is ann else ("bob", "X")
        mover.send(str(cell))
        await other.shows(f"{name} played {cell}. Your turn: you play {mark}.")
    ann.send("3")
    for session in (ann, bob, dave):
        await session.shows("ann wins!")
    view = await hosted.server.rooms.hub.view(code)
    assert view.result == "X" and view.moves == (1, 4, 2, 5, 3)

    record = Record.open_url(pg_url)  # the games' record: the same database
    try:  # the round once for each, though both sessions saved it; ratings moved once
        ann_fp, bob_fp = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
        await until("the round kept", lambda: len(record.people.rounds(bob_fp)) == 1)
        await until("the round kept", lambda: len(record.people.rounds(ann_fp)) == 1)
        rounds = record.people.rounds(ann_fp) + record.people.rounds(bob_fp)
        assert [(r.kind, r.symbol, r.result, r.moves) for r in rounds] == [
            ("room", "X", "win", (1, 4, 2, 5, 3)),
            ("room", "O", "loss", (1, 4, 2, 5, 3)),
        ]
        games = {entry.player: entry.games for entry in record.people.ratings()}
        assert games == {ann_fp: 1, bob_fp: 1}
    finally:
        record.close()


async def test_a_host_stopped_by_sigterm_leaves_the_room_going_on_another(
    pg_url: str, host: Any, processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    key = tmp_path / "host_key"
    a = serve_ssh(["--port", "0", "--database-url", pg_url, "--host-key", str(key)], tmp_path)
    processes.append(a)
    port_a, _ = await listening_port(a)
    hosted = await host(rooms=True, database_url=pg_url, host_key=key)
    ann, bob, code = await seated(port_a, hosted.port)
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    a.send_signal(signal.SIGTERM)  # in order: ann's seat waits for her, the room goes on
    assert await asyncio.to_thread(a.wait, 30) == 0
    assert a.stderr is not None
    log = a.stderr.read().decode()
    assert "stopped" in log and "Traceback" not in log and "exception" not in log.lower(), log
    assert await ann.term.wait_closed() == 1
    assert "the server is shutting down" in ann.term.stderr.decode()
    await bob.matches(r"ann left: waiting \d+ s( for them to come back|; c claims it in \d+ s)\.")
    ann = await enter(hosted.port, f"--join {code}", "ann", ANN_KEY)
    await ann.shows("Waiting for bob (O).")  # back through B, the round where it was
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")


# -- private and public rooms across hosts (issue 28) ----------------------------------


async def test_private_and_public_rooms_across_two_hosts(
    pg_url: str, host: Any, tmp_path: Path
) -> None:
    """A private room made on A: B's lobby never shows it, a friend joins it through B
    by its code; closed to spectators, a watch through B reads as a code of no room. A
    public room made on A is listed in B's lobby and joined from there."""
    key = tmp_path / "host_key"
    a = await host(rooms=True, database_url=pg_url, host_key=key)
    b = await host(rooms=True, database_url=pg_url, host_key=key)
    ann, code = await new_room(a.port, "annabel", local="127.0.0.2")
    stranger = await enter(b.port, None, "stranger", local="127.0.0.3")
    await stranger.shows("No public rooms.")
    await never_shows(stranger, (code, "annabel"), 2.5 * REFRESH)
    friend = await enter(b.port, f"--join {code}", "friend", local="127.0.0.4")
    await friend.shows(f"Room {code} · annabel (X) vs friend (O)")
    ann.send("w")
    await ann.shows("Watching off: spectators were sent away.")
    nowhere = "ZZZZ" if code != "ZZZZ" else "YYYY"
    screens = []
    for typed in (code, nowhere):
        eve = await enter(b.port, f"--watch {typed}", "eve", local="127.0.0.5")
        await eve.shows(f"There is no room {typed}: check the code.")
        await eve.shows("l Lobby")  # the refusal's own screen, not the room's last frame
        screens.append(eve.text.replace(typed, "CODE"))
    assert screens[0] == screens[1]
    await never_shows(stranger, (code, "annabel", "friend"), REFRESH + 1)

    bea = await enter(a.port, "--room new --public", "bea", local="127.0.0.6")
    listed = (await bea.matches(r"give them the code ([A-Z]{4})\.")).group(1)
    await stranger.shows(f"{listed} · bea · 3x3 · a seat free")  # B's lobby, read again
    stranger.send("tab", "tab", "enter")
    await stranger.shows(f"Room {listed} · bea (X) vs stranger (O)")
    await bea.shows("Your turn: you play X.")


def test_room_limits_come_from_the_options() -> None:
    parse = build_parser().parse_args
    assert settings_from(parse(["serve-ssh"])).room_limits == RoomLimits(max_rooms=16)
    words = ["serve-ssh", "--max-sessions", "40", "--rooms-per-address", "2"]
    assert settings_from(parse(words)).room_limits == RoomLimits(rooms_per_address=2, max_rooms=40)
    limits = settings_from(parse([*words, "--max-rooms", "7"])).room_limits
    assert limits == RoomLimits(rooms_per_address=2, max_rooms=7)
