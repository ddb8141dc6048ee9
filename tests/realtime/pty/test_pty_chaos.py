"""Chaos in a real pseudo-terminal: the installed command under seeded random input.

A seeded RNG drives the real `tui-tictactoe` (see `pty_terminal.py`) with what a
terminal can send: single keys, bursts of keys in one write, printable junk, SGR
mouse clicks and double clicks anywhere (cells, buttons, dialogs, notices, the
menu), resizes from 1x1 to 200x60, and keys typed before the first
frame (a fresh process is started and typed at at once).

The actions come in steps of one to four, written back to back as a fast user
would; after each step the output is read until it has been quiet for 35 ms (one
wait per step, not per action). The app is often slower than that (opening the
help costs it ~0.5 s of CPU), so input queues up as it would over a slow link;
every 20th step waits until it is idle (no output and no CPU time) to let it catch
up. After every step:

* the process is alive, or it exited 0 shortly after an action that could quit it
  (Enter or Space on Exit, a click on Exit or on the menu's Quit, a `q` typed
  ahead), and a new one is started. Each process ends at a planned point with
  Ctrl+Q or `q` (in the middle of a round `q` asks first, so then `y` follows):
  it must exit 0 within 5 s;
* nothing it wrote contains "Traceback";
* when the nine cells of the board are on the screen, uncovered, they hold a legal
  position: the counts of X and O differ by at most one, at most one side has a
  line, and a side with a line has made at least as many moves as the other.

`TUI_TICTACTOE_CHAOS_ACTIONS` sets the number of actions (default 1,000, about a
minute), `TUI_TICTACTOE_CHAOS_SEED` the seed. Timing is real, so a seed picks the
same actions only while the app behaves the same. A failure prints the seed, the
last actions, the steps since the failing process started (a list `replay` takes),
the screen and what the process wrote.

For exploring: `TUI_TICTACTOE_CHAOS_SECONDS` stops after that long and
`TUI_TICTACTOE_CHAOS_KEEP_GOING=1` records each failure, starts a new process and
goes on; the test then fails once, listing every kind of failure found.
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pty_terminal import KEYS, Board, Terminal, plain

ACTIONS = int(os.environ.get("TUI_TICTACTOE_CHAOS_ACTIONS", "1000"))
SEED = int(os.environ.get("TUI_TICTACTOE_CHAOS_SEED", "20240"))
SECONDS = float(os.environ.get("TUI_TICTACTOE_CHAOS_SECONDS", "0")) or None
KEEP_GOING = os.environ.get("TUI_TICTACTOE_CHAOS_KEEP_GOING", "") not in ("", "0")

QUIET = 0.035  # a step has settled when the app has written nothing for this long
SETTLE_LIMIT = 1.0  # ... or after this long (a blinking cursor keeps writing)
# Every few steps, wait until the app is idle (no output and no CPU): the app falls
# behind fast input, and this lets it catch up, so checks see what the input led to.
CATCH_UP = 20
CATCH_UP_LIMIT = 2.0
STOP_CATCH_UP_LIMIT = 15.0  # before a planned `q`: a hung app goes quiet at once and fails
EXIT_TIMEOUT = 10.0  # from the end of its output to the end of the process
QUIT_TIMEOUT = 5.0  # from a planned q (or Ctrl+Q after it) to the end of the process
# Ctrl+Q is sent straight into whatever input the app has not handled yet: it quits ahead
# of that backlog. It took 0.2-0.6 s here on a quiet machine.
CTRL_Q_TIMEOUT = 2.0
PROCESS_ACTIONS = (80, 320)  # actions a process gets before a planned quit (uniform)
RESTART = 0.006  # chance that a step is a fresh process, typed at before its first frame
LOG = 20  # actions shown when a step fails
QUIT_WINDOW = 3  # an exit may come this many steps after the action that asked for it


# -- actions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One action. Its repr calls the constructors below (`parse` reads it back)."""

    kind: str
    data: bytes = b""
    a: int = 0
    b: int = 0
    args: tuple[str, ...] = field(default=())
    delay: float = 0.0

    def __repr__(self) -> str:
        if self.kind in ("keys", "stop"):
            return f"{self.kind}({self.data!r})"
        if self.kind in ("click", "double", "resize"):
            return f"{self.kind}({self.a}, {self.b})"
        extra = f", typeahead={self.data!r}, delay={self.delay:.3f}" if self.data else ""
        args = "".join(f", {arg!r}" for arg in self.args)
        return f"start({self.a}, {self.b}{args}{extra})"

    @property
    def may_quit(self) -> bool:
        """Could this end the app cleanly? (Exit, the menu's Quit, a `q`.)"""
        if self.kind in ("stop", "click", "double"):
            return True
        return any(byte in self.data for byte in b"\r\n q")


