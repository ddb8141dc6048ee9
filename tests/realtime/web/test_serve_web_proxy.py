"""`serve-web --forwarded-from`: each visitor by its own address behind a real reverse proxy.

Real parts: the installed `serve-web` on a free loopback port, a real HAProxy in HTTP mode in
front of it (`option forwardfor`: it appends the address it was connected from to the
request's `X-Forwarded-For`; `.ci/run` installs it, and in CI its absence fails), websocket
clients bound to 127.0.0.2 ... 127.0.0.10 as visitors from as many addresses, and the
server's JSON log. What they check: through the proxy, 8 addresses get 8 games under
`--max-per-address 1`, and a second tab from one of them is refused, whatever header it
sends; a client that connects straight to the server, from a peer that is not trusted, is
its own address whatever `X-Forwarded-For` it writes; with `--forwarded-header forwarded`
only the RFC 7239 header is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from server_tools import HAPROXY, Served, free_port, until_listening
from server_tools import serve_web_async as serve_web
from test_serve_web_hostile import board_shown, from_address, handshake_refused

VISITORS = [f"127.0.0.{n}" for n in range(2, 10)]  # 8 addresses, each through the proxy
STRAIGHT = "127.0.0.10"  # a client that skips the proxy (not a trusted peer)
TRUST = ("--forwarded-from", "127.0.0.1/32", "--max-per-address", "1")  # HAProxy's address
TOO_MANY = "too many games from your address (1 at once)"


@pytest.fixture
async def http_proxy(tmp_path: Path) -> AsyncIterator[Callable[[int], Any]]:
    """`start(server_port)`: HAProxy in HTTP mode on a free port of 127.0.0.1, passing every
    request (websockets too) to the server with `option forwardfor`; returns its port."""
    if HAPROXY is None:
        why = "NO HAPROXY TESTS: haproxy was not found; apt-get install haproxy (.ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    running: list[subprocess.Popen[bytes]] = []

    async def start(server: int) -> int:
        port = free_port()
        path = tmp_path / "haproxy.cfg"
        path.write_text(
            "global\n    maxconn 200\n"
            "defaults\n    mode http\n    option forwardfor\n    timeout connect 5s\n"
            "    timeout client 1m\n    timeout server 1m\n    timeout tunnel 1h\n"
            f"frontend web\n    bind 127.0.0.1:{port}\n    default_backend game\n"
            f"backend game\n    server s 127.0.0.1:{server}\n"
        )
        assert HAPROXY is not None
        proc = subprocess.Popen([HAPROXY, "-db", "-f", str(path)], stderr=subprocess.DEVNULL)
        running.append(proc)
        await until_listening(port, proc)
        return port

    yield start
    for proc in running:
        proc.terminate()
        proc.wait(10)


def records(served: Served, event: str) -> list[dict[str, Any]]:
    return [
        record
        for line in served.log_lines()
        if line.strip() and (record := json.loads(line))["event"] == event
    ]


async def test_behind_haproxy_8_addresses_get_8_games_and_a_spoofed_header_is_ignored(
    tmp_path: Path, http_proxy: Any
) -> None:
    async with (
        serve_web(tmp_path, *TRUST, "--max-sessions", "16", "--log-format", "json") as served,
        contextlib.AsyncExitStack() as stack,
    ):
        proxy = f"ws://127.0.0.1:{await http_proxy(served.port)}/ws"
        clients = {
            address: await stack.enter_async_context(from_address(address))
            for address in [*VISITORS, STRAIGHT]
        }
        tabs = [
            await stack.enter_async_context(clients[address].ws_connect(proxy))
            for address in VISITORS
        ]
        await asyncio.gather(*(board_shown(tab) for tab in tabs))  # 8 games, all playing
        # A second tab from a visitor's address is refused, though it names another
        # address itself: the proxy appends the one it saw, and the right-most is read.
        spoof = {"X-Forwarded-For": "127.0.0.77"}
        status, text = await handshake_refused(clients[VISITORS[0]], proxy, spoof)
        assert status == 429 and TOO_MANY in text
        # Straight to the server: the header of a peer that is not trusted is not read.
        ws_url = served.ws_url
        tabs.append(await stack.enter_async_context(clients[STRAIGHT].ws_connect(ws_url)))
        straight = {"X-Forwarded-For": "127.0.0.78"}
        status, text = await handshake_refused(clients[STRAIGHT], ws_url, straight)
        assert status == 429 and TOO_MANY in text
        refused = [r["address"] for r in records(served, "connection.refused")]
        assert refused == [VISITORS[0], STRAIGHT]
        for tab in tabs:
            await tab.close()
    closed = sorted(r["address"] for r in records(served, "connection.closed"))
    assert closed == sorted([*VISITORS, STRAIGHT])


async def test_the_forwarded_header_is_read_when_named_and_then_only_it(
    tmp_path: Path,
) -> None:
    """The test plays the proxy (a trusted peer, 127.0.0.1) that writes RFC 7239 `Forwarded`
    (HAProxy 2.6 cannot): its `for=` is the visitor; an `X-Forwarded-For` is not read."""
    args = (*TRUST, "--forwarded-header", "forwarded", "--log-format", "json")
    async with (
        serve_web(tmp_path, *args) as served,
        from_address("127.0.0.1") as proxy,
        contextlib.AsyncExitStack() as stack,
    ):
        url = served.ws_url

        async def tab(headers: dict[str, str]) -> aiohttp.ClientWebSocketResponse:
            ws = await stack.enter_async_context(proxy.ws_connect(url, headers=headers))
            await board_shown(ws)
            return ws

        first = await tab({"Forwarded": 'for="[2001:db8::5]:4711";proto=https'})
        again = {"Forwarded": 'for=192.0.2.1, for="[2001:db8::5]"'}
        status, text = await handshake_refused(proxy, url, again)
        assert status == 429 and TOO_MANY in text
        second = await tab({"Forwarded": "for=192.0.2.1", "X-Forwarded-For": "2001:db8::5"})
        third = await tab({"X-Forwarded-For": "192.0.2.1"})  # no Forwarded: the peer itself
        for ws in (first, second, third):
            await ws.close()
    assert [r["address"] for r in records(served, "connection.refused")] == ["2001:db8::5"]
    closed = sorted(r["address"] for r in records(served, "connection.closed"))
    assert closed == ["127.0.0.1", "192.0.2.1", "2001:db8::5"]
