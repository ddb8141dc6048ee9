"""Start-up and responsiveness of the real app, measured the way a user sees them.

Run by hand: `python benchmarks/bench_startup.py [--runs 10]`.

Method
------
Each app is started in a pseudo-terminal of 80x24 (`pexpect`, TERM=xterm-256color)
and its output is fed to a `pyte` terminal emulator, exactly like a terminal
would draw it. The clock starts just before the process is spawned and stops
when the chunk of output holding a known string has been read. The string is
looked for in the raw bytes (cheap, so the measuring process steals little CPU
from the measured one) and then confirmed on the emulated screen:

* `tui-tictactoe`: the installed console script (the one next to this
  interpreter, not a pyenv shim) until the status line "Your turn: you play X."
  is on screen. The whole first frame (board, score, buttons, footer) is
  written before the status line's row, so this is the first painted frame.
* a minimal Textual app: one `Label`, started with `python -c`, until the
  label is on screen. This is the floor any Textual app pays (interpreter,
  `import textual`, driver set-up, first compositor pass).

Then each app is left to finish its start-up repaints (no output for 0.5 s, so
the key does not queue behind them) and the digit 5 is sent. In tui-tictactoe
two times are taken: until the X appears in the centre cell (key echo) and
until the AI's O is on screen with the status back to "Your turn" (the full
key-to-AI-reply round trip: binding, controller, worker thread, message back,
repaint). The minimal app repaints its label on any key: that time is the floor
Textual itself sets for a key to reach the screen. Finally `q` quits.

Runs are interleaved (minimal, app, minimal, app, ... with the order flipped
on every other pair) after one discarded warm-up run of each, so drifting
machine load hits both alike; medians are reported. Memory is the resident set
size (VmRSS) of the child right after its first frame, read from /proc (Linux
only; shown as "n/a" elsewhere).

`--callgrind` also counts, under valgrind's callgrind, the instructions each
app executes from process start to its first frame (the child ends itself the
moment the frame holding its mark is written). Wall times on a shared machine
move by 20% from run to run; instruction counts move by well under 1%, so they
show what a change is worth.

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
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pyte

ROWS, COLS = 24, 80
TIMEOUT = 30.0

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
READY_MARK = "Your turn: you play X."
APP_ARGS = ["--seed", "1", "--first", "human", "--difficulty", "hard"]
# A mark alone in a cell box: "│      O      │" (round, heavy or double borders).
CELL_MARK = re.compile(r"[│┃║]\s+{}\s+[│┃║]")


# For --callgrind: run an app and end the process the moment the first frame
# holding its mark has been written, so callgrind counts exactly the start-up.
FIRST_FRAME_CHILD = """
import os, sys
from textual.drivers import linux_driver

which, mark = sys.argv[1], sys.argv[2]
write = linux_driver.LinuxDriver.write

def write_then_exit(self, data):
    write(self, data)
    if mark in data:
        os._exit(0)

linux_driver.LinuxDriver.write = write_then_exit
if which == "app":
    from tui_tictactoe.cli import main
    main(sys.argv[4:])
else:
    exec(sys.argv[3], {"__name__": "__main__"})
