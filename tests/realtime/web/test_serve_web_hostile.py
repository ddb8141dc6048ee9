"""`tui-tictactoe serve-web` against hostile pages and clients (issue 19), over loopback.

Each test runs the installed command on a free port and talks to it with a real aiohttp
client, as a browser or a script would: a page from another site must not open a game,
a size a client sends must reach the game clamped (and the game stay small), the caps
and the idle timeout must hold with a reason given, `/static/` must not list its files,
SIGTERM must end every session quickly, and a tab that stops reading must not leave
its game stuck on a full pipe.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
from server_tools import Served
from server_tools import serve_web_async as serve_web
from test_serve_web import START_TIMEOUT, STEP_TIMEOUT, Screen, descendants, read_until

from tui_tictactoe.servers.web.session import HEARTBEAT

MAX_GAME_MEMORY = 200 * 1024 * 1024  # bytes: a game at the size cap stays under this
CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


def alive(pid: int) -> bool:
    """Running (a zombie has finished: only its exit status is left)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[0] != b"Z"
    except OSError:
        return False


def games_of(served: Served) -> list[int]:
    """The server's game processes (`python -m ... play`)."""
    found = []
    for pid in descendants(served.process.pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if cmdline.read().endswith(b"\0play\0"):
                    found.append(pid)
        except OSError:
            pass
    return found


def peak_memory(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for {pid}")


def environment_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        pairs = environ.read().decode(errors="replace").split("\0")
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


async def wait_for_games(served: Served, count: int) -> list[int]:
    deadline = time.monotonic() + START_TIMEOUT
    while len(games := games_of(served)) < count:
        assert time.monotonic() < deadline, f"{len(games)} games, not {count}"
        await asyncio.sleep(0.05)
    return games


async def wait_gone(pids: list[int], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def board_shown(ws: aiohttp.ClientWebSocketResponse) -> Screen:
    screen = Screen()
    await read_until(
        ws,
        screen,
        lambda: screen.visible_board() == dict.fromkeys(screen.cells, ""),
        "the empty board",
    )
    return screen


async def handshake_refused(
    http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """A websocket handshake the server must refuse: its status and the reason it gives."""
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        **(headers or {}),
    }
    async with http.get(url, headers=upgrade) as response:
        assert response.status != 101, f"accepted: {headers}"
        return response.status, await response.text()


async def page_refused(
    http: aiohttp.ClientSession, url: str, headers: dict[str, str]
) -> tuple[int, str]:
    """A page's websocket (it has an `Origin`) the server must refuse: accepted, so that
    the page can read why, then closed at once: the close code and reason."""
    async with http.ws_connect(url, headers=headers) as ws:
        message = await ws.receive(timeout=STEP_TIMEOUT)
        assert message.type == aiohttp.WSMsgType.CLOSE, f"not refused: {headers}, {message}"
        return int(message.data), str(message.extra)


async def rows_drawn_until(ws: aiohttp.ClientWebSocketResponse, row: int) -> int:
    """Read the game's output until it draws on `row`; the lowest row it drew on by then."""
    deadline = time.monotonic() + START_TIMEOUT
    lowest = 0
    while lowest < row:
        left = deadline - time.monotonic()
        assert left > 0, f"the game drew down to row {lowest}, not {row}"
        with contextlib.suppress(TimeoutError):
            message = await ws.receive(timeout=left)
            assert message.type == aiohttp.WSMsgType.BINARY or message.type == (
                aiohttp.WSMsgType.TEXT
            ), f"the websocket closed: {message}"
            if message.type == aiohttp.WSMsgType.BINARY:
                rows = [int(found[0]) for found in CURSOR_MOVE.findall(message.data)]
                lowest = max([lowest, *rows])
    return lowest


# -- 1. Origin ----------------------------------------------------------------------------


async def test_websockets_from_other_sites_are_refused_and_from_its_own_pages_accepted(
    tmp_path: Path,
) -> None:
    """Cross-site websocket hijacking: any page the user visits could otherwise start
    games on the local server. A script (no Origin at all) may still connect."""
    async with serve_web(tmp_path, "--public-url", "https://ttt.example.org") as served:
        port = served.port
        foreign = [
            {"Origin": "http://evil.example"},
            {"Origin": f"http://evil.example:{port}"},  # a DNS-rebound name, same port
            {"Origin": f"http://evil.example:{port}", "Host": f"evil.example:{port}"},
            {"Origin": f"http://127.0.0.1:{port + 1}"},  # another port is another site
            {"Origin": f"https://127.0.0.1:{port}"},
            {"Origin": "https://ttt.example.org.evil.example"},
            {"Origin": "null"},  # sandboxed frames, file:// pages
            {"Sec-Fetch-Mode": "websocket", "Sec-Fetch-Site": "cross-site"},  # a browser, no Origin
        ]
        async with aiohttp.ClientSession() as http:
            for headers in foreign:
                if "Origin" in headers:  # a page: told why by a close code (CLOSE_ORIGIN)
                    code, text = await page_refused(http, served.ws_url, headers)
                    assert code == 4403, headers
                else:
                    status, text = await handshake_refused(http, served.ws_url, headers)
                    assert status == 403, headers
                assert "another site" in text or "without an Origin" in text, text
            assert games_of(served) == []
            own = [
                {"Origin": f"http://127.0.0.1:{port}"},
                {"Origin": f"http://localhost:{port}"},
                {"Origin": "https://ttt.example.org"},
                {},  # no Origin: not a browser
            ]
            for headers in own:
                async with http.ws_connect(served.ws_url, headers=headers) as ws:
                    await board_shown(ws)
        assert any("refused: a websocket from another site" in line for line in served.log_lines())


# -- 2. size ------------------------------------------------------------------------------


async def test_a_session_asking_for_a_huge_terminal_starts_at_the_size_cap(
    tmp_path: Path,
) -> None:
    """`/ws?width=10000&height=10000` cost ~1.5 GB a tab; at 500x200 a game stays small."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=10000&height=10000") as ws,
    ):
        [game] = await wait_for_games(served, 1)
        environment = environment_of(game)
        assert (environment["COLUMNS"], environment["ROWS"]) == ("500", "200")
        assert await rows_drawn_until(ws, 200) == 200
        peak = peak_memory(game)
        print(f"game at the cap: VmHWM {peak / 2**20:.1f} MiB")
        assert peak < MAX_GAME_MEMORY


async def test_a_resize_from_the_page_is_clamped_to_the_size_cap(tmp_path: Path) -> None:
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        await board_shown(ws)
        [game] = games_of(served)
        await ws.send_str(json.dumps(["resize", {"width": 10000, "height": 10000}]))
        assert await rows_drawn_until(ws, 200) == 200  # never below the cap's last row
        await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
        await ws.send_str(json.dumps(["resize", {"width": 10000, "height": 10000}]))
        assert await rows_drawn_until(ws, 200) == 200
        peak = peak_memory(game)
        print(f"game resized to the cap twice: VmHWM {peak / 2**20:.1f} MiB")
        assert peak < MAX_GAME_MEMORY


async def test_malformed_messages_are_dropped_and_the_game_plays_on(tmp_path: Path) -> None:
    """What textual-serve's own handler parsed with `message.json()` and an `assert`: not
    JSON, not a list, wrong types, a number too big for int(), nesting too deep for json."""
    hostile = [
        "not json",
        "{}",
        "[]",
        "[1, 2]",
        '["resize", {"width": "wide", "height": 5}]',
        '["resize", {"width": true, "height": 5}]',
        '["resize", {"width": 1e999, "height": 1e999}]',
        '["resize", [500, 200]]',
        '["stdin", 5]',
        '["open_url", "https://evil.example"]',
        '["resize", {"width": ' + "9" * 5000 + ', "height": 5}]',
        "[" * 60_000,
    ]
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        screen = await board_shown(ws)
        for text in hostile:
            await ws.send_str(text)
        await ws.send_str(json.dumps(["stdin", "5"]))
        await read_until(
            ws,
            screen,
            lambda: (board := screen.visible_board()) is not None and board[(1, 1)] == "X",
            "X in the centre after the hostile messages",
        )
        [game] = games_of(served)
        await ws.send_str(json.dumps(["stdin", "x" * 70_000]))  # over the 64 KiB message cap
        message = await ws.receive(timeout=STEP_TIMEOUT)
        while message.type == aiohttp.WSMsgType.BINARY:
            message = await ws.receive(timeout=STEP_TIMEOUT)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 1009  # message too big
        await wait_gone([game], STEP_TIMEOUT, "the game outlived its websocket")
    # the log tells this ending from a tab closed by its player
    lines = served.log_lines()
    assert any("a message too large (over 65536 bytes)" in line for line in lines), lines


async def test_a_tab_that_stops_answering_pings_is_logged_as_a_heartbeat_lost(
    tmp_path: Path,
) -> None:
    """A tab whose browser went (a laptop shut, a network gone) answers no ping: the log
    says so, not that the player closed it (issue 40: the log tells endings apart)."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url, autoping=False, heartbeat=None) as ws,
    ):
        await board_shown(ws)
        deadline = time.monotonic() + 2 * HEARTBEAT + STEP_TIMEOUT
        while not ws.closed:  # reads on, answering no ping
            assert time.monotonic() < deadline, "the heartbeat never ended the session"
            with contextlib.suppress(TimeoutError):
                await ws.receive(timeout=1.0)
    lines = served.log_lines()
    deadline = time.monotonic() + STEP_TIMEOUT
    while not any("played" in line for line in lines):
        assert time.monotonic() < deadline, lines
        await asyncio.sleep(0.1)
        lines = served.log_lines()
    assert any("heartbeat lost" in line for line in lines), lines


# -- 3. caps and idle timeout -----------------------------------------------------------------


def from_address(address: str) -> aiohttp.ClientSession:
    """A client on another loopback address (127.0.0.0/8 is all this machine's)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))


async def test_sessions_beyond_the_caps_are_refused_with_a_reason(tmp_path: Path) -> None:
    async with (
        serve_web(tmp_path, "--max-sessions", "3", "--max-per-address", "2") as served,
        from_address("127.0.0.1") as first,
        from_address("127.0.0.2") as second,
        from_address("127.0.0.3") as third,
        contextlib.AsyncExitStack() as stack,
    ):
        sockets = [
            await stack.enter_async_context(first.ws_connect(served.ws_url)),
            await stack.enter_async_context(first.ws_connect(served.ws_url)),
        ]
        status, text = await handshake_refused(first, served.ws_url)
        assert status == 429
        assert "too many games from your address (2 at once)" in text
        sockets.append(await stack.enter_async_context(second.ws_connect(served.ws_url)))
        status, text = await handshake_refused(third, served.ws_url)
        assert status == 503
        assert "the server is full (3 games at once)" in text
        for ws in sockets:
            await board_shown(ws)
        assert len(games_of(served)) == 3
        await sockets[0].close()  # a slot comes free once its game has gone
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            try:
                ws = await stack.enter_async_context(third.ws_connect(served.ws_url))
                break
            except aiohttp.WSServerHandshakeError as error:
                assert error.status == 503
                assert time.monotonic() < deadline, "the closed session's slot stayed taken"
                await asyncio.sleep(0.1)
        await board_shown(ws)
    log = "\n".join(served.log_lines())
    assert "127.0.0.1 refused: too many games from your address" in log
    assert "127.0.0.3 refused: the server is full" in log


async def test_an_idle_session_is_ended_with_a_message_and_keys_keep_it_open(
    tmp_path: Path,
) -> None:
    """Keys and clicks count as input; the page's pings, focus and resizes do not. The
    time counts from the first frame: a start slower than the timeout (3 of 3 at load ~6)
    closed the session before its first key."""
    idle = 2.0
    async with (
        serve_web(tmp_path, "--idle-timeout", str(idle)) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as ws,
    ):
        await board_shown(ws)
        [game] = games_of(served)
        started = time.monotonic()
        last_key = started
        while time.monotonic() < started + 2.5 * idle:  # keys for longer than the timeout
            await ws.send_str(json.dumps(["stdin", "\x1b[C"]))  # the right arrow
            last_key = time.monotonic()
            next_key = last_key + idle / 4  # a late wake-up on a loaded machine is not idle
            while (left := next_key - time.monotonic()) > 0:  # take output till the next key
                with contextlib.suppress(TimeoutError):
                    message = await ws.receive(timeout=left)
                    assert message.type == aiohttp.WSMsgType.BINARY, f"closed: {message}"
        output = b""
        deadline = time.monotonic() + idle + STEP_TIMEOUT
        next_send = time.monotonic()
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the idle session stayed open"
            if time.monotonic() >= next_send:  # a page's pace: not once per frame received
                next_send = time.monotonic() + idle / 4
                with contextlib.suppress(ConnectionError):  # closing already
                    await ws.send_str(json.dumps(["ping", str(time.monotonic())]))
                    await ws.send_str(json.dumps(["focus"]))
                    await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
            with contextlib.suppress(TimeoutError):
                message = await ws.receive(
                    timeout=max(0.01, min(left, next_send - time.monotonic()))
                )
                if message.type == aiohttp.WSMsgType.BINARY:
                    output += message.data
                elif message.type != aiohttp.WSMsgType.TEXT:  # TEXT: a pong
                    break
        assert time.monotonic() - last_key >= idle, (message, served.log_lines()[-5:])
        assert ws.close_code == 4008, (message, output[-300:], served.log_lines())  # CLOSE_IDLE
        reason = f"no input for {idle:g} s: the session is closed"
        assert message.extra == reason
        assert reason.encode() in output  # shown in the terminal too
        await wait_gone([game], STEP_TIMEOUT, "the idle session's game stayed")
    assert any(reason in line for line in served.log_lines())


async def test_the_idle_time_counts_from_the_games_first_frame(tmp_path: Path) -> None:
    """A timeout shorter than the game's start (a Python process importing Textual): the
    tab still gets the game's output before the idle session closes; counted from the
    session's start, it got only the closing notice (as a slow start on a loaded host did
    with the 2 s of the test above)."""
    idle = 0.1
    async with (
        serve_web(tmp_path, "--idle-timeout", str(idle)) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as ws,
    ):
        frames: list[bytes] = []
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                frames.append(message.data)
        reason = f"no input for {idle:g} s: the session is closed"
        assert ws.close_code == 4008, (ws.close_code, frames[-1:])  # CLOSE_IDLE
        notice = next(n for n, frame in enumerate(frames) if reason.encode() in frame)
        assert b"".join(frames[:notice]), "the game's output never reached the tab"


# -- 4. static files ----------------------------------------------------------------------


async def test_static_files_are_served_but_no_directory_is_listed(tmp_path: Path) -> None:
    async with serve_web(tmp_path) as served, aiohttp.ClientSession() as http:
        for path in ("/static/", "/static/js/", "/static/css/", "/static/js"):
            async with http.get(served.url + path, allow_redirects=False) as response:
                body = await response.text()
                assert response.status in (403, 404), path
                assert "textual.js" not in body and "Index of" not in body, path
        for path in ("/static/js/textual.js", "/static/css/xterm.css"):
            async with http.get(served.url + path) as response:
                assert response.status == 200, path
        async with http.get(served.url + "/static/../server.py") as response:
            assert response.status in (403, 404)
        async with http.get(served.url + "/") as response:
            assert response.status == 200
            # Another site may not frame the page: a frame would start games as this site.
            assert response.headers["X-Frame-Options"] == "DENY"
            assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


# -- 5. SIGTERM ---------------------------------------------------------------------------


async def test_sigterm_with_sessions_open_exits_promptly_and_leaves_no_games(
    tmp_path: Path,
) -> None:
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        contextlib.AsyncExitStack() as stack,
    ):
        sockets = [
            await stack.enter_async_context(http.ws_connect(served.ws_url)) for _ in range(3)
        ]
        for ws in sockets:
            await board_shown(ws)
        processes = descendants(served.process.pid)
        assert len(games_of(served)) == 3
        signalled = time.monotonic()
        served.process.send_signal(signal.SIGTERM)
        closes = []
        for ws in sockets:
            message = await ws.receive(timeout=STEP_TIMEOUT)
            while message.type == aiohttp.WSMsgType.BINARY:
                message = await ws.receive(timeout=STEP_TIMEOUT)
            closes.append((ws.close_code, message.extra))
        returncode = await asyncio.to_thread(served.process.wait, 5 + STEP_TIMEOUT)
        took = time.monotonic() - signalled
        assert returncode == 0
        assert took < 5.0, f"SIGTERM took {took:.1f} s"
        assert closes == [(1001, "the server is shutting down: goodbye")] * 3
        await wait_gone(processes, STEP_TIMEOUT, "a game outlived the server")


# -- 6. a tab that does not read ----------------------------------------------------------------


async def test_a_tab_that_stops_reading_is_cut_off_and_its_game_ends(tmp_path: Path) -> None:
    """textual-serve awaited each send to the tab while reading the game's output: a tab
    that stopped reading left its game blocked on a full pipe, memory held, until the
    server stopped. This client never reads (aiohttp stops taking data after 64 KiB) and
    keeps asking for full redraws at the size cap."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=500&height=200", heartbeat=None) as ws,
    ):
        [game] = await wait_for_games(served, 1)
        deadline = time.monotonic() + 90.0
        size = 0
        with contextlib.suppress(ConnectionError):
            while alive(game):
                assert time.monotonic() < deadline, "the game of a tab that does not read stayed"
                size += 1
                await ws.send_str(json.dumps(["resize", {"width": 500 - size % 2, "height": 200}]))
                await asyncio.sleep(0.2)  # a page's pace (a burst read late is no flood)
        await wait_gone([game], STEP_TIMEOUT, "the game of a tab that does not read stayed")
    lines = served.log_lines()
    assert any("the browser fell" in line and "behind" in line for line in lines), lines[-6:]


