"""`serve-web --metrics`, `/livez` and `/readyz`, `--log-format json` and the drain (issue 32).

Real parts: the installed `serve-web` on free loopback ports, its metrics scraped over HTTP
and read with prometheus_client's own text parser; websocket clients as a browser tab
talks (the helpers of `test_serve_web`); its JSON log read line by line; SIGUSR1 sent to
the real process. Each check waits for what it expects (never a fixed sleep).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from pty_terminal import command
from server_tools import STDERR_LINES, Served, noisy_games
from server_tools import serve_web_async as serve_web
from test_serve_web import STEP_TIMEOUT, Screen, free_port
from test_serve_web_hostile import board_shown, handshake_refused, page_refused

from tui_tictactoe.servers.ops.stderr_relay import MAX_LINE

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    """Every sample of /metrics by (name, labels), read by prometheus_client's parser."""
    status, text = await get(port, "/metrics")
    assert status == 200, text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def until_sample(port: int, name: str, value: float, **labels: str) -> Samples:
    key = (name, tuple(sorted(labels.items())))
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        samples = await scrape(port)
        if samples.get(key) == value:
            return samples
        assert time.monotonic() < deadline, f"{name}{labels} is {samples.get(key)}, not {value}"
        await asyncio.sleep(0.05)


def records(served: Served) -> list[dict[str, Any]]:
    """The JSON log so far, one object a line (a line that is not JSON fails the test)."""
    return [json.loads(line) for line in served.log_lines() if line.strip()]


async def metrics_port(served: Served) -> int:
    """The metrics' port (asked for as port 0), from the `server.listening` event."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        listening = [r for r in records(served) if r["event"] == "server.listening"]
        if listening:
            assert listening[0]["port"] == served.port
            return int(listening[0]["metrics_port"])
        assert time.monotonic() < deadline, served.log_lines()
        await asyncio.sleep(0.05)


async def until_logged(served: Served, event: str, count: int = 1) -> list[dict[str, Any]]:
    deadline = time.monotonic() + STEP_TIMEOUT
    while len(found := [r for r in records(served) if r["event"] == event]) < count:
        assert time.monotonic() < deadline, f"no {event} in\n" + "\n".join(served.log_lines())
        await asyncio.sleep(0.05)
    return found


async def until_shown(
    ws: aiohttp.ClientWebSocketResponse, screen: Screen, condition: Callable[[], bool], what: str
) -> None:
    """Read the tab into `screen` until `condition`. Each read is bounded by `wait_for`: the
    server's pings (every 15 s) restart a `receive(timeout=...)` of aiohttp's own."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"waited for {what}:\n" + "\n".join(screen.lines)
        with contextlib.suppress(TimeoutError):
            message = await asyncio.wait_for(ws.receive(), 0.5)
            assert message.type == aiohttp.WSMsgType.BINARY, f"{message} waiting for {what}"
            screen.feed(message.data)


def centre_taken(screen: Screen) -> Callable[[], bool]:
    return lambda: (screen.visible_board() or {}).get((1, 1)) == "X"


async def said_until_closed(ws: aiohttp.ClientWebSocketResponse) -> bytes:
    """Everything the tab is sent until its websocket closes."""
    said = b""
    while (
        message := await asyncio.wait_for(ws.receive(), STEP_TIMEOUT)
    ).type == aiohttp.WSMsgType.BINARY:
        said += message.data
    return said


OPS = ("--metrics", "127.0.0.1:0", "--log-format", "json")