Step = list[Action]


def keys(data: bytes) -> Action:
    """Bytes written at once: one key, a burst of keys or junk."""
    return Action("keys", data)


def click(col: int, row: int) -> Action:
    """A press and release in one write (1-based column and row)."""
    return Action("click", a=col, b=row)


def double(col: int, row: int) -> Action:
    """Two clicks ~10 ms apart."""
    return Action("double", a=col, b=row)


def resize(rows: int, cols: int) -> Action:
    return Action("resize", a=rows, b=cols)


def start(rows: int, cols: int, *args: str, typeahead: bytes = b"", delay: float = 0.0) -> Action:
    """A fresh process at rows x cols; `typeahead` is written `delay` s after the start."""
    return Action("start", typeahead, rows, cols, args, delay)


def stop(data: bytes = b"q") -> Action:
    """A planned quit: the app must exit with status 0."""
    return Action("stop", data)


def parse(text: str) -> list[Step]:
    """Steps as a failure prints them: `[[start(...)], [keys(b'5'), click(3, 4)], ...]`."""
    names = {f.__name__: f for f in (keys, click, double, resize, start, stop)}
    steps: list[Step] = eval(text, names)
    return steps


# -- what the RNG picks from -------------------------------------------------------

ARROWS = [KEYS["up"], KEYS["down"], KEYS["left"], KEYS["right"]]
SINGLE_KEYS = [
    *ARROWS,
    *ARROWS,
    "\r",
    " ",
    "\t",
    "\x1b[Z",  # shift+tab
    *"123456789",
    *"rnahi?",
    "\x1b",  # escape
    "\x10",  # ctrl+p
    "\x03",  # ctrl+c: a notification ("press ctrl+q to quit")
    "\x7f",  # backspace
    "\x1b[5~",  # page up
    "\x1b[6~",  # page down
    "\x1b[H",  # home
    "\x1b[F",  # end
]
CANNED_BURSTS = [
    "52",
    "\x1b[B\x1b[C\r",
    "n\r",
    "n\x1b",
    "nn",
    "n\x1b[B\x1b[C\x1b[C\r",
    "?\x10",
    "??",
    "?\x1b",
    "\x10\r",
    "\x10\r\r",
    "\x10\x1b[5~",
    "\x10\x1b",
    "\x10\x10",
    "\x03\x03",
    "123456789",
    "rrr",
    "ii",
    "aa",
    "hh5",
    "5\r5\r",
]
# Printable junk, without `q` (which quits: it is sent at planned points and typed ahead).
JUNK = "".join(chr(c) for c in range(32, 127) if chr(c) != "q") + "éß✓漢€"
# Typed before the first frame. No Ctrl+C / Ctrl+Z / Ctrl+\ / Ctrl+D: until the app
# has put the terminal in raw mode they are signals or end-of-file, as in any program.
TYPEAHEAD = [k for k in SINGLE_KEYS if k != "\x03"] + ["q", "qi", "q5", "i", "?", "n", "\x10"]

WORDS = ["Reset", "New game", "Exit", "Start", "Cancel", "●", "○", "Quit", "Theme", "Keys"]
SENSIBLE_SIZES = [(24, 80), (18, 50), (30, 100), (40, 120), (60, 200), (25, 90), (20, 60)]


# -- checks ----------------------------------------------------------------------------

