"""`analyse` on a slow position: progress on stderr when stderr is a real terminal, nothing
when it is a pipe, stdout (the answer, JSON included) clean either way.

The command runs as a real process with its stderr on a pseudo-terminal (os.openpty)
and its stdout on a pipe; what the terminal shows is read with pyte.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pexpect
import pyte

SLOW_BOARD = "..... ..... ..... ..... x.o.x"
"""Three stones on 5x5, O to move: past the stored verdicts, ~4 s of search here. Each
of its 22 moves takes a fraction of a second, so the display moves on."""
SLOW_CELLS = "....................X.O.X"
DEADLINE = 180.0  # seconds for one slow analysis on a loaded machine
COMMAND = [sys.executable, "-m", "tui_tictactoe", "analyse"]
PROGRESS = re.compile(rb"analysing move (\d+) of 22\xe2\x80\xa6 (\d+) s")


def run_with_terminal_stderr(
    *args: str, columns: int = 80, rows: int = 24
) -> tuple[int, str, bytes]:
    """(exit status, stdout, every byte written to the terminal) of `analyse ARGS`."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen(
        [*COMMAND, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    written = bytearray()
    deadline = time.monotonic() + DEADLINE
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the process closed the terminal's last descriptor
                break
            if not chunk:
                break
            written += chunk
        assert process.stdout is not None
        out = process.stdout.read().decode()
        status = process.wait(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return status, out, bytes(written)


def screen_after(written: bytes, columns: int = 80, rows: int = 24) -> list[str]:
    screen = pyte.Screen(columns, rows)
    pyte.ByteStream(screen).feed(written)
    return [line.rstrip() for line in screen.display]


def test_a_slow_analysis_shows_its_progress_in_place_on_a_terminal() -> None:
    status, out, written = run_with_terminal_stderr(SLOW_BOARD, "--json")
    assert status == 0, written
    result = json.loads(out)  # stdout holds the answer and nothing else
    assert out.count("\n") == 1 and result["board"] == SLOW_CELLS
    assert len(result["moves"]) == 22
    shown = [int(number) for number, _ in PROGRESS.findall(written)]
    assert shown, f"no progress was shown: {written!r}"
    assert shown == sorted(shown) and shown[-1] >= 2  # it moves on, move by move
    # Rewritten in place: carriage returns only, one line feed for the closing line.
    assert b"\r" in written and written.count(b"\n") == 1
    lines = [line for line in screen_after(written) if line]
    assert len(lines) == 1, lines  # the progress line was rubbed out
    assert re.fullmatch(r"analysed 22 moves in \d+\.\d s", lines[0]), lines


def test_the_progress_line_never_wraps_on_a_narrow_terminal() -> None:
    status, _, written = run_with_terminal_stderr(SLOW_BOARD, columns=20)
    assert status == 0, written
    assert b"analysing move" in written
    # Every rewrite of the line fits in 19 columns: a wrapped line could not be rewritten.
    rewrites = [part for part in written.split(b"\r") if b"analysing" in part]
    assert rewrites
    for part in rewrites:
        assert len(part.decode()) <= 19, part
    lines = [line for line in screen_after(written, columns=20) if line]
    assert lines[0].startswith("analysed 22 moves"), lines


def test_a_pipe_gets_no_progress_and_no_timing() -> None:
    done = subprocess.run(
        [*COMMAND, SLOW_BOARD, "--json"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == b""
    assert json.loads(done.stdout)["board"] == SLOW_CELLS


def test_a_quick_analysis_shows_nothing_on_a_terminal() -> None:
    for board in ("x.o .x. ..o", "..... ..... ..... ..... .....", "x... .o.. .... ...."):
        status, out, written = run_with_terminal_stderr(board)
        assert status == 0
        assert written == b"", written
        assert "X to move." in out


def signal_state(pid: int) -> dict[str, str]:
    """The process's signal sets (SigBlk, SigIgn, SigCgt: hex masks) from /proc."""
    with open(f"/proc/{pid}/status") as status:
        return dict(line.rstrip("\n").split(":\t", 1) for line in status if line.startswith("Sig"))


def assert_interruptible(child: pexpect.spawn[bytes]) -> None:
    """Ctrl+C can reach the child: SIGINT neither ignored nor blocked (both survive
    fork and exec, so a parent that leaks either makes ^C echo and do nothing; the child
    starts as a shell's job, `as_a_shell_starts_a_job`, so this is the program's own),
    and the child's group is its terminal's foreground group. Says which, if not."""
    bit = 1 << (signal.SIGINT - 1)
    assert child.pid is not None
    state = signal_state(child.pid)
    assert not int(state["SigIgn"], 16) & bit, f"SIGINT ignored (inherited): {state}"
    assert not int(state["SigBlk"], 16) & bit, f"SIGINT blocked (inherited): {state}"
    assert os.tcgetpgrp(child.child_fd) == os.getpgid(child.pid), "not the foreground group"


def as_a_shell_starts_a_job() -> None:
    """In the child before exec: SIGINT as a shell leaves it for a job in the foreground
    (the suite run from `nohup ... &` has it ignored, and ignoring survives exec)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_it_and_clears_the_line() -> None:
    child: pexpect.spawn[bytes] = pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], SLOW_BOARD],
        dimensions=(24, 80),
        preexec_fn=as_a_shell_starts_a_job,
    )
    child.delaybeforesend = None
    try:
        child.expect("analysing move", timeout=DEADLINE)
        assert_interruptible(child)
        child.sendcontrol("c")
        child.expect(pexpect.EOF, timeout=DEADLINE)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, child.before
    before = child.before or b""
    text = before.decode()
    assert "interrupted" in text and "Traceback" not in text
    lines = [line for line in screen_after(b"analysing move" + before) if line]
    assert "tui-tictactoe analyse: interrupted" in lines[-1], lines
    assert not any("analysing" in line for line in lines), lines
