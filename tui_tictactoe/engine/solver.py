"""Game-tree search over bitmasks: the exact solver and its baselines.

Positions are `(me, them)`: the bitmask of the side to move and of its
opponent. That makes the search symbol-blind (X-first and O-first games share
one table) and turns every score into "good for the side to move" (negamax).

Scores prefer fast wins and slow losses: a win scores the number of empty
cells left when it lands plus one, a loss the negative of that, a draw 0.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, NamedTuple

from tui_tictactoe.engine.geometry import STANDARD, Geometry

Outcome = Literal["win", "draw", "loss", "unknown"]


class Verdict(NamedTuple):
    """Result of a move under best play, for the side that makes it.

    `plies` counts the moves left in the game, this one included. "unknown" is a bounded
    search's answer (6x6) where it saw nothing forced: `plies` is then the empty cells.
    `shortest` is False where a win (or loss) is proven by a line that may not be the
    shortest (a sequence of fours on 6x6): `plies` is then that line's length, and the
    verdict reads "win", not "win in N".
    """

    outcome: Outcome
    plies: int
    shortest: bool = True

    @classmethod
    def from_score(cls, score: int, empties: int, exact: bool = True) -> Verdict:
        """Decode a move score; `empties` is the number of empty cells before the move.
        With `exact` False (a bounded search), a 0 means nothing forced was seen: unknown."""
        if score == 0:
            return cls("draw" if exact else "unknown", empties)
        plies = empties - (abs(score) - 1)
        return cls("win" if score > 0 else "loss", plies)

    def __str__(self) -> str:
        if self.outcome in ("draw", "unknown") or not self.shortest:
            return self.outcome
        return f"{self.outcome} in {self.plies}"


# A solved position: (value, ((cell, score), ...) for every empty cell, best cells).
Entry = tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]

# Lookup tables indexed by a whole-board bitmask: 2**cells entries, fine up to 4x4.
MAX_TABLE_CELLS = 16


class Solver:
    """Exact negamax with a transposition table.

    Tic-Tac-Toe has only 4,520 non-terminal positions, so remembering every
    solved one beats pruning: the first query solves the whole game in a few
    milliseconds and every later one is a dictionary lookup. Two tables indexed
    by bitmask (has this mask a line? which cells are empty?) keep the inner
    loop free of Python-level line checks.
    """

    def __init__(self, geometry: Geometry = STANDARD) -> None:
        if geometry.cells > MAX_TABLE_CELLS:
            raise NotImplementedError(
                f"the table solver handles up to {MAX_TABLE_CELLS} cells; "
                f"{geometry.size}x{geometry.size} needs a pruning search"
            )
        self.geometry = geometry
        cells = self._cells = geometry.cells  # read at every node: not through the property
        size = 1 << cells
        has_line = bytearray(size)
        full = size - 1
        for line in geometry.line_masks:  # every mask holding the line: the line plus any
            rest = free = full & ~line  # subset of the other cells (walked as submasks)
            while True:
                has_line[line | rest] = 1
                if not rest:
                    break
                rest = (rest - 1) & free
        self._has_line = has_line
        bits = tuple(1 << cell for cell in range(cells))
        self._empty_bits = [
            tuple(bit for bit in bits if not occupied & bit) for occupied in range(size)
        ]
        self._values: dict[int, int] = {}
        self._entries: dict[int, Entry] = {}
        self._tree_sizes: dict[tuple[int, int | None], int] = {}

    def __len__(self) -> int:
        """Positions solved so far."""
        return len(self._values)

    def entry(self, me: int, them: int) -> Entry:
        """Value, every move's score and the best cells of a position still in play.

        Raises ValueError for an impossible or finished position.
        """
        key = me | them << self._cells
        entry = self._entries.get(key)
        if entry is None:
            self._check_in_play(me, them)
            entry = self._entries[key] = self._build_entry(me, them)
        return entry

    def value(self, me: int, them: int) -> int:
        return self.entry(me, them)[0]

    def _build_entry(self, me: int, them: int) -> Entry:
        moves = self._empty_bits[me | them]
        empties = len(moves)
        scores = []
        for bit in moves:
            mine = me | bit
            if self._has_line[mine]:
                score = empties
            elif empties == 1:
                score = 0
            else:
                score = -self._solve(them, mine)
            scores.append((bit.bit_length() - 1, score))
        best = max(score for _, score in scores)
        best_cells = tuple(cell for cell, score in scores if score == best)
        return best, tuple(scores), best_cells

    def _check_in_play(self, me: int, them: int) -> None:
        if me & them:
            raise ValueError("a cell cannot hold both symbols")
        if self._has_line[me] or self._has_line[them]:
            raise ValueError("the game is over: there is a winner")
        if (me | them) == self.geometry.full_mask:
            raise ValueError("the game is over: the board is full")

    def _solve(self, me: int, them: int) -> int:
        """Value of a position in play for the side to move (`me`)."""
        values = self._values
        key = me | them << self._cells
        value = values.get(key)
        if value is not None:
            return value
        moves = self._empty_bits[me | them]
        empties = len(moves)
        has_line = self._has_line
        if empties == 1:
            value = empties if has_line[me | moves[0]] else 0
        else:
            value = -empties
            solve = self._solve
            for bit in moves:
                mine = me | bit
                if has_line[mine]:
                    value = empties  # nothing beats winning now
                    break
                score = -solve(them, mine)
                if score > value:
                    value = score
        values[key] = value
        return value

    def tree_size(self, me: int, them: int, depth: int | None = None) -> int:
        """Nodes the plain minimax visits from here (this node and every finished leaf counted),
        looking `depth` plies ahead (None: to the end of the game).

        Memoised, so the info panel can say what pruning-free search would cost
        without paying for it.
        """
        key = (me | them << self._cells, depth)
        size = self._tree_sizes.get(key)
        if size is not None:
            return size
        moves = self._empty_bits[me | them]
        size = 1
        for bit in moves:
            mine = me | bit
            if self._has_line[mine] or len(moves) == 1 or depth == 1:
                size += 1
            else:
                size += self.tree_size(them, mine, None if depth is None else depth - 1)
        self._tree_sizes[key] = size
        return size


def shared_solver(geometry: Geometry = STANDARD) -> Solver:
    """One solver per board shape for the whole process: the game's solution never changes."""
    return _solver_for(geometry)


@cache  # keyed on the geometry itself, so shared_solver() and shared_solver(STANDARD) agree
def _solver_for(geometry: Geometry) -> Solver:
    return Solver(geometry)


class NodeCounter:
    """Counts the positions a search visits (every node, finished leaves included)."""

    def __init__(self) -> None:
        self.nodes = 0


def limited_scores(
    me: int,
    them: int,
    depth: int,
    geometry: Geometry = STANDARD,
    counter: NodeCounter | None = None,
) -> list[tuple[int, int]]:
    """Score every empty cell looking only `depth` plies ahead (beyond that counts as a draw).

    This is how the easier levels play: depth 1 sees its own wins, depth 2 also
    sees the opponent's threats.
    """
    if counter is not None:
        counter.nodes += 1
    occupied = me | them
    empties = geometry.cells - occupied.bit_count()
    scores = []
    for cell in range(geometry.cells):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if geometry.completes_line(mine, cell):
            score = empties
        elif empties == 1 or depth <= 1:
            score = 0
        else:
            replies = limited_scores(them, mine, depth - 1, geometry, counter)
            score = -max(score for _, score in replies)
        scores.append((cell, score))
    return scores
