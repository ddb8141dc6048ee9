"""How fast the perfect AI answers on 3x3, 4x4 and 5x5, over positions from real play.

Run by hand from the repository root:

    python benchmarks/bench_search.py [--games 6]
    python benchmarks/bench_search.py --six [--games 400]   # 6x6 only: see `six_by_six`

Plays the hard AI (the app's `MinimaxStrategy`, one shared table per board size, the opening
book on 5x5) against random, greedy and perfect opponents, the AI first and second, and times
every AI reply (wall clock). After the timing, every reply is checked for exactness (its value
must be the position's value: never a loss that could be avoided, never a slower win than the
fastest), by a checker that is not the AI's table: on 3x3 the plain alpha-beta below, on 4x4 and
5x5 a `Search` of its own (a table apart from the AI's; the same algorithm, which
`check_4x4_table.py` and the tests' brute force check independently). Then, on a sample of those positions, it times the search cold (a
fresh table per position) against a baseline measured in the same run: plain alpha-beta over
bitmasks, no table, no threat logic, cells in reading order, capped at `--cap` seconds per
position. Prints one markdown table. Takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tui_tictactoe.engine import (  # noqa: E402  (after the path tweak, to run from a checkout)
    GameBoard,
    Geometry,
    MinimaxStrategy,
    RandomStrategy,
    Search,
    geometry,
    other,
)
from tui_tictactoe.engine.search import shared_search  # noqa: E402
from tui_tictactoe.engine.solver import shared_solver  # noqa: E402

SHAPES = {"3x3": geometry(3, 3), "4x4": geometry(4, 4), "5x5": geometry(5, 4)}
Position = tuple[int, int]


class TooSlow(Exception):
    pass


def baseline_alpha_beta(shape: Geometry, cap: float) -> Callable[[int, int], int]:
    """Plain negamax alpha-beta: same scores, no memory, no ordering, no threat logic."""
    through = shape.lines_through
    cells = shape.cells
    deadline = [0.0]
    nodes = [0]

    def search(me: int, them: int, alpha: int, beta: int) -> int:
        nodes[0] += 1
        if not nodes[0] & 4095 and time.perf_counter() > deadline[0]:
            raise TooSlow
        occupied = me | them
        empties = cells - occupied.bit_count()
        best = -100
        for cell in range(cells):
            bit = 1 << cell
            if occupied & bit:
                continue
            mine = me | bit
            if any(mine & line == line for line in through[cell]):
                score = empties
            elif empties == 1:
                score = 0
            else:
                score = -search(them, mine, -beta, -alpha)
            if score > best:
                best = score
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best

    def run(me: int, them: int) -> int:
        deadline[0] = time.perf_counter() + cap
        return search(me, them, -100, 100)

    return run


def winning_cells(board: GameBoard, symbol: str) -> list[tuple[int, int]]:
    shape = board.geometry
    me, _ = board.masks_for(symbol)
    found = []
    for row, col in board.get_empty_cells():
        index = shape.index(row, col)
        if shape.completes_line(me | 1 << index, index):
            found.append((row, col))
    return found


class Greedy(RandomStrategy):
    """Wins if it can, else blocks, else random."""

    def find_best_move(
        self, board: GameBoard, player: object, cancelled: object = None
    ) -> tuple[int, int]:
        symbol = str(player if isinstance(player, str) else player.symbol)  # type: ignore[attr-defined]
        for cells in (winning_cells(board, symbol), winning_cells(board, other(symbol))):
            if cells:
                return self.rng.choice(cells)
        return super().find_best_move(board, symbol)


Reply = tuple[int, int, int]  # (me, them, cell played) for the side to move


def play(
    shape: Geometry, games: int
) -> tuple[list[float], list[Position], list[Reply], dict[str, int]]:
    """AI reply times, positions and replies over games against three opponents, the AI
    first in the even-numbered games (so with an odd count, in one more than half)."""
    times: list[float] = []
    positions: list[Position] = []
    replies: list[Reply] = []
    results = {"win": 0, "draw": 0, "loss": 0}
    for kind in ("random", "greedy", "perfect"):
        for game in range(games):
            rng = random.Random(f"{shape.size}{kind}{game}")
            ai_symbol = "X" if game % 2 == 0 else "O"
            ai = MinimaxStrategy(rng=rng)
            if kind == "random":
                opponent = RandomStrategy(rng)
            elif kind == "greedy":
                opponent = Greedy(rng)
            else:
                opponent = MinimaxStrategy(rng=random.Random(game + 99))
            board, mover = GameBoard(shape), "X"
            while board.outcome() is None:
                if mover == ai_symbol:
                    positions.append(board.masks_for(mover))
                    start = time.perf_counter()
                    cell = ai.find_best_move(board, mover)
                    times.append(time.perf_counter() - start)
                    replies.append((*positions[-1], shape.index(*cell)))
                else:
                    cell = opponent.find_best_move(board, mover)
                board.make_move(*cell, mover)
                mover = other(mover)
            winner = board.outcome().winner  # type: ignore[union-attr]
            results["draw" if winner is None else "win" if winner == ai_symbol else "loss"] += 1
    return times, positions, replies, results


def non_best(shape: Geometry, replies: list[Reply]) -> int:
    """How many replies score below the position's value (a slower win, a faster loss, or a
    draw or loss where better was there), by a checker apart from the AI's table."""
    if shape.cells <= 9:
        exact = baseline_alpha_beta(shape, cap=60.0)
    else:
        exact = Search(shape).value
    wrong = 0
    for me, them, cell in replies:
        mine = me | 1 << cell
        empties = shape.cells - (me | them).bit_count()
        if shape.completes_line(mine, cell):
            played = empties
        elif empties == 1:
            played = 0
        else:
            played = -exact(them, mine)
        wrong += played != exact(me, them)
    return wrong


