"""How fast the engine plays, against a lean plain minimax measured in the same run.

Run by hand from the repository root:

    python benchmarks/bench_engine.py

Prints one markdown table (medians over repeats) for the README, then the results of exhaustive
play: the AI against every sequence of opponent moves, counting losses and wins it took more
slowly than it could have. Takes 10-15 s.

The baseline of every speed-up is `lean_minimax` below: the whole game tree (549,946 nodes from
the empty board, no pruning, no memory), written as fast as plain Python allows, so the ratios
say what the engine's design is worth and not how slow a baseline can be made. The engine's own
`plain_minimax` (the readable teaching version, which goes through `Geometry` for every line
check) is timed too, for reference, against the same lean baseline.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the textbook searches live with the tests

from textbook_search import alpha_beta, plain_minimax  # noqa: E402

from tui_tictactoe.engine import (  # noqa: E402  (after the path tweak, to run from a checkout)
    AIPlayer,
    GameBoard,
    NodeCounter,
    Solver,
    other,
    strategy_for,
)

COLD_RUNS = 15
FULL_TREE = 549_946  # nodes of the Tic-Tac-Toe game tree from the empty board, root included
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

# The child imports the package first (not timed), then times the very first move.
COLD_CHILD = """
import time
import tui_tictactoe
board = tui_tictactoe.GameBoard()
ai = tui_tictactoe.AIPlayer("X")
start = time.perf_counter()
ai.find_best_move(board)
print(time.perf_counter() - start)
"""


LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)
# The lines a move can complete, keyed by the bit of the cell played.
LINES_THROUGH = {1 << cell: tuple(m for m in LINE_MASKS if m >> cell & 1) for cell in range(9)}
FULL = 0x1FF


def lean_minimax(me: int, them: int, empties: int) -> int:
    """Plain minimax, lean: the baseline every speed-up is measured against.

    Negamax over two bitmasks (`me` moves next, `empties` = empty cells) scored like the
    engine: a win is worth the empty cells before the winning move (faster wins score higher),
    a draw 0. The whole tree, no pruning and no memory; a move is checked only against the
    precomputed masks of the lines through its cell, and finished games are scored in place
    rather than by a call.
    """
    best = -10
    free = FULL ^ (me | them)
    while free:
        bit = free & -free  # the lowest empty cell
        free ^= bit
        mine = me | bit
        for line in LINES_THROUGH[bit]:
            if mine & line == line:
                score = empties
                break
        else:
            score = 0 if empties == 1 else -lean_minimax(them, mine, empties - 1)
        if score > best:
            best = score
    return best


def lean_tree_size(me: int, them: int, empties: int) -> int:
    """Nodes `lean_minimax` visits from here (itself, every finished game and every search).

    The same walk, counting instead of scoring, so the timed function carries no counter;
    `check_lean_baseline` ties the two together by their number of calls.
    """
    nodes = 1
    free = FULL ^ (me | them)
    while free:
        bit = free & -free
        free ^= bit
        mine = me | bit
        if empties == 1 or any(mine & line == line for line in LINES_THROUGH[bit]):
            nodes += 1  # a finished game: a leaf
        else:
            nodes += lean_tree_size(them, mine, empties - 1)
    return nodes


def calls_of(func: Callable[..., object], *args: object) -> int:
    """How many times `func` runs (itself included) during `func(*args)`."""
    calls = 0
    code = func.__code__

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" and frame.f_code is code:
            calls += 1

    sys.setprofile(profile)
    try:
        func(*args)
    finally:
        sys.setprofile(None)
    return calls


def check_lean_baseline(positions: list[tuple[int, int]]) -> int:
    """Assert the baseline is honest: the full tree, and right. Returns its node count.

    It visits all 549,946 nodes from the empty board (its counting twin says so, and both make
    the same number of calls), and its value agrees with the solver's on all 4,520 positions.
    """
    nodes = lean_tree_size(0, 0, 9)
    assert nodes == FULL_TREE, nodes
    assert calls_of(lean_minimax, 0, 0, 9) == calls_of(lean_tree_size, 0, 0, 9)
    solver = Solver()
    for me, them in positions:
        empties = 9 - (me | them).bit_count()
        assert lean_minimax(me, them, empties) == solver.value(me, them), (me, them)
    return nodes


def has_line(mask: int) -> bool:
    return any(mask & line == line for line in LINE_MASKS)


def reachable_in_play() -> list[tuple[int, int]]:
    """(mover, other) bitmasks of every non-terminal position reachable from the empty board.

    Symbol-blind, so this one list covers X-first and O-first games alike: 4,520 positions.
    """
    seen = set()
    stack = [(0, 0)]
    while stack:
        me, them = stack.pop()
        if (me, them) in seen:
            continue
        seen.add((me, them))
        for i in range(9):
            bit = 1 << i
            if (me | them) & bit:
                continue
            mine = me | bit
            if not has_line(mine) and (mine | them) != 0x1FF:
                stack.append((them, mine))
    return sorted(seen)


def board_from_masks(me: int, them: int) -> tuple[GameBoard, str]:
    """A GameBoard with the side to move playing X if the counts are equal, else the fewer."""
    mover, waiting = ("X", "O") if me.bit_count() <= them.bit_count() else ("O", "X")
    board = GameBoard()
    for i in range(9):
        symbol = mover if me >> i & 1 else waiting if them >> i & 1 else None
        if symbol:
            board.game_board[i // 3][i % 3] = symbol
    return board, mover


def per_call(func: Callable[[], object], number: int, repeat: int) -> float:
    """Median over `repeat` runs of the mean time of one call, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def once(func: Callable[[], object], repeat: int) -> float:
    return per_call(func, 1, repeat)


