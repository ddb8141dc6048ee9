"""One browser tab's game in `serve-web`, relayed so that neither side can stall the other.

textual-serve's `AppService` (its public class) starts the game and reads its output;
this class is the websocket side, which textual-serve's own handler does not bound:

- **Output never waits on the tab.** textual-serve's handler awaits each send to the
  browser while reading the game's output, so a tab that stops reading stops the
  reader, and the game then blocks writing to its pipe, holding all its memory for as
  long as the server runs. Here `AppService`'s write callbacks only append to an
  outbox, which a task of its own sends to the tab; a tab that lets MAX_BACKLOG bytes
  pile up, or takes SEND_TIMEOUT seconds over one message, is cut off. The game's
  output is read to its end whatever the tab does, so no game waits on its pipe.
- **Input is checked** (`guard.parse_message`): sizes clamped, unknown messages
  dropped, nothing larger than `guard.MAX_MESSAGE` read; keys beyond the byte
  budget (`input_budget`) are dropped before the game reads them, and told to `log`
  at most once a minute.
- **Idle timeout**: no key or mouse input for `--idle-timeout` seconds ends the session
  with a message (pings, focus and resizes do not count as input), counted from the
  game's first frame (or START_GRACE after the start, for a game that never draws).
- **Every end is told**: with a close code and reason a page reads (`guard.CLOSE_IDLE`,
  `guard.CLOSE_QUIT`, ...), the game's last frame left on its screen; a program (no
  `Origin`) also reads the notice in its terminal, restored first. The log names the
  tab's side of an end: a message too large, a heartbeat lost, or closed by the player.
- **The game's stderr goes to the server's log**, line by line as events with the session's
  fields (`ops.stderr_relay.GameStderr`), not to textual-serve, which held it all in memory
  and wrote it raw at the game's end.
- **Every end is bounded**: closing the websocket, and stopping the game, each have a
  deadline; a game still running after STOP_TIMEOUT is killed. Its process is found by
  a random token in its environment, as `AppService` keeps the process to itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import time
from collections import deque
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from tui_tictactoe.rooms.request import SEAT_META
from tui_tictactoe.servers.control_budget import Flood, Resizes, packets
from tui_tictactoe.servers.games.process import DRAWN, RESTORE_TERMINAL
from tui_tictactoe.servers.input_budget import InputBudget
from tui_tictactoe.servers.ops.drain import DRAIN_SIGNAL
from tui_tictactoe.servers.ops.events import ServerEvents
from tui_tictactoe.servers.ops.stderr_relay import GameStderr
from tui_tictactoe.servers.web.guard import (
    CLOSE_IDLE,
    CLOSE_QUIT,
    CLOSE_RESTARTED,
    MAX_MESSAGE,
    Focus,
    Ping,
    Resize,
    Stdin,
    parse_message,
)
from tui_tictactoe.servers.web.rooms import (
    AI_GAME,
    READ_SECRETS,
    SEAT_WAIT,
    GameStart,
    seat_message,
    seat_token,
    secrets_line,
)

MAX_BACKLOG = 8 * 1024 * 1024
"""Bytes of the game's output waiting for a tab before the tab is cut off (a full
frame at the size cap is well under 1 MB)."""
SEND_TIMEOUT = 20.0  # seconds one message to the tab may take
CLOSE_TIMEOUT = 2.0  # seconds to say goodbye and close the websocket
STOP_TIMEOUT = 3.0  # seconds a game has to quit when asked, before it is killed
START_GRACE = 60.0  # seconds a game may take to draw before the idle time counts anyway
HEARTBEAT = 15.0  # seconds between pings to the tab (as textual-serve): a dead tab goes
SESSION_VARIABLE = "TUI_TICTACTOE_WEB_SESSION"
IGNORED = DRAIN_SIGNAL.name.removeprefix("SIG")  # by the shell that starts the game
CLOSE_REASON = 123  # bytes of a close frame's reason, at most


def close_reason(text: str) -> bytes:
    """`text` as a close frame's reason: cut to CLOSE_REASON bytes on a character's edge (a
    cut character would be invalid UTF-8, and a browser fails such a frame unread)."""
    return text.encode()[:CLOSE_REASON].decode("utf-8", "ignore").encode()


class WebSession:
    """A websocket and the game behind it, from the upgrade to the game's end."""

    def __init__(
        self,
        request: web.Request,
        command: str,
        download_manager: DownloadManager,
        idle_timeout: float,
        log: Callable[[str], None] = lambda _line: None,
        events: ServerEvents | None = None,
        farewell: Callable[[], str | None] = lambda: None,
        stderr: GameStderr | None = None,
        start: GameStart = AI_GAME,
        address: str = "?",
    ) -> None:
        self.request = request
        self.start = start  # what the page's address asked for (`web.rooms.game_start`)
        self.address = address  # as the per-address rules count it, for the rooms' hub
        self.events = events or ServerEvents()  # counted with --metrics
        self.farewell = farewell  # what the tab reads when its game ends itself (a drain's)
        self.session_id = secrets.token_hex(4)  # names the session in the JSON log
        self.stderr = stderr  # the game's stderr, to the server's log (`ops.stderr_relay`)
        if stderr is not None:
            stderr.relay.fields["session"] = self.session_id
        self.log = log  # a line about this session (dropped input), the server's prefix added
        self.budget = InputBudget()
        self.resizes = Resizes()  # sizes reach the game at most 4 a second, the last always
        self.requests = Flood()  # messages but keys: a flood of them closes the websocket
        self.packets = packets()  # ... and key messages
        self._size: tuple[int, int] | None = None  # the last size the tab sent
        self._resize_timer: asyncio.TimerHandle | None = None  # ... due to the game soon
        self.token = secrets.token_hex(16)
        # The shell ignores the drain's signal first: the game inherits it ignored through
        # `exec` until it handles it (`ui.server_restart`), so a game still starting is
        # never killed by it. The token then marks the game's process (`game_pids`).
        # A room's game reads the player's address and seat token from its input first
        # (`web.rooms.READ_SECRETS`): never on a command line, which any local user reads.
        reads = READ_SECRETS if start.rooms else ""
        self.command = f"trap '' {IGNORED}; {reads}{SESSION_VARIABLE}={self.token} {command}"
        # A page (browsers send an Origin) reads why its game ended from the close frame
        # (servers/web/page/tictactoe.js) beside the game's last frame; a program reads it
        # in the terminal, after the terminal is restored.
        self.page = "Origin" in request.headers
        self.download_manager = download_manager
        self.idle_timeout = idle_timeout
        self.websocket = web.WebSocketResponse(
            heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE, timeout=CLOSE_TIMEOUT
        )
        self.service: AppService | None = None
        self.started = time.monotonic()
        self.last_input = self.started
        self.ending: str | None = None  # why the session ended, once it has
        self.drew = False  # the game's first output has been queued for the tab
        self.shown = False  # ... and DRAWN bytes of it, its first frame: idle time counts
        self._shown_bytes = 0
        self.done = asyncio.Event()  # the game has gone
        self._outbox: deque[bytes | str] = deque()
        self._backlog = 0
        self._sending = False  # a message is on its way to the tab
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sender: asyncio.Task[None] | None = None
        self._receiver: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._game_started = False
        self._killed = False  # the game had to be killed
        self._read_error: BaseException | None = None  # why reading the tab failed, if it did

    # -- the session's life ----------------------------------------------------------

    async def run(self, width: int, height: int) -> None:
        """Play until the tab or the game goes (or the server ends the session)."""
        try:
            await self.websocket.prepare(self.request)
            seat = await self._seat_token() if self.start.token_follows else ""
            command = self.command
            if self.stderr is not None:
                command = await self.stderr.open() + command
            self.service = GameService(
                command,
                write_bytes=self._queue,
                write_str=self._queue,
                close=self._game_exited,
                download_manager=self.download_manager,
            )
            self._sender = asyncio.create_task(self._send_loop())
            try:
                await self.service.start(width, height)
            except OSError:
                self.events.game_exited("not_started")
                raise
            if self.start.rooms:  # before anything else reaches the game's input
                self.service.stdin.write(secrets_line(self.address, seat))
            self.service.on_seat = self._queue
            self.events.game_started()
            self._game_started = True
            if self.idle_timeout:
                self._timer = asyncio.get_running_loop().call_later(
                    self.idle_timeout, self._check_idle
                )
            # A task of its own, so that an end can stop it even while it waits on a
            # game that does not read its input.
            self._receiver = asyncio.create_task(self._receive_loop())
            await asyncio.wait([self._receiver])
            self.end(self._client_ending())
        except OSError as error:
            self.end(f"the game could not start: {error.strerror}", code=1011)
        finally:
            for timer in (self._timer, self._resize_timer):
                if timer is not None:
                    timer.cancel()
            await self._stop_game()
            if self.stderr is not None:  # its last lines, then the FIFO goes
                await self.stderr.close()
            if self._game_started:
                self.events.game_exited("killed" if self._killed else "exited")
            if self._tasks:  # the goodbye, bounded by its own deadlines
                await asyncio.wait(self._tasks, timeout=2 * CLOSE_TIMEOUT)
            for task in (*self._tasks, self._sender, self._receiver):
                if task is not None:
                    task.cancel()
            self.done.set()

    async def _seat_token(self) -> str:
        """A reloaded tab's seat token, its first message (`["seat", TOKEN]`), awaited
        SEAT_WAIT seconds at most; "" for none (the game then joins as anyone would)."""
        with contextlib.suppress(TimeoutError, RuntimeError, ConnectionError):
            message = await self.websocket.receive(timeout=SEAT_WAIT)
            if message.type == WSMsgType.TEXT:
                return seat_token(message.data)
        return ""

    def end(self, reason: str, code: int = 1000, notice: str | None = None) -> None:
        """End the session (once): show `notice` in the tab, then close its websocket,
        with `reason` as the close frame's reason."""
        if self.ending is not None:
            return
        self.ending = reason
        if self._timer is not None:
            self._timer.cancel()
        if notice and not self.page:
            # the game can no longer leave its alternate screen itself
            self._outbox.append(RESTORE_TERMINAL + f"\r\n{notice}\r\n".encode())
            self._wake.set()
        self._spawn(self._close(code, reason))

    # -- output: game -> tab ----------------------------------------------------------

    async def _queue(self, data: bytes | str) -> None:
        """AppService's write callback: must return at once (it is the game's reader)."""
        if self.ending is not None:
            return  # read and dropped: the game must not wait on its pipe
        if not self.drew and isinstance(data, bytes):  # the screen (str: meta and pongs)
            self.drew = True
            self.events.first_frame(time.monotonic() - self.started)
        if not self.shown and isinstance(data, bytes):
            self._shown_bytes += len(data)
            if self._shown_bytes >= DRAWN:  # a frame, not the terminal's set-up alone
                # Idle from here: a start slower than --idle-timeout (a loaded host) ended
                # the session before the player had seen anything to answer.
                self.shown = True
                self.last_input = max(self.last_input, time.monotonic())
        self._outbox.append(data)
        self._backlog += len(data)
        self._wake.set()
        if self._backlog > MAX_BACKLOG:
            self._cut_off(f"the browser fell {self._backlog} bytes behind the game")

    async def _send_loop(self) -> None:
        websocket = self.websocket
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                item = self._outbox.popleft()
                self._backlog -= len(item)
                send = (
                    websocket.send_bytes(item)
                    if isinstance(item, bytes)
                    else websocket.send_str(item)
                )
                self._sending = True
                try:
                    await asyncio.wait_for(send, SEND_TIMEOUT)
                except TimeoutError:
                    self._cut_off(
                        f"the browser took over {SEND_TIMEOUT:g} s to take the game's output"
                    )
                    return
                except (ConnectionError, RuntimeError):
                    return  # the tab has gone; the receive loop sees it too
                finally:
                    self._sending = False

    def _cut_off(self, reason: str) -> None:
        """A tab that does not read: no goodbye (it would not be read), the connection
        is dropped at once with whatever is buffered for it."""
        if self.ending is None:
            self.ending = reason
        self._outbox.clear()
        self._backlog = 0
        if self.request.transport is not None:
            self.request.transport.abort()

    async def _game_exited(self) -> None:
        """AppService's close callback (the player quit, or a drain ended the game after
        its round): close the tab's websocket."""
        farewell = self.farewell()
        if farewell is None:
            self.end("the game ended", code=CLOSE_QUIT)
        else:
            self.end(
                "the game ended after its round: the server is restarting",
                code=CLOSE_RESTARTED,
                notice=farewell,
            )

    def _client_ending(self) -> str:
        """Why the tab's side ended: a message too large, no answer to the heartbeat, or
        the tab closed (or left) by the player."""
        error = self._read_error
        if isinstance(error, WebSocketError) and error.code == WSCloseCode.MESSAGE_TOO_BIG:
            return f"a message too large (over {MAX_MESSAGE} bytes) from the browser"
        if isinstance(error or self.websocket.exception(), TimeoutError):
            return f"heartbeat lost (no answer to a ping in {HEARTBEAT / 2:g} s)"
        return "closed by the player (the tab was closed, reloaded or left)"

    # -- input: tab -> game -----------------------------------------------------------

    async def _receive_loop(self) -> None:
        service = self.service
        assert service is not None
        async for message in self.websocket:
            if message.type == WSMsgType.ERROR:  # the last message: why the socket failed
                self._read_error = message.data
            if self.ending is not None:
                continue
            parsed = parse_message(message.data) if message.type == WSMsgType.TEXT else None
            keys = isinstance(parsed, Stdin)
            bucket = self.packets if keys else self.requests
            if not bucket.take():
                self.events.flooded()
                what = "key messages" if keys else "resizes and other messages"
                self._cut_off(bucket.ending(what))  # read no more of them
                continue
            if isinstance(parsed, Stdin):
                self.last_input = time.monotonic()
                data = self.budget.take(parsed.text.encode("utf-8", "replace"))
                if (line := self.budget.report()) is not None:
                    self.log(line)
                if data and not await service.send_bytes(data):
                    self.end("the game is no longer running", code=1011)
            elif isinstance(parsed, Resize):
                await self._resize(parsed.width, parsed.height)
            elif isinstance(parsed, Ping):
                await self._queue(json.dumps(["pong", parsed.data]))
            elif isinstance(parsed, Focus):
                await (service.focus() if parsed.focused else service.blur())

    async def _resize(self, width: int, height: int) -> None:
        """Kept at once, sent to the game at most `control_budget.RESIZES` times a second:
        a size that comes in while one waits replaces it; the last is always sent."""
        self._size = (width, height)
        if self._resize_timer is not None:
            self.resizes.replaced()
            self.events.resize_coalesced()
            return
        delay = self.resizes.delay()
        if delay <= 0:
            await self._apply_size()
        else:
            self._resize_timer = asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._apply_size())
            )

    async def _apply_size(self) -> None:
        self._resize_timer = None
        if self.service is not None and self._size is not None and self.ending is None:
            self.resizes.applied()
            await self.service.set_terminal_size(*self._size)

    def _check_idle(self) -> None:
        now = time.monotonic()
        starting = START_GRACE - (now - self.started)
        if not self.shown and starting > 0:  # no frame yet to answer: not idle, for a while
            self._timer = asyncio.get_running_loop().call_later(
                min(self.idle_timeout, starting), self._check_idle
            )
            return
        left = self.last_input + self.idle_timeout - now
        if left > 0:
            self._timer = asyncio.get_running_loop().call_later(left, self._check_idle)
            return
        message = f"no input for {self.idle_timeout:g} s: the session is closed"
        self.end(message, code=CLOSE_IDLE, notice=f"tui-tictactoe: {message}")

    # -- ending -----------------------------------------------------------------------

    async def _close(self, code: int, reason: str) -> None:
        """Let the outbox drain (the last frame and the notice), then close; bounded."""
        deadline = time.monotonic() + CLOSE_TIMEOUT
        sender = self._sender
        while (
            (self._outbox or self._sending)
            and sender is not None
            and not sender.done()
            and time.monotonic() < deadline
        ):
            await asyncio.sleep(0.02)
        # The receiver stops first: a close() racing a receive() drops the connection
        # without waiting for the tab's reply, and a receiver may be stuck handing input
        # to a game that does not read it. Alone, close() reads the reply itself.
        receiver = self._receiver
        if receiver is not None and not receiver.done():
            receiver.cancel()
            await asyncio.wait([receiver])
        message = close_reason(reason)
        try:
            await asyncio.wait_for(self.websocket.close(code=code, message=message), CLOSE_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            if self.request.transport is not None:
                self.request.transport.abort()

    async def _stop_game(self) -> None:
        """Ask the game to quit; kill it if it has not within STOP_TIMEOUT.

        A timeout can look like success: textual-serve's reader swallows the
        cancellation, so `wait_for` returns normally with the game still there (a
        frozen game whose pipe was not full). So whatever is left is killed.
        """
        if self.service is None:
            return
        with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
            await asyncio.wait_for(self.service.stop(), STOP_TIMEOUT)
        self.kill_game()

    def kill_game(self) -> None:
        self.send_signal(signal.SIGKILL)

    # -- as the drain sees a game (`drain.Told`) -------------------------------------

    @property
    def returncode(self) -> int | None:
        """None while the session's game may still run (its status is textual-serve's)."""
        return 0 if self.done.is_set() else None

    def send_signal(self, sig: signal.Signals) -> None:
        """Signal the game's processes (found by the session's token)."""
        for pid in game_pids(self.token):
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
                self._killed = self._killed or sig == signal.SIGKILL

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started


class GameService(AppService):
    """textual-serve's `AppService`, also reading the one meta message of ours a game
    writes (`rooms.request.SEAT_META`: the seat a guest holds), checked, for the tab."""

    on_seat: Callable[[str], Coroutine[Any, Any, None]] | None = None

    async def on_meta(self, data: bytes) -> None:
        try:
            meta = json.loads(data)
        except ValueError:
            meta = None
        said = seat_message(meta) if isinstance(meta, dict) else None
        if said is not None:
            if self.on_seat is not None:
                await self.on_seat(said)
            return
        if isinstance(meta, dict) and meta.get("type") == SEAT_META:
            return  # ours, but not well formed: dropped
        await super().on_meta(data)


def game_pids(token: str) -> list[int]:
    """The processes started for the session with this token (Linux: read from /proc;
    elsewhere none are found, and a game that will not quit is left to itself)."""
    entry = f"{SESSION_VARIABLE}={token}".encode()
    found: list[int] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    for path in proc.iterdir():
        if path.name.isdigit():
            try:
                environ = (path / "environ").read_bytes()
            except OSError:
                continue
            if entry in environ.split(b"\0"):
                found.append(int(path.name))
    return found
