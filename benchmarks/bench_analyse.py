"""How fast `analyse` answers an open 5x5 board, and the game's overlay beside it.

Run by hand from the repository root:

    python benchmarks/bench_analyse.py [--runs 5] [--sample 40] [--no-app]

5x5 positions with at most two marks read every move's score from the table stored beside the opening book
(`opening_book.VERDICTS`, built by `build_opening_book.py`) instead of searching; the target
is an answer within 2 s of pressing Enter. Measured: every such board analysed in one process
(2 + 50 + 1,200 boards: each mark X or O, each side to move), the worst of them, and the
command as a user runs it (`python -m tui_tictactoe analyse BOARD`, process start included,
median of `--runs`). For contrast, one three-mark board past the table (a live search, with
the progress display on a terminal).

Then the overlay against `analyse` on the same positions: the game's own
request path (`AnalysisRequest.compute` in a thread, each reply applied as the controller
does) and, unless `--no-app`, the real app in Pilot from `a` to "analysis done", beside the
`analyse` command on the same position (the issue's yardstick, process start included). Targets:
5x5 with at most two marks within 0.5 s, 4x4 any position within 1 s, never more than
1.5x `analyse` on the same position. Every time is taken with the search's table emptied
first (cold), so neither side gains from the other's work. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_tictactoe.controller.teaching import AnalysisRun  # noqa: E402  (after the path tweak)
from tui_tictactoe.engine.analysis import analyse  # noqa: E402
from tui_tictactoe.engine.board import Cell, GameBoard  # noqa: E402
from tui_tictactoe.engine.geometry import Geometry, geometry  # noqa: E402
from tui_tictactoe.engine.search import shared_search  # noqa: E402
from tui_tictactoe.engine.strategies import search_of  # noqa: E402

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


def command_seconds(board: str, runs: int, to_move: str | None = None) -> float:
    """Median wall time of the command, from process start to exit."""
    times = []
    side = ["--to-move", to_move] if to_move is not None else []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tui_tictactoe", "analyse", board, "--json", *side],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            check=True,
            timeout=600,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# -- the overlay beside `analyse` ----------------------------------------------------------

OVERLAY_TARGET = {4: 1.0, 5: 0.5}  # seconds: 4x4 any position; 5x5 up to two marks
RATIO_TARGET = 1.5
APP_POSITIONS = {
    # name: (board, who starts, the human's cells, the AI's scripted cells)
    "5x5 empty": ("5", "human", [], []),
    "5x5 two marks": ("5", "human", [(2, 3)], [(0, 0)]),
    "5x5 three marks (x.o.x)": ("5", "ai", [(4, 2)], [(4, 0), (4, 4)]),
    "4x4 empty": ("4", "human", [], []),
    "4x4 two marks": ("4", "human", [(1, 1)], [(0, 0)]),
}


def cold(geometry: Geometry) -> None:
    """Empty the shared search's table: each run starts from nothing learnt."""
    shared_search(geometry).clear()


def analyse_seconds(board: GameBoard, mover: str) -> float:
    cold(board.geometry)
    start = time.perf_counter()
    analyse(board, mover)
    return time.perf_counter() - start


POOL = ThreadPoolExecutor(1)
"""The overlay's thread, made once: the game's worker thread is there before `a` counts."""


def request_seconds(board: GameBoard, mover: str) -> float:
    """The game's path: the controller's run hands out the request, a thread computes it,
    each reply is applied (as `GameController.apply`) and the overlay read (`found`)."""
    cold(board.geometry)
    start = time.perf_counter()
    run = AnalysisRun(1, board.copy(), mover)  # type: ignore[arg-type]
    if not run.whole:  # else known at once: no thread, as `analysis_request` returns None
        request = run.request(search_of, lambda: False)
        for reply in POOL.submit(lambda: list(request.compute())).result():
            run.add(reply)
            run.found()
    assert run.found().done
    return time.perf_counter() - start


def best_of(repeat: int, board: GameBoard, mover: str) -> tuple[float, float]:
    """(analyse, overlay) seconds, each the best of `repeat` cold runs, taken in turn so
    that a burst of load from elsewhere hits both alike."""
    plain, overlay = [], []
    for _ in range(repeat):
        plain.append(analyse_seconds(board, mover))
        overlay.append(request_seconds(board, mover))
    return min(plain), min(overlay)


