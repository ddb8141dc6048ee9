"""How long `tui-tictactoe grade` takes on a perfect 3x3 strategy (issue 39: target ≤ 10 s).

Run by hand from the repository root:

    python benchmarks/bench_grade.py [--runs 5]

Measured: the command as a learner runs it (`python -m tui_tictactoe grade FILE:CLASS
--json`, process start included), median and worst of `--runs`, on two perfect strategies:
the learner-style minimax in `tests/commands/strategies/perfect.py` (it searches with its
own memory through the board's API) and the package's own `minimax` (the solved table).
Each run grades every opponent sequence, X and O, first and second; the report's own
`seconds` (grading alone, no start-up) is shown beside it. Prints one markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 10.0
STRATEGIES = {
    "learner's minimax (perfect.py)": f"{ROOT / 'tests/commands/strategies/perfect.py'}:Perfect",
    "the package's minimax": "minimax",
}


def one_run(spec: str) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tui_tictactoe", "grade", spec, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"grade {spec} exited {done.returncode}: {done.stderr}")
    report: dict[str, object] = json.loads(done.stdout)
    return seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(
        "| strategy | games | moves asked | losses | grade, median (worst) | grading alone | target |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, spec in STRATEGIES.items():
        runs = [one_run(spec) for _ in range(args.runs)]
        walls = [seconds for seconds, _ in runs]
        alone = statistics.median(float(str(report["seconds"])) for _, report in runs)
        report = runs[0][1]
        losses = report["losses"]
        assert isinstance(losses, dict)
        verdict = "met" if max(walls) <= TARGET else "MISSED"
        print(
            f"| {label} | {report['games']:,} | {report['decisions']:,} | {losses['count']} "
            f"| {statistics.median(walls):.2f} s ({max(walls):.2f} s) | {alone:.2f} s "
            f"| ≤ {TARGET:g} s: {verdict} |"
        )


if __name__ == "__main__":
    main()
