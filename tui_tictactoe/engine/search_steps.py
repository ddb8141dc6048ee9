"""The search as a sequence of steps, for the explorer: plain minimax, alpha-beta and the
engine's memory, one node at a time.

Each search is a generator, replayed lazily: opening the explorer costs nothing, and
stepping back is replaying to an earlier step (`replay_to`), so no tree is ever stored.
The searches are the textbook ones (tests/textbook_search.py) written as negamax, and
count nodes the same way (every position visited, finished leaves included), so the live
counts equal the yardsticks'. The engine's own (`solver.Solver`) counts the positions it
solves, the root included: it reads a finished leaf from a table and remembers every
position, so a position met again (through another move order) is a hit, not a node. Values and windows are given from the side to move at the
root ("root view"): the explorer says who maximises; negamax is minimax with the sign
flipped at every level, which is why a window at an odd depth is `(-beta, -alpha)`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from itertools import islice
from typing import Literal, NamedTuple

from tui_tictactoe.engine.geometry import Geometry

Method = Literal["minimax", "alphabeta", "engine"]
METHODS: tuple[Method, ...] = ("minimax", "alphabeta", "engine")

StepKind = Literal["enter", "leaf", "back", "cut", "hit"]
"""enter: a position is searched (a node); leaf: a finished position (a node: a win, or the
board full); back: a position's value is known and goes up to its parent; cut: alpha-beta
stops searching a position (the cells it leaves in `pruned`); hit: the engine met a
position it had solved (`first`: the path where it was solved)."""

WIDE = 1_000  # an open window: beyond any score (scores are at most cells + 1)


class Step(NamedTuple):
    kind: StepKind
    path: tuple[int, ...]  # cell indices played from the root to this position
    nodes: int  # nodes counted so far, this step's included
    value: int | None = None  # root view: > 0 good for the side to move at the root
    alpha: int | None = None  # root view: what the root's side is sure of so far
    beta: int | None = None  # root view: what the other side is sure of so far
    best: int | None = None  # back: the child cell whose value came up (None at a leaf)
    pruned: tuple[int, ...] = ()  # cut: the cells not searched
    first: tuple[int, ...] | None = None  # hit: where this position was first solved
    hits: int = 0  # memory hits so far (the engine's search)

    @property
    def depth(self) -> int:
        return len(self.path)


def _view(value: int, depth: int) -> int:
    """A negamax value of the side to move at `depth`, in root view."""
    return value if depth % 2 == 0 else -value


def _window(alpha: int, beta: int, depth: int) -> tuple[int, int]:
    return (alpha, beta) if depth % 2 == 0 else (-beta, -alpha)


class _Walk:
    """One search's state while it yields its steps: the node and hit counters."""

    def __init__(self, geometry: Geometry, method: Method) -> None:
        self.geometry = geometry
        self.method = method
        self.nodes = 0
        self.hits = 0
        self.memo: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}

    def search(
        self, me: int, them: int, path: tuple[int, ...], alpha: int, beta: int
    ) -> Generator[Step, None, int]:
        """Yield the steps of the position `(me, them)`; its value is the last step's."""
        geometry, depth = self.geometry, len(path)
        self.nodes += 1
        low, high = _window(alpha, beta, depth)
        pruning = self.method == "alphabeta"
        yield Step(
            "enter",
            path,
            self.nodes,
            alpha=low if pruning else None,
            beta=high if pruning else None,
            hits=self.hits,
        )
        occupied = me | them
        empties = geometry.cells - occupied.bit_count()
        moves = [cell for cell in range(geometry.cells) if not occupied >> cell & 1]
        best, best_cell = -WIDE, moves[0]
        for index, cell in enumerate(moves):
            mine = me | 1 << cell
            child = (*path, cell)
            if geometry.completes_line(mine, cell) or empties == 1:
                score = empties if geometry.completes_line(mine, cell) else 0
                self.nodes += self.method != "engine"  # the engine reads a win from a table
                yield Step("leaf", child, self.nodes, value=_view(score, depth), hits=self.hits)
            else:
                score = -(yield from self._child(them, mine, child, -beta, -max(alpha, best)))
            if score > best:
                best, best_cell = score, cell
            if self.method == "engine" and depth and score == empties:
                break  # nothing beats winning now (`Solver._solve`; the root scores all)
            if pruning and best >= beta and index + 1 < len(moves):  # else nothing is cut
                low, high = _window(max(alpha, best), beta, depth)
                yield Step(
                    "cut",
                    path,
                    self.nodes,
                    alpha=low,
                    beta=high,
                    pruned=tuple(moves[index + 1 :]),
                    hits=self.hits,
                )
                break
        if self.method == "engine":
            self.memo[(me, them)] = (best, path)
        yield Step(
            "back", path, self.nodes, value=_view(best, depth), best=best_cell, hits=self.hits
        )
        return best

    def _child(
        self, me: int, them: int, path: tuple[int, ...], alpha: int, beta: int
    ) -> Generator[Step, None, int]:
        if self.method == "engine":
            known = self.memo.get((me, them))
            if known is not None:
                self.hits += 1
                value, first = known
                yield Step(
                    "hit",
                    path,
                    self.nodes,
                    value=_view(value, len(path)),
                    first=first,
                    hits=self.hits,
                )
                return value
        return (yield from self.search(me, them, path, alpha, beta))


def steps(me: int, them: int, geometry: Geometry, method: Method) -> Iterator[Step]:
    """Every step of `method`'s search of the position in play `(me, them)` (`me` to move).

    The last step is the root's "back", whose value is the position's (root view)."""
    return _Walk(geometry, method).search(me, them, (), -WIDE, WIDE)


def replay_to(me: int, them: int, geometry: Geometry, method: Method, index: int) -> Step:
    """The step at `index` (0 = the root's enter), replayed from the start: stepping back
    costs a replay, never a stored tree. Raises IndexError past the last step."""
    if index < 0:
        raise IndexError(index)
    found = next(islice(steps(me, them, geometry, method), index, None), None)
    if found is None:
        raise IndexError(index)
    return found


def count(
    me: int, them: int, geometry: Geometry, method: Method, budget: int | None = None
) -> tuple[int, int, bool]:
    """(nodes, hits, finished) of `method`'s search, stopping once `budget` nodes are
    passed: how the explorer decides whether a tree is small enough to show whole."""
    last: Step | None = None
    for last in steps(me, them, geometry, method):
        if budget is not None and last.nodes > budget:
            return last.nodes, last.hits, False
    assert last is not None  # a position in play has at least its root
    return last.nodes, last.hits, True