LINES = [
    *(((r, 0), (r, 1), (r, 2)) for r in range(3)),
    *(((0, c), (1, c), (2, c)) for c in range(3)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
]


def illegal(board: Board) -> str | None:
    """Why `board` cannot arise in a game of Tic-Tac-Toe (either side starting), or None."""
    marks = list(board.values())
    xs, os_ = marks.count("X"), marks.count("O")
    if abs(xs - os_) > 1:
        return f"{xs} X against {os_} O"
    lines = {mark for line in LINES for mark in "XO" if all(board[c] == mark for c in line)}
    if lines == {"X", "O"}:
        return "both X and O have a line"
    if "X" in lines and xs < os_:
        return "X has a line but O has played more"
    if "O" in lines and os_ < xs:
        return "O has a line but X has played more"
    return None


def show(board: Board) -> str:
    return "/".join("".join(board[r, c] or "." for c in range(3)) for r in range(3))


def traceback_summary(text: str) -> tuple[str, str]:
    """(`file.py:LINE in function > ... | Error: message`, the error's type) from a Rich
    or plain traceback, also from one wrapped to a few columns."""
    lines = [line.strip(" │") for line in text.replace("^C", "").splitlines()]
    edges = [i for i, line in enumerate(lines) if line.startswith("╰")]
    tail = [line for line in lines[edges[-1] + 1 :] if line] if edges else lines[-3:]
    # A narrow terminal wraps the exception's name too: look for it in the lines joined.
    kind = re.findall(
        r"\b((?:[A-Z][a-z]+)+(?:Error|Exception|Interrupt|Matches|Ids|Exit))\b", "".join(tail)
    )
    # File names wrap too: allow line breaks inside them (and between the words).
    frames = re.findall(
        r"([\w.\n-]+\.py)\"?,\s+line\s+(\d+),\s+in\s+(\w+)|([\w.\n-]+\.py):(\d+)\s+in\s+(\w+)",
        "\n".join(lines),
    )
    where = [f"{(a or d).replace(chr(10), '')}:{b or e} in {c or f}" for a, b, c, d, e, f in frames]
    error = re.split(r"\^[A-Z@\[]", " ".join(tail[:3]))[0].strip()  # not the echo of keys after it
    # The exception's type names the kind: frames and messages are cut by narrow terminals.
    return f"{' > '.join(where[-4:])} | {error}", kind[0] if kind else ""


class ChaosFailure(AssertionError):
    def __init__(self, report: str, key: str, summary: str, action: int) -> None:
        super().__init__(report)
        self.key = key  # failures of the same kind share it
        self.summary = summary
        self.action = action


# -- the run ---------------------------------------------------------------------------


class Chaos:
    """Runs steps against a series of processes and checks after every step."""

    def __init__(self, seed: int, cwd: Path | str, keep_going: bool = False) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.cwd = str(cwd)  # a screenshot command would write here
        self.keep_going = keep_going
        self.term: Terminal | None = None
        self.actions = 0
        self.recent: deque[tuple[int, Action]] = deque(maxlen=LOG)  # (step, action)
        self.steps = 0
        self.since_start: list[Step] = []
        self.caught_up = 0
        self.budget = 0
        self.stats: Counter[str] = Counter()
        self.sent = 0.0  # when the last keys were written
        self.ctrl_q_seconds: list[float] = []  # from a planned Ctrl+Q to the process's end
        self.failures: dict[str, list[ChaosFailure]] = {}

    # -- choosing -------------------------------------------------------------------

    def size(self) -> tuple[int, int]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            return rng.choice(SENSIBLE_SIZES)
        if roll < 0.7:
            return rng.randint(18, 60), rng.randint(50, 200)
        if roll < 0.9:
            return rng.randint(6, 30), rng.randint(10, 80)
        return rng.randint(1, 8), rng.randint(1, 12)

    def next_start(self) -> Action:
        rng = self.rng
        args = ["--seed", str(rng.randrange(1000))]
        if rng.random() < 0.3:
            args += ["--symbol", "O"]
        if rng.random() < 0.3:
            args += ["--first", "ai"]
        if rng.random() < 0.3:
            args += ["--difficulty", rng.choice(["easy", "medium"])]
        if rng.random() < 0.2:
            args.append("--alternate")
        rows, cols = rng.choice(SENSIBLE_SIZES) if rng.random() < 0.6 else self.size()
        if rng.random() < 0.4:
            return start(rows, cols, *args)
        typeahead = "".join(rng.choice(TYPEAHEAD) for _ in range(rng.randint(1, 4)))
        # From at once to just after the first frame (~0.4 s on an idle machine).
        return start(rows, cols, *args, typeahead=typeahead.encode(), delay=rng.uniform(0, 0.6))

    def next_step(self) -> Step:
        rng = self.rng
        if self.term is None or rng.random() < RESTART:
            return [self.next_start()]
        if self.budget <= 0:
            return [stop(rng.choice([b"q", b"\x11"]))]
        return [self.next_action() for _ in range(rng.choice((1, 1, 2, 2, 3, 4)))]

    def next_action(self) -> Action:
        rng = self.rng
        roll = rng.random()
        if roll < 0.33:
            return keys(rng.choice(SINGLE_KEYS).encode())
        if roll < 0.48:
            return keys("".join(rng.choice(SINGLE_KEYS) for _ in range(rng.randint(2, 8))).encode())
        if roll < 0.56:
            return keys(rng.choice(CANNED_BURSTS).encode())
        if roll < 0.61:
            junk = "".join(rng.choice(JUNK) for _ in range(rng.randint(1, 10)))
            if rng.random() < 0.4:  # into the menu, where letters run commands
                junk = "\x10" + junk + rng.choice(["", "\r", "\x1b"])
            return keys(junk.encode())
        if roll < 0.80:
            return click(*self.target())
        if roll < 0.89:
            return double(*self.target())
        return resize(*self.size())

    def target(self) -> tuple[int, int]:
        """A 1-based (column, row) to click: a cell, a word, any text, or anywhere."""
        rng, term = self.rng, self.term
        assert term is not None
        rows, cols = term.size
        roll = rng.random()
        if roll < 0.25 and term.locate_board():
            top, bottom, left, right = rng.choice(list(term.cells.values()))
            return rng.randint(left, right) + 1, rng.randint(top, bottom) + 1
        if roll < 0.45:
            found = [place for word in WORDS if (place := term.find(word))]
            if found:
                y, x = rng.choice(found)
                return x + 1, y + 1
        if roll < 0.8:
            texts = [
                (x, y) for y, line in enumerate(term.lines) for x, c in enumerate(line) if c != " "
            ]
            if texts:
                x, y = rng.choice(texts)
                return x + 1, y + 1
        return rng.randint(1, cols), rng.randint(1, rows)

    # -- doing ----------------------------------------------------------------------

    def perform(self, step: Step) -> None:
        """Write the step's actions back to back, then read until the app is quiet."""
        self.steps += 1
        for action in step:
            self.actions += action.kind != "start"  # a start is counted as a step only
            self.recent.append((self.steps, action))
            self.stats[action.kind] += 1
            if action.kind == "start":
                self._start(action)
                continue
            term = self.term
            assert term is not None
            self.budget -= 1
            if action.kind == "stop" and action.data == b"q":
                # `q` waits its turn behind the input queued before it (on a loaded
                # machine that backlog alone can take longer than the quit's time
                # limit), so it is judged from when the app has caught up. Ctrl+Q is not.
                term.settle(QUIET, STOP_CATCH_UP_LIMIT, idle_cpu=True)
            if action.kind in ("keys", "stop"):
                term.send_bytes(action.data)
                self.sent = time.monotonic()
            elif action.kind == "click":
                term.click(action.a, action.b)
            elif action.kind == "double":
                term.double_click(action.a, action.b)
            elif action.kind == "resize":
                term.resize(action.a, action.b)
            else:
                raise ValueError(action)
        if step[0].kind != "start":
            self.since_start.append(step)
        assert self.term is not None
        if self.steps % CATCH_UP == 0:
            # An app that quit while catching up quit for an action since it was last
            # seen idle: those stay in the window. One that has handed the terminal back is
            # quitting, quiet and idle as it may look until its process ends: the window
            # must not slide past the action that asked (a CI run failed so).
            term = self.term
            settled = term.settle(QUIET, CATCH_UP_LIMIT, idle_cpu=True)
            if settled and term.alive() and not term.handed_back:
                self.caught_up = len(self.since_start) - 1
        else:
            self.term.settle(QUIET, SETTLE_LIMIT)

    def _start(self, action: Action) -> None:
        self.close()
        self.since_start = [[action]]
        self.caught_up = 0  # index in since_start of the last step the app had caught up with
        self.budget = self.rng.randint(*PROCESS_ACTIONS)
        self.term = term = Terminal(*action.args, rows=action.a, cols=action.b, cwd=self.cwd)
        if action.data:
            deadline = term.started + action.delay
            while (left := deadline - time.monotonic()) > 0 and not term.eof:
                term.pump(left)
            term.send_bytes(action.data)
        term.wait_for_first_frame()

    def window(self) -> list[Action]:
        """The actions the app may not have handled yet: those since it was last seen
        idle (the app falls behind fast input), and always those of the last few steps."""
        first = min(self.caught_up, len(self.since_start) - QUIT_WINDOW)
        return [action for step in self.since_start[max(first, 0) :] for action in step]

    def check(self, step: Step) -> None:
        term = self.term
        assert term is not None
        planned = step[0].kind == "stop"
        by_q = step[0].data == b"q"
        if planned and term.wait_exit(0.5 if by_q else CTRL_Q_TIMEOUT) is None:
            if not by_q:
                self.fail(f"still running {CTRL_Q_TIMEOUT:.0f} s after Ctrl+Q")
            # In the middle of a round `q` asks first, and `y` answers; failing that
            # (a dialog had the `y`, say), Ctrl+Q must quit.
            self.stats["q did not quit at once"] += 1
            term.send_bytes(b"y")
            if term.wait_exit(0.5) is None:
                term.send_bytes(KEYS["ctrl+q"].encode())
            if term.wait_exit(QUIT_TIMEOUT) is None:
                self.fail(f"still running {QUIT_TIMEOUT:.0f} s after q, then Ctrl+Q")
        if planned and not by_q and not term.alive():
            self.ctrl_q_seconds.append(time.monotonic() - self.sent)
        if planned or term.eof or not term.alive():
            self.check_exit(term, planned)
            return
        traceback = term.traceback()
        if traceback:
            term.wait_exit(2.0)  # let it finish writing
            if "KeyboardInterrupt" in traceback and not term.alive():
                self.check_exit(term, planned=False)  # judges Ctrl+C after a quit
                self.close()
                return
            self.fail("a traceback")
        board = term.visible_board()
        if board is None:
            return
        self.stats["boards checked"] += 1
        if illegal(board):
            # A frame can arrive in pieces: judge the screen once it has been quiet longer.
            term.settle(0.3, 3.0, idle_cpu=True)
            board = term.visible_board()
            if board is not None and (why := illegal(board)):
                self.fail(f"an impossible board {show(board)}: {why}")

    def check_exit(self, term: Terminal, planned: bool) -> None:
        """The process has exited (or was told to): only cleanly, and only when asked."""
        status = term.wait_exit(EXIT_TIMEOUT)
        if status is None:
            self.fail(f"its output ended, but it was still running {EXIT_TIMEOUT:.0f} s later")
        window = self.window()
        quits = [i for i, action in enumerate(window) if action.may_quit]
        traceback = term.traceback()
        interrupted = status == -signal.SIGINT or "KeyboardInterrupt" in (traceback or "")
        # Quitting hands the terminal back (Ctrl+C is a signal again) before the process
        # ends: a Ctrl+C typed after a quit kills it, as it would any program.
        if interrupted and quits and any(b"\x03" in a.data for a in window[quits[0] :]):
            self.stats["Ctrl+C while quitting"] += 1
            self.close()
            return
        if traceback:
            self.fail("a traceback")
        if status != 0:
            self.fail(f"the app exited with status {status}")
        if not quits:
            self.fail("the app exited (status 0), yet no recent action could quit it")
        self.stats["planned exits" if planned else "other clean exits"] += 1
        self.close()

    def fail(self, what: str) -> None:
        term = self.term
        assert term is not None
        rows, cols = term.size
        recent = "\n".join(f"  step {step}: {action!r}" for step, action in self.recent)
        process = "\n".join(f"    {step!r}," for step in self.since_start)
        traceback = term.traceback()
        post_mortem = term.post_mortem() if term.eof else ""
        summary, key = what, what
        written = f"(the last 3000 bytes):\n{plain(bytes(term.output[-3000:]))}"
        if traceback or post_mortem.strip():
            summary, kind = traceback_summary(traceback or post_mortem)
            key = kind or what
            summary = f"{what}: {summary}"
            written = (
                f"(from the traceback):\n{traceback}"
                if traceback
                else f"(after the app left the screen):\n{post_mortem}"
            )
        report = (
            f"chaos action {self.actions} (step {self.steps}): {what}\n"
            f"  {summary}\n"
            f"seed {self.seed}: rerun with TUI_TICTACTOE_CHAOS_SEED={self.seed}"
            f" TUI_TICTACTOE_CHAOS_ACTIONS={self.actions}\n"
            f"the last {len(self.recent)} actions:\n{recent}\n"
            f"the steps of this process (for replay):\n[\n{process}\n]\n"
            f"screen ({rows}x{cols}):\n{term.text}\n"
            f"written {written}"
        )
        raise ChaosFailure(report, key, summary, self.actions)

    def run(self, count: int, seconds: float | None = None) -> None:
        """Run `count` actions (or stop once `seconds` have passed)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while self.actions < count and (deadline is None or time.monotonic() < deadline):
            self.run_step(self.next_step())

    def run_step(self, step: Step) -> None:
        """Perform and check one step. With `keep_going`, a failure is recorded and the
        process closed (the next step starts another); else the failure is raised."""
        try:
            try:
                self.perform(step)
                self.check(step)
            except ChaosFailure:
                raise
            except (Exception, pytest.fail.Exception) as error:
                self.fail(f"{type(error).__name__}: {error}")
        except ChaosFailure as failure:
            if not self.keep_going:
                raise
            self.failures.setdefault(failure.key, []).append(failure)
            self.close()

    def finish(self) -> None:
        """A planned quit at the end: the last process must still answer `q`."""
        if self.term is not None:
            self.run_step([stop()])

    def close(self) -> None:
        if self.term is not None:
            self.term.close()
            self.term = None


def replay(steps: list[Step], cwd: Path | str = ".") -> Chaos:
    """Run recorded steps (the first a `start`) with the same checks; raises on failure."""
    chaos = Chaos(0, cwd)
    try:
        for step in steps:
            if chaos.term is None and step[0].kind != "start":
                break  # the app quit cleanly (Exit, the menu's Quit) before the end
            chaos.budget = 10**9  # never a planned quit of its own
            chaos.run_step(step)
    finally:
        chaos.close()
    return chaos


def test_chaos_in_a_real_terminal(tmp_path: Path) -> None:
    chaos = Chaos(SEED, tmp_path, keep_going=KEEP_GOING)
    began = time.monotonic()
    try:
        chaos.run(ACTIONS, SECONDS)
        if not chaos.failures:
            chaos.finish()
    except ChaosFailure as failure:
        pytest.fail(str(failure), pytrace=False)
    finally:
        chaos.close()
    seconds = time.monotonic() - began
    quits = sorted(chaos.ctrl_q_seconds)
    print(
        f"\nchaos seed {SEED}: {chaos.actions} actions in {chaos.steps} steps,"
        f" {seconds:.1f} s: {dict(chaos.stats)}"
    )
    if quits:
        print(
            f"Ctrl+Q to the process's end, {len(quits)} quits: median"
            f" {quits[len(quits) // 2]:.2f} s, max {quits[-1]:.2f} s"
        )
    if chaos.failures:
        kinds = "\n".join(
            f"  {key}: {len(found)}x (at actions {[f.action for f in found]}), e.g.\n"
            + "\n".join(f"      {summary}" for summary in sorted({f.summary for f in found})[:4])
            for key, found in chaos.failures.items()
        )
        first = "\n\n".join(str(found[0]) for found in chaos.failures.values())
        pytest.fail(f"{len(chaos.failures)} kinds of failure:\n{kinds}\n\n{first}", pytrace=False)
    assert chaos.stats["start"] >= 2, "too few processes: raise the actions"
