"""`serve-ssh --metrics`, `/livez` and `/readyz`, `--log-format json` and the drain (issue 32).

Real parts: a `SshServer` in the test's loop with its metrics port on 127.0.0.1, scraped
over HTTP with aiohttp and read with prometheus_client's own text parser; real SSH clients
and games. Each check waits for what it expects (never a fixed sleep).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import test_serve_ssh
from prometheus_client.parser import text_string_to_metric_families
from pty_terminal import command
from server_tools import STDERR_LINES, noisy_games
from test_serve_ssh import STEP_TIMEOUT, connect, open_game, play
from test_serve_ssh_rooms import enter, new_room

from tui_tictactoe.servers.games.fork_server import MODULE as FORK_SERVER
from tui_tictactoe.servers.ops.events import REFUSAL_REASONS, refusal_reason
from tui_tictactoe.servers.ops.log_format import KNOWN_LINES, ServerLog
from tui_tictactoe.servers.ops.stderr_relay import MAX_LINE

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
METRICS = ("127.0.0.1", 0)


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics by (name, labels), read by prometheus_client's parser."""
    status, text = await get(port, "/metrics")
    assert status == 200, text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def until_sample(port: int, name: str, labels: dict[str, str], value: float) -> None:
    key = (name, tuple(sorted(labels.items())))
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        found = (await scrape(port)).get(key)
        if found == value:
            return
        assert time.monotonic() < deadline, f"{name}{labels} is {found}, not {value}"
        await asyncio.sleep(0.05)


def ops_port(hosted: Any) -> int:
    assert hosted.server.ops is not None and hosted.server.ops.port
    return int(hosted.server.ops.port)


async def test_metrics_follow_sessions_refusals_and_games(host: Any) -> None:
    hosted = await host(metrics=METRICS, max_sessions=1)
    port = ops_port(hosted)
    samples = await scrape(port)
    assert samples[("tui_tictactoe_sessions", (("kind", "ai"),))] == 0
    assert samples[("tui_tictactoe_refusals_total", (("reason", "full"),))] == 0
    for name in samples:  # bounded labels: never an address or a user name
        assert not any("127.0.0" in value or "alice" in value for _, value in name[1])

    term = await play(hosted.port, username="alice")
    await until_sample(port, "tui_tictactoe_sessions", {"kind": "ai"}, 1)
    samples = await scrape(port)
    assert samples[("tui_tictactoe_games_started_total", ())] == 1
    assert samples[("tui_tictactoe_first_frame_seconds_count", ())] == 1
    assert samples[("tui_tictactoe_connections_total", ())] == 1

    full = await open_game(await connect(hosted.port, local="127.0.0.2"))
    assert await full.wait_closed() == 1
    await until_sample(port, "tui_tictactoe_refusals_total", {"reason": "full"}, 1)

    term.send("q")
    assert await term.wait_closed() == 0
    await until_sample(port, "tui_tictactoe_sessions", {"kind": "ai"}, 0)
    await until_sample(port, "tui_tictactoe_game_exits_total", {"cause": "exited"}, 1)


async def test_room_metrics_count_sessions_by_kind_moves_and_rounds(host: Any) -> None:
    hosted = await host(metrics=METRICS, rooms=True)
    port = ops_port(hosted)
    ann, code = await new_room(hosted.port)
    bob = await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")
    carol = await enter(hosted.port, f"--watch {code}", "carol", local="127.0.0.3")
    await until_sample(port, "tui_tictactoe_sessions", {"kind": "room_player"}, 2)
    await until_sample(port, "tui_tictactoe_sessions", {"kind": "spectator"}, 1)
    await until_sample(port, "tui_tictactoe_rooms", {}, 1)
    await ann.shows("Your turn: you play X.")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        mover.send(str(cell))
        await other.matches(rf"played {cell}\. Your turn")
    ann.send("3")
    for session in (ann, bob, carol):
        await session.shows("ann wins!")
    await until_sample(port, "tui_tictactoe_rounds_total", {"board": "3", "result": "x_won"}, 1)
    # each move reached two other screens (the opponent's and carol's): 5 moves, 10 times
    # (the last delivery may be counted just after a screen drew it: waited for, not read once)
    await until_sample(port, "tui_tictactoe_move_delivery_seconds_count", {}, 10)


async def test_livez_and_readyz_say_whether_to_send_players(host: Any) -> None:
    hosted = await host(metrics=METRICS)
    port = ops_port(hosted)
    assert await get(port, "/livez") == (200, "ok\n")
    assert await get(port, "/readyz") == (200, "ready\n")
    hosted.server.drain.begin()
    assert await get(port, "/readyz") == (503, "not ready: draining\n")
    assert await get(port, "/livez") == (200, "ok\n")
    await until_sample(port, "tui_tictactoe_draining", {}, 1)
    await asyncio.wait_for(hosted.server.drain.done.wait(), STEP_TIMEOUT)  # no game: at once


async def test_readyz_says_full_while_every_game_is_taken(host: Any) -> None:
    """A balancer sends the next player elsewhere while this host is full: /readyz is 503
    "full" with two real players in its two games, and ready again once one leaves."""
    hosted = await host(metrics=METRICS, max_sessions=2)
    port = ops_port(hosted)
    ann = await play(hosted.port, username="ann")
    assert await get(port, "/readyz") == (200, "ready\n")
    bob = await play(hosted.port, username="bob", local="127.0.0.2")
    assert await get(port, "/readyz") == (503, "not ready: full (2 games at once)\n")
    ann.send("q")
    assert await ann.wait_closed() == 0
    deadline = time.monotonic() + STEP_TIMEOUT
    while (answer := await get(port, "/readyz")) != (200, "ready\n"):
        assert time.monotonic() < deadline, answer
        await asyncio.sleep(0.05)
    bob.send("q")
    assert await bob.wait_closed() == 0