# -- measurements -------------------------------------------------------------------


def cold_first_move() -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    runs = []
    for _ in range(COLD_RUNS):
        out = subprocess.run(
            [sys.executable, "-c", COLD_CHILD],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env=env,
        )
        runs.append(float(out.stdout.strip()))
    return statistics.median(runs)


def later_moves(positions: list[tuple[int, int]]) -> float:
    """Median over all positions of one warm `AIPlayer.find_best_move` call."""
    players = {symbol: AIPlayer(symbol, strategy_for("hard", random.Random(0))) for symbol in "XO"}
    medians = []
    for me, them in positions:
        board, mover = board_from_masks(me, them)
        player = players[mover]
        medians.append(per_call(lambda b=board, p=player: p.find_best_move(b), 20, 3))
    return statistics.median(medians)


def ai_vs_ai_game(seed: int = 0) -> None:
    board = GameBoard()
    players = {s: AIPlayer(s, strategy_for("hard", random.Random(seed))) for s in "XO"}
    mover = "X"
    while not board.is_game_over():
        board.make_move(*players[mover].find_best_move(board), mover)
        mover = other(mover)


def solve_everything(positions: list[tuple[int, int]]) -> None:
    solver = Solver()
    for me, them in positions:
        solver.entry(me, them)


def exhaustive_play() -> tuple[int, int, int, int]:
    """The hard AI, one seeded move per turn, against every opponent sequence.

    Four set-ups: X-first and O-first games, the AI moving first and second. A decision counts
    as a slower win when the chosen move wins but another move wins sooner; each move's value
    comes from the alpha-beta search (separate code from the solver the AI uses).
    """
    games = losses = slow_wins = decisions = 0

    def score_of(me: int, them: int, cell: int) -> int:
        empties = 9 - (me | them).bit_count()
        mine = me | 1 << cell
        if has_line(mine):
            return empties
        if empties == 1:
            return 0
        return -alpha_beta(them, mine)

    def walk(board: GameBoard, mover: str, ai: AIPlayer) -> None:
        nonlocal games, losses, slow_wins, decisions
        outcome = board.outcome()
        if outcome is not None:
            games += 1
            losses += outcome.winner == other(ai.symbol)
            return
        if mover == ai.symbol:
            row, col = ai.find_best_move(board)
            me, them = board.masks_for(mover)
            scores = {i: score_of(me, them, i) for i in range(9) if not (me | them) >> i & 1}
            chosen, best = scores[board.geometry.index(row, col)], max(scores.values())
            decisions += 1
            slow_wins += 0 < chosen < best
            moves = [(row, col)]
        else:
            moves = board.get_empty_cells()
        for row, col in moves:
            board.make_move(row, col, mover)
            walk(board, other(mover), ai)
            board.undo()

    for first in "XO":
        for ai_symbol in "XO":
            walk(GameBoard(), first, AIPlayer(ai_symbol, strategy_for("hard", random.Random(1))))
    return games, decisions, slow_wins, losses


