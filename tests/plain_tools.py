"""Playing `tui-tictactoe --plain` as a script would: pexpect on a pipe or on a pty, reading
the game's own words. Shared by the plain game's tests, locally and over SSH."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from typing import Any

import pexpect
from pexpect.popen_spawn import PopenSpawn
from pty_terminal import command

TIMEOUT = 30  # seconds for any one answer: generous, as the machine is shared
PROMPT = re.compile(r"(Your move|X to move|O to move|Round over) \([^)]*\):")
RESULT = re.compile(r"You win with .!|The AI wins with .\.|It's a draw\.")


def plain_env(term: str = "dumb") -> dict[str, str]:
    """This environment (the test's data directory included), as a dumb terminal would be."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM=term, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    return env


def on_pipe(*args: str) -> PopenSpawn[str]:
    """The plain game with a pipe for stdin and one for stdout: no terminal at all."""
    return PopenSpawn(
        [*command(), "--plain", *args], env=plain_env(), encoding="utf-8", timeout=TIMEOUT
    )


def on_pty(*args: str) -> pexpect.spawn[str]:
    """The plain game in a pty, as a screen reader's terminal would run it."""
    cmd = command()
    return pexpect.spawn(
        cmd[0],
        [*cmd[1:], "--plain", *args],
        env=plain_env(),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(24, 80),
    )


def hang_up(child: pexpect.spawn[str]) -> int | None:
    """Close the terminal as its window going away would (the kernel sends SIGHUP) and wait
    for the game to end: its exit status, None if a signal ended it. pexpect's own `close`
    signals the game itself when it has not exited 0.1 s later, which a loaded machine misses."""
    pty = vars(child)["ptyproc"]  # pexpect's ptyprocess.PtyProcess: not in types-pexpect
    pty.fileobj.close()
    deadline = time.monotonic() + TIMEOUT
    while child.isalive():
        if time.monotonic() > deadline:
            child.terminate(force=True)
            raise AssertionError(f"the game outlived its terminal by {TIMEOUT} s")
        time.sleep(0.02)
    pty.closed = child.closed = True  # the descriptor is gone: nothing to close
    return child.exitstatus


def matched(child: pexpect.spawn[str] | PopenSpawn[str], group: int) -> str:
    """A group of what `child.expect` just matched (a regular expression's match)."""
    assert isinstance(child.match, re.Match), child.match
    return child.match.group(group)


def play_round(child: pexpect.spawn[str] | PopenSpawn[str], pick: str) -> str:
    """Play one round to its end and return the result's words. `pick` "hint" plays the
    hinted cell each turn; "lowest" the lowest free cell (read from the board's rows)."""
    while True:
        index = child.expect([PROMPT, RESULT])
        if index == 1:
            return matched(child, 0)
        if pick == "hint":
            child.sendline("h")
            child.expect(r"Hint: cell (\d+) is a best move\.")
            cell = matched(child, 1)
        else:
            child.sendline("b")
            child.expect(r"((?:[ \dXO]+\r?\n){3})")
            free = re.findall(r"\d+", matched(child, 1))
            cell = free[0]
        child.expect(PROMPT)
        child.sendline(cell)


def stats() -> dict[str, Any]:
    """`tui-tictactoe stats --json` in the tests' data directory."""
    out = subprocess.run(
        [sys.executable, "-m", "tui_tictactoe", "stats", "--json"],
        capture_output=True,
        text=True,
        env=plain_env(),
        timeout=TIMEOUT,
        check=True,
    )
    record: dict[str, Any] = json.loads(out.stdout)
    return record
