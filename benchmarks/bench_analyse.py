"""How fast `analyse` answers an open 5x5 board: every position with at most two marks.

Run by hand from the repository root:

    python benchmarks/bench_analyse.py [--runs 5]

Those positions read every move's score from the table stored beside the opening book
(`opening_book.VERDICTS`, built by `build_opening_book.py`) instead of searching; the target
is an answer within 2 s of pressing Enter. Measured: every such board analysed in one process
(2 + 50 + 1,200 boards: each mark X or O, each side to move), the worst of them, and the
command as a user runs it (`python -m tui_tictactoe analyse BOARD`, process start included,
median of `--runs`). For contrast, one three-mark board past the table (a live search, with
the progress display on a terminal). Prints one markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_tictactoe.engine.analysis import analyse  # noqa: E402  (after the path tweak)
from tui_tictactoe.engine.board import GameBoard  # noqa: E402
from tui_tictactoe.engine.geometry import geometry  # noqa: E402
from tui_tictactoe.engine.search import shared_search  # noqa: E402

GEOMETRY = geometry(5, 4)
TARGET = 2.0  # seconds
COMMAND_BOARDS = {
    "empty 5x5 board": "..... ..... ..... ..... .....",
    "one mark (corner)": "x.... ..... ..... ..... .....",
    "two marks": "..... .x... ..o.. ..... .....",
}
PAST_THE_TABLE = "..... ..... ..... ..... x.o.x"


def boards() -> list[tuple[str, str]]:
    """(board, side to move) for every 5x5 position in play with at most two marks."""
    cells = GEOMETRY.cells
    found = [("." * cells, "X"), ("." * cells, "O")]
    for cell in range(cells):
        for mark, mover in (("X", "O"), ("O", "X")):
            found.append(("." * cell + mark + "." * (cells - cell - 1), mover))
    for x in range(cells):
        for o in range(cells):
            if x != o:
                text = ["."] * cells
                text[x], text[o] = "X", "O"
                found += [("".join(text), "X"), ("".join(text), "O")]
    return found


def in_process() -> tuple[int, float, float, int]:
    """(boards, total seconds, worst seconds, positions searched) for every board."""
    search = shared_search(GEOMETRY)
    nodes = search.nodes
    times = []
    all_boards = boards()
    for text, mover in all_boards:
        board = GameBoard.from_string(text, GEOMETRY)
        start = time.perf_counter()
        analyse(board, mover)
        times.append(time.perf_counter() - start)
    return len(all_boards), sum(times), max(times), search.nodes - nodes


def command_seconds(board: str, runs: int) -> float:
    """Median wall time of the command, from process start to exit."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tui_tictactoe", "analyse", board, "--json"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            check=True,
            timeout=600,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def verdict(seconds: float) -> str:
    return "yes" if seconds <= TARGET else "**no**"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    count, total, worst, searched = in_process()
    print(f"| measurement | time | within {TARGET:.0f} s |")
    print("|---|---:|---|")
    print(
        f"| all {count:,} 5x5 boards with at most two marks, in one process "
        f"({searched:,} positions searched) | {total * 1000:.0f} ms | {verdict(total)} |"
    )
    print(f"| the slowest of them | {worst * 1000:.2f} ms | {verdict(worst)} |")
    for name, board in COMMAND_BOARDS.items():
        seconds = command_seconds(board, args.runs)
        print(
            f"| `analyse` command, {name}, median of {args.runs} | "
            f"{seconds * 1000:.0f} ms | {verdict(seconds)} |"
        )
    seconds = command_seconds(PAST_THE_TABLE, 1)
    print(
        f"| `analyse` command, three marks (`{PAST_THE_TABLE}`): a live search | {seconds:.1f} s | - |"
    )


if __name__ == "__main__":
    main()
