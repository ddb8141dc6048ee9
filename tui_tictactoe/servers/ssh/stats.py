"""`ssh -p 2222 HOST -- stats [--json]`: a player's own record over SSH, without a pty.

The record is read by `tui-tictactoe stats` in a process of its own, with the player
named in its environment as a game's is (`games.command.game_environment`): the same
record, the same player, the same code as the game's stats screen, and the server's
event loop never waits on the database. Only a player with a key has a record: a guest
is told so. The process is bounded in time and in what it may print, and killed if the
client leaves first.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

import asyncssh

from tui_tictactoe.commands.play_arguments import PROG

STATS_COMMAND = (sys.executable, "-m", "tui_tictactoe", "stats")
STATS_TIMEOUT = 30.0  # seconds for the record to be read (a database out of reach says so sooner)
OUTPUT_LIMIT = 1 << 20  # bytes of its output passed on (one player's record is a few KB)
GUEST_HAS_NO_RECORD = (
    "a guest has no record: connect with your SSH key to read yours "
    "(ssh -i KEY -p PORT HOST -- stats)"
)


async def send_stats(
    chan: asyncssh.SSHServerChannel[bytes], as_json: bool, env: dict[str, str]
) -> str:
    """Run `stats` for the player `env` names, write what it prints to `chan` and exit
    with its status; returns how the session ended, for the log line."""
    process = await asyncio.create_subprocess_exec(
        *STATS_COMMAND,
        *(["--json"] if as_json else []),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        out, err = await asyncio.wait_for(
            asyncio.gather(_read(process.stdout), _read(process.stderr)), STATS_TIMEOUT
        )
        status = await asyncio.wait_for(process.wait(), STATS_TIMEOUT)
    except TimeoutError:
        _stop(process)
        with contextlib.suppress(OSError):
            chan.write_stderr(f"{PROG}: the record took too long to read: try again\n".encode())
            chan.exit(1)
        return "stats timed out"
    finally:
        if process.returncode is None:  # cancelled: the client left, or the server stops
            _stop(process)
    with contextlib.suppress(OSError):
        chan.write(out)
        chan.write_stderr(err)
        chan.exit(status if status >= 0 else 1)
    return f"printed stats, exit {status}"


async def _read(stream: asyncio.StreamReader) -> bytes:
    """All of `stream` up to `OUTPUT_LIMIT` bytes; the rest is read and dropped."""
    kept = bytearray()
    while chunk := await stream.read(65536):
        kept += chunk[: max(0, OUTPUT_LIMIT - len(kept))]
    return bytes(kept)


def _stop(process: asyncio.subprocess.Process) -> None:
    """SIGKILL (it holds nothing to clean up): asyncio's child watcher reaps it."""
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGKILL)
