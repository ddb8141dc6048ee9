"""A real SSH player of a `serve-ssh` started as a process, for tests of other folders
(serve-web's rooms meet serve-ssh's players: `tests/realtime/web/test_serve_web_rooms.py`).

asyncssh with a pty, what the game draws fed to a `pyte` screen; the server is the
installed `tui-tictactoe serve-ssh`, its first log line read for its port. No fixed
sleeps: each wait polls the screen until its text shows, or fails with the screen.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import time
from pathlib import Path

import asyncssh
import pyte
import pytest
from pty_terminal import SGR, command

from tui_tictactoe.record.location import DATABASE_URL_ENV

WAIT = 30.0  # seconds for a screen to show what is waited for (a loaded host)


class SshScreen(asyncssh.SSHClientSession[bytes]):
    """A session's terminal: the game's output drawn on a pyte screen."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.closed = asyncio.Event()

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if datatype != asyncssh.EXTENDED_DATA_STDERR:
            self.stream.feed(SGR.sub(b"", data))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


class _Client(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""  # a guest: no prompt


class SshPlayer:
    """One player's connection and its one game."""

    def __init__(self, conn: asyncssh.SSHClientConnection, term: SshScreen) -> None:
        self.conn, self.term = conn, term

    @property
    def text(self) -> str:
        return "\n".join(self.term.screen.display)

    def send(self, keys: str) -> None:
        assert self.term.chan is not None
        self.term.chan.write(keys.encode())

    async def matches(self, pattern: str, timeout: float = WAIT) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while (found := re.search(pattern, self.text)) is None:
            if time.monotonic() > deadline or self.term.closed.is_set():
                pytest.fail(f"waited for {pattern!r}; screen:\n{self.text}")
            await asyncio.sleep(0.05)
        return found

    async def shows(self, text: str, timeout: float = WAIT) -> None:
        await self.matches(re.escape(text), timeout)


async def enter(
    port: int,
    options: str | None,
    username: str,
    key: asyncssh.SSHKey | None = None,
    local: str = "127.0.0.1",
) -> SshPlayer:
    """`ssh -t -p PORT username@127.0.0.1 -- OPTIONS` from `local`, with `key` (else a guest)."""
    conn, _ = await asyncio.wait_for(
        asyncssh.create_connection(
            _Client,
            "127.0.0.1",
            port,
            local_addr=(local, 0),
            username=username,
            known_hosts=None,
            config=None,
            agent_path=None,
            client_keys=[key] if key is not None else [],
            public_key_auth=key is not None,
        ),
        WAIT,
    )
    _, term = await asyncio.wait_for(
        conn.create_session(
            SshScreen, options, encoding=None, term_type="xterm-256color", term_size=(80, 24)
        ),
        WAIT,
    )
    assert isinstance(term, SshScreen)
    return SshPlayer(conn, term)


def serve_ssh(args: list[str], data: Path) -> tuple[subprocess.Popen[bytes], int]:
    """`tui-tictactoe serve-ssh --port 0 ARGS` in a process of its own (its data and its log,
    `serve-ssh.log`, in `data`), and the port it listens on (from its first line)."""
    environ = {key: value for key, value in os.environ.items() if key != DATABASE_URL_ENV}
    environ["TUI_TICTACTOE_DATA_DIR"] = str(data)
    data.mkdir(parents=True, exist_ok=True)
    log = data / "serve-ssh.log"
    with log.open("wb") as stderr:  # a file: a pipe nobody reads would stall the server
        server = subprocess.Popen(
            [*command(), "serve-ssh", "--port", "0", *args], stderr=stderr, env=environ
        )
    deadline = time.monotonic() + WAIT
    while (found := re.search(r"listening on 127\.0\.0\.1:(\d+) ", log.read_text())) is None:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"serve-ssh did not start: {log.read_text()!r}")
        time.sleep(0.05)
    return server, int(found.group(1))
