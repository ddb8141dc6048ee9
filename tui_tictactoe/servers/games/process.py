"""One game in its own process and pseudo-terminal, driven from an asyncio server.

The child is a session leader with the pty as its controlling terminal, so the
kernel does the terminal's work: a window size set on the pty sends it SIGWINCH,
and closing the master end hangs the terminal up (SIGHUP, and POLLHUP for the
game's own hang-up check). `hang_up` then makes sure: SIGTERM, then SIGKILL to
the child's process group if it has not gone, and ends once it has been reaped.

How the child starts is a `Launch`: `spawn` runs a fresh interpreter (asyncio's
child watcher reaps it); `fork_server.ForkServer` forks it from a process that
imported the game once (and that process reaps it and reports its status).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from tui_tictactoe.limits import clamp_size

READ_SIZE = 65536
INPUT_LIMIT = 65536  # bytes of client input waiting for the game; beyond that, dropped
HANG_UP_GRACE = 0.4  # seconds the game has to exit by itself after a hang-up (it polls)
TERM_GRACE = 0.25  # seconds after SIGTERM before SIGKILL
DRAWN = 1024  # bytes of a game's output that say its first frame is on its way


# What Textual turns on in a terminal, turned off again: sent to the client when the
# server ends a game, which can no longer restore the client's terminal itself.
RESTORE_TERMINAL = (
    b"\x1b[<u"  # kitty keyboard protocol: pop
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # mouse reporting
    b"\x1b[?2004l\x1b[?1004l\x1b[?2048l\x1b[?2026l"  # paste, focus, in-band resize, sync
    b"\x1b[?7h\x1b[0m\x1b[?25h\x1b[?1049l"  # line wrap, colours, cursor, alternate screen
)


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """Set a pty's window size, at most the game's largest (a 10,000 x 10,000 window made one
    game hold 1.45 GB); the kernel tells its foreground process group (SIGWINCH)."""
    columns, rows = clamp_size(columns, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Child(Protocol):
    """A started game process, however it was started."""

    pid: int
    orphaned: bool
    """Killed because the process that started it died (the fork server), not by itself."""

    def signal_group(self, sig: signal.Signals) -> None:
        """Send `sig` to its process group, unless it has been reaped: its pid (the
        group's id) may then be someone else's."""

    async def wait(self) -> int:
        """Its exit status once it has been reaped (negative: killed by that signal)."""


Launch = Callable[[int], Awaitable[Child]]
"""Starts a game on a pty slave: its controlling terminal, and its fds 0, 1 and 2."""


class Spawned:
    """A game started as a fresh interpreter; asyncio's child watcher reaps it."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = process.pid
        self.orphaned = False  # the server is its parent

    def signal_group(self, sig: signal.Signals) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, sig)

    async def wait(self) -> int:
        return await self.process.wait()


def spawn(argv: Sequence[str], env: dict[str, str]) -> Launch:
    """Run `argv` in a session of its own (pgid == pid) on the pty; for a game,
    `child.py` then makes the pty its controlling terminal."""

    async def launch(slave: int) -> Child:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        return Spawned(process)

    return launch


