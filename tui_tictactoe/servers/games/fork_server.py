"""A fork server for `serve-ssh`: one process imports the game once and forks a game per session.

A game started as a fresh interpreter spends most of its ~0.45 s of CPU before its
first frame importing Textual and the game; sixteen players connecting at once
pay that sixteen times over on two cores. Forked from a process that has already
imported them, a game starts at its `commands.play.main`. The game's own start-up (the
`tui-tictactoe` command) is unchanged.

The asyncio server never forks (it has threads and an event loop): it starts this
module as a child process (`ForkServer.start`), which is single-threaded, runs no
event loop, and does nothing but fork, reap and report. The two talk over a
SOCK_SEQPACKET socket pair, one JSON object per message:

    server -> fork server   {"start": ID, "args": [...], "env": {...}} + the pty slave (SCM_RIGHTS)
                            {"signal": ID, "sig": N}
    fork server -> server   {"ready": PID}
                            {"started": ID, "pid": PID}  or  {"failed": ID, "error": "..."}
                            {"exited": ID, "status": N}  (negative N: killed by signal -N)

The fork server is the games' parent, so it reaps them and reports each exit; it
signals a game's process group only while that game is not yet reaped, so a signal
never reaches a recycled pid. A game dies with it (PR_SET_PDEATHSIG): if the fork
server dies, the server reports those games killed and starts later games as
fresh interpreters (`process.spawn`).

Warm games (`Forker`, `--warm-games`): forked ahead of demand, each asleep in a read of
a socket pair of its own; a start request goes on down one of them, with the pty, and
the game takes it as a game forked on the request would.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.servers.games.command import CHILD_COMMAND
from tui_tictactoe.servers.games.process import Child, Launch, spawn

if TYPE_CHECKING:
    from tui_tictactoe.servers.ops.stderr_relay import StderrRelay

MODULE = "tui_tictactoe.servers.games.fork_server"
MESSAGE_LIMIT = 1 << 20  # bytes of one message (a game's environment is a few KiB)
START_TIMEOUT = 15.0  # seconds for the fork server to be ready and fork; else it is killed
KILL_TIMEOUT = 2.0  # seconds for a game's exit to be reported after SIGKILL; else likewise
END_GRACE = 1.0  # seconds the fork server's games get after SIGTERM when the server has gone
CLIENT_GONE = 1  # the exit status of a game whose terminal hung up before it could take it

# What a game needs before its first frame, beyond what importing the app loads
# (found by listing `sys.modules` at the first frame of `tui-tictactoe`).
PRELOAD = (
    "tui_tictactoe.commands.play",
    "tui_tictactoe.servers.games.child",
    "tui_tictactoe.ui.app",
    "textual.drivers.linux_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "textual.pilot",
    "getpass",
    "ctypes",
)


class ForkServerGone(Exception):
    """The fork server has died or stopped answering: start the game another way."""


# -- the server's side (asyncio) -----------------------------------------------------


class Forked:
    """A game forked by the fork server (`process.Child`)."""

    def __init__(self, fork_server: ForkServer, number: int) -> None:
        self.fork_server = fork_server
        self.number = number
        self.pid = 0
        self.orphaned = False
        self.status: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def signal_group(self, sig: signal.Signals) -> None:
        if not self.status.done():
            self.fork_server.signal(self, sig)

    async def wait(self) -> int:
        return await asyncio.shield(self.status)

    def exited(self, status: int) -> None:
        if not self.status.done():
            self.status.set_result(status)


class ForkServer:
    """The server's handle on the fork server process."""

    def __init__(
        self, process: asyncio.subprocess.Process, sock: socket.socket, log: Callable[[str], None]
    ) -> None:
        self.process = process
        self.sock = sock
        self.log = log
        self.alive = True
        self._loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[int] = self._loop.create_future()
        self._numbers = itertools.count(1)
        self._starting: dict[int, asyncio.Future[int]] = {}
        self._games: dict[int, Forked] = {}
        self._reader = self._loop.create_task(self._read())
        self.stderr: tuple[StderrRelay, asyncio.ReadTransport] | None = None  # read into the log

    @classmethod
    async def start(
        cls, env: dict[str, str], log: Callable[[str], None], warm: int = 0
    ) -> ForkServer:
        """Start the fork server with the games' common environment, keeping `warm` games
        forked ahead of demand; it imports the game in the background, and `launch` waits
        for it."""
        from tui_tictactoe.servers.ops.stderr_relay import StderrRelay, relay_pipe

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # Its stderr (and its warm games', until they take their pty) is read by the server
        # and logged line by line as events (JSON under --log-format json), not written raw.
        errors, its_errors = os.pipe()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                MODULE,
                str(theirs.fileno()),
                str(warm),
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=its_errors,
                env=env,
                start_new_session=True,  # Ctrl+C at the server's terminal is the server's to handle
            )
        except BaseException:
            ours.close()
            os.close(errors)
            raise
        finally:
            theirs.close()
            os.close(its_errors)
        ours.setblocking(False)
        relay = StderrRelay(log, f"{PROG} serve-ssh: fork server ", source="fork_server")
        forks = cls(process, ours, log)
        forks.stderr = relay, await relay_pipe(errors, relay)
        return forks

    def launch(self, args: list[str], env: dict[str, str]) -> Launch:
        """How to start a game with `commands.play.main(args)`: forked if the fork server is alive and
        answers, else (or if it dies meanwhile) as a fresh interpreter."""
        fallback = spawn([*CHILD_COMMAND, *args], env)

        async def launch(slave: int) -> Child:
            try:
                return await self._fork(args, env, slave)
            except ForkServerGone:
                return await fallback(slave)

        return launch

    async def _fork(self, args: list[str], env: dict[str, str], slave: int) -> Forked:
        if not self.alive:
            raise ForkServerGone
        deadline = self._loop.time() + START_TIMEOUT
        try:
            await asyncio.wait_for(asyncio.shield(self.ready), START_TIMEOUT)
            number = next(self._numbers)
            started = self._starting[number] = self._loop.create_future()
            game = self._games[number] = Forked(self, number)
            message = {"start": number, "args": args, "env": env}
            socket.send_fds(self.sock, [json.dumps(message).encode()], [slave])
            game.pid = await asyncio.wait_for(started, deadline - self._loop.time())
        except (TimeoutError, BlockingIOError):
            self._kill("did not answer")
            raise ForkServerGone from None
        except OSError:
            raise ForkServerGone from None
        return game

    def signal(self, game: Forked, sig: signal.Signals) -> None:
        with contextlib.suppress(OSError):  # gone: its games are reported killed
            self.sock.send(json.dumps({"signal": game.number, "sig": int(sig)}).encode())
        if sig == signal.SIGKILL:
            self._loop.call_later(KILL_TIMEOUT, self._check_killed, game)

    def _check_killed(self, game: Forked) -> None:
        if not game.status.done():
            self._kill(f"did not report game {game.pid} killed")

    def _kill(self, why: str) -> None:
        """End an unresponsive fork server; its games die with it (PR_SET_PDEATHSIG)."""
        if self.alive:
            self.log(f"fork server {why}: killed; games start as fresh processes from now on")
            self.alive = False
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def _read(self) -> None:
        try:
            while data := await self._loop.sock_recv(self.sock, MESSAGE_LIMIT):
                self._received(json.loads(data))
        except (OSError, ValueError):
            pass
        finally:
            self._gone()

    def _received(self, message: dict[str, Any]) -> None:
        if "ready" in message:
            if not self.ready.done():
                self.ready.set_result(message["ready"])
        elif "started" in message:
            future = self._starting.pop(message["started"], None)
            if future is not None and not future.done():
                future.set_result(message["pid"])
        elif "failed" in message:
            future = self._starting.pop(message["failed"], None)
            self._games.pop(message["failed"], None)
            if future is not None and not future.done():
                future.set_exception(OSError(message["error"]))
        elif "exited" in message:
            game = self._games.pop(message["exited"], None)
            if game is not None:
                game.exited(message["status"])

    def _gone(self) -> None:
        """The fork server has exited: nothing more will come from it."""
        if self.alive:
            self.log("fork server gone: games start as fresh processes from now on")
        self.alive = False
        self.sock.close()
        for future in [self.ready, *self._starting.values()]:
            if not future.done():
                future.set_exception(ForkServerGone())
                future.exception()  # retrieved: nobody may be waiting for it
        for game in self._games.values():
            game.orphaned = True
            game.exited(-signal.SIGKILL)  # its death signal, PR_SET_PDEATHSIG
        self._starting.clear()
        self._games.clear()

    async def close(self) -> None:
        """Stop the fork server (after the server has ended its games) and reap it."""
        if self.alive:
            self.alive = False
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
        try:
            await asyncio.wait_for(self.process.wait(), END_GRACE + 1.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        await self._reader
        if self.stderr is not None:  # its last lines (it has gone: the pipe ends), then closed
            relay, transport = self.stderr
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(relay.closed.wait(), END_GRACE)
            transport.close()


# -- the fork server's side (no threads, no event loop) -----------------------------


def main() -> int:
    sock = socket.socket(fileno=int(sys.argv[1]))
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # the drain's word is for games (`drain`)
    warm = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    preload()
    request = Forker(sock, warm).serve()
    if request is None:
        return 0
    # A forked game from here on.
    from tui_tictactoe.servers.games.child import main as play

    sys.argv[1:] = request
    return play(request)


def preload() -> None:
    import gc
    import importlib
    import threading

    for name in PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1:  # forking a process with threads is not safe
        raise SystemExit(f"{MODULE}: a thread started while importing the game")
    gc.freeze()  # what was imported stays shared with every game, untouched by its GC


class Forker:
    """The fork server's loop: a game per request, forked then, or handed to a warm one.

    A warm game is forked ahead of demand (`warm` of them, refilled whenever no request
    is waiting) and sleeps in a blocking read of its own socket: no timer, no CPU. A
    request hands it the pty and the session's environment and arguments over that
    socket, and from there it becomes its game exactly as a game forked on the request
    does (`_become_game`), so the two are alike but for when the fork happened.
    """

    def __init__(self, sock: socket.socket, warm: int) -> None:
        self.sock = sock
        self.warm = warm
        self.games: dict[int, int] = {}  # pid -> the server's number for it (handed over)
        self.pool: dict[int, socket.socket] = {}  # a warm game's pid -> our end of its socket
        self.wake_up, self.woken = os.pipe()

    def serve(self) -> list[str] | None:
        """Fork a game per request until the server closes the socket; None then. In a
        forked game this returns its `cli.main` arguments, once it holds its terminal and
        environment."""
        os.set_blocking(self.wake_up, False)
        os.set_blocking(self.woken, False)
        signal.set_wakeup_fd(self.woken)  # SIGCHLD wakes the select below
        signal.signal(signal.SIGCHLD, lambda *_: None)
        _send(self.sock, ready=os.getpid())
        while True:
            short = len(self.pool) < self.warm  # refilled only when no request waits
            watched: list[socket.socket | int] = [self.sock, self.wake_up]
            readable, _, _ = select.select(watched, [], [], 0 if short else None)
            if self.wake_up in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wake_up, 4096)
                self._reap()
            if self.sock in readable:
                try:
                    data, fds, _, _ = socket.recv_fds(self.sock, MESSAGE_LIMIT, 1)
                except OSError:
                    data, fds = b"", []
                if not data:  # the server has stopped, or died
                    self._end_all()
                    return None
                args = self._handle(json.loads(data), fds)
            elif not readable and short:
                args = self._fork_warm()
            else:
                continue
            if args is not None:  # in a forked game
                return args

    def _handle(self, message: dict[str, Any], fds: list[int]) -> list[str] | None:
        if "signal" in message:
            pid = next(
                (pid for pid, number in self.games.items() if number == message["signal"]), 0
            )
            if pid:  # not reaped yet: pid and process group are still the game's
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, message["sig"])
            return None
        if "start" not in message or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            return None
        if self._hand_to_warm(message, fds[0]):
            return None
        return self._fork_game(message, fds[0])

    def _hand_to_warm(self, message: dict[str, Any], slave: int) -> bool:
        """Give the request to a warm game, if one is alive to take it."""
        while self.pool:
            pid, end = self.pool.popitem()
            try:
                socket.send_fds(end, [json.dumps(message).encode()], [slave])
            except OSError:  # it died waiting: reaped (and reported by nobody) later
                continue
            finally:
                end.close()
            os.close(slave)
            self.games[pid] = message["start"]
            _send(self.sock, started=message["start"], pid=pid)
            return True
        return False

    def _fork_game(self, message: dict[str, Any], slave: int) -> list[str] | None:
        try:
            pid = os.fork()
        except OSError as error:
            os.close(slave)
            _send(self.sock, failed=message["start"], error=str(error))
            return None
        if pid == 0:
            self._in_child()
            return _become_game(slave, message["env"], message["args"])
        os.close(slave)
        self.games[pid] = message["start"]
        _send(self.sock, started=message["start"], pid=pid)
        return None

    def _fork_warm(self) -> list[str] | None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            pid = os.fork()
        except OSError:
            ours.close()
            theirs.close()
            self.warm = len(self.pool)  # out of processes: no more warm games than now
            return None
        if pid == 0:
            ours.close()
            self._in_child()
            return _wait_warm(theirs)
        theirs.close()
        self.pool[pid] = ours
        return None

    def _in_child(self) -> None:
        """Just forked: drop what is the fork server's alone."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.close(self.wake_up)
        os.close(self.woken)
        self.sock.close()
        for end in self.pool.values():
            end.close()
        _die_with_parent()

    def _reap(self) -> set[int]:
        """Reap every game that has exited, and report it; the pids reaped."""
        reaped: set[int] = set()
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return reaped
            if pid == 0:
                return reaped
            reaped.add(pid)
            number = self.games.pop(pid, None)
            if number is not None:
                _send(self.sock, exited=number, status=os.waitstatus_to_exitcode(status))
            end = self.pool.pop(pid, None)
            if end is not None:  # a warm game died waiting: another takes its place
                end.close()

    def _end_all(self) -> None:
        """The server has gone, or stopped without ending them: end the games left (a warm
        one reads the end of its socket, and exits), and reap."""
        waiting = set(self.games) | set(self.pool)
        for end in self.pool.values():
            end.close()
        self.pool.clear()
        for pid in self.games:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + END_GRACE
        while waiting and time.monotonic() < deadline:
            time.sleep(0.01)
            waiting -= self._reap()
        for pid in waiting:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _send(sock: socket.socket, **message: Any) -> None:
    with contextlib.suppress(OSError):  # the server has gone: the next read says so
        sock.send(json.dumps(message).encode())


def _die_with_parent() -> None:
    """A game dies with the fork server (PR_SET_PDEATHSIG), in a session and process group
    of its own from the start (the server signals its group: a warm game's too)."""
    import ctypes

    parent = os.getppid()
    ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG: die with it
    if os.getppid() != parent:  # it died before that took effect
        os._exit(1)
    os.setsid()


def _wait_warm(sock: socket.socket) -> list[str]:
    """A warm game: sleep until a request comes (or the fork server closes its end: exit)."""
    try:
        data, fds, _, _ = socket.recv_fds(sock, MESSAGE_LIMIT, 1)
    except OSError:
        data, fds = b"", []
    sock.close()
    if not data or len(fds) != 1:
        os._exit(0)
    message = json.loads(data)
    return _become_game(fds[0], message["env"], message["args"])


def _become_game(slave: int, env: dict[str, str], args: list[Any]) -> list[str]:
    """In the forked child: what `spawn` and `child.py` do for a fresh interpreter; its
    `commands.play.main` arguments."""
    try:
        _take_terminal(slave, env)
    except OSError:  # the client left while its game started: the pty is hung up
        os._exit(CLIENT_GONE)  # silently: the server logs the connection's end
    return [str(arg) for arg in args]


def _take_terminal(slave: int, env: dict[str, str]) -> None:
    import fcntl
    import termios

    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    if slave > 2:
        os.close(slave)
    os.environ.clear()
    os.environ.update(env)
    # The standard streams as a fresh interpreter on a terminal has them (stdout
    # line-buffered): the fork server's were made for /dev/null and the server's stderr.
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        old = getattr(sys, name)
        stream = open(  # noqa: SIM115  (the interpreter's own, as sys.std* are)
            fd,
            "r" if fd == 0 else "w",
            buffering=-1 if fd == 0 else 1,
            encoding=old.encoding,
            errors=old.errors,
            closefd=False,
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


if __name__ == "__main__":
    sys.exit(main())