def ms(seconds: float) -> str:
    """Milliseconds, with decimals where the value is small (3x3 replies are microseconds)."""
    value = seconds * 1e3
    return f"{value:.2f} ms" if value < 10 else f"{value:.0f} ms"


def p99(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[98]
        if len(values) > 1
        else values[0]
    )


def compare(shape: Geometry, positions: list[Position], sample: int, cap: float) -> str:
    """Cold search vs the plain alpha-beta baseline on a sample of positions from play."""
    rng = random.Random(7)
    chosen = rng.sample(positions, min(sample, len(positions)))
    baseline = baseline_alpha_beta(shape, cap)
    ours = base = 0.0
    finished = 0
    for me, them in chosen:
        start = time.perf_counter()
        value = Search(shape).value(me, them)
        ours += time.perf_counter() - start
        start = time.perf_counter()
        try:
            assert baseline(me, them) == value
            finished += 1
        except TooSlow:
            pass  # counted at the cap: the ratio is then a lower bound
        base += time.perf_counter() - start
    bound = "" if finished == len(chosen) else ">= "
    ratio = base / ours
    return (
        f"{bound}{ratio:.{0 if ratio >= 10 else 1}f}x ({len(chosen)} positions, baseline finished "
        f"{finished} within {cap:g} s each)"
    )


