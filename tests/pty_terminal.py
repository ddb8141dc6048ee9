"""The installed command in a real pseudo-terminal, drawn by a terminal emulator.

Shared by the end-to-end tests (`test_e2e.py`) and the chaos test
(`test_pty_chaos.py`). `pexpect` runs the command in a pty and every byte it
writes is fed to a `pyte` screen, so a test reads what a user would see.
Textual draws on stderr; the pty merges stdout and stderr, so `output` also
holds any traceback the app prints when it dies.

No fixed sleeps: every wait polls the pty (`select`) until a condition holds, the
output has been quiet for a moment, or a deadline passes. pexpect's default
`delaybeforesend` (50 ms before every write) is turned off.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import Protocol

import pexpect
import pyte
import pytest

from tui_tictactoe.ui.widgets.marks import DESIGNS, LARGEST_DRAWN_BY_HAND, drawn_mark

ROWS, COLS = 24, 80
START_TIMEOUT = 30.0  # first frame; generous for cold CI machines
STEP_TIMEOUT = 15.0  # each key's effect, the AI's reply included

KEYS = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "enter": "\r",
    "space": " ",
    "tab": "\t",
    "escape": "\x1b",
    "ctrl+c": "\x03",
    "ctrl+p": "\x10",
    "ctrl+q": "\x11",
}

SLEEPY_AI = """
import time
from tui_tictactoe.commands.play import end_at_once
from tui_tictactoe.engine.strategies import MoveStrategy
from tui_tictactoe.ui.app import TicTacToeApp

class Sleepy(MoveStrategy):
    def find_best_move(self, board, player, cancelled=None):
        time.sleep(60)
        return board.get_empty_cells()[0]

app = TicTacToeApp(seed=1, strategy=Sleepy())
app.run()
end_at_once(app.return_code or 0)
"""
"""A game whose AI takes 60 s a move, ended as the installed command ends it (`python -c`)."""

# Box-drawing characters of the borders Textual draws around a cell: round (normal),
# heavy (keyboard cursor), double (hint, winning line), dashed (a draw), solid.
TOP_LEFT_CORNERS = "╭┏╔┌"
TOP_RIGHT_CORNERS = "╮┓╗┐"
BOTTOM_LEFT_CORNERS = "╰┗╚└"
HORIZONTALS = "─━═╍"
VERTICALS = "│┃║╏"

# Escape sequences (CSI, OSC, two-character ESC x), removed to read what was written as text.
ESCAPES = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -~])")
TRACEBACK = b"Traceback"
ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049h", b"\x1b[?1049l"
# Colours and text styles (SGR). The tests read characters only, and pyte parses an
# escape sequence a character at a time: removing these first makes feeding ~3x faster.
SGR = re.compile(rb"\x1b\[[0-9;:]*m")

Cell = tuple[int, int]
Board = dict[Cell, str]  # (row, col) -> "X", "O" or ""
Box = tuple[int, int, int, int]  # interior: top, bottom, left, right (inclusive)


class DrawnScreen(Protocol):
    """What the board's readers below need of a screen: its lines and the cells found on
    it. `Terminal` is one; the SSH and web tests' screens borrow the readers (`board`,
    `visible_board`...) and are others."""

    cells: dict[Cell, Box]

    @property
    def lines(self) -> list[str]: ...

    def boxes(self) -> list[tuple[int, int, Box]]: ...

    def locate_board(self) -> bool: ...

    def inside(self, cell: Cell) -> list[str]: ...


# The large marks the game draws, by their non-blank lines, stripped: a cell reads as X
# or O only if it shows one of them whole (a half-drawn frame shows none).
LARGE_MARKS = {
    tuple(line.strip() for line in design): symbol
    for symbol, designs in DESIGNS.items()
    for design in designs
}
KEY_NUMBERS = frozenset("123456789")
"""An empty cell shows its key number, faintly."""


def mark_in(rows: list[str]) -> str | None:
    """What the interior of a cell shows: "X" or "O" (the letter or a large mark), ""
    (blank, or its key number), or None (anything else: covered, or half drawn).

    A function, not a method: the SSH and web tests borrow `board()` and
    `visible_board()` for their own screens, not the rest of `Terminal`.
    """
    text = "".join(rows).replace(" ", "")
    if text == "" or text in KEY_NUMBERS:
        return ""
    if text in ("X", "O"):
        return text
    shown = tuple(row.strip() for row in rows if row.strip())
    return LARGE_MARKS.get(shown) or drawn_to_size(shown)


def drawn_to_size(shown: tuple[str, ...]) -> str | None:
    """X or O if `shown` is one drawn whole to a large cell's size (`drawn_mark`)."""
    if len(shown) <= LARGEST_DRAWN_BY_HAND:
        return None
    for symbol in DESIGNS:
        if shown == tuple(line.strip() for line in drawn_mark(symbol, len(shown))):
            return symbol
    return None


