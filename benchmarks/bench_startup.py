"""Start-up and responsiveness of the real app, measured the way a user sees them.

Run by hand: `python benchmarks/bench_startup.py [--runs 10] [--callgrind]`.

Method
------
Each app is started in a pseudo-terminal of 80x24 (`pexpect`, TERM=xterm-256color).
The clock starts just before the process is spawned. While the app writes, the
output is only read and stamped with the time each chunk arrived (and, during
start-up, the child's resident memory); nothing is emulated on the clock, so the
measuring process steals little CPU from the measured one. Once the app has
written nothing for 0.5 s, the chunks are fed one by one to a `pyte` terminal
emulator, exactly like a terminal would draw them, and a measurement is the
arrival time of the chunk after which the emulated screen first showed what was
waited for:

* `tui-tictactoe`: the installed console script (the one next to this
  interpreter, not a pyenv shim) until the board is on screen with its nine
  cells empty: the first painted frame.
* a minimal Textual app: one `Label`, started with `python -c`, until the
  label is on screen. This is the floor any Textual app pays (interpreter,
  `import textual`, driver set-up, first compositor pass).

The board is read from the screen, never from the status line's wording: a cell
is a box drawn with a line border (round, solid, heavy, double, dashed or
ASCII) whose inside is blank or a lone X or O, and the board is the nine such
boxes in reading order (`read_board`).

"Start-up repaints done" is the arrival of the last chunk before the first 0.5 s
of silence after the first frame: what is still drawn after the first frame
(the footer's keys, a restyle) shows there.

Then the digit 5 is sent (pexpect's `delaybeforesend`, 0.05 s by default, is
turned off, so no key row counts a sleep of the measuring side). In
tui-tictactoe two times are taken: until an X is in the centre cell (key echo)
and until the AI's O is on the board (the full key-to-AI-reply round trip:
binding, controller, worker thread, message back, repaint). The minimal app
repaints its label on any key: that time is the floor Textual itself sets for a
key to reach the screen. Finally `q` quits.

Runs are interleaved (minimal, app, minimal, app, ... with the order flipped
on every other pair) after one discarded warm-up run of each, so drifting
machine load hits both alike; medians are reported. Memory is the resident set
size of the child when the chunk holding its first frame arrived, read from
/proc (Linux only; shown as "n/a" elsewhere).

`--callgrind` also counts, under valgrind's callgrind, the instructions each
app executes from process start to its first frame. The child hands every
write of the terminal driver to this process, which draws it with the same
emulator and the same test as above and tells the child to end itself the
moment its first frame is on screen. Wall times on a shared machine move by 20%
from run to run; instruction counts move by well under 1%, so they show what a
change is worth, and the start-up budget (at most 1.5x the minimal app) is
judged by them.

Bytecode: by default the children write and reuse .pyc files in a temporary
PYTHONPYCACHEPREFIX (filled by the warm-up run), as an installed wheel would
have them. An editable install under PYTHONDONTWRITEBYTECODE=1 would otherwise
recompile the game's ~25 modules on every start while Textual's .pyc files
already exist, which is a cost real installs do not pay; `--no-pyc` measures
the environment as it is.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pexpect
import pyte

from tui_tictactoe.ui.widgets.marks import DESIGNS

ROWS, COLS = 24, 80
TIMEOUT = 30.0
QUIET = 0.5  # seconds without output after which the app is taken to be idle
BURST = 5.0  # read at most this long before looking at the screen (an app that never idles)
CALLGRIND_TIMEOUT = 600.0
BUDGET = 1.5  # start-up instructions of the game / those of the minimal app

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Label

class Minimal(App):
    def compose(self):
        yield Label("MINIMAL-APP-READY")

    def on_key(self, event):
        if event.key == "q":
            self.exit()
        else:
            self.query_one(Label).update(f"KEY-{event.key}")

Minimal().run()
"""
MINIMAL_MARK = "MINIMAL-APP-READY"
APP_ARGS = ["--seed", "1", "--first", "human", "--difficulty", "hard"]
CENTRE = 4  # the cell the digit 5 plays, in reading order

