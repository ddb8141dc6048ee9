"""What the server tests and `benchmarks/bench_ssh.py` need to see of a server, kept out of
the package because only they use it; and the one launcher of the installed `serve-web`
(`serve_web`, `serve_web_async`) that the web tests, sync and async, share."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import NamedTuple

import aiohttp
from pty_terminal import command

from tui_tictactoe.servers.games.command import CHILD_COMMAND, play_args
from tui_tictactoe.servers.ssh.server import SshServer

START_TIMEOUT = 30.0  # seconds for a server to answer (a loaded host)


def free_port() -> int:
    """A free port of 127.0.0.1 (free when asked: the caller binds it soon after)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


HAPROXY = shutil.which("haproxy") or next(
    (path for path in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(path).exists()),
    None,
)
"""Debian's HAProxy (`.ci/run` installs it), for the tests behind a real balancer."""


async def until_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    """Until `proc` (a balancer, a proxy) accepts on `port` of 127.0.0.1."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        assert proc.poll() is None, "HAProxy exited"
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        assert time.monotonic() < deadline, "HAProxy does not listen"
        await asyncio.sleep(0.05)


def game_argv(options: argparse.Namespace) -> list[str]:
    """A hosted game's command line as a fresh interpreter: the child entry point and the
    canonical options (what `SshServer.launcher` starts without the fork server)."""
    return [*CHILD_COMMAND, *play_args(options)]


def game_pids(server: SshServer) -> list[int]:
    """Process ids of the games `server` is running now."""
    return [game.pid for game in server.games if game.pid is not None]


# -- serve-web as a real process (the hostile, ops, flood and browser tests) -------------


class Served(NamedTuple):
    """The installed `serve-web`, running: its process, address and log (its stderr)."""

    process: subprocess.Popen[bytes]
    url: str
    port: int
    log: Path

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    def log_lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()


def start_serve_web(
    tmp_path: Path, *args: str, port: int | None = None, env: dict[str, str] | None = None
) -> Served:
    """The installed `serve-web` with `args` on `port` (a free loopback one if None), its
    data in `tmp_path` and its stderr and stdout in `tmp_path/serve-web.log`, `env` added to this
    environment; not yet answering."""
    port = port or free_port()
    added = env or {}
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["TUI_TICTACTOE_DATA_DIR"] = str(tmp_path)
    env.update(added)
    log = tmp_path / "serve-web.log"
    with log.open("wb") as output:  # stdout too, as journald takes both: every line in one log
        process = subprocess.Popen(
            [*command(), "serve-web", "--port", str(port), *args],
            stdout=output,
            stderr=output,
            env=env,
        )
    return Served(process, f"http://127.0.0.1:{port}", port, log)


def answers(url: str) -> bool:
    """`url` answers 200 (a GET, bounded in time)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def stop_serve_web(served: Served) -> None:
    """As an operator stops it (SIGTERM: its games end with it); killed if it lingers."""
    process = served.process
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    process.wait(10)


@contextlib.contextmanager
def serve_web(tmp_path: Path, *args: str, port: int | None = None) -> Iterator[Served]:
    """`start_serve_web`, once its page answers (blocking: for selenium's tests); stopped
    after."""
    served = start_serve_web(tmp_path, *args, port=port)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not answers(served.url + "/"):
            assert served.process.poll() is None, served.log.read_text()
            assert time.monotonic() < deadline, "serve-web did not answer:\n" + (
                served.log.read_text()
            )
            time.sleep(0.05)
        yield served
    finally:
        stop_serve_web(served)


@contextlib.asynccontextmanager
async def serve_web_async(
    tmp_path: Path, *args: str, port: int | None = None, env: dict[str, str] | None = None
) -> AsyncIterator[Served]:
    """`start_serve_web`, once its page answers (awaited: for the tests in an event loop);
    stopped after."""
    served = start_serve_web(tmp_path, *args, port=port, env=env)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        async with aiohttp.ClientSession() as http:
            while True:
                try:
                    async with http.get(served.url + "/") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                assert served.process.poll() is None, served.log.read_text()
                assert time.monotonic() < deadline, "serve-web did not answer"
                await asyncio.sleep(0.05)
        yield served
    finally:
        stop_serve_web(served)


# -- a game that writes to its stderr (the relay's tests) -------------------------------

STDERR_LINES = 1000
"""Lines of the flood `noisy_games` writes, after its three lines."""


def noisy_games(directory: Path, when: str, exit_status: int | None = None) -> dict[str, str]:
    """An environment for a server whose processes for which the Python expression `when`
    holds (e.g. a game's variable is set) write to their stderr as they start, before any
    code of ours runs: a plain line, a 100 KB line, one with escapes and a bell, then
    STDERR_LINES more at once (a `sitecustomize` on PYTHONPATH: real processes, no hook);
    then, with `exit_status`, they exit with it (a game that fails to start)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "sitecustomize.py").write_text(
        "import os, sys\n"
        f"if {when}:\n"
        "    sys.stderr.write('relay test: a plain line\\n')\n"
        "    sys.stderr.write('long ' + 'x' * 100_000 + '\\n')\n"
        "    sys.stderr.write('\\x1b[31mred\\x1b[0m and a bell\\a\\n')\n"
        f"    sys.stderr.write(''.join(f'flood {{n}}\\n' for n in range({STDERR_LINES})))\n"
        "    sys.stderr.flush()\n"
        + ("" if exit_status is None else f"    os._exit({exit_status})\n")
    )
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": str(directory) + (os.pathsep + path if path else "")}
