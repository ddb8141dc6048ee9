"""What a game (or the fork server) writes to its stderr, relayed to the server's log as events.

Under `--log-format json` every line a service writes must be JSON, and a game's traceback
or warning, written raw to the stderr the service shares, was not: it landed unformatted among
the JSON lines in journald (serve-web's, through textual-serve, only when the game ended, and
held in memory however long it grew). The servers read that stderr themselves instead, and
log each line as a `game.stderr` event with the session's fields (`ServerLog` then writes it
as text or JSON, like every other line):

- **serve-web**: each game's stderr is a FIFO of its session's own (`GameStderr`), in a
  directory of mode 0700 that only lives as long as the session: textual-serve starts the
  game through a shell with only its three pipes, so the shell's first word sends its stderr
  (and so the game's) there. The event has the session's `session` and `address`.
- **serve-ssh**: a game's stderr is its pty (the player sees it); the fork server's, which its
  warm games share until they take their pty, is a pipe read here (`source="fork_server"`).

Bounded: a line is at most MAX_LINE bytes (the rest of it is dropped, and the event says
`truncated`), shown through `identity.displayable` (no escape or control characters); at most
BURST lines at once and RATE a second after that per relay, the others counted and said in
one line (`game.stderr_dropped`) when lines are let through again, and at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui_tictactoe.identity import displayable
from tui_tictactoe.servers.ops.log_format import Event

MAX_LINE = 2048  # bytes of a relayed line
BURST = 50  # lines relayed at once
RATE = 5.0  # lines a second after the burst
END_WAIT = 1.0  # seconds to wait for a game's last lines (its exit closes the FIFO)


class StderrRelay(asyncio.Protocol):
    """Reads a pipe's bytes into lines and logs each one as an event (`log`: the server's)."""

    def __init__(
        self,
        log: Callable[[str], None],
        prefix: str,
        clock: Callable[[], float] = time.monotonic,
        **fields: Any,
    ) -> None:
        self.log = log
        self.prefix = prefix  # the text line's start ("tui-tictactoe serve-web: ADDRESS ")
        self.fields = fields  # the session's (or the source's), in every event
        self.clock = clock
        self._line = bytearray()
        self._cut = False  # the line being read went past MAX_LINE: its rest is dropped
        self._tokens = float(BURST)
        self._last = clock()
        self.dropped = 0  # lines not logged since the last said
        self.lines = 0  # lines logged
        self.closed = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                self._take(data[start:])
                return
            self._take(data[start:end])
            self._end_line()
            start = end + 1

    def _take(self, part: bytes) -> None:
        room = MAX_LINE - len(self._line)
        if len(part) > room:
            self._cut = True
            part = part[: max(room, 0)]
        self._line += part

    def _end_line(self) -> None:
        raw, truncated = bytes(self._line), self._cut
        self._line.clear()
        self._cut = False
        text = displayable(raw.decode("utf-8", "replace"), MAX_LINE, empty="")
        if not text:
            return
        if not self._allowed():
            self.dropped += 1
            return
        self._say_dropped()
        self.lines += 1
        fields = dict(self.fields, line=text)
        if truncated:
            fields["truncated"] = True
        self.log(Event("game.stderr", f"{self.prefix}stderr: {text}", **fields))

    def _allowed(self) -> bool:
        now = self.clock()
        self._tokens = min(float(BURST), self._tokens + (now - self._last) * RATE)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def _say_dropped(self) -> None:
        if self.dropped:
            text = f"{self.prefix}{self.dropped} more lines of stderr, not logged one by one"
            self.log(Event("game.stderr_dropped", text, count=self.dropped, **self.fields))
            self.dropped = 0

    def eof_received(self) -> bool | None:
        self.flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.flush()
        self.closed.set()

    def flush(self) -> None:
        """The last line, even without its newline; the count of any not logged."""
        if self._line or self._cut:
            self._end_line()
        self._say_dropped()


async def relay_pipe(read_fd: int, relay: StderrRelay) -> asyncio.ReadTransport:
    """Read `read_fd` (a pipe's or a FIFO's read end, taken over) into `relay`."""
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_read_pipe(lambda: relay, os.fdopen(read_fd, "rb", 0))
    return transport


class GameStderr:
    """A serve-web game's stderr: a FIFO read into a `StderrRelay` for its session's life."""

    def __init__(self, log: Callable[[str], None], prefix: str, **fields: Any) -> None:
        self.relay = StderrRelay(log, prefix, **fields)
        self._directory: Path | None = None
        self._transport: asyncio.ReadTransport | None = None

    async def open(self) -> str:
        """Make the FIFO and read it; the shell words that send a command's stderr there."""
        directory = Path(tempfile.mkdtemp(prefix="tui-tictactoe-stderr-"))  # mode 0700
        self._directory = directory
        fifo = directory / "stderr"
        os.mkfifo(fifo, 0o600)
        # Open for reading first (without waiting for a writer), so that the shell's open
        # for writing returns at once.
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            self._transport = await relay_pipe(fd, self.relay)
        except BaseException:
            os.close(fd)
            raise
        return f"exec 2>{shlex.quote(str(fifo))}; "

    async def close(self) -> None:
        """After the game has gone: its last lines (within END_WAIT), then nothing left."""
        if self._transport is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.relay.closed.wait(), END_WAIT)
            self._transport.close()
            self.relay.flush()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None
