"""`ssh host -- --plain` over a real serve-ssh: a script (an asyncssh client without a pty)
and a player with one (`ssh -t`) play the plain game line by line. Without a pty the game
still runs on the server's pty, bounded as every game is, but set to read lines without
echo and to write them as they are: what the client gets is the game's text, LF-ended.
Every wait polls the output with a generous deadline, never sleeps."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
import test_serve_ssh
from test_serve_ssh import STEP_TIMEOUT, SSHTerminal, connect, gone, open_game

from tui_tictactoe.servers.ssh.session import NO_PTY

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log

PROMPT = re.compile(rb"(Your move|Round over) \([^)]*\):\r?\n")


class Lines:
    """Reads a session's output as a script would: waits for a pattern past what it has read."""

    def __init__(self, term: SSHTerminal) -> None:
        self.term = term
        self.read = 0

    async def expect(
        self, pattern: re.Pattern[bytes] | bytes, timeout: float = STEP_TIMEOUT
    ) -> re.Match[bytes]:
        regex = re.compile(pattern) if isinstance(pattern, bytes) else pattern
        deadline = time.monotonic() + timeout
        while True:
            found = regex.search(self.term.output, self.read)
            if found:
                self.read = found.end()
                return found
            if self.term.closed.is_set() or time.monotonic() > deadline:
                pytest.fail(
                    f"waited for {regex.pattern!r}; output: {bytes(self.term.output[-600:])!r}; "
                    f"stderr: {bytes(self.term.stderr)!r}"
                )
            await asyncio.sleep(0.02)

    def send(self, line: str) -> None:
        self.term.send(line + "\n")


async def play_by_hints(lines: Lines) -> bytes:
    """One round, each move the hinted cell; the result's words."""
    result = re.compile(rb"You win with .!|The AI wins with .\.|It's a draw\.|" + PROMPT.pattern)
    while True:
        found = await lines.expect(result)
        if not found.group(0).endswith(b":\n") and not found.group(0).endswith(b":\r\n"):
            return found.group(0)
        lines.send("h")
        cell = (await lines.expect(rb"Hint: cell (\d+) is a best move\.")).group(1)
        await lines.expect(PROMPT)
        lines.send(cell.decode())


async def test_a_script_without_a_pty_plays_a_round_line_by_line(host: Any) -> None:
    hosted = await host()
    term = await open_game(
        await connect(hosted.port), "--plain --difficulty easy --seed 3", term_type=None
    )
    lines = Lines(term)
    await lines.expect(rb"you X vs AI O - easy, 3x3\.")
    pid = await hosted.new_pid()
    assert await play_by_hints(lines) == b"You win with X!"
    await lines.expect(rb"Score: you 1, AI 0, draws 0, abandoned 0\.\n")
    lines.send("q")
    assert await term.wait_closed() == 0
    output = bytes(term.output)
    assert b"\r" not in output and b"\x1b" not in output  # plain lines, no terminal codes
    assert b"\nh\n" not in output  # nothing the client sent is echoed back
    await gone([pid])
    await hosted.logged("game over, exit 0")


async def test_the_end_of_a_scripts_input_ends_its_game(host: Any) -> None:
    hosted = await host()
    term = await open_game(await connect(hosted.port), "--plain --seed 1", term_type=None)
    lines = Lines(term)
    await lines.expect(PROMPT)
    pid = await hosted.new_pid()
    assert term.chan is not None
    term.chan.write(b"5\nb")  # a move, then a line left unfinished...
    term.chan.write_eof()  # ...and the end of input: the game ends as on a pipe
    await lines.expect(rb"AI played \d\. Your turn: you play X\.")
    assert await term.wait_closed() == 0
    await gone([pid])


async def test_a_player_with_a_pty_plays_plain_too(host: Any) -> None:
    hosted = await host()
    term = await open_game(await connect(hosted.port), "--plain --seed 2")
    lines = Lines(term)
    await lines.expect(PROMPT)
    lines.send("5")
    await lines.expect(rb"AI played \d\. Your turn: you play X\.\r\n")  # the pty's CR LF
    lines.send("q")
    await lines.expect(rb"Quit and abandon this round\?")
    lines.send("y")
    assert await term.wait_closed() == 0


async def test_without_a_pty_only_plain_is_played_and_idle_sessions_still_close(
    host: Any,
) -> None:
    hosted = await host(idle_timeout=1.5)
    refused = await open_game(await connect(hosted.port), "--difficulty easy", term_type=None)
    assert await refused.wait_closed() == 2
    assert refused.stderr.decode() == f"tui-tictactoe: {NO_PTY}\n"
    assert "--plain" in NO_PTY  # the refusal says how to play without one
    term = await open_game(await connect(hosted.port), "--plain", term_type=None)
    await Lines(term).expect(PROMPT)
    pid = await hosted.new_pid()
    assert await term.wait_closed(timeout=15) == 1
    assert "no input for 1.5 s: the session is closed" in term.stderr.decode()
    await gone([pid])