def four_by_four(sample: int) -> list[tuple[str, str]]:
    """Every 4x4 position with at most one mark (either side to move), then `sample`
    seeded positions of 2 to 8 marks still in play."""
    cells = 16
    found = [("." * cells, "X")]
    for cell in range(cells):
        found.append(("." * cell + "X" + "." * (cells - cell - 1), "O"))
    rng = random.Random(4)
    geometry4 = geometry(4, 4)
    while len(found) < cells + 1 + sample:
        stones = rng.randint(2, 8)
        spots = rng.sample(range(cells), stones)
        text = ["."] * cells
        for index, cell in enumerate(spots):
            text[cell] = "XO"[index % 2]
        board = GameBoard.from_string("".join(text), geometry4)
        if not board.is_game_over():
            found.append(("".join(text), "X" if stones % 2 == 0 else "O"))
    return found


def compare(name: str, positions: list[tuple[str, str]], size: int, repeat: int) -> None:
    """One row: the worst overlay time, and the ratio to `analyse` (on the sums, and the
    worst position's), over `positions`."""
    board_shape = geometry(size, 4)
    sums = [0.0, 0.0]
    worst, worst_ratio = 0.0, 0.0
    for text, mover in positions:
        board = GameBoard.from_string(text, board_shape)
        plain, overlay = best_of(repeat, board, mover)
        sums[0] += plain
        sums[1] += overlay
        worst = max(worst, overlay)
        if plain > 0.05:  # below, a ratio of two noisy milliseconds says nothing
            worst_ratio = max(worst_ratio, overlay / plain)
    ratio = sums[1] / sums[0]
    target = OVERLAY_TARGET[size] if "three" not in name else None
    within = "-" if target is None else ("yes" if worst <= target else "**no**")
    ratios = f"{ratio:.2f}" + (f" (worst {worst_ratio:.2f})" if worst_ratio else "")
    print(
        f"| {name} ({len(positions):,}) | {sums[0] * 1000:,.0f} ms | {sums[1] * 1000:,.0f} ms "
        f"| {worst * 1000:,.1f} ms | {ratios} | {within} |"
    )