# Corners and sides of the line-drawing borders Textual can give a cell:
# round, solid, heavy, double, dashed and ascii.
TOP_LEFT, TOP_RIGHT = "╭┌┏╔+", "╮┐┓╗+"
BOTTOM_LEFT, BOTTOM_RIGHT = "╰└┗╚+", "╯┘┛╝+"
SIDES = "│┃║╏|"


# For --callgrind: run an app and hand each write of the terminal driver to the
# parent (4-byte length, then the text) through one FIFO, then wait for its
# answer on the other: b"1" when that write put the first frame on screen, and
# the process ends there, so callgrind counts exactly the start-up.
FIRST_FRAME_CHILD = """
import os, sys
from textual.drivers import linux_driver

frames = os.open(sys.argv[1], os.O_WRONLY)
answers = os.open(sys.argv[2], os.O_RDONLY)
which = sys.argv[3]
write = linux_driver.LinuxDriver.write

def write_and_ask(self, data):
    write(self, data)
    payload = data.encode()
    payload = len(payload).to_bytes(4, "big") + payload
    while payload:
        payload = payload[os.write(frames, payload):]
    if os.read(answers, 1) == b"1":
        os._exit(0)

linux_driver.LinuxDriver.write = write_and_ask
if which == "app":
    from tui_tictactoe.cli import main
    main(sys.argv[5:])
else:
    exec(sys.argv[4], {"__name__": "__main__"})
"""

EXTRA_ENV: dict[str, str] = {}


def app_command() -> list[str]:
    beside = Path(sys.executable).with_name("tui-tictactoe")
    found = str(beside) if beside.exists() else shutil.which("tui-tictactoe")
    return [found] if found else [sys.executable, "-m", "tui_tictactoe"]


def screen_text(screen: pyte.Screen) -> str:
    return "\n".join(screen.display)


# The large marks the game draws, by their non-blank lines, stripped.
LARGE_MARKS = {
    tuple(line.strip() for line in design): symbol
    for symbol, designs in DESIGNS.items()
    for design in designs
}


def cell_mark(rows: list[str]) -> str | None:
    """What a cell's inside shows: "X" or "O" (the letter or a whole large mark), " "
    (blank, or its faint key number), or None (anything else: a half-drawn frame)."""
    text = "".join(rows).replace(" ", "")
    if text == "" or (len(text) == 1 and text in "123456789"):
        return " "
    if text in ("X", "O"):
        return text
    return LARGE_MARKS.get(tuple(row.strip() for row in rows if row.strip()))


def read_board(screen: pyte.Screen) -> str | None:
    """The board's marks as 9 characters in reading order ("X", "O" or " "), or None.

    A cell is a box drawn with a line border whose inside is blank, its key
    number, a lone X or O, or a whole large X or O; the board is the nine such
    boxes, sorted top to bottom, then left to right. None when the screen does
    not show exactly nine.
    """
    grid = [
        [screen.buffer[y][x].data or " " for x in range(screen.columns)]
        for y in range(screen.lines)
    ]
    cells = []
    for top, row in enumerate(grid):
        for left, corner in enumerate(row):
            if corner not in TOP_LEFT:
                continue
            right = next((x for x in range(left + 2, len(row)) if row[x] in TOP_RIGHT), None)
            if right is None:
                continue
            bottom = None
            for y in range(top + 1, len(grid)):
                if grid[y][left] in BOTTOM_LEFT:
                    bottom = y
                    break
                if grid[y][left] not in SIDES:
                    break
            if bottom is None or bottom < top + 2 or grid[bottom][right] not in BOTTOM_RIGHT:
                continue
            mark = cell_mark(["".join(grid[y][left + 1 : right]) for y in range(top + 1, bottom)])
            if mark is not None:
                cells.append((top, left, mark))
    if len(cells) != 9:
        return None
    return "".join(mark for _, _, mark in sorted(cells))


def board_is_empty(screen: pyte.Screen) -> bool:
    return read_board(screen) == " " * 9


def label_shown(screen: pyte.Screen) -> bool:
    return MINIMAL_MARK in screen_text(screen)


def key_shown(screen: pyte.Screen) -> bool:
    return "KEY-5" in screen_text(screen)


