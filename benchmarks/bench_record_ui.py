"""What the record costs where a player sees it: the result on screen, and `stats`.

Run by hand from the repository root (needs the package installed, with pexpect and pyte):

    python benchmarks/bench_record_ui.py [--rounds 60] [--stats-runs 15] [--control] [--raw FILE]

Prints one markdown table. Takes ~2 min with the defaults.

- **Last move -> result on screen**, in real 80x24 pseudo-terminals: two copies of the
  installed `tui-tictactoe` run side by side, one with the record (a fresh database in a
  temporary directory) and one with `--no-record`, same seed and options, so they play the
  same rounds. The bench plays each round by keys (the lowest free cell), one round in one
  app then the same round in the other, alternating, so both see the same machine. For the
  key that ends a round, the clock runs from writing the key to the pty until the bytes that
  put "Press r for a new round." on the emulated screen (pyte) have arrived. That is what a
  player sees, including Textual's frame and the terminal write; with the record, the round
  is also being saved (a thread worker, commit + fsync). The first round of each app is a
  warm-up and is not counted. Each difference comes with a 95% bootstrap interval, and
  `--control` runs both apps `--no-record` (an A/A run): on a shared machine the rounds
  spread by tens of ms, so a few ms of difference means little without them.
- **`stats` on 100,000 rounds**: a database where one player owns 100,000 rounds (filled by
  `bench_record.fill`), then `tui-tictactoe stats` end to end (a fresh process: interpreter
  start, imports, opening the record, the query, printing), next to `tui-tictactoe --version`
  (the same process start with no record) for scale; and the query alone in one process:
  `Record.open()` + `stats()` + `close()`, and `stats()` on an open record.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_record import fill, percentile  # noqa: E402  (after the path tweak)
from pty_terminal import SGR, child_env, command  # noqa: E402

from tui_tictactoe.identity import PLAYER_ENV  # noqa: E402
from tui_tictactoe.record import DATA_DIR_ENV, DATABASE_NAME, Record  # noqa: E402

ROUND_OVER = "Press r for a new round."
YOUR_TURN = "Your turn: you play X."
AI_PLAYED = re.compile(r"AI played (\d)\.")
OPTIONS = ("--seed", "11", "--difficulty", "hard", "--symbol", "X", "--first", "human")
STEP_TIMEOUT = 15.0
ROUNDS_IN_DB = 100_000


class App:
    """One game in an 80x24 pty, its output drawn by pyte; times are `perf_counter`."""

    def __init__(self, *args: str, env: dict[str, str]) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        argv = [*command(), *args]
        self.child = pexpect.spawn(argv[0], argv[1:], dimensions=(24, 80), env=env)
        self.child.delaybeforesend = None

    def status(self) -> str:
        for line in self.screen.display:
            text = line.strip()
            if text.startswith(("Your turn", "AI played", "AI is thinking")) or ROUND_OVER in text:
                return text
        return ""

    def wait(self, condition: Callable[[], bool], what: str) -> float:
        """Read until `condition` holds on the screen; when the bytes that made it arrived."""
        deadline = time.perf_counter() + STEP_TIMEOUT
        while not condition():
            if time.perf_counter() > deadline:
                raise SystemExit(f"waited for {what}; screen:\n" + "\n".join(self.screen.display))
            try:
                data = self.child.read_nonblocking(65536, timeout=0.5)
            except pexpect.TIMEOUT:
                continue
            arrived = time.perf_counter()
            self.stream.feed(SGR.sub(b"", data))
            if condition():
                return arrived
        return time.perf_counter()

    def settle(self, quiet: float = 0.05) -> None:
        """Read until nothing has been written for `quiet` s (the frame after the result)."""
        while True:
            try:
                self.stream.feed(SGR.sub(b"", self.child.read_nonblocking(65536, timeout=quiet)))
            except pexpect.TIMEOUT:
                return

    def send(self, text: str) -> float:
        self.child.send(text.encode())
        return time.perf_counter()

    def play_round(self) -> float:
        """Play the lowest free cell until the round ends; seconds from the last key to
        the result on screen. Leaves a new round started."""
        taken: set[int] = set()
        while True:
            key = min(set(range(1, 10)) - taken)
            taken.add(key)
            before = self.status()
            sent = self.send(str(key))

            def answered(before: str = before) -> bool:
                now = self.status()
                return now != before and (YOUR_TURN in now or ROUND_OVER in now)

            shown = self.wait(answered, f"the answer to {key}")
            if ROUND_OVER in self.status():
                self.settle()
                self.send("r")
                self.wait(lambda: self.status() == YOUR_TURN, "a new round")
                self.settle()
                return shown - sent
            if found := AI_PLAYED.search(self.status()):
                taken.add(int(found.group(1)))

    def close(self) -> None:
        self.child.sendcontrol("q")
        self.child.expect(pexpect.EOF, timeout=STEP_TIMEOUT)
        self.child.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def row(name: str, times: list[float], target: str = "") -> str:
    cells = (ms(statistics.median(times)), ms(percentile(times, 0.95)), ms(max(times)))
    return f"| {name} | {' | '.join(cells)} | {target} |"


def result_on_screen(
    rounds: int, data: Path, *, control: bool = False, raw: Path | None = None
) -> list[str]:
    """`control`: both apps `--no-record` (an A/A run: how far apart two identical apps
    come out, the noise the record's difference must be read against)."""
    env = {**child_env(), DATA_DIR_ENV: str(data)}
    env.pop(PLAYER_ENV, None)
    second = ("--no-record",) if control else ()
    recorded, plain = App(*OPTIONS, *second, env=env), App(*OPTIONS, "--no-record", env=env)
    times: dict[App, list[float]] = {recorded: [], plain: []}
    try:
        for app in times:
            app.wait(lambda app=app: app.status() == YOUR_TURN, "the first frame")
            app.settle(0.3)  # the record opened, settings read
        for n in range(rounds + 1):
            for app in (recorded, plain) if n % 2 else (plain, recorded):
                took = app.play_round()
                if n:  # the first round of each app warms it up
                    times[app].append(took)
    finally:
        for app in times:
            app.close()
    if raw is not None:
        raw.write_text(json.dumps({"with": times[recorded], "without": times[plain]}))
    with_record = "`--no-record` again (control)" if control else "with the record"
    added = "A/A difference, both `--no-record`" if control else "added by the record"
    if not control:
        with Record.open(data / DATABASE_NAME) as record:
            saved = record.stats(_me()).rounds
        assert saved == rounds + 1, f"{saved} rounds saved, {rounds + 1} played"
    with_times, plain_times = times[recorded], times[plain]
    p95_difference = percentile(with_times, 0.95) - percentile(plain_times, 0.95)

    def of_medians(a: list[float], b: list[float]) -> float:
        return statistics.median(a) - statistics.median(b)

    def of_means(a: list[float], b: list[float]) -> float:
        return statistics.fmean(a) - statistics.fmean(b)

    def paired_median(a: list[float], b: list[float]) -> float:
        # Round n of one app against round n of the other: the same moves, moments apart.
        return statistics.median(x - y for x, y in zip(a, b, strict=True))

    def cells(statistic: Callable[[list[float], list[float]], float]) -> str:
        low, high = bootstrap(with_times, plain_times, statistic)
        value = ms(statistic(with_times, plain_times))
        return f"95% interval {ms(low)} to {ms(high)}) | {value}"

    target = "" if control else "<= 5 ms"
    return [
        row(f"last move -> result on screen, `--no-record` ({rounds} rounds)", plain_times),
        row(f"last move -> result on screen, {with_record} ({rounds} rounds)", with_times),
        f"| {added} (difference of medians; {cells(of_medians)} "
        f"| {ms(p95_difference)} (of p95s) |  | {target} |",
        f"| {added} (difference of means; {cells(of_means)} |  |  |  |",
        f"| {added} (median of the {rounds} paired differences; {cells(paired_median)} |  |  |  |",
    ]


def bootstrap(
    a: list[float],
    b: list[float],
    statistic: Callable[[list[float], list[float]], float],
    resamples: int = 2000,
) -> tuple[float, float]:
    """The middle 95% of `statistic` over rounds drawn again with replacement (round n of
    both apps kept together): how far the difference could move by chance in this run."""
    rng = random.Random(0)
    values = []
    for _ in range(resamples):
        picks = [rng.randrange(len(a)) for _ in a]
        values.append(statistic([a[i] for i in picks], [b[i] for i in picks]))
    values.sort()
    return values[int(resamples * 0.025)], values[int(resamples * 0.975) - 1]


def _me() -> str:
    from tui_tictactoe.identity import current_identity

    player = current_identity().player
    assert player is not None
    return player


def stats_on_big_record(runs: int, data: Path) -> list[str]:
    fill(data / DATABASE_NAME, 1, seed=1)  # player-0 owns every round
    env = {**child_env(), DATA_DIR_ENV: str(data), PLAYER_ENV: "player-0"}

    def run(*args: str) -> float:
        start = time.perf_counter()
        done = subprocess.run([*command(), *args], env=env, capture_output=True, text=True)
        took = time.perf_counter() - start
        assert done.returncode == 0, done.stderr
        if args[:1] == ("stats",):
            assert f"{ROUNDS_IN_DB}" in done.stdout.replace(",", ""), done.stdout
        return took

    cli: dict[str, list[float]] = {"--version": [], "stats": [], "stats --json": []}
    for _ in range(runs):  # interleaved, so all three see the same machine
        for name, times in cli.items():
            times.append(run(*name.split()))
    path = data / DATABASE_NAME

    def open_and_query() -> None:
        with Record.open(path) as record:
            assert record.stats("player-0").rounds == ROUNDS_IN_DB

    opened = [_timed(open_and_query) for _ in range(runs * 4)]
    with Record.open(path) as record:
        record.stats("player-0")
        warm = [_timed(lambda: record.stats("player-0")) for _ in range(runs * 20)]
    return [
        row(f"`tui-tictactoe --version`, fresh process (scale) ({runs} runs)", cli["--version"]),
        row(
            f"`tui-tictactoe stats`, 100,000 rounds, end to end ({runs} runs)",
            cli["stats"],
            "< 200 ms",
        ),
        row(f"`tui-tictactoe stats --json`, same ({runs} runs)", cli["stats --json"], "< 200 ms"),
        row("`Record.open()` + `stats()` + `close()`, in one process", opened, "< 200 ms"),
        row("`stats()` alone, record open", warm, "< 200 ms"),
    ]


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="rounds timed per variant")
    parser.add_argument("--stats-runs", type=int, default=15, help="runs of the stats command")
    parser.add_argument(
        "--control",
        action="store_true",
        help="both apps without the record (A/A: the noise), and no stats part",
    )
    parser.add_argument("--raw", type=Path, help="write every round's time (s) here, as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as ui_dir, tempfile.TemporaryDirectory() as big_dir:
        os.environ[DATA_DIR_ENV] = ui_dir  # for _me() and the record opened here
        lines = result_on_screen(args.rounds, Path(ui_dir), control=args.control, raw=args.raw)
        if not args.control:
            lines += stats_on_big_record(args.stats_runs, Path(big_dir))
    print("| measurement | median (ms) | p95 (ms) | max (ms) | target |")
    print("|---|---:|---:|---:|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