def app_seconds(
    board: str, first: str, human: list[Cell], ai: list[Cell]
) -> tuple[float, int, GameBoard, str]:
    """Seconds from `a` to "analysis done" in the real app (Pilot), the search's table
    emptied first; how many titles it showed on the way (progress steps); the position."""
    import asyncio

    from tui_tictactoe.controller import GameOptions
    from tui_tictactoe.engine.strategies import MoveStrategy
    from tui_tictactoe.ui.app import TicTacToeApp

    class Scripted(MoveStrategy):
        def find_best_move(
            self, board: GameBoard, player: object, cancelled: object = None
        ) -> Cell:
            empty = board.get_empty_cells()
            return next(cell for cell in ai if cell in empty)

    async def run() -> tuple[float, int, GameBoard, str]:
        options = GameOptions(board=board, first=first)  # type: ignore[arg-type]
        app = TicTacToeApp(options, strategy=Scripted(), record=False, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for cell in human:
                app.game.cursor = cell  # the cursor's own state: as arrows would leave it
                await pilot.press("enter")
                await app.workers.wait_for_complete()
                await pilot.pause()
            cold(app.controller.board.geometry)
            titles = set()
            start = time.perf_counter()
            await pilot.press("a")
            while not app.game.sub_title.endswith("analysis done"):
                titles.add(app.game.sub_title)
                # Polled often at first, then seldom: the poll must not take the GIL
                # from the search it is timing.
                await pilot.pause(0.002 if time.perf_counter() - start < 0.5 else 0.05)
            seconds = time.perf_counter() - start
            position = app.controller.board.copy(), app.controller.human_symbol
        return seconds, len(titles), *position

    return asyncio.run(run())


def overlay_tables(sample: int, repeat: int, app: bool) -> None:
    print(
        f"Each time the best of {repeat} cold runs (three marks: of 1); ratio = overlay / analyse."
    )
    print()
    print("| positions | `analyse` | overlay (request path) | slowest overlay | ratio | target |")
    print("|---|---:|---:|---:|---:|---|")
    compare("5x5, at most two marks", boards(), 5, repeat)
    compare("4x4, at most one mark, and a sample", four_by_four(sample), 4, repeat)
    three = [(PAST_THE_TABLE.replace(" ", "").upper(), "O"), ("......X.....OX...........", "O")]
    compare("5x5, three marks: searched", three, 5, 1)
    if not app:
        return
    print()
    print(
        '| in the app (Pilot): `a` to "analysis done" | `analyse` in process '
        "| `analyse` command | overlay | overlay / command | progress steps | target |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, (size, first, human, ai) in APP_POSITIONS.items():
        seconds, steps, board, mover = app_seconds(size, first, human, ai)
        plain = analyse_seconds(board, mover)
        cold(board.geometry)
        command = command_seconds(board.to_string().lower(), 1, mover)
        target = OVERLAY_TARGET[int(size)] if "three" not in name else None
        within = "-" if target is None else ("yes" if seconds <= target else "**no**")
        print(
            f"| {name} | {plain * 1000:,.1f} ms | {command * 1000:,.0f} ms "
            f"| {seconds * 1000:,.0f} ms | {seconds / command:.2f} | {steps} | {within} |"
        )
    pty_rows()


PTY_GAMES = {
    # name: keys before `a` (X, the human, first; the seeded hard AI answers each Enter)
    "5x5 empty": [],
    "5x5 four marks": [["enter"], ["down", "enter"]],
    "5x5 six marks": [["enter"], ["down", "enter"], ["left", "enter"]],
}


def pty_rows() -> None:
    """`a` in the real app in a pty (the installed command, seeded): seconds until the
    title says "analysis done", and the game's CPU time over that wall time."""
    print()
    print('| in a pty: `a` to "analysis done" | overlay | CPU / wall | `analyse` command | ratio |')
    print("|---|---:|---:|---:|---:|")
    for name, moves in PTY_GAMES.items():
        board, seconds, cpu = pty_run(moves)
        command = command_seconds(board, 1, "X")
        print(
            f"| {name} (`{board}`) | {seconds * 1000:,.0f} ms | {cpu / seconds:.0%} "
            f"| {command * 1000:,.0f} ms | {seconds / command:.2f} |"
        )


def pty_run(moves: list[list[str]]) -> tuple[str, float, float]:
    """(the board, seconds from `a` to "analysis done", CPU seconds the game used then)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import re

    from pty_terminal import Terminal

    term = Terminal("--board", "5", "--seed", "1", "--no-record", "--first", "human")
    term.wait_for_first_frame()
    board = ["."] * 25
    here = 12  # the cursor starts in the middle
    for keys in moves:
        here += 5 * (keys.count("down") - keys.count("up")) + keys.count("right")
        here -= keys.count("left")
        board[here] = "x"
        term.send(*keys)

        def answered(marks: int = board.count("o")) -> bool:
            said = re.findall(r"AI played (\d+)\. Your turn", term.text)
            return bool(said) and board[int(said[-1]) - 1] == "." and marks == board.count("o")

        term.wait_until("the AI's reply", answered, 60)
        board[int(re.findall(r"AI played (\d+)", term.text)[-1]) - 1] = "o"
    ticks, start = term.cpu_ticks(), time.perf_counter()
    term.send("a")
    term.wait_until("the analysis", lambda: "analysis done" in term.text, 600)
    seconds = time.perf_counter() - start
    cpu = (term.cpu_ticks() - ticks) / os.sysconf("SC_CLK_TCK")
    term.quit("ctrl+q")
    term.close()
    return "".join(board), seconds, cpu


def verdict(seconds: float) -> str:
    return "yes" if seconds <= TARGET else "**no**"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median)")
    parser.add_argument("--sample", type=int, default=40, help="deeper 4x4 positions (seeded)")
    parser.add_argument("--repeat", type=int, default=3, help="cold runs of each (best)")
    parser.add_argument("--no-app", action="store_true", help="skip the runs in a real app")
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
    print()
    overlay_tables(args.sample, args.repeat, app=not args.no_app)


if __name__ == "__main__":
    main()