async def test_metrics_follow_tabs_refusals_first_frames_and_games(tmp_path: Path) -> None:
    async with (
        serve_web(tmp_path, *OPS, "--max-sessions", "1") as served,
        aiohttp.ClientSession() as http,
    ):
        port = await metrics_port(served)
        before = await scrape(port)
        assert before[("tui_tictactoe_sessions", (("kind", "ai"),))] == 0
        assert before[("tui_tictactoe_first_frame_seconds_count", ())] == 0
        async with http.ws_connect(served.ws_url + "?width=80&height=24") as ws:
            await board_shown(ws)
            samples = await until_sample(port, "tui_tictactoe_sessions", 1, kind="ai")
            assert samples[("tui_tictactoe_first_frame_seconds_count", ())] == 1
            assert 0 < samples[("tui_tictactoe_first_frame_seconds_sum", ())] < 60
            assert samples[("tui_tictactoe_games_started_total", ())] == 1
            status, text = await handshake_refused(http, served.ws_url)
            assert status == 503 and "full" in text
            code, _ = await page_refused(http, served.ws_url, {"Origin": "http://evil.test"})
            assert code == 4403  # a page: told by a close code
            samples = await until_sample(port, "tui_tictactoe_refusals_total", 1, reason="full")
            assert samples[("tui_tictactoe_refusals_total", (("reason", "origin"),))] == 1
            assert samples[("tui_tictactoe_connections_total", ())] == 3
            await ws.send_str(json.dumps(["stdin", "\x11"]))  # Ctrl+Q: the player quits
            await said_until_closed(ws)
        await until_sample(port, "tui_tictactoe_game_exits_total", 1, cause="exited")
        await until_sample(port, "tui_tictactoe_sessions", 0, kind="ai")
        closed = (await until_logged(served, "connection.closed"))[0]
    assert re.fullmatch(r"[0-9a-f]{8}", closed["session"])
    assert closed["address"] == "127.0.0.1" and closed["kind"] == "ai"
    assert closed["ending"] == "the game ended" and closed["seconds"] >= 0
    refused = [r for r in records(served) if r["event"] == "connection.refused"]
    assert sorted(r["reason"] for r in refused) == ["full", "origin"]
    for record in records(served):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", record["time"])
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+|message", record["event"]), record
    assert [r["event"] for r in records(served)][-2:] == ["server.stopping", "server.stopped"]