# -- every end is bounded, even with a game that does not respond ------------------------------


@contextlib.contextmanager
def stopped(pid: int) -> Iterator[None]:
    """The game frozen (SIGSTOP): it reads no input and quits on no request."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)


async def jam(ws: aiohttp.ClientWebSocketResponse) -> None:
    """More input than a frozen game's pipe holds. The byte budget (`input_budget`) now
    drops each of these writes whole (each is over its burst), so the pipe is no longer
    full: the game is killed all the same (a stop that timed out looked like success,
    see `WebSession._stop_game`)."""
    for _ in range(4):
        await ws.send_str(json.dumps(["stdin", "x" * 60_000]))


async def closed(ws: aiohttp.ClientWebSocketResponse, timeout: float) -> aiohttp.WSMessage:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the websocket stayed open"
        with contextlib.suppress(TimeoutError):
            message = await ws.receive(timeout=left)
            if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                return message


async def test_a_frozen_game_is_killed_when_its_session_times_out(tmp_path: Path) -> None:
    idle = 2.0
    async with (
        serve_web(tmp_path, "--idle-timeout", str(idle)) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as ws,
    ):
        await board_shown(ws)
        [game] = games_of(served)
        with stopped(game):
            await jam(ws)
            await closed(ws, idle + STEP_TIMEOUT)
            await wait_gone([game], STEP_TIMEOUT, "the frozen game was left running")


async def test_sigterm_exits_promptly_even_with_a_frozen_game(tmp_path: Path) -> None:
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as frozen,
    ):
        await board_shown(frozen)
        [game] = games_of(served)
        playing = await http.ws_connect(served.ws_url)
        await board_shown(playing)
        processes = descendants(served.process.pid)
        with stopped(game):
            await jam(frozen)
            signalled = time.monotonic()
            served.process.send_signal(signal.SIGTERM)
            returncode = await asyncio.to_thread(served.process.wait, 5 + STEP_TIMEOUT)
            took = time.monotonic() - signalled
            assert returncode == 0
            assert took < 5.0, f"SIGTERM took {took:.1f} s"
            await wait_gone(processes, STEP_TIMEOUT, "a game outlived the server")


async def test_a_game_that_died_ends_its_session_at_the_next_key(tmp_path: Path) -> None:
    """textual-serve kept the websocket of a crashed game open, with nothing behind it."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as ws,
    ):
        await board_shown(ws)
        processes = descendants(served.process.pid)  # the game and the shell that ran it
        [game] = games_of(served)
        os.kill(game, signal.SIGKILL)
        await wait_gone(processes, STEP_TIMEOUT, "the game survived SIGKILL")
        deadline = time.monotonic() + STEP_TIMEOUT
        while not ws.closed:  # keys, as a player would press them on a screen gone still
            await ws.send_str(json.dumps(["stdin", "5"]))
            with contextlib.suppress(AssertionError):
                message = await closed(ws, 0.2)
            assert time.monotonic() < deadline, "the websocket stayed open"
        assert (ws.close_code, message.extra) == (1011, "the game is no longer running")


async def test_refusals_are_logged_at_a_bounded_rate(tmp_path: Path) -> None:
    """A client can be refused as fast as it connects: not a log line each time."""
    async with serve_web(tmp_path) as served, aiohttp.ClientSession() as http:
        for _ in range(50):
            await page_refused(http, served.ws_url, {"Origin": "http://evil.example"})
        served.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(served.process.wait, STEP_TIMEOUT) == 0
    refused = [line for line in served.log_lines() if "refused" in line]
    assert len(refused) == 11, refused
    assert refused[-1] == "tui-tictactoe serve-web: 40 more refused, not logged one by one"


async def test_games_die_with_a_server_killed_outright(tmp_path: Path) -> None:
    """SIGKILL runs no clean-up, and Textual's web driver ignores the end of its input:
    the games are tied to the server's life by the kernel (PR_SET_PDEATHSIG) instead."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url) as ws,
    ):
        await board_shown(ws)
        games = games_of(served)
        assert games
        served.process.kill()
        served.process.wait(STEP_TIMEOUT)
        await wait_gone(games, STEP_TIMEOUT, "a game outlived its killed server")