# -- report ---------------------------------------------------------------------------


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.2f} µs"


def fmt_ratio(value: float) -> str:
    return f"{value:,.0f}x" if value >= 10 else f"{value:.1f}x"


def main() -> None:
    started = time.perf_counter()
    positions = reachable_in_play()
    assert len(positions) == 4520
    lean_nodes = check_lean_baseline(positions)

    cold = cold_first_move()

    # Warm: fill the shared table first (the cold run above happened in other processes).
    empty = GameBoard()
    x_player, o_player = AIPlayer("X"), AIPlayer("O")
    x_player.find_best_move(empty)
    warm_first = per_call(lambda: x_player.find_best_move(empty), 2000, 7)
    corner = GameBoard()
    corner.make_move(0, 0, "X")
    warm_corner = per_call(lambda: o_player.find_best_move(corner), 2000, 7)
    later = later_moves(positions)
    game = per_call(ai_vs_ai_game, 200, 7)
    solve_all = once(lambda: solve_everything(positions), 7)

    plain_nodes, pruned_nodes = NodeCounter(), NodeCounter()
    plain_minimax(0, 0, counter=plain_nodes)
    alpha_beta(0, 0, counter=pruned_nodes)
    assert plain_nodes.nodes == lean_nodes
    lean = once(lambda: lean_minimax(0, 0, 9), 5)
    plain = once(lambda: plain_minimax(0, 0), 3)
    pruned = once(lambda: alpha_beta(0, 0), 7)

    games, decisions, slow_wins, losses = exhaustive_play()

    def ratio(seconds: float) -> str:
        return fmt_ratio(lean / seconds)

    rows = [
        (
            f"first move on an empty board, cold (fresh process, median of {COLD_RUNS})",
            cold,
            ratio(cold),
            "≤ 10 ms",
        ),
        ("first move on an empty board, warm", warm_first, ratio(warm_first), ""),
        ("reply to a corner opening, warm", warm_corner, ratio(warm_corner), ""),
        (
            f"any later move: median over all {len(positions):,} positions in play",
            later,
            "",
            "≤ 5 µs",
        ),
        ("a whole AI-vs-AI game (9 moves, warm)", game, "", ""),
        (f"solve all {len(positions):,} positions, fresh solver (cold)", solve_all, "", ""),
        (
            f"baseline: lean plain minimax, first move ({lean_nodes:,} nodes)",
            lean,
            "1x",
            "",
        ),
        (
            f"the engine's teaching `plain_minimax`, first move ({plain_nodes.nodes:,} nodes)",
            plain,
            ratio(plain),
            "",
        ),
        (
            f"alpha-beta, no memory, first move ({pruned_nodes.nodes:,} nodes)",
            pruned,
            ratio(pruned),
            "",
        ),
    ]

    print(
        f"Engine benchmark: Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d')}\n"
    )
    print("| measurement | median | speed-up vs lean plain minimax | target |")
    print("|---|---:|---:|---|")
    for label, seconds, speedup, target in rows:
        print(f"| {label} | {fmt(seconds)} | {speedup} | {target} |")
    print(
        f"\nExhaustive play (hard AI vs every opponent sequence; X-first and O-first, AI first "
        f"and second): {games:,} games, {decisions:,} AI decisions, "
        f"{slow_wins} slower-than-possible wins, {losses} losses."
    )
    print(f"\n(benchmark ran in {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