async def test_a_scrape_that_never_ends_its_request_stalls_no_game(host: Any) -> None:
    """Slow and oversized requests on the metrics port: a game plays on, /livez answers."""
    hosted = await host(metrics=METRICS)
    port = ops_port(hosted)
    stalls = [await asyncio.open_connection("127.0.0.1", port) for _ in range(8)]
    for _, writer in stalls:
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never finished
    _, big = await asyncio.open_connection("127.0.0.1", port)
    big.write(b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n")
    term = await play(hosted.port)  # its first frame, with the port held
    assert "Your turn" in term.text
    assert await get(port, "/livez") == (200, "ok\n")
    for _, writer in [*stalls]:
        writer.close()
    big.close()


def test_every_refusal_wording_has_a_bounded_reason() -> None:
    labels = {label for _, label in REFUSAL_REASONS}
    for ending, label in (
        ("refused: the server is full (16 games at once)", "full"),
        ("refused: too many games from your address (4 at once)", "address_games"),
        ("refused: too many connections logging in from one address", "address_logging_in"),
        ("dropped: not a PROXY protocol header", "proxy_header"),
        ("refused: made room for a newer connection", "displaced"),
        ("refused: no pty", "no_pty"),
        ("refused subsystem 'sftp'", "subsystem"),
        ("refused: anything new", "other"),
    ):
        assert refusal_reason(ending) == label
        assert label in labels or label == "other"


def test_the_plain_lines_the_json_log_names_still_exist() -> None:
    """`KNOWN_LINES` names lines by how they start in other modules: each start is there."""
    from pathlib import Path

    import tui_tictactoe

    package = Path(tui_tictactoe.__file__).parent
    sources = "".join(
        (package / path).read_text(encoding="utf-8")
        for path in (
            "rooms/postgres/tasks.py",
            "rooms/socket/server.py",
            "servers/games/fork_server.py",
        )
    )
    for start, _ in KNOWN_LINES:
        stem = start.replace("the database is out of reach", "the database {")
        stem = stem.replace("the database is back", "the database {")
        assert stem.split("{")[0] in sources, start


async def test_json_log_lines_parse_with_stable_events_and_no_address_in_metrics(
    host: Any,
) -> None:
    stream = io.StringIO()
    log = ServerLog("json", stream)
    hosted = await host(metrics=METRICS, max_sessions=1)
    hosted.server._log = log  # the same server, its log in JSON
    term = await play(hosted.port, username='x"y}{')
    full = await open_game(await connect(hosted.port, local="127.0.0.2"))
    assert await full.wait_closed() == 1
    term.send("q")
    assert await term.wait_closed() == 0
    deadline = time.monotonic() + STEP_TIMEOUT
    while '"connection.closed"' not in stream.getvalue() or "game over" not in stream.getvalue():
        assert time.monotonic() < deadline, stream.getvalue()
        await asyncio.sleep(0.05)
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    for record in records:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", record["time"])
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+|message", record["event"])
    closed = [r for r in records if r["event"] == "connection.closed" and r["kind"] == "ai"]
    assert len(closed) == 1, records
    game = closed[0]
    assert game["user"] == 'x"y}{'  # as it came, inside a JSON string
    assert set(game) >= {"time", "event", "session", "address", "key", "seconds", "ending"}
    assert game["ending"] == "game over, exit 0" and game["address"] == "127.0.0.1"
    assert re.fullmatch(r"[0-9a-f]{8}", game["session"])


@pytest.mark.parametrize("bad", ["9464", "host:", "[::1]:99999", "a b:1"])
def test_a_bad_metrics_address_is_refused(bad: str) -> None:
    import argparse

    from tui_tictactoe.servers.arguments import metrics_address

    with pytest.raises(argparse.ArgumentTypeError):
        metrics_address(bad)


def test_the_fork_server_s_stderr_is_logged_as_json_lines(tmp_path: Path) -> None:
    """A real serve-ssh whose fork server writes to its stderr as it starts (`noisy_games`):
    under --log-format json every line of the service's log is JSON, the fork server's lines
    among them (`source: fork_server`), bounded in length and cleaned, a flood counted."""
    env = {**os.environ, "TUI_TICTACTOE_DATA_DIR": str(tmp_path)}
    env.update(noisy_games(tmp_path / "site", f"{FORK_SERVER!r} in sys.orig_argv"))
    log = tmp_path / "serve-ssh.log"
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [*command(), "serve-ssh", "--port", "0", "--log-format", "json"],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )
    try:
        deadline = time.monotonic() + STEP_TIMEOUT
        while '"game.stderr"' not in log.read_text(errors="replace"):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.05)
        server.terminate()
        assert server.wait(STEP_TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    logged = [json.loads(line) for line in log.read_text().splitlines()]  # each line JSON
    relayed = [r for r in logged if r["event"] == "game.stderr"]
    assert {r["source"] for r in relayed} == {"fork_server"}
    plain, long, escaped = relayed[:3]
    assert plain["line"] == "relay test: a plain line"
    assert long["truncated"] is True and len(long["line"].encode()) <= MAX_LINE
    assert escaped["line"] == "red and a bell"
    dropped = sum(r["count"] for r in logged if r["event"] == "game.stderr_dropped")
    assert len(relayed) + dropped == 3 + STDERR_LINES
    assert len(relayed) < STDERR_LINES / 2
    assert logged[-1]["event"] == "server.stopped"