async def test_a_drain_refuses_new_tabs_lets_the_round_end_then_exits_0(tmp_path: Path) -> None:
    """SIGUSR1: `/readyz` says draining and new tabs are refused, the tab in play is told and
    plays on; once its round is over the game ends, the tab reads why, the server exits 0."""
    async with (
        serve_web(tmp_path, *OPS) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        port = await metrics_port(served)
        assert await get(port, "/livez") == (200, "ok\n")
        assert await get(port, "/readyz") == (200, "ready\n")
        screen = await board_shown(ws)
        await ws.send_str(json.dumps(["stdin", "5"]))
        await until_shown(ws, screen, centre_taken(screen), "X in the centre")
        served.process.send_signal(signal.SIGUSR1)
        await until_sample(port, "tui_tictactoe_draining", 1)
        assert await get(port, "/readyz") == (503, "not ready: draining\n")
        assert await get(port, "/livez") == (200, "ok\n")
        status, text = await handshake_refused(http, served.ws_url)
        assert status == 503 and "restarting" in text
        await until_shown(
            ws, screen, lambda: "server restarts after your" in "\n".join(screen.lines), "told"
        )
        assert served.process.poll() is None  # the round in play goes on
        await ws.send_str(json.dumps(["stdin", "r"]))  # the round left: nothing in play
        assert b"this server restarted after your round" in await said_until_closed(ws)
        assert served.process.wait(STEP_TIMEOUT) == 0
    ended = (await until_logged(served, "drain.ended"))[0]
    assert ended["reason"] == "idle"
    assert (await until_logged(served, "drain.begun"))[0]["timeout_seconds"] == 600
    assert [r["reason"] for r in records(served) if r["event"] == "connection.refused"] == [
        "draining"
    ]


async def test_a_drain_ends_at_its_timeout_telling_the_tab(tmp_path: Path) -> None:
    async with (
        serve_web(tmp_path, *OPS, "--drain-timeout", "1") as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        screen = await board_shown(ws)
        await ws.send_str(json.dumps(["stdin", "5"]))
        await until_shown(ws, screen, centre_taken(screen), "X in the centre")
        served.process.send_signal(signal.SIGUSR1)
        assert b"this server is restarting" in await said_until_closed(ws)
        assert served.process.wait(STEP_TIMEOUT) == 0
    assert (await until_logged(served, "drain.ended"))[0]["reason"] == "timeout"


async def until_ready(port: int, answer: tuple[int, str]) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT
    while (said := await get(port, "/readyz")) != answer:
        assert time.monotonic() < deadline, said
        await asyncio.sleep(0.05)


async def test_readyz_says_full_while_every_game_is_taken(tmp_path: Path) -> None:
    """A balancer sends the next tab elsewhere while this host is full: /readyz is 503
    "full" with two real tabs in its two games, and ready again once one leaves."""
    async with (
        serve_web(tmp_path, *OPS, "--max-sessions", "2") as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as first,
        http.ws_connect(served.ws_url + "?width=80&height=24") as second,
    ):
        port = await metrics_port(served)
        await board_shown(first)
        await board_shown(second)
        await until_ready(port, (503, "not ready: full (2 games at once)\n"))
        await first.send_str(json.dumps(["stdin", "\x11"]))  # Ctrl+Q: the player quits
        await said_until_closed(first)
        await until_ready(port, (200, "ready\n"))


async def test_a_game_s_stderr_is_logged_as_json_lines_of_its_session(tmp_path: Path) -> None:
    """A real game that writes to its stderr as it starts (`noisy_games`): under
    --log-format json every line of the server's log is JSON, the game's lines among them
    with its session's fields, each bounded in length and cleaned, a flood counted."""
    env = noisy_games(tmp_path / "site", "os.environ.get('TUI_TICTACTOE_WEB_SESSION')")
    async with (
        serve_web(tmp_path, "--log-format", "json", env=env) as served,
        aiohttp.ClientSession() as http,
    ):
        async with http.ws_connect(served.ws_url + "?width=80&height=24") as ws:
            await board_shown(ws)
            await ws.send_str(json.dumps(["stdin", "\x11"]))  # Ctrl+Q: the player quits
            await said_until_closed(ws)
        closed = (await until_logged(served, "connection.closed"))[0]
    logged = records(served)  # every line JSON, or this fails
    relayed = [r for r in logged if r["event"] == "game.stderr"]
    for record in relayed:
        assert record["session"] == closed["session"] and record["address"] == "127.0.0.1"
    plain, long, escaped = relayed[:3]
    assert plain["line"] == "relay test: a plain line" and "truncated" not in plain
    assert long["truncated"] is True and long["line"].startswith("long xxx")
    assert len(long["line"].encode()) <= MAX_LINE
    assert escaped["line"] == "red and a bell"
    dropped = sum(r["count"] for r in logged if r["event"] == "game.stderr_dropped")
    assert len(relayed) + dropped == 3 + STDERR_LINES
    assert len(relayed) < STDERR_LINES / 2  # a burst, then a few a second: the rest counted


async def test_a_game_that_fails_to_start_is_told_in_json_lines_only(tmp_path: Path) -> None:
    """A game that exits before its first frame: textual-serve says so through Python's
    logging, which its own set-up wrote with Rich to stdout; now that is a line of the
    server's log like any library's warning, and every line (stdout's too) is JSON."""
    when = "os.environ.get('TUI_TICTACTOE_WEB_SESSION')"
    env = noisy_games(tmp_path / "site", when, exit_status=3)
    async with (
        serve_web(tmp_path, "--log-format", "json", env=env) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        deadline = time.monotonic() + STEP_TIMEOUT
        while not any("failed to start" in line for line in served.log_lines()):
            assert time.monotonic() < deadline, served.log_lines()[-5:]
            await asyncio.sleep(0.05)
        await ws.send_str(json.dumps(["stdin", "x"]))  # a key: the game is found gone
        await said_until_closed(ws)
        closed = (await until_logged(served, "connection.closed"))[0]
    logged = records(served)  # every line JSON, or this fails
    [failed] = [r for r in logged if "failed to start" in r.get("message", "")]
    assert failed["event"] == "message"
    assert failed["message"] == "textual-serve: Application failed to start"
    assert closed["ending"] == "the game is no longer running"
    relayed = [r["line"] for r in logged if r["event"] == "game.stderr"]
    assert relayed[0] == "relay test: a plain line"


async def test_readyz_says_when_the_database_is_out_of_reach(
    tmp_path: Path, pg_cluster: Any
) -> None:
    url = pg_cluster.new_database()
    try:
        async with serve_web(tmp_path, *OPS, "--database-url", url) as served:
            port = await metrics_port(served)
            assert await get(port, "/readyz") == (200, "ready\n")
            pg_cluster.drop_database(url)
            deadline = time.monotonic() + STEP_TIMEOUT + 10
            while (answer := await get(port, "/readyz")) != (
                503,
                "not ready: the database is out of reach\n",
            ):
                assert time.monotonic() < deadline, answer
                await asyncio.sleep(0.2)
    finally:
        pg_cluster.drop_database(url)


def test_a_metrics_port_in_use_is_one_line_and_status_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        result = subprocess.run(
            [*command(), "serve-web", "--port", str(free_port()), "--metrics", f"127.0.0.1:{busy}"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "TUI_TICTACTOE_DATA_DIR": str(tmp_path)},
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"tui-tictactoe serve-web: cannot listen on 127.0.0.1:{busy}: Address already in use"
    ]