"""

EXTRA_ENV: dict[str, str] = {}


def app_command() -> list[str]:
    beside = Path(sys.executable).with_name("tui-tictactoe")
    found = str(beside) if beside.exists() else shutil.which("tui-tictactoe")
    return [found] if found else [sys.executable, "-m", "tui_tictactoe"]


class Session:
    """One child in a pty, drawn by pyte; times are perf_counter seconds."""

    def __init__(self, argv: list[str]) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", **EXTRA_ENV)
        if "PYTHONPYCACHEPREFIX" in EXTRA_ENV:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.last_read: float | None = None
        self.started = time.perf_counter()
        self.child = pexpect.spawn(argv[0], argv[1:], dimensions=(ROWS, COLS), env=env)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def chunks(self) -> Iterator[tuple[bytes, float]]:
        """Output as it is read, with the time each chunk arrived, until EOF or TIMEOUT."""
        deadline = time.perf_counter() + TIMEOUT
        while time.perf_counter() < deadline:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.5)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                return
            yield data, time.perf_counter()

    def wait_for(self, condition: Callable[[str], bool], what: str) -> float:
        """Time at which the chunk that made `condition` true was read."""
        if self.last_read is not None and condition(self.text()):
            return self.last_read  # an earlier chunk already did it
        for data, arrived in self.chunks():
            self.last_read = arrived
            self.stream.feed(data)
            if condition(self.text()):
                return self.last_read
        raise RuntimeError(f"no {what} within {TIMEOUT} s; screen:\n{self.text()}")

    def wait_for_bytes(self, marker: str) -> float:
        """Time at which `marker` arrived, found in the raw output (no emulation on the clock).

        Textual writes a run of same-styled text contiguously, so a one-style
        string shows up verbatim; the screen is emulated only afterwards and the
        marker is checked there too.
        """
        wanted = marker.encode()
        raw = b""
        for data, arrived in self.chunks():
            raw += data
            if wanted in raw[-len(data) - len(wanted) :]:
                self.last_read = arrived
                self.stream.feed(raw)
                if marker not in self.text():
                    raise RuntimeError(f"{marker!r} was written but is not on screen")
                return arrived
        raise RuntimeError(f"no {marker!r} within {TIMEOUT} s; output: {raw[-500:]!r}")

    def wait_until_idle(self, quiet: float = 0.5) -> None:
        """Read until the app has written nothing for `quiet` seconds (start-up repaints done)."""
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=quiet)
            except pexpect.TIMEOUT:
                return
            self.last_read = time.perf_counter()
            self.stream.feed(data)

    def rss_mb(self) -> float | None:
        try:
            status = Path(f"/proc/{self.child.pid}/status").read_text()
        except OSError:
            return None
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        return int(match.group(1)) / 1024 if match else None

    def quit(self) -> None:
        self.child.send("q")
        try:
            self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        finally:
            self.child.close(force=True)


@dataclass
class Samples:
    startup: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    echo: list[float] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)


def start(argv: list[str], mark: str, samples: Samples) -> Session:
    """Start a child, record its time to the first frame (holding `mark`) and its memory."""
    session = Session(argv)
    ready = session.wait_for_bytes(mark)
    samples.startup.append(ready - session.started)
    rss = session.rss_mb()
    if rss is not None:
        samples.rss.append(rss)
    session.wait_until_idle()
    return session


def run_minimal(samples: Samples) -> None:
    session = start([sys.executable, "-c", MINIMAL_APP], MINIMAL_MARK, samples)
    pressed = time.perf_counter()
    session.child.send("5")
    echo = session.wait_for(lambda text: "KEY-5" in text, "repaint")
    samples.echo.append(echo - pressed)
    session.quit()


def run_app(samples: Samples) -> None:
    session = start([*app_command(), *APP_ARGS], READY_MARK, samples)
    pressed = time.perf_counter()
    session.child.send("5")
    x_mark, o_mark = CELL_MARK.pattern.format("X"), CELL_MARK.pattern.format("O")
    echo = session.wait_for(lambda text: re.search(x_mark, text) is not None, "X")
    reply = session.wait_for(
        lambda text: re.search(o_mark, text) is not None and READY_MARK in text, "AI reply"
    )
    samples.echo.append(echo - pressed)
    samples.reply.append(reply - pressed)
    session.quit()


def callgrind_instructions(which: str) -> float:
    """Instructions (millions) from process start to the first frame, counted by callgrind.

    Unlike wall time this does not move with the load of a shared machine, so
    it shows what a change to the start-up is worth in one run of each app.
    """
    with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        mark = READY_MARK if which == "app" else MINIMAL_MARK
        session = Session(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                FIRST_FRAME_CHILD,
                which,
                mark,
                MINIMAL_APP,
                *APP_ARGS,
            ]
        )
        session.child.expect(pexpect.EOF, timeout=600)
        session.child.close()
        totals = re.search(r"^(?:totals|summary): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"callgrind wrote no totals for {which}")
        return int(totals.group(1)) / 1e6


def report_callgrind() -> None:
    if shutil.which("valgrind") is None:
        print("\n--callgrind: valgrind is not installed (apt-get install valgrind)")
        return
    for which in ("minimal", "app"):
        callgrind_instructions(which)  # warm-up: fills the .pyc cache outside the count
    minimal, app = callgrind_instructions("minimal"), callgrind_instructions("app")
    print("\nInstructions from process start to the first frame (callgrind, one run each)\n")
    print("| app | instructions (millions) |")
    print("|---|---:|")
    print(f"| minimal Textual app (one Label) | {minimal:,.0f} |")
    print(f"| tui-tictactoe | {app:,.0f} |")
    print(f"| ratio tui-tictactoe / minimal (target ≤ 1.2) | {app / minimal:.2f}x |")


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
    print("| measurement | median (ms) | min-max (ms) | RSS after first frame (MB) |")
    print("|---|---:|---:|---:|")
    print(
        f"| minimal Textual app (one Label): start → first frame | {ms(minimal.startup)} "
        f"| {spread(minimal.startup)} | {mb(minimal.rss)} |"
    )
    print(
        f"| tui-tictactoe: start → first frame | {ms(app.startup)} | {spread(app.startup)} "
        f"| {mb(app.rss)} |"
    )
    print(f"| ratio tui-tictactoe / minimal (target ≤ 1.2) | {ratio:.2f}x | | |")
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
