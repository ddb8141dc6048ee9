"""The textbook searches over the engine's bitmasks: plain minimax and alpha-beta, no memory.

Yardsticks, not part of the game: the tests check the engine's solver against them, and
`benchmarks/bench_engine.py` times them (plain minimax visits all 549,946 nodes of the
3x3 game tree). They use the engine's `Geometry` for line checks, so they read like the
textbook and work for any board shape.
"""

from __future__ import annotations

from tui_tictactoe.engine.geometry import STANDARD, Geometry
from tui_tictactoe.engine.solver import NodeCounter


def plain_minimax(
    me: int, them: int, geometry: Geometry = STANDARD, counter: NodeCounter | None = None
) -> int:
    """Textbook minimax with no pruning and no memory: the teaching version and the baseline.

    Written as negamax: the score of a position for the side to move is the best
    of minus the score of each reply position for the opponent. From the empty
    3x3 board it visits all 549,946 nodes of the game tree.
    """
    if counter is not None:
        counter.nodes += 1
    occupied = me | them
    empties = geometry.cells - occupied.bit_count()
    best = -geometry.cells - 1
    for cell in range(geometry.cells):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if geometry.completes_line(mine, cell):
            score = empties
            if counter is not None:
                counter.nodes += 1
        elif empties == 1:
            score = 0
            if counter is not None:
                counter.nodes += 1
        else:
            score = -plain_minimax(them, mine, geometry, counter)
        best = max(best, score)
    return best


def alpha_beta(
    me: int,
    them: int,
    geometry: Geometry = STANDARD,
    alpha: int = -100,
    beta: int = 100,
    counter: NodeCounter | None = None,
) -> int:
    """Negamax with alpha-beta pruning and no memory: the other way to be fast, for comparison.

    It counts nodes as `plain_minimax` does (finished leaves included), so the two counts
    compare like with like."""
    if counter is not None:
        counter.nodes += 1
    occupied = me | them
    empties = geometry.cells - occupied.bit_count()
    best = -geometry.cells - 1
    for cell in range(geometry.cells):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if geometry.completes_line(mine, cell):
            score = empties
            if counter is not None:
                counter.nodes += 1
        elif empties == 1:
            score = 0
            if counter is not None:
                counter.nodes += 1
        else:
            score = -alpha_beta(them, mine, geometry, -beta, -alpha, counter)
        if score > best:
            best = score
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best
