"""`tui-tictactoe serve-ssh`: anyone can `ssh -p 2222 host` and play, each in a game of their own.

One SSH connection holds at most one session, and a session with a pty runs one
game in its own process and pseudo-terminal (`GameProcess`). The server never
runs a shell and never runs what a client sends: an exec request is read as the
game's options. Everything else a client may ask for (SFTP and other subsystems,
port forwarding both ways, agent and X11 forwarding) is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from ..cli import PROG
from ..limits import clamp_size
from .fork_server import ForkServer
from .game_command import (
    CHILD_COMMAND,
    OptionsError,
    common_environment,
    game_environment,
    parse_play_options,
    play_args,
    printable,
)
from .game_process import GameProcess, Launch, spawn
from .host_key import HostKeyError, default_host_key_path, load_or_create
from .refusal_log import RefusalLog

NO_PTY = "this is an interactive game: connect with ssh -t"
SHUTTING_DOWN = "the server is shutting down: goodbye"
LOGIN_TIMEOUT = 10.0  # seconds to finish logging in
REFUSED_GRACE = 5.0  # seconds a refused connection may stay open without asking for a session
TELLING_LIMIT = 16  # connections refused on arrival that are told why at once (others: dropped)
SILENT_GRACE = 0.5  # seconds for one of those to send its version (clients send it at once)
WAITING_PER_GAME = 4  # connections not (yet) playing, in all: this many per --max-sessions
SHUTDOWN_GRACE = 1.5  # seconds clients get to close after being told, before they are cut off
DEFAULT_SIZE = (80, 24)  # for clients that report a 0x0 window
EARLY_INPUT_LIMIT = 4096  # bytes typed before the game's process exists, kept for it
USERNAME_LIMIT = 256  # characters of a user name kept at all (shown cut shorter still)
TERM_LIMIT = 64  # characters of a TERM kept
ENV_LIMIT = 32  # environment variables a session may set (the game reads two)
ENV_CHECK = 0.25  # seconds between checks of that: asyncssh has no hook per env request
BUSY = "the server is busy with connections logging in: try again in a moment"
GAME_LOST = "the server's game starter stopped, and your game with it: connect again to play"

# What Textual turns on in a terminal, turned off again: sent to the client when the
# server ends a game, which can no longer restore the client's terminal itself.
RESTORE_TERMINAL = (
    b"\x1b[<u"  # kitty keyboard protocol: pop
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # mouse reporting
    b"\x1b[?2004l\x1b[?1004l\x1b[?2048l\x1b[?2026l"  # paste, focus, in-band resize, sync
    b"\x1b[?7h\x1b[0m\x1b[?25h\x1b[?1049l"  # line wrap, colours, cursor, alternate screen
)


@dataclass(frozen=True)
class Settings:
    """What `serve-ssh` was asked for."""

    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None
    max_sessions: int = 16
    max_per_address: int = 4
    idle_timeout: float = 600.0
    fork_server: bool = True  # games forked from a process that imported the game once


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class GameServer:
    """The listening server: admits or refuses connections, counts them, and ends them all
    on shutdown. It outlives every session and every game process."""

    def __init__(self, settings: Settings, log: Callable[[str], None] = _log_to_stderr) -> None:
        self.settings = settings
        self.log = log
        self.host_key = load_or_create(settings.host_key or default_host_key_path())
        self.authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
        if settings.authorized_keys is not None:
            try:
                self.authorized_keys = asyncssh.read_authorized_keys(str(settings.authorized_keys))
            except (OSError, ValueError, asyncssh.KeyImportError) as error:
                reason = getattr(error, "strerror", None) or str(error)
                raise HostKeyError(
                    f"cannot read the authorized keys {str(settings.authorized_keys)!r}: {reason}"
                ) from None
        self.clients: set[Client] = set()
        self.waiting: Counter[str] = Counter()  # per address: connected, not admitted
        self.queue: dict[Client, None] = {}  # those, oldest first
        self.telling: set[Client] = set()  # refused on arrival, to be told why once they log in
        self.admitted: set[Client] = set()
        self.per_address: Counter[str] = Counter()  # per address: admitted
        self.games: set[GameProcess] = set()
        self.fork_server: ForkServer | None = None
        self.accepting = True
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._ending: set[asyncio.Task[None]] = set()  # hang-ups and the log lines after them
        self.refusals = RefusalLog(log, _log_prefix)

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint("sha256")

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        self._acceptor = await asyncssh.create_server(
            lambda: Client(self),
            self.settings.host,
            self.settings.port,
            server_host_keys=[self.host_key],
            server_version="tui_tictactoe",
            encoding=None,  # bytes both ways: the game's output is not for asyncssh to decode
            line_editor=False,  # the game reads raw keys
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            password_auth=False,
            gss_host=None,
            login_timeout=LOGIN_TIMEOUT,
            keepalive_interval=60,
            keepalive_count_max=3,
        )
        if self.settings.fork_server and sys.platform == "linux":
            try:
                self.fork_server = await ForkServer.start(common_environment(), self.log)
            except OSError as error:
                self.log(f"{PROG} serve-ssh: no fork server ({error}): games start as processes")
        return self._acceptor.get_port()

    # -- admission ------------------------------------------------------------------
    #
    # A connection is "waiting" from its arrival until it is admitted to a game or
    # closes: logging in (at most LOGIN_TIMEOUT), or being told why it is refused (at
    # most REFUSED_GRACE). Waiting ones are capped apart from the games, per address
    # and in all, so connections that never log in cannot hold the games' slots.
    #
    # When all the waiting places are taken, a newcomer takes the place of the oldest
    # of the least advanced (see `Client.progress`): connections that never say a word
    # go first, then those that said only their version, and those that are logging in
    # only when there is nobody else. Holding places then takes a flood of new
    # connections, faster than a real client logs in, rather than a few idle sockets.

    def arrive(self, client: Client) -> str | None:
        """Count a new connection as waiting; or why it is refused (the message it gets)."""
        self.clients.add(client)
        settings = self.settings
        if self.waiting[client.address] >= settings.max_per_address:
            return (
                f"too many connections from your address are logging in "
                f"({settings.max_per_address} at once): try again in a moment"
            )
        if len(self.queue) >= WAITING_PER_GAME * settings.max_sessions:
            oldest = min(self.queue, key=Client.progress)  # min: the first of the least
            self._stop_waiting(oldest)
            oldest.refuse(BUSY, ending="refused: made room for a newer connection")
        self.waiting[client.address] += 1
        self.queue[client] = None
        client.waiting = True
        return None

    def admit(self, client: Client) -> str | None:
        """A logged-in connection gets a game's slot, or is told why not (it then stays
        counted as waiting until it closes)."""
        settings = self.settings
        if not self.accepting:
            return SHUTTING_DOWN
        if len(self.admitted) >= settings.max_sessions:
            return f"the server is full ({settings.max_sessions} games at once): try again later"
        if self.per_address[client.address] >= settings.max_per_address:
            return (
                f"too many games from your address ({settings.max_per_address} at once): "
                "finish one first"
            )
        self._stop_waiting(client)
        self.admitted.add(client)
        self.per_address[client.address] += 1
        return None

    def _stop_waiting(self, client: Client) -> None:
        if client.waiting:
            client.waiting = False
            del self.queue[client]
            _uncount(self.waiting, client.address)

    def release(self, client: Client) -> None:
        self.clients.discard(client)
        self.telling.discard(client)
        self._stop_waiting(client)
        if client in self.admitted:
            self.admitted.discard(client)
            _uncount(self.per_address, client.address)

    def launcher(self, args: list[str], env: dict[str, str]) -> Launch:
        """How a game with `cli.main(args)` starts: forked by the fork server if there is
        one (it falls back by itself), else as a fresh interpreter."""
        if self.fork_server is not None:
            return self.fork_server.launch(args, env)
        return spawn([*CHILD_COMMAND, *args], env)

    def hang_up(self, game: GameProcess) -> asyncio.Task[None]:
        """End a game in the background (once, however often asked); `stop` waits for it."""
        task = game.hang_up()
        self.keep(task)
        return task

    def keep(self, task: asyncio.Task[None]) -> None:
        """A task of the ending of a game or connection: `stop` waits for every one."""
        if task not in self._ending:
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)

    def game_pids(self) -> list[int]:
        """Process ids of the games running now (for tests and the benchmark)."""
        return [game.pid for game in self.games if game.pid is not None]

    # -- shutdown -----------------------------------------------------------------

    def stop_accepting(self) -> None:
        """New connections are refused by the system from now on (the port is closed)."""
        self.accepting = False
        if self._acceptor is not None:
            self._acceptor.close()

    async def stop(self, reason: str = SHUTTING_DOWN) -> None:
        """Stop accepting, tell every session why, end every game, close every connection.

        Returns once every game process has been reaped (at most about a second after
        the hang-up, see `GameProcess.hang_up`), every connection has closed and been
        logged, and the fork server has exited.
        """
        self.stop_accepting()
        self.refusals.flush()
        clients = list(self.clients)
        for client in clients:
            client.end(reason, 1, ending="server shut down")
        closed = [asyncio.ensure_future(client.closed.wait()) for client in clients]
        if closed:
            _, pending = await asyncio.wait(closed, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()
        for client in list(self.clients):
            client.abort()
        for game in list(self.games):
            self.hang_up(game)
        while self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)
        if self.fork_server is not None:
            await self.fork_server.close()
        self.refusals.flush()


def _log_prefix() -> str:
    return f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {PROG} serve-ssh: "


def _kind(ending: str) -> str:
    """An ending without what came from the client (a subsystem's name, an error's text)."""
    return re.split(r" [('\"]", ending, maxsplit=1)[0]


def _uncount(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if not counter[key]:
        del counter[key]


class Client(asyncssh.SSHServer):
    """One SSH connection: who it is, its one game session, its idle timer, its log line."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.peer = "?"
        self.username = ""
        self.fingerprint: str | None = None
        self.refusal: str | None = None
        self.session: GameSession | None = None
        self.ending: str | None = None
        self.logged_in = False
        self.authenticating = False  # began logging in (the key exchange is done)
        self.waiting = False  # counted by the server as connected but not admitted
        self.telling: str | None = None  # refused on arrival: why, told once logging in
        self.closed = asyncio.Event()
        self._offered: asyncssh.SSHKey | None = None
        self._guest = False
        self._started = time.monotonic()
        self._last_input = self._started
        self._timer: asyncio.TimerHandle | None = None

    # -- the connection -------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.peer = f"[{peer[0]}]:{peer[1]}" if ":" in str(peer[0]) else f"{peer[0]}:{peer[1]}"
        loop = asyncio.get_running_loop()
        refusal = self.server.arrive(self)
        if refusal is not None:
            self.ending = "refused: too many connections logging in from one address"
            self._refuse_on_arrival(refusal)
        elif self.server.settings.idle_timeout:
            self._timer = loop.call_later(self.server.settings.idle_timeout, self._check_idle)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        game = self.session.game if self.session is not None else None
        if self.session is not None:
            self.session.end_game()
        self.server.release(self)
        self.closed.set()
        if game is not None and game.returncode is None:  # logged once the game is gone
            self.server.keep(asyncio.get_running_loop().create_task(self._log_after(game, exc)))
        elif game is not None:
            self.server.log(self.log_line(exc, game))
        else:  # no game: as cheap to repeat as to send, so counted rather than each logged
            kind = _kind(self._ending(exc, None))
            self.server.refusals.note("connections", kind, self.log_line(exc))

    async def _log_after(self, game: GameProcess, exc: Exception | None) -> None:
        await self.server.hang_up(game)
        self.server.log(self.log_line(exc, game))

    def log_line(self, exc: Exception | None = None, game: GameProcess | None = None) -> str:
        """One line per connection: when, from where, who, how long, how it ended, and for
        a game the server hung up, how long it took to be gone (reaped)."""
        ending = self._ending(exc, game)
        return f"{self._who()} {time.monotonic() - self._started:.1f}s {ending}"

    def _ending(self, exc: Exception | None, game: GameProcess | None) -> str:
        ending = self.ending
        if ending is None:
            if not self.logged_in:
                ending = "closed before logging in"
            elif self.session is None:
                ending = "closed without a session"
            else:
                ending = "client disconnected"
            if exc is not None:
                ending += f" ({printable(str(exc), 60) or type(exc).__name__})"
        if game is not None and game.hung_up_at is not None and game.exited_at is not None:
            ending += f"; game gone {game.exited_at - game.hung_up_at:.2f}s after hang-up"
        return ending

    def _who(self) -> str:
        return (
            f"{_log_prefix()}{self.peer} "
            f"user={printable(self.username)!r} key={self.fingerprint or '-'}"
        )

    def abort(self) -> None:
        if self.conn is not None:
            self.conn.abort()

    def refuse(self, message: str, ending: str | None = None) -> None:
        """Close with a reason the client shows (OpenSSH: "Received disconnect ...").
        SSH allows a disconnect message from just after the version lines, before the
        key exchange: the reason then travels in clear text, which is all it is."""
        if ending is not None:
            self.ending = ending
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"{PROG}: {message}")

    def _refuse_on_arrival(self, message: str) -> None:
        """Told why once the key exchange is done (`begin_auth`), for a few at a time; the
        others are dropped at once. A disconnect message sent before the key exchange,
        with the client's first bytes unread, is lost to the reset that closing then
        sends (OpenSSH says "Broken pipe"); a few key exchanges at a time cost little."""
        loop = asyncio.get_running_loop()
        if len(self.server.telling) >= TELLING_LIMIT:
            loop.call_soon(self.abort)
            return
        self.server.telling.add(self)
        self.telling = message
        self._timer = loop.call_later(SILENT_GRACE, self._drop_if_silent)

    def _drop_if_silent(self) -> None:
        """A refused connection that has not even said its version is not worth telling."""
        if self.conn is None or not self.conn.get_extra_info("client_version"):
            self.abort()
        else:
            self._timer = asyncio.get_running_loop().call_later(REFUSED_GRACE, self.abort)

    def progress(self) -> tuple[int, float]:
        """How far logging in has come, least first: what `GameServer.arrive` evicts first."""
        if self.refusal is not None:  # logged in and told it gets no game: only lingering
            return 0, self._started
        if self.authenticating:
            return 3, self._started
        said = self.conn is not None and self.conn.get_extra_info("client_version")
        return (2 if said else 1), self._started

    def end(self, message: str, status: int, ending: str) -> None:
        """End this connection for a reason of the server's: the client is told why."""
        if self.ending is None:
            self.ending = ending
        if self.session is not None and self.session.end(message, status):
            return
        if self.conn is not None:
            self.conn.close()

    # -- idle -----------------------------------------------------------------------

    def touch(self) -> None:
        self._last_input = time.monotonic()

    def _check_idle(self) -> None:
        timeout = self.server.settings.idle_timeout
        left = self._last_input + timeout - time.monotonic()
        if left > 0:
            self._timer = asyncio.get_running_loop().call_later(left, self._check_idle)
            return
        self.end(f"no input for {timeout:g} s: the session is closed", 1, ending="idle timeout")

    # -- logging in ---------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        """Logging in is required only to learn the player's key; anyone gets in without one,
        unless `--authorized-keys` was given."""
        self.username = username[:USERNAME_LIMIT]
        self.authenticating = True
        if self.telling is not None:  # before any answer to it: a client stops at "denied"
            self.refuse(self.telling)
        return True

    def auth_completed(self) -> None:
        """Logged in: a game's slot, or a refusal the session will be told."""
        self.logged_in = True
        if self._offered is not None and not self._guest:
            self.fingerprint = self._offered.get_fingerprint("sha256")
        self.refusal = self.server.admit(self)
        if self.refusal is not None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(REFUSED_GRACE, self.abort)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Any key in open mode, a listed one otherwise. asyncssh checks the signature after
        this returns True and logs in only if it holds, so the last key accepted here is the
        key the player proved to own when `auth_completed` follows a key login."""
        keys = self.server.authorized_keys
        if keys is not None and keys.validate(key, self.address, self.address) is None:
            self.server.refusals.note(
                "keys",
                "refused a key not in --authorized-keys",
                f"{self._who()} refused key {key.get_fingerprint('sha256')} "
                "(not in --authorized-keys)",
            )
            return False
        self._offered = key
        return True

    def kbdint_auth_supported(self) -> bool:
        """Without `--authorized-keys`, clients with no key log in as guests, unprompted."""
        return self.server.authorized_keys is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._guest = True  # a guest: whatever key was offered before, it was not used
        return True

    def password_auth_supported(self) -> bool:
        return False

    # -- what the client asks for -------------------------------------------------------

    def session_requested(self) -> GameSession | bool:
        if self.session is not None:
            return False  # one game per connection: the caps count connections
        self.session = GameSession(self)
        return self.session

    def connection_requested(self, *_args: Any) -> bool:
        return False  # local port forwarding (ssh -L)

    def server_requested(self, *_args: Any) -> bool:
        return False  # remote port forwarding (ssh -R)

    def unix_connection_requested(self, *_args: Any) -> bool:
        return False

    def unix_server_requested(self, *_args: Any) -> bool:
        return False


class GameSession(asyncssh.SSHServerSession[bytes]):
    """One session: checks what the client asked for, then runs one game and relays it."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type: str | None = None
        self.size = DEFAULT_SIZE
        self.options: argparse.Namespace | OptionsError | None = None  # from an exec request
        self.game: GameProcess | None = None
        self.drew = False  # the game has written to the client's terminal
        self.closing = False
        self.early = bytearray()  # keys typed before the game's process existed
        self._env_timer: asyncio.TimerHandle | None = None

    def connection_made(self, chan: asyncssh.SSHChannel[bytes]) -> None:
        self.chan = chan  # type: ignore[assignment]
        self._check_environment()

    def _check_environment(self) -> None:
        """Every ENV_CHECK s: more than ENV_LIMIT variables ends the connection. asyncssh
        keeps every env request's variable, and calls nothing of ours when it does, so
        this bounds what a client can make the server hold by how fast it can send."""
        if self.chan is None:
            return
        if len(self.chan.get_environment_bytes()) > ENV_LIMIT:
            self.client.ending = "refused: too many environment variables"
            self.client.abort()
            return
        self._env_timer = asyncio.get_running_loop().call_later(ENV_CHECK, self._check_environment)

    def pty_requested(self, term_type: str, term_size: tuple[int, ...], _modes: Any) -> bool:
        self.term_type = printable(term_type[:TERM_LIMIT], TERM_LIMIT) or "xterm-256color"
        self.size = clamp_size(*term_size[:2]) if term_size[0] and term_size[1] else DEFAULT_SIZE
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        """Read as play options at once (cut to size before parsing, so cheap); what is
        wrong with them is told in session_started."""
        try:
            self.options = parse_play_options(command)
        except OptionsError as error:
            self.options = error
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.client.ending = f"refused subsystem {printable(subsystem[:20], 20)!r}"
        return False

    def session_started(self) -> None:
        refusal = self.client.refusal
        if refusal is not None:
            self.client.ending = f"refused: {refusal.split(':')[0]}"
            self._finish(refusal, 1)
            return
        try:
            options = self.options or parse_play_options(None)
            if isinstance(options, OptionsError):
                raise options
        except OptionsError as error:
            self.client.ending = "printed help" if error.status == 0 else "refused: bad options"
            self._finish(error.message.rstrip("\n"), error.status, stdout=error.status == 0)
            return
        if self.term_type is None:
            self.client.ending = "refused: no pty"
            self._finish(NO_PTY, 2)
            return
        asyncio.get_running_loop().create_task(self._start(options))

    async def _start(self, options: argparse.Namespace) -> None:
        assert self.chan is not None and self.term_type is not None
        client = self.client
        env = game_environment(
            self.term_type,
            self.chan.get_environment(),
            client.fingerprint,
            client.username,
        )
        game = GameProcess(
            client.server.launcher(play_args(options), env),
            *self.size,
            on_output=self._output,
            on_exit=self._exited,
        )
        try:
            await game.start()
        except Exception as error:  # out of processes, memory, ptys: this session only
            client.ending = f"could not start the game ({printable(str(error), 60)})"
            self._finish("the game could not start: try again later", 1)
            return
        self.game = game
        client.server.games.add(game)
        if self.closing:  # the client left, or the server ended it, while the game started
            self.end_game()
            return
        game.resize(*self.size)  # a window change may have come in the meantime
        if self.early:  # typed ahead: the game acts on it once it has drawn its first frame
            game.write(bytes(self.early))
            self.early.clear()

    # -- relaying -----------------------------------------------------------------

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self.closing:
            self.drew = True
            with contextlib.suppress(OSError):  # closed by the client a moment ago
                self.chan.write(data)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.client.touch()
        if self.closing:
            return
        if self.game is not None:
            self.game.write(data)
        else:
            self.early += data[: max(0, EARLY_INPUT_LIMIT - len(self.early))]

    def terminal_size_changed(self, width: int, height: int, _pw: int, _ph: int) -> None:
        self.size = clamp_size(width, height) if width and height else self.size
        if self.game is not None:
            self.game.resize(*self.size)

    def eof_received(self) -> bool:
        return True  # keep the game: it ends on its own, by quitting or the idle timeout

    def pause_writing(self) -> None:
        if self.game is not None:
            self.game.pause_output()

    def resume_writing(self) -> None:
        if self.game is not None:
            self.game.resume_output()

    # -- the end --------------------------------------------------------------------

    def _exited(self, status: int) -> None:
        """The game ended (quit, crash, or our hang-up): its status ends the session."""
        self.client.server.games.discard(self.game)  # type: ignore[arg-type]
        if self.closing:
            return
        self.closing = True
        chan = self.chan
        if status >= 0:
            self.client.ending = f"game over, exit {status}"
        elif self.game is not None and self.game.orphaned:
            self.client.ending = "game lost with the fork server"
            self._finish(GAME_LOST, 1)
            return
        else:
            self.client.ending = f"game killed by SIG{_signal_name(-status)}"
        if chan is not None:
            with contextlib.suppress(OSError):
                if status >= 0:
                    chan.exit(status)
                else:  # it could not give the terminal back itself
                    if self.drew:
                        chan.write(RESTORE_TERMINAL)
                    chan.write_stderr(
                        f"\r\n{PROG}: the game was killed (SIG{_signal_name(-status)})\r\n".encode()
                    )
                    chan.exit_with_signal(_signal_name(-status))

    def end(self, message: str, status: int) -> bool:
        """End the session for the server's reason: restore the client's terminal if the
        game had taken it over, say why, exit with `status`, hang the game up.
        False if the session was already ending."""
        if self.closing or self.chan is None:
            return False
        self._finish(message, status)
        self.end_game()
        return True

    def _finish(self, message: str, status: int, stdout: bool = False) -> None:
        self.closing = True
        chan = self.chan
        if chan is None:
            return
        newline = b"\r\n" if self.term_type is not None else b"\n"
        text = message.encode("utf-8", "replace").replace(b"\n", newline) + newline
        if not stdout and not message.startswith(PROG):
            text = f"{PROG}: ".encode() + text
        with contextlib.suppress(OSError):  # the client may be gone already
            if self.drew:
                chan.write(RESTORE_TERMINAL)
                text = newline + text
            if stdout:
                chan.write(text)
            else:
                chan.write_stderr(text)
            chan.exit(status)

    def end_game(self) -> None:
        """Hang the game up (in the background; the server waits for it on shutdown)."""
        self.closing = True
        if self._env_timer is not None:
            self._env_timer.cancel()
        if self.game is not None and self.game.returncode is None:
            self.client.server.hang_up(self.game)

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel has closed: the game goes, and so does the connection (it held
        the one session allowed, and its slot is for the next player)."""
        self.end_game()
        if self.client.conn is not None:
            self.client.conn.close()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name.removeprefix("SIG")
    except ValueError:
        return str(number)


# -- the command ----------------------------------------------------------------------


def play_hint(host: str, port: int) -> str:
    """The command players type: listening on every address, the server cannot know
    which of this machine's names or addresses they can reach."""
    if host in ("", "0.0.0.0", "::"):
        return f"ssh -t -p {port} ADDRESS (this machine's name or address; here: localhost)"
    if host in ("127.0.0.1", "::1"):
        return f"ssh -t -p {port} localhost"
    return f"ssh -t -p {port} {host}"


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(
        host=args.host,
        port=args.port,
        host_key=Path(args.host_key) if args.host_key else None,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        max_sessions=args.max_sessions,
        max_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout,
        fork_server=args.fork_server,
    )


def serve(args: argparse.Namespace) -> int:
    """`tui-tictactoe serve-ssh`: run until SIGINT or SIGTERM, then shut down cleanly (exit 0)."""
    try:
        server = GameServer(settings_from(args))
    except HostKeyError as error:
        print(f"{PROG} serve-ssh: {error}", file=sys.stderr)
        return 2
    return asyncio.run(_run(server))


async def _run(server: GameServer) -> int:
    try:
        port = await server.start()
    except OSError as error:
        where = f"{server.settings.host}:{server.settings.port}"
        print(f"{PROG} serve-ssh: cannot listen on {where}: {error.strerror}", file=sys.stderr)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    host = server.settings.host
    shown = f"[{host}]" if ":" in host else host
    server.log(
        f"{PROG} serve-ssh: listening on {shown}:{port} (host key {server.fingerprint}); "
        f"play with: {play_hint(host, port)}"
    )
    await stop.wait()
    server.stop_accepting()
    server.log(f"{PROG} serve-ssh: shutting down")
    with contextlib.suppress(asyncio.CancelledError):
        await server.stop()
    server.log(f"{PROG} serve-ssh: stopped")
    return 0