def command() -> list[str]:
    """The installed console script, else the module through this interpreter."""
    beside = os.path.join(os.path.dirname(sys.executable), "tui-tictactoe")
    found = beside if os.path.exists(beside) else shutil.which("tui-tictactoe")
    return [found] if found else [sys.executable, "-m", "tui_tictactoe"]


def child_env() -> dict[str, str]:
    """This environment, as a plain xterm would see it: no Textual settings, 256 colours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", CI="true", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("COLORTERM", None)
    env.pop("NO_COLOR", None)
    return env


def plain(data: bytes) -> str:
    """What the child wrote, without escape sequences (tracebacks, error messages)."""
    return ESCAPES.sub(b"", data).decode("utf-8", "replace").replace("\r\n", "\n")


def mouse(col: int, row: int, press: bool, button: int = 0) -> str:
    """One SGR mouse report (1-based column and row): a press (`M`) or a release (`m`)."""
    return f"\x1b[<{button};{col};{row}{'M' if press else 'm'}"


def click(col: int, row: int) -> str:
    return mouse(col, row, True) + mouse(col, row, False)


class Terminal:
    """A child process in a pty, rendered by pyte."""

    def __init__(
        self,
        *args: str,
        rows: int = ROWS,
        cols: int = COLS,
        cwd: str | None = None,
        styles: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """`env`: settings for the child on top of `child_env()` (`TEXTUAL_THEME`, say)."""
        self.styles = styles
        """Whether the screen keeps text styles and colours (see `screen.buffer`)."""
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        argv = [*command(), *args]
        self.child: pexpect.spawn[bytes] = pexpect.spawn(
            argv[0], argv[1:], dimensions=(rows, cols), env={**child_env(), **(env or {})}, cwd=cwd
        )
        self.child.delaybeforesend = None  # pexpect sleeps 50 ms before every send otherwise
        self.child.delayafterclose = self.child.delayafterterminate = 0.0
        self.started = time.monotonic()
        self.output = bytearray()
        """Everything the child wrote, escape sequences included."""
        self.eof = False
        self.exit_status: int | None = None
        """The exit code once the child has exited (-N if killed by signal N)."""
        self.cells: dict[Cell, Box] = {}
        self._scanned = 0  # how much of `output` has been searched for a traceback
        self._lines: list[str] | None = None  # the screen's text, until it next changes
        self._last_write = self.started  # when the child last wrote, or we last sent

    # -- reading ----------------------------------------------------------------

    def _read(self, wait: float) -> bytes:
        """What the child has written: waits at most `wait` for the first byte, then drains."""
        chunks: list[bytes] = []
        while not self.eof:
            try:
                data = self.child.read_nonblocking(65536, timeout=wait)
            except pexpect.TIMEOUT:
                break
            except pexpect.EOF:
                self.eof = True
                break
            chunks.append(data)
            wait = 0
        data = b"".join(chunks)
        if data:
            self.output += data
            self._last_write = time.monotonic()
        return data

    def _feed(self, data: bytes) -> None:
        if data:
            self.stream.feed(data if self.styles else SGR.sub(b"", data))
            self._lines = None

    def pump(self, wait: float = 0.05) -> bool:
        """Feed whatever the child has written to the screen; True if there was something."""
        data = self._read(wait)
        self._feed(data)
        return bool(data)

    @property
    def pid(self) -> int:
        """The child's process id (pexpect's is None only before it has started)."""
        assert self.child.pid is not None
        return self.child.pid

    def cpu_ticks(self) -> int:
        """CPU time the child has used, all its threads, in clock ticks (Linux; else 0)."""
        try:
            with open(f"/proc/{self.child.pid}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            return 0
        return int(fields[11]) + int(fields[12])  # utime, stime

    def settle(self, quiet: float = 0.035, limit: float = 1.0, idle_cpu: bool = False) -> bool:
        """Read until the child has written nothing for `quiet` s (counted from its last
        write or our last send), at most `limit` s; the screen is fed once, at the end.

        With `idle_cpu`, also until it has used no CPU for `quiet` s: a busy app (laying
        out a long help text, say) can compute for a while before it writes anything.
        True if it went quiet (or has gone), False if it was still busy at the limit.
        """
        deadline = time.monotonic() + limit
        chunks: list[bytes] = []
        idle = True
        cpu = self.cpu_ticks() if idle_cpu else 0
        while not self.eof:
            now = time.monotonic()
            remaining = self._last_write + quiet - now
            if remaining <= 0:
                busy = self.cpu_ticks() if idle_cpu else 0
                if busy == cpu:
                    break
                cpu, self._last_write = busy, now  # still computing: wait on
                continue
            if now >= deadline:
                idle = False
                break
            data = self._read(min(remaining, deadline - now))
            if data:
                chunks.append(data)
        self._feed(b"".join(chunks))
        return idle

    @property
    def size(self) -> tuple[int, int]:
        """(rows, columns) of the terminal."""
        return self.screen.lines, self.screen.columns

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = list(self.screen.display)
        return self._lines

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def written(self, start: int = 0) -> str:
        """Everything written from byte `start`, as plain text."""
        return plain(bytes(self.output[start:]))

    def traceback(self) -> str | None:
        """The text from the first "Traceback" the child wrote to the end, or None."""
        at = self.output.find(TRACEBACK, max(0, self._scanned - len(TRACEBACK)))
        self._scanned = len(self.output)
        if at < 0:
            return None
        self._scanned = at  # found: keep reporting it
        return plain(bytes(self.output[at:]))

    @property
    def handed_back(self) -> bool:
        """The app has left the alternate screen since it last entered it: it is quitting
        (or has quit), though the process may take a moment more to end."""
        entered = self.output.rfind(ENTER_ALTERNATE_SCREEN)
        return entered >= 0 and self.output.find(LEAVE_ALTERNATE_SCREEN, entered) >= 0

    def post_mortem(self) -> str:
        """What the child wrote once it had left the alternate screen for the last time,
        as plain text: where a crash report goes (and the echo of keys typed after)."""
        entered = self.output.rfind(ENTER_ALTERNATE_SCREEN)
        left = self.output.find(LEAVE_ALTERNATE_SCREEN, max(entered, 0))
        return plain(bytes(self.output[left + len(LEAVE_ALTERNATE_SCREEN) :])) if left >= 0 else ""

    def wait_until(self, what: str, condition: Callable[[], object], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            if condition():
                return
            if self.eof or time.monotonic() > deadline:
                reason = "the app exited" if self.eof else f"{timeout:.0f} s passed"
                pytest.fail(f"waited for {what}, but {reason}; screen:\n{self.text}")

    def wait_for_text(self, text: str, timeout: float = STEP_TIMEOUT) -> None:
        self.wait_until(repr(text), lambda: text in self.text, timeout)

    def wait_for_first_frame(self, timeout: float = START_TIMEOUT) -> bool:
        """Wait until the app has switched to the alternate screen and drawn on it, then
        for the rest of the frame; False if the child exited first."""
        deadline = time.monotonic() + timeout
        while not self.eof:
            self.pump(0.02)
            at = self.output.find(ENTER_ALTERNATE_SCREEN)
            if at >= 0 and re.search(rb"\x1b\[\d+;\d+H", self.output[at:]):
                self.settle(quiet=0.06, limit=2.0)
                return not self.eof
            if time.monotonic() > deadline:
                pytest.fail(f"no first frame in {timeout:.0f} s; written:\n{self.written()}")
        return False

    # -- the process ------------------------------------------------------------

    def alive(self) -> bool:
        """Whether the child is still running (reads its exit status when it is not)."""
        if self.exit_status is not None:
            return False
        if self.child.isalive():
            return True
        self._record_exit()
        return False

    def _record_exit(self) -> None:
        status, signalled = self.child.exitstatus, self.child.signalstatus
        self.exit_status = -signalled if signalled is not None else status

    def wait_exit(self, timeout: float = STEP_TIMEOUT) -> int | None:
        """Read until the child exits; its exit status, or None if it is still running."""
        deadline = time.monotonic() + timeout
        while not self.eof and time.monotonic() < deadline:
            self.pump(min(0.05, max(0.0, deadline - time.monotonic())))
        # The pty closes when the child's last descriptor does; the process ends right after.
        while self.alive():
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.002)
        return self.exit_status

    def quit(self, key: str = "q") -> int:
        self.send(key)
        status = self.wait_exit(STEP_TIMEOUT)
        assert status is not None, f"still running {STEP_TIMEOUT:.0f} s after {key!r}:\n{self.text}"
        return status

    def close(self) -> None:
        """Kill the child if it is still running (as a closed terminal window would)."""
        if self.alive():
            self.child.kill(signal.SIGKILL)
            self.child.wait()
            self._record_exit()
        self.child.close(force=True)

    # -- the board --------------------------------------------------------------

    def boxes(self: DrawnScreen) -> list[tuple[int, int, Box]]:
        """Every complete box drawn with a cell border: (top row, left column, interior)."""
        lines = self.lines

        def at(y: int, x: int) -> str:
            return lines[y][x] if y < len(lines) and x < len(lines[y]) else ""

        found = []
        for y, line in enumerate(lines):
            for x, char in enumerate(line):
                if (
                    char not in TOP_LEFT_CORNERS
                    or not at(y, x + 1)
                    or at(y, x + 1) not in HORIZONTALS
                ):
                    continue
                right = x + 1
                while at(y, right) and at(y, right) in HORIZONTALS:
                    right += 1
                bottom = y + 1
                while at(bottom, x) and at(bottom, x) in VERTICALS:
                    bottom += 1
                corners = at(y, right), at(bottom, x)
                if (
                    bottom > y + 1
                    and corners[0]
                    and corners[0] in TOP_RIGHT_CORNERS
                    and corners[1]
                    and corners[1] in BOTTOM_LEFT_CORNERS
                ):
                    found.append((y, x, (y + 1, bottom - 1, x + 1, right - 1)))
        return found

    def locate_board(self: DrawnScreen) -> bool:
        """Find the nine cell boxes (a 3x3 grid of them); False if not drawn (yet)."""
        boxes = self.boxes()
        rows = sorted({y for y, _, _ in boxes})
        columns = sorted({x for _, x, _ in boxes})
        if not (len(rows) == 3 and len(columns) == 3 and len(boxes) == 9):
            return False
        self.cells = {(rows.index(y), columns.index(x)): box for y, x, box in boxes}
        return True

    def inside(self: DrawnScreen, cell: Cell) -> list[str]:
        """The lines inside a cell's box."""
        top, bottom, left, right = self.cells[cell]
        lines = self.lines
        return [lines[y][left : right + 1] for y in range(top, bottom + 1)]

    def board(self: DrawnScreen) -> Board:
        """The marks in the located cells: X or O, large or a letter; "" for a cell that
        shows neither whole (blank, its key number, half drawn). A cell showing letters
        of both marks fails the test."""
        board: Board = {}
        for cell in self.cells:
            rows = self.inside(cell)
            mark = mark_in(rows)
            if mark is None:  # covered or half drawn: only stray letters count
                letters = {char for char in "".join(rows) if char in "XO"}
                shown = "\n".join(self.lines)
                assert len(letters) <= 1, f"cell {cell} shows {letters}:\n{shown}"
                mark = letters.pop() if letters else ""
            board[cell] = mark
        return board

    def visible_board(self: DrawnScreen) -> Board | None:
        """The board if all nine cells are drawn, each showing exactly nothing (or its key
        number), X or O, large or a letter (nothing covering them); else None."""
        if not self.locate_board():
            return None
        board: Board = {}
        for cell in self.cells:
            mark = mark_in(self.inside(cell))
            if mark is None:
                return None
            board[cell] = mark
        return board

    def focused(self) -> list[Cell]:
        """Cells drawn with the heavy border of the keyboard cursor."""
        lines = self.lines
        return [
            cell
            for cell, (top, _, left, _) in self.cells.items()
            if lines[top - 1][left - 1 : left + 1] == "┏━"
        ]

    def find(self: DrawnScreen, text: str) -> tuple[int, int] | None:
        """(row, column), 0-based, of the first place `text` is shown, or None."""
        for y, line in enumerate(self.lines):
            x = line.find(text)
            if x >= 0:
                return y, x
        return None

    # -- input ------------------------------------------------------------------

    def send(self, *keys: str) -> None:
        """Send keys (names from KEYS or raw text) in ONE write: a burst, as over SSH."""
        self.send_bytes("".join(KEYS.get(key, key) for key in keys).encode())

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes to the terminal's input, all at once."""
        if data:
            self.child.send(data)
        self._last_write = time.monotonic()

    def click(self, col: int, row: int) -> None:
        """A left click (press and release in one write) at a 1-based column and row."""
        self.send(click(col, row))

    def double_click(self, col: int, row: int, gap: float = 0.01) -> None:
        """Two clicks `gap` s apart, as a fast double click arrives."""
        self.click(col, row)
        time.sleep(gap)  # the one deliberate pause: the gap between the two clicks
        self.click(col, row)

    def resize(self, rows: int, cols: int) -> None:
        """Resize the pty (the child gets SIGWINCH) and the emulated screen with it."""
        self.pump(0)  # what was drawn at the old size goes on the old screen
        self.child.setwinsize(rows, cols)
        self.screen.resize(rows, cols)
        self._lines = None
        self._last_write = time.monotonic()
