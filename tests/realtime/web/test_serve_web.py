"""`tui-tictactoe serve-web` at the HTTP and websocket level, as a browser talks to it.

The installed command serves on a free loopback port. The page must load and name
its websocket; a websocket session must start a game whose output, fed to a `pyte`
screen, shows the board, and a key sent the way the page sends it must play. When
the socket closes the game's process must go, and SIGTERM must stop the server.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pyte
import pytest
from pty_terminal import SGR, Box, Cell, Terminal, command
from server_tools import serve_web_async, stop_serve_web

START_TIMEOUT = 30.0
STEP_TIMEOUT = 15.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def children_of(ppid: int) -> list[int]:
    """Processes whose parent is `ppid`, found in /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    if int(stat.read().rpartition(b")")[2].split()[1]) == ppid:
                        found.append(int(entry))
            except OSError:
                pass
    return found


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def niceness(pid: int) -> int:
    """A process's nice value, from /proc (field 19 of stat)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return int(stat.read().rpartition(b")")[2].split()[16])


class Screen:
    """What a browser tab would show: the websocket's bytes drawn by pyte."""

    boxes = Terminal.boxes
    locate_board = Terminal.locate_board
    inside = Terminal.inside
    visible_board = Terminal.visible_board

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.cells: dict[Cell, Box] = {}

    def feed(self, data: bytes) -> None:
        self.stream.feed(SGR.sub(b"", data))

    @property
    def lines(self) -> list[str]:
        return list(self.screen.display)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["TUI_TICTACTOE_DATA_DIR"] = str(tmp_path)
    server = subprocess.Popen(
        [*command(), "serve-web", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        async with aiohttp.ClientSession() as http:
            while True:
                try:
                    async with http.get(url + "/") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                assert server.poll() is None, server.stderr.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "serve-web did not answer"
                await asyncio.sleep(0.05)
        yield server, url
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(10)


async def read_until(
    ws: aiohttp.ClientWebSocketResponse, screen: Screen, condition: Callable[[], bool], what: str
) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not condition():
        left = deadline - time.monotonic()
        assert left > 0, f"waited for {what}; screen:\n" + "\n".join(screen.lines)
        try:
            message = await ws.receive(timeout=left)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            screen.feed(message.data)
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            pytest.fail(f"the websocket closed while waiting for {what}")


async def test_the_page_is_served_and_names_its_websocket(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    _, url = served
    async with aiohttp.ClientSession() as http:
        async with http.get(url + "/") as response:
            assert response.status == 200
            page = await response.text()
        assert "<title>Tic-Tac-Toe</title>" in page
        # every address relative to the page (the websocket's is made by its script)
        assert "127.0.0.1" not in page
        async with http.get(url + "/static/js/textual.js") as response:
            assert response.status == 200


URL_IN_PAGE = re.compile(r"""(?:href|src)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)""")


async def test_the_page_asks_no_other_site_for_anything_and_says_one_line(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    """A host may be offline, or not want visitors' addresses sent elsewhere: every file the
    page names (styles, scripts, the font, images) comes from this server, and is there.
    The server's start says where to point a browser, in one line, without the internal
    command line a game runs as."""
    server, url = served
    async with aiohttp.ClientSession() as http:
        async with http.get(url + "/") as response:
            page = await response.text()
        named = [a or b for a, b in URL_IN_PAGE.findall(page)]
        assert any(name.endswith(".ttf") for name in named), named  # the font, served here
        for name in named:
            assert "//" not in name, f"the page names another site: {name}"
            async with http.get(f"{url}/{name}") as response:
                assert response.status == 200, name
    assert server.stderr is not None
    first = server.stderr.readline().decode()
    assert first.strip() == f"tui-tictactoe serve-web: open {url}/ in a browser; Ctrl+C stops"
    server.send_signal(signal.SIGTERM)
    rest = server.stderr.read().decode()
    assert "web_child" not in first + rest and "Serving" not in rest, rest


async def test_text_is_gzip_compressed_for_a_browser_that_accepts_it_and_plain_otherwise(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    """Issue 40: the page and the files it names (textual.js alone is 514 KB) go gzip-
    compressed to a client that says `Accept-Encoding: gzip`, and as they are to one that
    does not; the compressed body is the plain one once unpacked."""
    _, url = served
    async with aiohttp.ClientSession() as http, http.get(url + "/") as response:
        page = await response.text()
    names = ["", *(a or b for a, b in URL_IN_PAGE.findall(page))]
    assert "static/js/textual.js" in names and any(n.endswith(".ttf") for n in names), names
    plain_client = aiohttp.ClientSession(skip_auto_headers=["Accept-Encoding"])
    gzip_client = aiohttp.ClientSession(auto_decompress=False, headers={"Accept-Encoding": "gzip"})
    async with plain_client as plain_http, gzip_client as gzip_http:
        for name in names:
            async with plain_http.get(f"{url}/{name}") as response:
                assert response.status == 200, name
                assert "Content-Encoding" not in response.headers, name
                plain = await response.read()
            async with gzip_http.get(f"{url}/{name}") as response:
                assert response.status == 200, name
                assert response.headers.get("Content-Encoding") == "gzip", name
                packed = await response.read()
            assert gzip.decompress(packed) == plain, name
            sizes = (name, len(packed), len(plain))
            # text of some size to under half (textual.js: a third); the font, an icon: smaller
            assert len(packed) < len(plain) * (
                0.5 if len(plain) > 4096 and not name.endswith(".ttf") else 0.9
            ), sizes
            if name.endswith("textual.js"):
                assert len(packed) < len(plain) / 3, sizes


async def test_the_compressed_files_are_removed_when_the_server_stops(tmp_path: Path) -> None:
    """The page's files and their gzip copies (`web.compressed`) live in a directory of the
    server's own while it serves (they are what it sends), and go when SIGTERM stops it."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    async with serve_web_async(tmp_path, env={"TMPDIR": str(temporary)}) as served:
        (made,) = temporary.glob("tui-tictactoe-web-*")
        assert (made / "static" / "js" / "textual.js.gz").is_file()
        stop_serve_web(served)
        assert served.process.returncode == 0
    assert not made.exists()


def rounds_kept(data: Path) -> int:
    """Rounds in the record of the data directory, whoever played them (0: no record)."""
    path = data / "record.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        return count


async def test_a_websocket_session_plays_a_game_and_ends_it_on_close(
    served: tuple[subprocess.Popen[bytes], str], tmp_path: Path
) -> None:
    """The visitor plays as a guest: not as the server's user, and nothing is kept."""
    server, url = served
    screen = Screen()
    socket_url = url.replace("http", "ws") + "/ws?width=80&height=24"
    async with aiohttp.ClientSession() as http, http.ws_connect(socket_url) as ws:
        await read_until(
            ws,
            screen,
            lambda: screen.visible_board() == dict.fromkeys(screen.cells, ""),
            "the empty board",
        )
        games = descendants(server.pid)
        assert games, "no game process"
        # The game runs below the server, which relays every tab's bytes (a flood of keys in
        # four tabs slowed a fifth's at equal priority).
        assert {niceness(pid) for pid in games} == {niceness(server.pid) + 10}
        await ws.send_str(json.dumps(["stdin", "5"]))  # as the page sends a key
        await read_until(
            ws,
            screen,
            lambda: (
                (board := screen.visible_board()) is not None
                and board[(1, 1)] == "X"
                and list(board.values()).count("O") == 1
            ),
            "X in the centre and the AI's reply",
        )
        assert "guest · you X vs AI O" in "\n".join(screen.lines)
        await ws.send_str(json.dumps(["stdin", "r"]))  # a round left: kept for a player
        await read_until(
            ws,
            screen,
            lambda: screen.visible_board() == dict.fromkeys(screen.cells, ""),
            "a new round",
        )
    deadline = time.monotonic() + STEP_TIMEOUT
    while any(os.path.exists(f"/proc/{pid}") for pid in games):
        assert time.monotonic() < deadline, "the game outlived its websocket"
        await asyncio.sleep(0.05)
    assert rounds_kept(tmp_path) == 0  # the round left by `r` is not saved
    server.send_signal(signal.SIGTERM)
    assert server.wait(10) == 0
