"""How fast the search explorer (`t`) opens and steps: the target is opening it on a 3x3 board
with 2 marks and its first 100 steps within 150 ms.

Run by hand from the repository root:

    python benchmarks/bench_explorer.py [--runs 5] [--no-app]

The model part, without Textual (`ui/explorer_view.py`): on each of the 72 positions with
one X and one O (X to move), a `Walk` made, then 100 steps, each with what the screen asks of
the model for it (the labels of the nodes the step added or changed, the path panel, the step's
line, the counts line), for each of the three searches; the median and the worst over the 72
are the best of `--runs` tries each. Then, unless `--no-app`, the real app in Pilot (headless,
80x24): after the move 5 and the AI's reply, from the explorer pushed to the frame after its
100th step (Right's action run 100 times, one frame at the end), median of `--runs`; the
search's size, counted in a thread, is left running, as a player would; beside it, the
controls: the explorer pushed with no step, a screen of one label and the help screen,
pushed and drawn in the same way (a loaded machine slows them all).
End, in the model part: the whole tree (within the 25,000-node budget) with one mark, the
worst case on 3x3. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.app import ComposeResult  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widgets import Label  # noqa: E402

from tui_tictactoe.engine.board import GameBoard  # noqa: E402  (after the path tweak)
from tui_tictactoe.engine.search_steps import METHODS, Method  # noqa: E402
from tui_tictactoe.ui.explorer_view import (  # noqa: E402
    Position,
    Walk,
    counts_line,
    node_label,
    panel_lines,
    step_line,
)

TARGET = 0.150  # seconds
STEPS = 100
NAMES = {"X": "you", "O": "the AI"}


def two_marks() -> list[Position]:
    positions = []
    for x in range(9):
        for o in range(9):
            if x != o:
                board = ["."] * 9
                board[x], board[o] = "X", "O"
                found = Position.of_board(GameBoard.from_string("".join(board)), "X", "X", NAMES)
                assert found is not None
                positions.append(found)
    return positions


def open_and_step(position: Position, method: Method) -> float:
    """Seconds to open a walk and take 100 steps, with the words the screen shows."""
    start = time.perf_counter()
    walk = Walk(position, method)
    walks: dict[Method, Walk | None] = {method: walk}
    node_label(walk, ())
    for _ in range(STEPS):
        change = walk.forward()
        assert change is not None
        for path in (*change.added, *change.updated):
            node_label(walk, path)
        panel_lines(walk)
        step_line(walk)
        counts_line(walks, method)
    return time.perf_counter() - start


def model(runs: int) -> None:
    positions = two_marks()
    print(f"\n### The model, {len(positions)} positions with 2 marks, {STEPS} steps\n")
    print("| search | median | worst | target |")
    print("|---|---:|---:|---|")
    for method in METHODS:
        times = [min(open_and_step(p, method) for _ in range(runs)) for p in positions]
        print(
            f"| {method} | {statistics.median(times) * 1000:.1f} ms "
            f"| {max(times) * 1000:.1f} ms | ≤ {TARGET * 1000:.0f} ms |"
        )
    one = Position.of_board(GameBoard.from_string("....X...."), "O", "X", NAMES)
    assert one is not None
    print("\n| End on 3x3 with one mark (O to move) | nodes | time |")
    print("|---|---:|---:|")
    for method in METHODS:
        walk = Walk(one, method)
        start = time.perf_counter()
        walk.end()
        print(f"| {method} | {walk.nodes:,} | {(time.perf_counter() - start) * 1000:.0f} ms |")


CONTROLS = {
    "one label": "control: a screen of one label pushed, one frame",
    "help": "control: the help screen pushed, one frame",
}


class _OneLabel(Screen[None]):
    """The least a screen costs to push and draw: the floor under every figure here."""

    def compose(self) -> ComposeResult:
        yield Label("one label")


async def in_pilot(method: Method | str, steps: int = STEPS) -> float:
    """Seconds from the explorer pushed to the frame after its `steps`-th step; with `method`
    one of `CONTROLS`, that screen pushed and drawn instead, in the same app."""
    from tui_tictactoe.ui.app import TicTacToeApp
    from tui_tictactoe.ui.explorer_view import game_position
    from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen
    from tui_tictactoe.ui.screens.help_screen import HelpScreen

    app = TicTacToeApp(seed=7, record=False)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        position = game_position(app.controller)
        assert position is not None and position.empties == 7
        start = time.perf_counter()
        if method in CONTROLS:
            await app.push_screen(HelpScreen() if method == "help" else _OneLabel())
            await pilot.pause()
            return time.perf_counter() - start
        screen = ExplorerScreen(position, method)  # type: ignore[arg-type]
        await app.push_screen(screen)
        for _ in range(steps):
            screen.action_step()
        await pilot.pause()
        took = time.perf_counter() - start
        assert screen.walk.index == steps
        screen.workers.cancel_node(screen)
        return took


def app_figures(runs: int) -> None:
    print(f"\n### In the app (Pilot, 80x24): pushed, {STEPS} steps, one frame\n")
    print("| search | median | best | target |")
    print("|---|---:|---:|---|")
    rows: list[tuple[str, Method | str, int]] = [(m, m, STEPS) for m in METHODS]
    rows.append(("alphabeta, pushed with no step", "alphabeta", 0))
    rows += [(name, kind, 0) for kind, name in CONTROLS.items()]
    for name, method, steps in rows:
        times = [asyncio.run(in_pilot(method, steps)) for _ in range(runs)]
        print(
            f"| {name} | {statistics.median(times) * 1000:.1f} ms "
            f"| {min(times) * 1000:.1f} ms | ≤ {TARGET * 1000:.0f} ms |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-app", action="store_true")
    args = parser.parse_args()
    model(args.runs)
    if not args.no_app:
        app_figures(args.runs)


if __name__ == "__main__":
    main()
