"""`serve-web --database-url` (default `$TUI_TICTACTOE_DATABASE_URL`), as serve-ssh's.

The installed command in a process of its own, on a free loopback port, with a real
PostgreSQL database (`pg_url`, the throwaway cluster) or one out of reach; a websocket
session as the page opens it (the helpers of `test_serve_web`). A database that cannot
be used stops the start with one line and status 1, the password hidden; one that can
is where the games read the record: a visitor's leaderboard is that database's.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from pg_cluster import free_port
from pty_terminal import command
from test_serve_web import START_TIMEOUT, Screen, descendants, read_until

from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.record.location import DATABASE_URL_ENV
from tui_tictactoe.servers.database import shown_url


def serve_web(args: list[str], data: Path, **env: str) -> subprocess.Popen[bytes]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key != DATABASE_URL_ENV and not key.startswith("TEXTUAL")
    }
    environ.update(TUI_TICTACTOE_DATA_DIR=str(data), **env)
    return subprocess.Popen(
        [*command(), "serve-web", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environ,
    )


async def listening(
    http: aiohttp.ClientSession, server: subprocess.Popen[bytes], port: int
) -> None:
    """Until the page is served (the database was checked before listening)."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        assert server.poll() is None, server.stderr.read() if server.stderr else b""
        assert time.monotonic() < deadline, "serve-web did not answer"
        try:
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.05)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for server in started:
        if server.poll() is None:
            server.kill()
        server.wait(10)


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_database_out_of_reach_stops_the_start_with_one_line_and_status_1(
    how: str, tmp_path: Path
) -> None:
    url = f"postgresql://ttt:s3cret@127.0.0.1:{free_port()}/world"
    args, env = (["--database-url", url], {}) if how == "option" else ([], {DATABASE_URL_ENV: url})
    server = serve_web(["--port", str(free_port()), *args], tmp_path, **env)
    _, err = server.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert server.returncode == 1, lines
    assert len(lines) == 1, lines
    start = (
        f"tui-tictactoe serve-web: cannot use the database {shown_url(url)}: it cannot be reached ("
    )
    assert lines[0].startswith(start) and lines[0].endswith(")."), lines
    assert "s3cret" not in lines[0] and "ttt:***@" in lines[0]  # the password stays hidden


def test_a_url_that_is_not_postgresql_stops_the_start(tmp_path: Path) -> None:
    server = serve_web(["--port", str(free_port()), "--database-url", "mysql://h/db"], tmp_path)
    _, err = server.communicate(timeout=60)
    assert server.returncode == 1
    assert err.decode().splitlines() == [
        "tui-tictactoe serve-web: not a postgresql:// URL: mysql://h/db"
    ]


def test_a_newer_record_stops_the_start(pg_url: str, tmp_path: Path) -> None:
    import psycopg

    with Record.open_url(pg_url):
        pass  # the record's tables, as a host made them
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = version + 100")
    server = serve_web(["--port", str(free_port()), "--database-url", pg_url], tmp_path)
    _, err = server.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert server.returncode == 1 and len(lines) == 1, lines
    assert "newer than this program's" in lines[0] and "upgrade tui-tictactoe" in lines[0]


async def test_the_games_read_the_record_in_the_database(
    pg_url: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    with Record.open_url(pg_url) as record:  # a player of another host, in the world's record
        for _ in range(3):
            assert record.save_round(
                "SHA256:zed",
                FinishedRound(
                    display_name="zed",
                    difficulty="hard",
                    symbol="X",
                    first="human",
                    moves=(1, 4, 2, 5, 3),
                    result="win",
                ),
            )
    port = free_port()
    server = serve_web(["--port", str(port), "--database-url", pg_url], tmp_path)
    processes.append(server)
    screen = Screen()
    socket_url = f"ws://127.0.0.1:{port}/ws?width=80&height=24"
    async with aiohttp.ClientSession() as http:
        await listening(http, server, port)
        async with http.ws_connect(socket_url) as ws:
            await read_until(
                ws,
                screen,
                lambda: screen.visible_board() == dict.fromkeys(screen.cells, ""),
                "the empty board",
            )
            (game,) = [
                pid
                for pid in descendants(server.pid)
                if b"servers.web.child" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]
            environ = Path(f"/proc/{game}/environ").read_bytes().split(b"\0")
            assert f"{DATABASE_URL_ENV}={pg_url}".encode() in environ  # inherited ...
            assert pg_url.encode() not in Path(f"/proc/{game}/cmdline").read_bytes()  # ... only
            for key in ("s", "l"):  # the stats, then the server's leaderboard
                await ws.send_str(json.dumps(["stdin", key]))
            await read_until(ws, screen, lambda: "zed" in "\n".join(screen.lines), "zed")
    server.send_signal(signal.SIGTERM)
    assert server.wait(10) == 0
    assert not (tmp_path / "record.sqlite3").exists()  # no SQLite file beside it


def test_the_option_then_the_variable_name_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_tictactoe.cli import build_parser
    from tui_tictactoe.servers.database import database_url

    parse = build_parser().parse_args
    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    assert database_url(parse(["serve-web"]).database_url) is None  # SQLite, as before
    monkeypatch.setenv(DATABASE_URL_ENV, "postgresql://env/db")
    assert database_url(parse(["serve-web"]).database_url) == "postgresql://env/db"
    given = parse(["serve-web", "--database-url", "postgresql://h/db"])
    assert database_url(given.database_url) == "postgresql://h/db"
    monkeypatch.setenv(DATABASE_URL_ENV, "")
    assert database_url(parse(["serve-web"]).database_url) is None