def cold(task: Callable[[], object], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Attacker(RandomStrategy):
    """A threat-making attacker on 6x6: a forced win by fours if it sees one (`fours`, 2,000
    positions), else the block of a threat, else the cell on the most of its own open lines
    (more stones weigh more), ties at random."""

    def find_best_move(
        self, board: GameBoard, player: object, cancelled: object = None
    ) -> tuple[int, int]:
        from tui_tictactoe.engine.fours import winning_fours

        symbol = str(player if isinstance(player, str) else player.symbol)  # type: ignore[attr-defined]
        shape = board.geometry
        me, them = board.masks_for(symbol)
        win = winning_fours(shape, me, them, nodes=2_000)
        if win is not None:
            return shape.coords(win)
        blocks = winning_cells(board, other(symbol))
        if blocks:
            return self.rng.choice(blocks)
        empty = [cell for cell in range(shape.cells) if not (me | them) >> cell & 1]

        def worth(cell: int) -> int:
            return sum(
                8 ** (line & me).bit_count()
                for line in shape.lines_through[cell]
                if not line & them
            )

        top = max(worth(cell) for cell in empty)
        return shape.coords(self.rng.choice([cell for cell in empty if worth(cell) == top]))


BOUNDED_NODES = 3_000
"""Positions per move of the bounded-search opponent (today's 6x6 AI with a count instead of
its second, so that hundreds of games fit in minutes; the same as `analyse` gives a move)."""


def six_by_six(games: int) -> None:
    """6x6, five in a row: the hard AI (pairing certificates, `engine/pairing.py`; wins by
    fours) against random, greedy, easy, medium, today's bounded search (`pairings=False`,
    `BOUNDED_NODES` a move) and a threat-making attacker, `games` each, the AI X in the
    even-numbered ones. After every AI move by a pairing, the pairing it holds is checked
    (`pairing.check`). Prints reply times (p50, p95, max), where the moves came from and the
    results per opponent; exits 1 on a loss, a broken certificate or a target missed
    (p50 <= 20 ms, max <= 200 ms)."""
    from tui_tictactoe.engine.bounded import BoundedSearch
    from tui_tictactoe.engine.pairing import check

    shape = geometry(6, 5)
    times: list[float] = []
    sources: dict[str, int] = {}
    broken = losses = 0
    rows = []
    met: list[tuple[int, int]] = []  # the positions the AI met, to move
    started = time.perf_counter()
    for kind in ("random", "greedy", "easy", "medium", "bounded", "attacker"):
        results = {side: {"win": 0, "draw": 0, "loss": 0} for side in "XO"}
        for game in range(games):
            rng = random.Random(f"6{kind}{game}")
            ai_symbol = "X" if game % 2 == 0 else "O"
            ai = MinimaxStrategy(rng=rng)
            opponent: RandomStrategy | MinimaxStrategy
            if kind == "random":
                opponent = RandomStrategy(rng)
            elif kind == "greedy":
                opponent = Greedy(rng)
            elif kind in ("easy", "medium"):
                opponent = MinimaxStrategy(depth=1 if kind == "easy" else 2, rng=rng)
            elif kind == "bounded":
                search = BoundedSearch(shape, seconds=None, nodes=BOUNDED_NODES)
                opponent = MinimaxStrategy(rng=rng, search=search, pairings=False)
            else:
                opponent = Attacker(rng)
            board, mover = GameBoard(shape), "X"
            while board.outcome() is None:
                if mover == ai_symbol:
                    met.append(board.masks_for(mover))
                    start = time.perf_counter()
                    cell = ai.find_best_move(board, mover)
                    times.append(time.perf_counter() - start)
                    decision = ai.last_decision
                    assert decision is not None
                    source = decision.proof or "bounded search"
                    sources[source] = sources.get(source, 0) + 1
                    board.make_move(*cell, mover)
                    if decision.proof == "pairing" and board.outcome() is None:
                        me, them = board.masks_for(mover)
                        broken += check(shape, me, them, decision.pairs) is not None
                else:
                    board.make_move(*opponent.find_best_move(board, mover), mover)
                mover = other(mover)
            winner = board.outcome().winner  # type: ignore[union-attr]
            outcome = "draw" if winner is None else "win" if winner == ai_symbol else "loss"
            results[ai_symbol][outcome] += 1
            losses += outcome == "loss"
        rows.append(
            f"| {kind} | "
            + " | ".join(
                f"{r['win']} / {r['draw']} / {r['loss']}" for r in (results["X"], results["O"])
            )
            + " |"
        )
    quantiles = statistics.quantiles(times, n=100, method="inclusive")
    load = " / ".join(f"{value:.2f}" for value in os.getloadavg())
    total = sum(sources.values())
    print(
        f"6x6, five in a row; {games} games per opponent ({6 * games} in all, the AI X in half); "
        f"{time.perf_counter() - started:.0f} s; load average {load}\n"
    )
    print(
        "| AI replies | p50 | p95 | max | by pairing / by fours / by bounded search | broken certificates |"
    )
    print("|---:|---:|---:|---:|---|---:|")
    print(
        f"| {len(times):,} | {ms(quantiles[49])} | {ms(quantiles[94])} | {ms(max(times))} | "
        + " / ".join(
            f"{100 * sources.get(key, 0) / total:.1f}%"
            for key in ("pairing", "fours", "bounded search")
        )
        + f" | {broken} |\n"
    )
    print("| opponent | AI as X: wins / draws / losses | AI as O: wins / draws / losses |")
    print("|---|---|---|")
    print("\n".join(rows))
    share = unknown_share(shape, met[:: max(1, len(met) // VERDICT_POSITIONS)])
    if losses or broken or quantiles[49] > 0.020 or max(times) > 0.200 or share > 0.05:
        sys.exit(1)


VERDICT_POSITIONS = 300
"""About how many of the AI's positions (every n-th, over all opponents) `unknown_share`
analyses: each takes ~0.2 s, where a reply takes ~0.2 ms."""


def unknown_share(shape: Geometry, positions: list[tuple[int, int]]) -> float:
    """The share of "?" (unknown) over the empty cells of `positions` (the AI to move), as
    the overlay, hints and `analyse` say it at once (`proven.proven_moves`: fours and
    pairings; the bounded search, which they run after it, can only lower it). Prints it;
    the target is at most 5%."""
    from tui_tictactoe.engine.analysis import empty_cells
    from tui_tictactoe.engine.proven import proven_moves

    started = time.perf_counter()
    cells = unknown = 0
    empty_board = 0
    for me, them in positions:
        empty = empty_cells(shape, me, them)
        found = proven_moves(shape, me, them, empty)
        cells += len(empty)
        unknown += len(empty) - len(found)
        if not me | them:
            empty_board += len(empty) - len(found)
    share = unknown / cells if cells else 0.0
    print(
        f"\nVerdicts over the empty cells of {len(positions):,} positions the hard AI met: "
        f"{cells:,} cells, {unknown:,} unknown ({100 * share:.1f}%; target <= 5%); on the "
        f"empty board {empty_board} unknown; {time.perf_counter() - started:.0f} s"
    )
    return share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--six", action="store_true", help="6x6 only (pairings)")
    parser.add_argument("--games", type=int, default=6, help="games per opponent and board size")
    parser.add_argument("--sample", type=int, default=30, help="positions compared to baseline")
    parser.add_argument("--cap", type=float, default=2.0, help="baseline seconds per position")
    args = parser.parse_args()
    if args.games < 1 or args.sample < 0 or args.cap <= 0:
        parser.error("--games must be at least 1, --sample at least 0 and --cap above 0")
    if args.six:
        six_by_six(args.games)
        return

    rows = []
    replies_by_size: dict[str, list[Reply]] = {}
    g4, g5 = SHAPES["4x4"], SHAPES["5x5"]
    empty_4x4 = cold(lambda: Search(g4).value(0, 0))
    empty_5x5_book = cold(
        lambda: MinimaxStrategy(search=Search(g5)).find_best_move(GameBoard(g5), "X")
    )
    start = time.perf_counter()
    Search(g5).best_move(0, 0)
    empty_5x5_search = time.perf_counter() - start
    for name, shape in SHAPES.items():
        times, positions, replies, results = play(shape, args.games)
        replies_by_size[name] = replies
        if shape.cells > 9:
            entries = f"{len(shared_search(shape)):,}"
            versus = compare(shape, positions, args.sample, args.cap)
        else:  # 3x3 goes through the solved table, not the search: nothing to compare
            entries = f"{len(shared_solver(shape)):,} (3x3 solver)"
            versus = "-"
        rows.append(
            f"| {name} | {len(times)} | {ms(statistics.median(times))} "
            f"| {ms(p99(times))} | {ms(max(times))} "
            f"| {results['win']} / {results['draw']} / {results['loss']} | {entries} | {versus} |"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    start = time.perf_counter()
    wrong = {name: non_best(SHAPES[name], replies) for name, replies in replies_by_size.items()}
    check_seconds = time.perf_counter() - start
    first = (args.games + 1) // 2
    print(f"games per opponent and size: {args.games} (x3 opponents), AI first in {first}\n")
    print(
        "| board | AI replies | median | p99 | max | AI wins / draws / losses "
        "| table entries at the end | cold search vs plain alpha-beta |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---|")
    print("\n".join(rows))
    print()
    print("| measurement | value |")
    print("|---|---:|")
    print(f"| empty 4x4 solved cold (fresh table, median of 3) | {empty_4x4 * 1e3:.0f} ms |")
    print(
        f"| empty 5x5: AI's first move with the book (cold, median of 3) "
        f"| {empty_5x5_book * 1e3:.2f} ms |"
    )
    print(f"| empty 5x5: solved without the book (fresh table) | {empty_5x5_search:.1f} s |")
    print(f"| peak memory of play and timing (max RSS, before the check) | {peak:.0f} MB |")
    for name, count in wrong.items():
        print(f"| {name}: replies that are not a best move (must be 0) | {count} |")
    print(f"| time to check every reply (not in the timings) | {check_seconds:.0f} s |")
    if any(wrong.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
