"""One SSH session of `serve-ssh`: what the client asked for, checked, then one game relayed.

The session knows its connection only through `Connection` (what it reads and calls),
so that this module and the server's (`ssh.server`) import each other in one direction.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import time
from typing import Any, Protocol

import asyncssh

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.commands.terminal_check import full_screen
from tui_tictactoe.identity import NAME_NOTICE_ENV, PLAYER_MARK_ENV
from tui_tictactoe.limits import clamp_size
from tui_tictactoe.rooms.socket.wire import ENV_VAR as HUB_ENV
from tui_tictactoe.servers.control_budget import FLOOD, Flood, Resizes, packets
from tui_tictactoe.servers.games.command import (
    OptionsError,
    game_environment,
    parse_play_options,
    parse_stats_options,
    play_args,
    printable,
    secret_environment,
)
from tui_tictactoe.servers.games.process import RESTORE_TERMINAL, Launch, PtyProcess
from tui_tictactoe.servers.input_budget import InputBudget
from tui_tictactoe.servers.names import Standing
from tui_tictactoe.servers.ops.events import ServerEvents, session_kind
from tui_tictactoe.servers.ssh.stats import GUEST_HAS_NO_RECORD, send_stats

NO_PTY = "this is an interactive game: connect with ssh -t (or play line by line: -- --plain)"
GAME_LOST = "the server's game starter stopped, and your game with it: connect again to play"
DEFAULT_SIZE = (80, 24)  # for clients that report a 0x0 window
EARLY_INPUT_LIMIT = 4096  # bytes typed before the game's process exists, kept for it
TERM_LIMIT = 64  # characters of a TERM kept
ENV_LIMIT = 32  # environment variables a session may set (the game reads two)
ENV_CHECK = 0.25  # seconds between checks of that: asyncssh has no hook per env request
STARTING = "starting your game…"
START_HOLD = 3.0  # seconds a start holds its place among the `Host.starts` at most
ENTER_ALTERNATE, LEAVE_ALTERNATE = b"\x1b[?1049h", b"\x1b[?1049l"
FLOODED = "too many requests: the connection is closed"  # what a flooding client is told


class Host(Protocol):
    """What a session needs of the server: a way to start a game, and to end one."""

    games: set[PtyProcess]
    room_environment: dict[str, str]  # the record's database, the rooms' hub and address
    events: ServerEvents  # what the metrics count
    starts: asyncio.Semaphore  # games starting at once: as many as the cores can build

    def log(self, line: str) -> None: ...

    def launcher(self, args: list[str], env: dict[str, str]) -> Launch: ...

    def hang_up(self, game: PtyProcess) -> asyncio.Task[None]: ...

    async def name_standing(self, player: str | None, name: str, address: str) -> Standing: ...


class Connection(Protocol):
    """What a session needs of its SSH connection (`server.Client`)."""

    conn: asyncssh.SSHServerConnection | None
    username: str
    name: str  # what the game calls the player (`server.Client.name`)
    address: str  # the client's IP address
    counted_as: str  # ... as the per-address rules count it (`addresses.counting_key`)
    fingerprint: str | None
    refusal: str | None  # logged in, but given no game: why
    ending: str | None  # how the connection ended, for its log line

    @property
    def host(self) -> Host: ...

    def touch(self) -> None: ...

    def abort(self) -> None: ...


class SshSession(asyncssh.SSHServerSession[bytes]):
    """One session: checks what the client asked for, then runs one game and relays it."""

    def __init__(self, client: Connection) -> None:
        self.client = client
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type: str | None = None
        self.size = DEFAULT_SIZE
        self.options: argparse.Namespace | OptionsError | None = None  # from an exec request
        self.stats: argparse.Namespace | None = None  # `stats [--json]`: no game, no pty
        self._stats_task: asyncio.Task[None] | None = None
        self.game: PtyProcess | None = None
        self.drew = False  # the game (or the server's first frame) has written to the client
        self.game_drew = False  # the game itself has: its first frame, timed by the metrics
        self.alternate = False  # the client's terminal is on the alternate screen now
        self._tail = b""  # the end of the game's last output: a sequence may span two writes
        self.closing = False
        self.early = bytearray()  # keys typed before the game's process existed
        self.budget = InputBudget()  # what a flood of input may cost the game
        self.resizes = Resizes()  # window changes reach the game at most 4 a second
        self.requests = Flood()  # window changes, signals, breaks: a flood closes the connection
        self.packets = packets()  # ... and data packets
        self._resize_timer: asyncio.TimerHandle | None = None  # the last size, due soon
        self.kind = "lobby"  # `ops.events.session_kind`, once the game starts
        self.room: str | None = None  # the room's code its options name (--join, --watch)
        self.starting = False  # admitted, its game's process not started yet
        self._began = time.monotonic()  # when the session started (its first frame's clock)
        self._env_timer: asyncio.TimerHandle | None = None
        self._pacing: asyncio.Task[None] | None = None  # held: tasks are weakly kept

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
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
            self.stats = parse_stats_options(command)
            self.options = parse_play_options(command) if self.stats is None else None
        except OptionsError as error:
            self.options = error
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.client.ending = f"refused subsystem {printable(subsystem[:20], 20)!r}"
        return False

    def session_started(self) -> None:
        refusal = self.client.refusal
        if refusal is not None:
            self.client.ending = f"refused: {refusal.split(':')[0].rstrip('.')}"
            self._finish(refusal, 1)
            return
        if self.stats is not None and not isinstance(self.options, OptionsError):
            self._start_stats(self.stats.json)
            return
        try:
            options = self.options or parse_play_options(None)
            if isinstance(options, OptionsError):
                raise options
        except OptionsError as error:
            self.client.ending = "printed help" if error.status == 0 else "refused: bad options"
            self._finish(error.message.rstrip("\n"), error.status, stdout=error.status == 0)
            return
        if self.term_type is None and not options.plain:  # --plain: lines, no pty needed
            self.client.ending = "refused: no pty"
            self._finish(NO_PTY, 2)
            return
        self.kind = session_kind(options, HUB_ENV in self.client.host.room_environment)
        self.room = getattr(options, "join", None) or getattr(options, "watch", None)
        self.starting = True
        self._began = time.monotonic()
        if self.term_type is not None and not options.plain and full_screen(self.term_type):
            self._show_starting()  # (a dumb terminal: the game says why it cannot run)
        asyncio.get_running_loop().create_task(self._start(options))

    def _show_starting(self) -> None:
        """A first frame at once, while the game starts (seconds, in a burst of players):
        on the alternate screen the game draws over, and leaves at its end."""
        assert self.chan is not None
        columns, rows = self.size
        row, column = rows // 2 + 1, max(1, (columns - len(STARTING)) // 2 + 1)
        frame = f"\x1b[?1049h\x1b[H\x1b[2J\x1b[{row};{column}H{STARTING}"
        self.drew = self.alternate = True  # an ending before the game's frame restores it
        with contextlib.suppress(OSError):
            self.chan.write(frame.encode())

    def _start_stats(self, as_json: bool) -> None:
        """The player's own record (`ssh.stats`); a guest has none, and is told so."""
        client = self.client
        if client.fingerprint is None:
            client.ending = "refused: stats for a guest"
            self._finish(GUEST_HAS_NO_RECORD, 1)
            return
        env = game_environment(
            "dumb",
            {},
            client.fingerprint,
            client.name,
            rooms=client.host.room_environment,
            address=client.counted_as,
        )
        self._stats_task = asyncio.get_running_loop().create_task(self._stats(as_json, env))

    async def _stats(self, as_json: bool, env: dict[str, str]) -> None:
        assert self.chan is not None
        self.closing = True  # nothing else is written to the channel
        try:
            self.client.ending = await send_stats(self.chan, as_json, env)
        except Exception as error:  # out of processes, memory: this session only
            self.client.ending = f"could not read stats ({printable(str(error), 60)})"
            with contextlib.suppress(OSError):
                self.chan.write_stderr(f"{PROG}: could not read your record\n".encode())
                self.chan.exit(1)

    async def _start(self, options: argparse.Namespace) -> None:
        try:
            await self._start_game(options)
        finally:
            self.starting = False

    async def _start_game(self, options: argparse.Namespace) -> None:
        assert self.chan is not None
        client = self.client
        env = game_environment(
            self.term_type or "dumb",
            self.chan.get_environment(),
            client.fingerprint,
            client.name,
            rooms=client.host.room_environment,
            address=client.counted_as,
        ) | secret_environment(options)
        # Whose the name is, asked of the record as the game starts (`SshServer.name_standing`).
        standing = await client.host.name_standing(
            client.fingerprint, client.name, client.counted_as
        )
        env[PLAYER_MARK_ENV], env[NAME_NOTICE_ENV] = standing
        game = PtyProcess(
            client.host.launcher(play_args(options), env),
            *self.size,
            on_output=self._output,
            on_exit=self._exited,
            lines=self.term_type is None,
        )
        if not await self._take_a_start():
            return
        try:
            await game.start()
        except Exception as error:  # out of processes, memory, ptys: this session only
            client.host.events.game_exited("not_started")
            client.host.starts.release()
            client.ending = f"could not start the game ({printable(str(error), 60)})"
            self._finish("the game could not start: try again later", 1)
            return
        self.game = game
        self._pacing = asyncio.get_running_loop().create_task(self._give_the_start_back(game))
        client.host.games.add(game)
        client.host.events.game_started()
        if self.closing:  # the client left, or the server ended it, while the game started
            self.end_game()
            return
        game.resize(*self.size)  # a window change may have come in the meantime
        self.resizes.applied()
        if self.early:  # typed ahead: the game acts on it once it has drawn its first frame
            game.write(bytes(self.early))
            self.early.clear()

    async def _take_a_start(self) -> bool:
        """Wait for a place among the games starting now (`Host.starts`); False if the
        session ended meanwhile. Games admitted all at once share the cores and all draw
        late; in turn, most draw early."""
        await self.client.host.starts.acquire()
        if self.closing:
            self.client.host.starts.release()
            return False
        return True

    async def _give_the_start_back(self, game: PtyProcess) -> None:
        """The place is the next game's once this one has drawn or ended
        (`PtyProcess.drawn`), or had START_HOLD seconds."""
        try:
            await asyncio.wait_for(game.drawn.wait(), START_HOLD)
        except TimeoutError:
            pass
        finally:
            self.client.host.starts.release()

    # -- relaying -----------------------------------------------------------------

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self.closing:
            if not self.game_drew:  # the game's own first frame (not the server's "starting")
                self.client.host.events.first_frame(time.monotonic() - self._began)
            self.drew = self.game_drew = True
            self._follow_screen(data)
            with contextlib.suppress(OSError):  # closed by the client a moment ago
                self.chan.write(data)

    def _follow_screen(self, data: bytes) -> None:
        """Whether the game's output left the client on the alternate screen (the server's
        "starting" frame's or the game's own), for an exit that must give it back."""
        seen = self._tail + data
        entered, left = seen.rfind(ENTER_ALTERNATE), seen.rfind(LEAVE_ALTERNATE)
        if entered != left:  # both -1: neither in this output
            self.alternate = entered > left
        self._tail = seen[-(len(ENTER_ALTERNATE) - 1) :]

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if not self._counted(self.packets, "data packets"):
            return
        self.client.touch()
        if self.closing:
            return
        data = self.budget.take(data)
        self._log_drops(self.budget.report())
        if self.game is not None:
            self.game.write(data)
        else:
            self.early += data[: max(0, EARLY_INPUT_LIMIT - len(self.early))]

    def _log_drops(self, line: str | None) -> None:
        """At most a line a minute per session (`input_budget`), never one per key."""
        if line is not None:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
            self.client.host.log(f"{stamp} {PROG} serve-ssh: {self.client.address} {line}")

    def terminal_size_changed(self, width: int, height: int, _pw: int, _ph: int) -> None:
        """Kept at once, applied at most `control_budget.RESIZES` times a second: a size
        that comes in while one waits replaces it, and the last one is always applied."""
        if not self._counted(what="window changes and other requests"):
            return
        self.size = clamp_size(width, height) if width and height else self.size
        if self.game is None:  # the game starts at the last size
            return
        if self._resize_timer is not None:
            self.resizes.replaced()
            self.client.host.events.resize_coalesced()
            return
        delay = self.resizes.delay()
        if delay <= 0:
            self._resize()
        else:
            self._resize_timer = asyncio.get_running_loop().call_later(delay, self._resize)

    def _resize(self) -> None:
        self._resize_timer = None
        if self.game is not None and not self.closing:
            self.resizes.applied()
            self.game.resize(*self.size)

    def signal_received(self, _signal: str) -> None:
        self._counted()  # the game gets none: it is the server's to signal

    def break_received(self, _msec: int) -> bool:
        self._counted()
        return False

    @property
    def flooded(self) -> bool:
        return self.requests.flooded or self.packets.flooded

    def _counted(self, bucket: Flood | None = None, what: str = "requests") -> bool:
        """One request (or data packet) from the client, in its `Flood`; False once it is
        a flood: the connection is then closed (once), its ending saying why (its one log
        line), and what the client still sends costs nothing more here."""
        bucket = bucket or self.requests
        if bucket.take():
            return not self.flooded
        client = self.client
        if client.ending is None or not client.ending.startswith(FLOOD):
            client.ending = bucket.ending(what)
            client.host.events.flooded()
            if self.game is not None:  # nobody will see its goodbye: spare the cores it
                self.game.send_signal(signal.SIGKILL)
            self.end_game()
            if client.conn is not None:
                client.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"{PROG}: {FLOODED}")
        return False

    def eof_received(self) -> bool:
        """Keep the game: it ends on its own, by quitting or the idle timeout. A plain game
        without a pty reads lines: the end of the client's input ends any line begun, then
        is its terminal's end of file (VEOF), so that a script's game ends as on a pipe."""
        if self.term_type is None and self.game is not None:
            self.game.write(b"\n\x04")
        return True

    def pause_writing(self) -> None:
        if self.game is not None:
            self.game.pause_output()

    def resume_writing(self) -> None:
        if self.game is not None:
            self.game.resume_output()

    # -- the end --------------------------------------------------------------------

    def _exited(self, status: int) -> None:
        """The game ended (quit, crash, or our hang-up): its status ends the session."""
        self.client.host.games.discard(self.game)
        self.client.host.events.game_exited(self._exit_cause(status))
        if self.closing:
            return
        self.closing = True
        chan = self.chan
        dropped = "; ".join(
            line for line in (self.budget.report(final=True), self.resizes.report()) if line
        )
        if status >= 0:
            self.client.ending = f"game over, exit {status}" + (f"; {dropped}" if dropped else "")
        elif self.game is not None and self.game.orphaned:
            self.client.ending = "game lost with the fork server"
            self._finish(GAME_LOST, 1)
            return
        else:
            self.client.ending = f"game killed by SIG{_signal_name(-status)}"
        if chan is not None:
            with contextlib.suppress(OSError):
                if status >= 0:
                    if self.alternate:  # the game ended before it left (or ever took) the
                        chan.write(RESTORE_TERMINAL)  # screen the server's frame entered
                    chan.exit(status)
                else:  # it could not give the terminal back itself
                    if self.drew:
                        chan.write(RESTORE_TERMINAL)
                    chan.write_stderr(
                        f"\r\n{PROG}: the game was killed (SIG{_signal_name(-status)})\r\n".encode()
                    )
                    chan.exit_with_signal(_signal_name(-status))

    def _exit_cause(self, status: int) -> str:
        """How the game ended, as the metrics label it (`ops.events.GAME_EXITS`)."""
        if self.game is not None and self.game.orphaned:
            return "fork_server_lost"
        if status < 0:
            return "killed"
        return "exited" if status == 0 else "failed"

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
        if self._resize_timer is not None:
            self._resize_timer.cancel()
        if self._stats_task is not None:
            self._stats_task.cancel()
        if self.game is not None and self.game.returncode is None:
            self.client.host.hang_up(self.game)

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel has closed: the game goes, and so does the connection (it held
        the one session allowed, and its slot is for the next player)."""
        if not self.flooded:  # else its ending says it all, in one line
            self._log_drops(self.budget.report(final=True))
            self._log_drops(self.resizes.report())
        self.end_game()
        if self.client.conn is not None:
            self.client.conn.close()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name.removeprefix("SIG")
    except ValueError:
        return str(number)