def plain_lines(fd: int) -> None:
    """A pty for a client without a terminal: lines still end at a newline and VEOF still
    ends the input (canonical mode), but nothing is echoed back, output goes out as written
    (no CR LF), and no byte is a signal or a literal-next (ISIG, IEXTEN off)."""
    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.OPOST
    attrs[3] &= ~(termios.ECHO | termios.ECHONL | termios.ISIG | termios.IEXTEN)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class PtyProcess:
    """A child process in a fresh pty: output goes to `on_output`, its end to `on_exit`.

    `on_exit` gets the exit status (negative: killed by that signal), once, after the
    last of the output, whether the game quit, crashed or was hung up.
    """

    def __init__(
        self,
        launch: Launch,
        columns: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        lines: bool = False,
    ) -> None:
        """`lines`: the client has no terminal of its own (a plain game over `ssh` without
        -t), so the pty neither echoes what it sends nor turns its newlines into CR LF, and
        no byte it sends is a signal (`plain_lines`)."""
        self.lines = lines
        self.launch = launch
        self.columns, self.rows = columns, rows
        self.on_output, self.on_exit = on_output, on_exit
        self.child: Child | None = None
        self.master: int | None = None
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._pending = bytearray()  # input the pty did not take yet
        self._reading = False
        self._paused = False
        self._done = asyncio.Event()
        self._output_bytes = 0  # counted up to DRAWN
        self.drawn = asyncio.Event()
        """Set once DRAWN bytes of output have come, or the game has ended: it has started."""
        self._watcher: asyncio.Task[None] | None = None
        self._ending: asyncio.Task[None] | None = None
        self.hung_up_at: float | None = None  # loop time of the hang-up, if there was one
        self.exited_at: float | None = None  # loop time its end (reaped) was known

    @property
    def pid(self) -> int | None:
        return self.child.pid if self.child else None

    @property
    def orphaned(self) -> bool:
        """It died with the process that started it (see `Child.orphaned`)."""
        return self.child is not None and self.child.orphaned

    def send_signal(self, sig: signal.Signals) -> None:
        """Send `sig` to the game's process group while it runs (the drain's word)."""
        if self.child is not None and self.returncode is None:
            self.child.signal_group(sig)

    async def start(self) -> None:
        master, slave = os.openpty()
        try:
            set_window_size(slave, self.columns, self.rows)
            if self.lines:
                plain_lines(slave)
            os.set_blocking(master, False)
            self.child = await self.launch(slave)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # only the child holds the terminal: its exit reads as EIO here
        self.master = master
        self._resume_reading()
        self._watcher = self._loop.create_task(self._watch())  # held: tasks are weakly kept

    # -- output -----------------------------------------------------------------

    def _resume_reading(self) -> None:
        if self.master is not None and not self._reading and not self._paused:
            self._loop.add_reader(self.master, self._read)
            self._reading = True

    def _stop_reading(self) -> None:
        if self.master is not None and self._reading:
            self._loop.remove_reader(self.master)
        self._reading = False

    def _read(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: every process holding the terminal has gone
            data = b""
        if data:
            self._count(len(data))
            self.on_output(data)
        else:
            self._stop_reading()

    def _count(self, size: int) -> None:
        if not self.drawn.is_set():
            self._output_bytes += size
            if self._output_bytes >= DRAWN:
                self.drawn.set()

    def pause_output(self) -> None:
        """The client is not keeping up: stop reading, and the game blocks in its writes."""
        self._paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        self._paused = False
        self._resume_reading()

    # -- input and window -------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Client input for the game; what the pty cannot take yet waits (up to INPUT_LIMIT)."""
        if self.master is None:
            return
        room = INPUT_LIMIT - len(self._pending)
        self._pending += data[: max(room, 0)]
        self._flush()

    def _flush(self) -> None:
        if self.master is None:
            return
        while self._pending:
            try:
                written = os.write(self.master, self._pending)
            except BlockingIOError:
                self._loop.add_writer(self.master, self._flush)
                return
            except OSError:
                self._pending.clear()
                break
            del self._pending[:written]
        self._loop.remove_writer(self.master)

    def resize(self, columns: int, rows: int) -> None:
        if self.master is not None and (columns, rows) != (self.columns, self.rows) and columns:
            self.columns, self.rows = columns, rows
            with contextlib.suppress(OSError):
                set_window_size(self.master, columns, rows)

    # -- the end ----------------------------------------------------------------

    async def _watch(self) -> None:
        """Wait for the child's exit, hand over its last output, close the pty, report."""
        assert self.child is not None
        self.returncode = await self.child.wait()
        self.exited_at = self._loop.time()
        self.drawn.set()
        if self.master is not None:
            self._stop_reading()
            self._drain()
            self._close_master()
        self._done.set()
        self.on_exit(self.returncode)

    def _drain(self) -> None:
        """What the game wrote before it exited (its last frame, a traceback)."""
        assert self.master is not None
        for _ in range(64):  # the pty holds a few KiB at most; bounded all the same
            try:
                data = os.read(self.master, READ_SIZE)
            except OSError:
                return
            if not data:
                return
            self.on_output(data)

    def _close_master(self) -> None:
        if self.master is not None:
            self._stop_reading()
            self._loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None
            self._pending.clear()

    def hang_up(self) -> asyncio.Task[None]:
        """End the game as a closed terminal does, and make sure it is gone and reaped.

        Closing the master end hangs the pty up (the kernel sends SIGHUP to the
        session; the game also polls for it and exits within about half a second).
        If the process is still there after HANG_UP_GRACE: SIGTERM to its process
        group, and SIGKILL after TERM_GRACE. The task ends once the child has been
        reaped; asking again gives the same task.
        """
        if self._ending is None:
            self.hung_up_at = self._loop.time()
            self._ending = self._loop.create_task(self._end())
        return self._ending

    async def _end(self) -> None:
        self.on_output = _ignore  # nobody to show it to any more
        if self.child is None:
            return
        self._close_master()
        for sig, grace in ((None, HANG_UP_GRACE), (signal.SIGTERM, TERM_GRACE)):
            if sig is not None:
                self.child.signal_group(sig)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._done.wait(), grace)
                return
        self.child.signal_group(signal.SIGKILL)
        await self._done.wait()

    async def wait(self) -> int:
        await self._done.wait()
        assert self.returncode is not None
        return self.returncode


def _ignore(_data: bytes) -> None:
    pass
