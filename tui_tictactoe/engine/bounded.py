"""A search bounded in time and positions, for boards too big to solve (6x6, five in a row).

The exact `search.Search` solves 4x4 and 5x5 within a second; 6x6 five in a row has far too
many positions for that in Python. This search answers within the same budget instead:
iterative deepening negamax with alpha-beta, stopped by a deadline, a count of positions or
`cancelled`, whichever comes first. What it promises, and no more:

- a win in one is always played, and a single threat of the opponent (a line it would
  complete with its next move) is always blocked: both are decided before any search;
- a forced win found within the horizon is exact (its score is the exact search's: wins
  positive, losses negative, see `search.py`). The horizon counts free moves only: a move
  that answers a threat (a forced block) does not use it up, so forcing sequences of fours
  are followed to the end; two threats at once (an open four) are a loss on the spot;
- anything else is "unknown" (score 0): a leaf at the horizon is judged by the board's open
  lines, a fraction in (-0.5, 0.5) that orders moves but never passes for a proof.

Every move of the side to move is searched at every node (no pruning of far cells), so a
proven win or loss holds against every defence, not only the ones that look likely.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from time import perf_counter

from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, check_in_play
from tui_tictactoe.engine.lines import centre_first, completions

Clock = Callable[[], float]
"""Seconds from some fixed point (`time.perf_counter`; a fake one in tests)."""

MOVE_SECONDS = 1.0
"""The AI's budget for a move on a board it cannot solve: the same second as 5x5's worst."""

MOVE_NODES = 200_000
"""Positions a move may search at most, whatever the clock says."""

ANALYSIS_NODES = 3_000
"""Positions searched for each move `analyse` scores: a count, not a clock, so an analysis
says the same on every machine (and an open board's 36 moves take seconds, not minutes)."""

CHECK_EVERY = 256
"""Positions between two looks at the clock and `cancelled`."""

_WEIGHTS = (0, 1, 4, 16, 64, 256, 1024)
"""What a line open to one side only is worth, by its stones there."""


class OutOfBudget(Exception):
    """The deadline or the count of positions ran out: the deepest finished pass stands."""


class BoundedSearch:
    """Iterative deepening alpha-beta within a budget; the same questions as `Search` asks.

    `seconds` and `nodes` bound each call (`best_move`, `move_score`); `clock` tells the time
    (inject a fake one to test the deadline). `max_depth` caps the horizon (free moves).
    After each call `last_nodes` and `last_depth` (the deepest finished pass) say what it did.
    """

    def __init__(
        self,
        geometry: Geometry,
        seconds: float | None = MOVE_SECONDS,
        nodes: int = MOVE_NODES,
        max_depth: int | None = None,
        clock: Clock = perf_counter,
        score_nodes: int = ANALYSIS_NODES,
    ) -> None:
        self.geometry = geometry
        self.seconds = seconds
        self.node_budget = nodes
        self.max_depth = max_depth
        self.clock = clock
        self.score_nodes = score_nodes
        self.nodes = 0
        self.last_nodes = 0
        self.last_depth = 0
        self._lines = geometry.line_masks
        self._through = geometry.lines_through
        self._order = tuple(1 << cell for cell in centre_first(geometry))

    # -- what callers ask --------------------------------------------------

    def book_entry(
        self, book: dict[int, tuple[int, tuple[int, ...]]], me: int, them: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """No opening book for these boards."""
        return None

    def best_move(
        self,
        me: int,
        them: int,
        rng: random.Random | None = None,
        cancelled: Cancelled | None = None,
    ) -> tuple[int, int]:
        """(cell, score) of the move to play: a win in one, else the block of a threat,
        else the best of the deepest pass finished within the budget. The score is exact
        when not 0 (a forced win or loss seen), else 0: nothing forced within the horizon."""
        self._check_in_play(me, them)
        run = _Run(self, self.node_budget, self.seconds, cancelled)
        try:
            cell, score = run.root(me, them, self._legal(me, them, rng))
        finally:
            self._finish(run)
        return cell.bit_length() - 1, score

    def move_score(self, me: int, them: int, cell: int, cancelled: Cancelled | None = None) -> int:
        """Score of playing `cell`: exact when not 0, 0 when nothing forced was found within
        `score_nodes` positions (no clock: the same answer on every machine)."""
        self._check_in_play(me, them)
        bit = 1 << cell
        if (me | them) & bit:
            raise ValueError(f"cell {cell} is not an empty cell of the board")
        run = _Run(self, self.score_nodes, None, cancelled)
        try:
            return run.root(me, them, [bit])[1]
        finally:
            self._finish(run)

    def value(self, me: int, them: int, cancelled: Cancelled | None = None) -> int:
        """Score of the position for the side to move, as `best_move` finds it."""
        return self.best_move(me, them, None, cancelled)[1]

    # -- helpers -----------------------------------------------------------

    def _finish(self, run: _Run) -> None:
        self.nodes += run.nodes
        self.last_nodes = run.nodes
        self.last_depth = run.depth

    def _legal(self, me: int, them: int, rng: random.Random | None) -> list[int]:
        occupied = me | them
        moves = [bit for bit in self._order if not occupied & bit]
        if rng is not None:
            rng.shuffle(moves)
        return moves

    def _check_in_play(self, me: int, them: int) -> None:
        check_in_play(self.geometry, me, them)


class _Run:
    """One call: its budget, its count of positions and its table of best moves."""

    def __init__(
        self, search: BoundedSearch, nodes: int, seconds: float | None, cancelled: Cancelled | None
    ) -> None:
        self.search = search
        self.lines = search._lines
        self.through = search._through
        self.cells = search.geometry.cells
        self.max_nodes = nodes
        self.deadline = None if seconds is None else search.clock() + seconds
        self.cancelled = cancelled
        self.nodes = 0
        self.depth = 0  # the deepest pass finished
        self.best: dict[tuple[int, int], int] = {}  # position -> best move of the last pass

    def poll(self) -> None:
        """Stop when told to, or when the count or the clock runs out."""
        if self.cancelled is not None and self.cancelled():
            raise SearchCancelled
        if self.nodes >= self.max_nodes:
            raise OutOfBudget
        if self.deadline is not None and self.search.clock() >= self.deadline:
            raise OutOfBudget

    def root(self, me: int, them: int, moves: list[int]) -> tuple[int, int]:
        """(move bit, score): forced answers first, then deeper passes while budget lasts."""
        empties = self.cells - (me | them).bit_count()
        wins = completions(self.lines, me, them)
        for bit in moves:
            if wins & bit:
                return bit, empties  # a win in one, never missed
        threats = completions(self.lines, them, me)
        if threats:
            # Blocking is the only move that does not lose at once (with two threats,
            # nothing saves it): the search below is asked only about the blocks.
            blocks = [bit for bit in moves if threats & bit]
            moves = blocks or moves
        moves = self.ordered(me, them, moves, 0)
        best_bit, best_score = moves[0], 0.0
        limit = self.search.max_depth or empties
        for depth in range(1, min(limit, empties) + 1):
            try:
                bit, score = self.pass_at(me, them, moves, depth, empties)
            except OutOfBudget:
                break
            best_bit, best_score, self.depth = bit, score, depth
            moves = [bit, *(other for other in moves if other != bit)]
            if abs(score) >= 1:
                break  # proven: a deeper pass would only find the same
        return best_bit, int(best_score) if abs(best_score) >= 1 else 0

    def pass_at(
        self, me: int, them: int, moves: list[int], depth: int, empties: int
    ) -> tuple[int, float]:
        """One pass of alpha-beta to `depth` free moves over the root's `moves`."""
        best_bit, best = moves[0], -float("inf")
        alpha = -float("inf")
        for bit in moves:
            self.nodes += 1
            score = -self.negamax(them, me | bit, depth - 1, -float("inf"), -alpha, empties - 1)
            if score > best:
                best_bit, best = bit, score
                alpha = max(alpha, score)
        self.best[(me, them)] = best_bit
        return best_bit, best

    def negamax(self, me: int, them: int, depth: int, alpha: float, beta: float, e: int) -> float:
        """Score for `me` to move with `e` empty cells; `depth` free moves left to look."""
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self.poll()
        lines = self.lines
        if completions(lines, me, them):
            return e  # `me` completes a line now: e - 1 cells left, plus one
        if e == 0:
            return 0
        threats = completions(lines, them, me)
        if threats & (threats - 1):
            return 1 - e  # two threats: one is blocked, the other wins
        if threats:
            # A forced block does not use up the horizon: threat sequences are followed.
            return -self.negamax(them, me | threats, depth, -beta, -alpha, e - 1)
        if depth <= 0:
            return self.judge(me, them)
        occupied = me | them
        legal = [bit for bit in self.search._order if not occupied & bit]
        best = -float("inf")
        best_bit = legal[0]
        for bit in self.ordered(me, them, legal, depth):
            score = -self.negamax(them, me | bit, depth - 1, -beta, -alpha, e - 1)
            if score > best:
                best, best_bit = score, bit
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.best[(me, them)] = best_bit
        return best

    def judge(self, me: int, them: int) -> float:
        """A leaf at the horizon: open lines by their stones, as a fraction in (-0.5, 0.5)."""
        total = 0
        for line in self.lines:
            if not line & them:
                total += _WEIGHTS[(line & me).bit_count()]
            elif not line & me:
                total -= _WEIGHTS[(line & them).bit_count()]
        return 0.49 * total / (abs(total) + 64)

    def ordered(self, me: int, them: int, moves: list[int], depth: int) -> list[int]:
        """The last pass's best move first, then cells on the lines with most stones that
        either side can still complete (stable: ties keep the given order)."""
        hint = self.best.get((me, them))
        through = self.through

        def worth(bit: int) -> int:
            total = 0
            for line in through[bit.bit_length() - 1]:
                if not line & them:
                    total += _WEIGHTS[(line & me).bit_count() + 1]
                if not line & me:
                    total += _WEIGHTS[(line & them).bit_count() + 1]
            return -total

        ordered = sorted(moves, key=worth)
        if hint is not None and hint in ordered:
            ordered.remove(hint)
            ordered.insert(0, hint)
        return ordered


def shared_bounded(geometry: Geometry) -> BoundedSearch:
    """One bounded search per board shape for the whole process (it keeps no table between
    calls: sharing it only shares its counters)."""
    return _bounded_for(geometry)


@cache
def _bounded_for(geometry: Geometry) -> BoundedSearch:
    return BoundedSearch(geometry)