def x_in_centre(screen: pyte.Screen) -> bool:
    board = read_board(screen)
    return board is not None and board[CENTRE] == "X"


def ai_replied(screen: pyte.Screen) -> bool:
    board = read_board(screen)
    return board is not None and board[CENTRE] == "X" and board.count("O") == 1


# What each app's first frame shows.
FIRST_FRAME: dict[str, Callable[[pyte.Screen], bool]] = {
    "app": board_is_empty,
    "minimal": label_shown,
}


class Chunk(NamedTuple):
    data: bytes
    arrived: float  # perf_counter seconds
    statm: bytes | None  # the child's /proc/<pid>/statm when it arrived, if asked for


def rss_mb(statm: bytes | None) -> float | None:
    """Resident memory in MB from the text of /proc/<pid>/statm (in pages)."""
    if statm is None:
        return None
    return int(statm.split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Found(NamedTuple):
    arrived: float  # when the chunk that made the condition true arrived
    rss_mb: float | None  # the child's resident memory then, if sampled
    settled: float  # the last chunk before the app next fell quiet


class Session:
    """One child in a pty, drawn by pyte; times are perf_counter seconds."""

    def __init__(self, argv: list[str]) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", **EXTRA_ENV)
        if "PYTHONPYCACHEPREFIX" in EXTRA_ENV:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.ended = False
        self.started = time.perf_counter()
        self.child = pexpect.spawn(argv[0], argv[1:], dimensions=(ROWS, COLS), env=env)
        # pexpect sleeps 0.05 s before every send by default: not in a measurement.
        self.child.delaybeforesend = None

    def text(self) -> str:
        return screen_text(self.screen)

    def send(self, keys: str) -> float:
        """Send `keys` at once; the time they were sent."""
        sent = time.perf_counter()
        self.child.send(keys)
        return sent

    def _statm(self) -> bytes | None:
        try:
            with open(f"/proc/{self.child.pid}/statm", "rb") as status:
                return status.read()
        except OSError:
            return None

    def read_burst(self, deadline: float, sample_memory: bool) -> list[Chunk]:
        """Output as it arrives, until QUIET seconds without any, EOF, BURST or the deadline.

        Only reads and stamps the chunks (and optionally the child's memory, ~15 µs):
        the screen is emulated afterwards, off the clock.
        """
        chunks: list[Chunk] = []
        until = min(deadline, time.perf_counter() + BURST)
        while not self.ended and time.perf_counter() < until:
            try:
                data = self.child.read_nonblocking(65536, timeout=QUIET)
            except pexpect.TIMEOUT:
                if chunks:
                    break
                continue  # nothing yet (the app may still be importing): keep waiting
            except pexpect.EOF:
                self.ended = True
                break
            arrived = time.perf_counter()
            chunks.append(Chunk(data, arrived, self._statm() if sample_memory else None))
        return chunks

    def wait_for(
        self, *conditions: Callable[[pyte.Screen], bool], sample_memory: bool = False
    ) -> list[Found]:
        """For each condition, the chunk after which `condition(screen)` first held.

        Reads bursts of output (see `read_burst`) and replays each through the
        emulator, chunk by chunk, until every condition has held once.
        """
        deadline = time.perf_counter() + TIMEOUT
        found: list[Chunk | None] = [None] * len(conditions)
        settled: list[float] = [0.0] * len(conditions)
        while None in found:
            if self.ended or time.perf_counter() >= deadline:
                missing = [c.__name__ for c, f in zip(conditions, found, strict=True) if f is None]
                raise RuntimeError(
                    f"{', '.join(missing)}: not within {TIMEOUT} s; screen:\n{self.text()}"
                )
            chunks = self.read_burst(deadline, sample_memory)
            for chunk in chunks:
                self.stream.feed(chunk.data)
                for index, condition in enumerate(conditions):
                    if found[index] is None and condition(self.screen):
                        found[index] = chunk
                        settled[index] = chunks[-1].arrived
        return [
            Found(chunk.arrived, rss_mb(chunk.statm), last)
            for chunk, last in zip(found, settled, strict=True)
            if chunk is not None
        ]

    def quit(self) -> None:
        # The game asks before quitting mid-round: Ctrl+Q quits at once; the
        # minimal app ends on any key.
        self.child.send("\x11")
        try:
            self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        finally:
            self.child.close(force=True)


class Samples:
    def __init__(self) -> None:
        self.startup: list[float] = []
        self.settled: list[float] = []
        self.rss: list[float] = []
        self.echo: list[float] = []
        self.reply: list[float] = []


def start(argv: list[str], which: str, samples: Samples) -> Session:
    """Start a child; record its time to the first frame, its memory then and its settling."""
    session = Session(argv)
    [first] = session.wait_for(FIRST_FRAME[which], sample_memory=True)
    samples.startup.append(first.arrived - session.started)
    samples.settled.append(first.settled - session.started)
    if first.rss_mb is not None:
        samples.rss.append(first.rss_mb)
    return session


def run_minimal(samples: Samples) -> None:
    session = start([sys.executable, "-c", MINIMAL_APP], "minimal", samples)
    pressed = session.send("5")
    [echo] = session.wait_for(key_shown)
    samples.echo.append(echo.arrived - pressed)
    session.quit()


def run_app(samples: Samples) -> None:
    session = start([*app_command(), *APP_ARGS], "app", samples)
    pressed = session.send("5")
    echo, reply = session.wait_for(x_in_centre, ai_replied)
    samples.echo.append(echo.arrived - pressed)
    samples.reply.append(reply.arrived - pressed)
    session.quit()


def callgrind_instructions(which: str) -> float:
    """Instructions (millions) from process start to the first frame, counted by callgrind.

    Unlike wall time this does not move with the load of a shared machine, so
    it shows what a change to the start-up is worth in one run of each app.
    """
    with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        frames_path, answers_path = Path(tmp) / "frames", Path(tmp) / "answers"
        os.mkfifo(frames_path)
        os.mkfifo(answers_path)
        # Opened read-write, so neither open waits for the child (Linux FIFO semantics).
        frames = os.open(frames_path, os.O_RDWR)
        answers = os.open(answers_path, os.O_RDWR)
        session = None
        try:
            session = Session(
                [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={out}",
                    sys.executable,
                    "-c",
                    FIRST_FRAME_CHILD,
                    str(frames_path),
                    str(answers_path),
                    which,
                    MINIMAL_APP,
                    *APP_ARGS,
                ]
            )
            judge_frames(session, frames, answers, FIRST_FRAME[which])
        finally:
            if session is not None:
                session.child.close(force=True)
            os.close(frames)
            os.close(answers)
        totals = re.search(r"^(?:totals|summary): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"callgrind wrote no totals for {which}")
        return int(totals.group(1)) / 1e6


def judge_frames(
    session: Session, frames: int, answers: int, first_frame: Callable[[pyte.Screen], bool]
) -> None:
    """Answer each write the child hands over until its first frame, then wait for it to end.

    The pty is drained meanwhile (valgrind's messages and the app's own output
    go there), so the child never blocks on a full terminal.
    """
    deadline = time.perf_counter() + CALLGRIND_TIMEOUT
    pending = b""
    answered = False
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([frames, session.child.child_fd], [], [], 1.0)
        if session.child.child_fd in ready:
            try:
                session.child.read_nonblocking(65536, timeout=0)
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                if not answered:
                    raise RuntimeError(
                        f"the child ended before its first frame; screen:\n{session.text()}"
                    ) from None
                return
        if frames in ready:
            pending += os.read(frames, 65536)
            while len(pending) >= 4 and len(pending) >= 4 + int.from_bytes(pending[:4], "big"):
                size = int.from_bytes(pending[:4], "big")
                session.stream.feed(pending[4 : 4 + size])
                pending = pending[4 + size :]
                answered = first_frame(session.screen)
                os.write(answers, b"1" if answered else b"0")
    raise RuntimeError(f"no first frame under callgrind within {CALLGRIND_TIMEOUT} s")


def report_callgrind() -> None:
    if shutil.which("valgrind") is None:
        print("\n--callgrind: valgrind is not installed (apt-get install valgrind)")
        return
    for which in ("minimal", "app"):
        callgrind_instructions(which)  # warm-up: fills the .pyc cache outside the count
    minimal, app = callgrind_instructions("minimal"), callgrind_instructions("app")
    ratio = app / minimal
    verdict = "within budget" if ratio <= BUDGET else "OVER BUDGET"
    print("\nInstructions from process start to the first frame (callgrind, one run each)\n")
    print("| app | instructions (millions) |")
    print("|---|---:|")
    print(f"| minimal Textual app (one Label) | {minimal:,.0f} |")
    print(f"| tui-tictactoe | {app:,.0f} |")
    print(f"| ratio tui-tictactoe / minimal (budget ≤ {BUDGET}x) | {ratio:.2f}x ({verdict}) |")


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f}" if values else "n/a"


def spread(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"{min(values) * 1000:.0f}-{max(values) * 1000:.0f}"


def mb(values: list[float]) -> str:
    return f"{statistics.median(values):.1f}" if values else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="measured runs of each (default 10)")
    parser.add_argument(
        "--no-pyc",
        action="store_true",
        help="keep the environment's bytecode settings (e.g. PYTHONDONTWRITEBYTECODE=1)",
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="also count the start-up's instructions under valgrind (slow, but not noisy)",
    )
    options = parser.parse_args()
    runs = options.runs
    pyc_dir = None
    if not options.no_pyc:
        # Like an installed wheel: every module has its .pyc. The cache lives in a
        # temporary directory, so the source tree stays clean; the warm-up fills it.
        pyc_dir = tempfile.TemporaryDirectory(prefix="bench-pyc-")
        EXTRA_ENV["PYTHONPYCACHEPREFIX"] = pyc_dir.name

    # A record of its own: saved settings (another symbol, say) must not change the run.
    data_dir = tempfile.TemporaryDirectory(prefix="bench-data-")
    EXTRA_ENV["TUI_TICTACTOE_DATA_DIR"] = data_dir.name
    minimal, app = Samples(), Samples()
    run_minimal(Samples())  # warm-up: disk cache, .pyc files
    run_app(Samples())
    for index in range(runs):
        order = (run_minimal, run_app) if index % 2 == 0 else (run_app, run_minimal)
        for run in order:
            run(minimal if run is run_minimal else app)
        print(f"run {index + 1}/{runs} done", file=sys.stderr)

    ratio = statistics.median(app.startup) / statistics.median(minimal.startup)
    bytecode = "compiled once (pyc cache)" if pyc_dir else "as the environment says"
    print(
        f"\nStart-up in an 80x24 pty, medians of {runs} interleaved runs "
        f"(Python {sys.version.split()[0]}, bytecode {bytecode}, {os.cpu_count()} CPUs)\n"
    )
    print("| measurement | median (ms) | min-max (ms) | RSS at first frame (MB) |")
    print("|---|---:|---:|---:|")
    print(
        f"| minimal Textual app (one Label): start → first frame | {ms(minimal.startup)} "
        f"| {spread(minimal.startup)} | {mb(minimal.rss)} |"
    )
    print(
        f"| tui-tictactoe: start → first frame | {ms(app.startup)} | {spread(app.startup)} "
        f"| {mb(app.rss)} |"
    )
    print(f"| ratio tui-tictactoe / minimal (wall time) | {ratio:.2f}x | | |")
    print(
        f"| minimal Textual app: start → start-up repaints done | {ms(minimal.settled)} "
        f"| {spread(minimal.settled)} | |"
    )
    print(
        f"| tui-tictactoe: start → start-up repaints done | {ms(app.settled)} "
        f"| {spread(app.settled)} | |"
    )
    print(
        f"| minimal Textual app: key → label repainted (the floor) | {ms(minimal.echo)} "
        f"| {spread(minimal.echo)} | |"
    )
    print(f"| tui-tictactoe: key 5 → X on screen | {ms(app.echo)} | {spread(app.echo)} | |")
    print(f"| tui-tictactoe: key 5 → AI's O on screen | {ms(app.reply)} | {spread(app.reply)} | |")
    if options.callgrind:
        report_callgrind()


if __name__ == "__main__":
    main()
