"""Exact search for any board shape: negamax with alpha-beta and a bounded table.

The 3x3 table solver stores every position; 4x4 and 5x5 have far too many, so
this search prunes instead, and remembers only what it needed. Positions are
`(me, them)` bitmasks, as in `solver.py`, and scores use the same convention
(a win scores the empty cells left when it lands plus one, a loss the negative,
a draw 0). A score therefore depends only on the position, never on the path
or the search window, so one table serves every search, at every depth, and
all 8 symmetric copies of a position share one entry.

What makes it fast enough in pure Python:

- threats are carried down the tree: a side to move never has an immediate win
  below the root (it would have been taken), the opponent's single threat
  forces the block without branching, two threats lose at once, and a move that
  makes two threats wins two plies later;
- lines stay "live" for a side while the other has no stone on them (a bitmask
  over line indices, updated per move): with no live line a side cannot win,
  which settles most drawn endings without searching them;
- a table of (lower, upper, best move) bounds, keyed by the symmetry-canonical
  position near the root, and move ordering (table move, threats, centre first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import cache

from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, check_in_play
from tui_tictactoe.engine.lines import centre_first, completions, live_lines
from tui_tictactoe.engine.symmetry import Canonicaliser

CHECK_EVERY = 1024
"""Nodes between two polls of `cancelled`: a few milliseconds of search."""

DEFAULT_MAX_ENTRIES = 600_000
"""Table entries kept before it is emptied: about 100 MB at the worst."""

_INFINITY = 1_000


class Search:
    """Exact negamax with alpha-beta over a bounded, symmetry-aware table.

    One instance per board shape can serve every game and thread: the table
    only caches facts about positions, and each call keeps its own counters.
    Positions with at most `canonical_stones` stones are stored under their
    canonical key (near the root, where symmetric copies are common); deeper
    ones under their own key, which is cheaper to compute. The two never clash:
    a position's key is the key of some position with as many stones.
    """

    def __init__(
        self,
        geometry: Geometry,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        canonical_stones: int = 8,
    ) -> None:
        self.geometry = geometry
        self.max_entries = max_entries
        self.canonical_stones = canonical_stones
        self.nodes = 0  # positions searched by every call so far
        self.last_nodes = 0  # positions searched by the latest call
        self._table: dict[int, tuple[int, int, int]] = {}
        self._symmetry = Canonicaliser(geometry)
        self._order = centre_first(geometry)
        masks = geometry.line_masks
        self._lines = masks
        self._kill = tuple(
            sum(1 << index for index, line in enumerate(masks) if line >> cell & 1)
            for cell in range(geometry.cells)
        )
        self._through = geometry.lines_through

    def __len__(self) -> int:
        """Entries in the table now."""
        return len(self._table)

    def clear(self) -> None:
        self._table.clear()

    # -- what callers ask --------------------------------------------------

    def canonical(self, me: int, them: int) -> tuple[int, int, int]:
        """(me, them) of the canonical copy of the position, and the symmetry index used."""
        cells = self.geometry.cells
        key, index = self._symmetry.canonical(me | them << cells)
        return key & self.geometry.full_mask, key >> cells, index

    def value(self, me: int, them: int, cancelled: Cancelled | None = None) -> int:
        """Exact score of a position in play for the side to move (`me`)."""
        return self._root(me, them, cancelled, moves=None)[1]

    def move_score(self, me: int, them: int, cell: int, cancelled: Cancelled | None = None) -> int:
        """Exact score of playing `cell` (an empty cell) for the side to move."""
        return self._root(me, them, cancelled, moves=(cell,))[1]

    def best_move(
        self,
        me: int,
        them: int,
        rng: random.Random | None = None,
        cancelled: Cancelled | None = None,
    ) -> tuple[int, int]:
        """(cell, score) of a best move for the side to move.

        Moves are tried most promising first (the cells on most open lines) and
        the first best one is played. With `rng`, moves that look alike are
        shuffled first, so equally good moves vary from game to game without
        giving up the ordering the search needs to be fast.
        """
        moves = list(self._legal(me, them))
        if rng is not None:
            rng.shuffle(moves)
        mine, theirs = live_lines(self._lines, me, them)
        live, one = mine | theirs, mine ^ theirs
        kill = self._kill
        moves.sort(
            key=lambda cell: -4 * (kill[cell] & live).bit_count() - (kill[cell] & one).bit_count()
        )
        return self._root(me, them, cancelled, moves=moves)

    def book_entry(
        self, book: dict[int, tuple[int, tuple[int, ...]]], me: int, them: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """(score, best cells) of a position from an opening book keyed by canonical
        position; the book stores cells in the canonical frame, mapped back here."""
        key, symmetry = self._symmetry.canonical(me | them << self.geometry.cells)
        entry = book.get(key)
        if entry is None:
            return None
        score, moves = entry
        inverse = self._symmetry.inverse[symmetry]
        return score, tuple(inverse[move] for move in moves)

    def table_move(self, me: int, them: int) -> int | None:
        """The best move the table remembers for `me` to move (a line of play is read from
        it: `principal.line_of_play`), or None where it has none. No search."""
        cells = self.geometry.cells
        key = me | them << cells
        symmetry = 0
        if cells - (me | them).bit_count() >= cells - self.canonical_stones:
            key, symmetry = self._symmetry.canonical(key)
        entry = self._table.get(key)
        if entry is None:
            return None
        move = entry[2]
        return self._symmetry.inverse[symmetry][move] if symmetry else move

    # -- the search --------------------------------------------------------

    def _legal(self, me: int, them: int) -> tuple[int, ...]:
        occupied = me | them
        return tuple(cell for cell in self._order if not occupied >> cell & 1)

    def _check_in_play(self, me: int, them: int) -> None:
        check_in_play(self.geometry, me, them)

    def _root(
        self, me: int, them: int, cancelled: Cancelled | None, moves: Iterable[int] | None
    ) -> tuple[int, int]:
        """Best (cell, score) among `moves` (None: every legal move, centre first)."""
        self._check_in_play(me, them)
        legal = self._legal(me, them)
        moves = legal if moves is None else tuple(moves)
        for cell in moves:
            if cell not in legal:
                raise ValueError(f"cell {cell} is not an empty cell of the board")
        run = _Run(self, cancelled)
        try:
            return run.root(me, them, moves)
        finally:
            self.nodes += run.nodes
            self.last_nodes = run.nodes
            # The polls trim the table only in runs of CHECK_EVERY nodes or more: many
            # short searches (endgames, `analyse` cell by cell) would grow it unbounded.
            if len(self._table) > self.max_entries:
                self._table.clear()


class _Run:
    """One call's search: its node count and cancellation, around the shared table."""

    def __init__(self, search: Search, cancelled: Cancelled | None) -> None:
        self.search = search
        self.nodes = 0
        self.negamax = self._make_negamax(search, cancelled)

    def root(self, me: int, them: int, moves: tuple[int, ...]) -> tuple[int, int]:
        """Score every move in `moves` with alpha-beta; the first best one wins ties."""
        search = self.search
        geometry = search.geometry
        lines = search._lines
        empties = geometry.cells - (me | them).bit_count()
        mine_live, theirs_live = live_lines(lines, me, them)
        theirs_wins = completions(lines, them, me)
        best_cell, best = moves[0], -_INFINITY
        alpha, beta = -_INFINITY, _INFINITY
        for cell in moves:
            bit = 1 << cell
            mine = me | bit
            if geometry.completes_line(mine, cell):
                score = empties
            elif empties == 1:
                score = 0
            elif theirs_wins & ~bit:
                score = 1 - empties  # they win with their next move
            else:
                self.nodes += 1
                score = -self.negamax(
                    them,
                    mine,
                    completions(lines, mine, them),
                    theirs_live & ~search._kill[cell],
                    mine_live,
                    empties - 1,
                    -beta,
                    -alpha,
                )
            if score > best:
                best_cell, best = cell, score
                alpha = max(alpha, score)
        return best_cell, best

    def _make_negamax(self, search: Search, cancelled: Cancelled | None) -> Callable[..., int]:
        """The recursive search as closures: locals are much faster than attributes.

        `negamax` gives the quick answers (a forced block, a settled ending, bounds from the
        board), `expand` the rest (the table, then every move). Split that way the search
        was as fast as in one function (A/B on cold 4x4 and 5x5 solves, same node counts:
        -3% to -1%, within noise; 2026-11-25)."""
        geometry = search.geometry
        table = search._table
        max_entries = search.max_entries
        lines = search._lines
        kill = search._kill
        kill_of = {1 << cell: kill[cell] for cell in range(geometry.cells)}
        through = search._through
        order = tuple(1 << cell for cell in search._order)
        cells = geometry.cells
        canonical = search._symmetry.canonical
        inverse = search._symmetry.inverse
        perms = search._symmetry.perms
        canonical_from = cells - search.canonical_stones  # empties at or above: canonical key
        check_mask = CHECK_EVERY - 1
        run = self

        def poll() -> None:
            if cancelled is not None and cancelled():
                raise SearchCancelled
            if len(table) > max_entries:
                table.clear()  # entries are only a cache: losing them costs time, not truth

        def block_threats(mine: int, them: int, cell: int) -> int:
            """Cells where `mine` now wins, on lines through its new stone `cell`."""
            found = 0
            for line in through[cell]:
                if not line & them:
                    rest = line & ~mine
                    if not rest & (rest - 1):
                        found |= rest
            return found

        def store(key: int, symmetry: int, low: int, high: int, bit: int) -> None:
            """Remember bounds and the best move, in the frame of the (canonical) key."""
            move = bit.bit_length() - 1
            if symmetry:
                move = perms[symmetry][move]
            table[key] = (low, high, move)

        def threat_makers(me: int, them: int) -> tuple[dict[int, int], int]:
            """Cells where a stone of `me` makes a threat (lines with no stone of `them` and
            two empty cells: a stone on either makes a threat on the other), each with the
            cells it threatens; and a cell that makes two threats at once (0 if none)."""
            makers: dict[int, int] = {}
            for line in lines:
                if not line & them:
                    rest = line & ~me
                    if rest.bit_count() == 2:
                        for bit in (rest & -rest, rest & (rest - 1)):
                            made = makers.get(bit, 0) | rest ^ bit
                            if made & (made - 1):
                                return makers, bit
                            makers[bit] = made
            return makers, 0

        def ordered_moves(
            occupied: int, makers: dict[int, int], hint: int, mlive: int, tlive: int
        ) -> list[int]:
            """The table's best move first, then the threat makers, then quiet cells: those
            on the most lines still open to someone first, those on lines already holding
            stones before empty ones."""
            moves = [hint] if hint else []
            moves.extend(bit for bit in makers if bit != hint)
            quiet = [bit for bit in order if not (occupied & bit or bit in makers or bit == hint)]
            live = mlive | tlive
            one = mlive ^ tlive
            quiet.sort(
                key=lambda bit: (
                    -4 * (kill_of[bit] & live).bit_count() - (kill_of[bit] & one).bit_count()
                )
            )
            moves.extend(quiet)
            return moves

        def negamax(
            me: int, them: int, threat: int, mlive: int, tlive: int, e: int, alpha: int, beta: int
        ) -> int:
            """Score for `me` to move, `threat` the cells where `them` would win now.

            Invariant: `me` has no winning move (it would have been taken one level
            up) and `e` >= 1 cells are empty. `mlive` / `tlive` are the lines, as bits
            over line indices, that `me` / `them` can still complete.
            """
            run.nodes += 1
            if not run.nodes & check_mask:
                poll()
            if threat:
                if threat & (threat - 1):
                    return 1 - e  # two threats: one is blocked, the other wins
                if e == 1:
                    return 0
                cell = threat.bit_length() - 1
                mine = me | threat
                return -negamax(
                    them,
                    mine,
                    block_threats(mine, them, cell),
                    tlive & ~kill[cell],
                    mlive,
                    e - 1,
                    -beta,
                    -alpha,
                )
            if e <= 2 or not (mlive or tlive):
                return 0  # neither side can make a line in time
            # No threat on the board: `me` wins at best with its second move from
            # now, `them` with its second; a side with no live line never wins.
            upper = e - 2 if mlive else 0
            lower = 3 - e if tlive else 0
            if upper <= alpha:
                return upper
            if lower >= beta:
                return lower
            return expand(me, them, mlive, tlive, e, alpha, beta, lower, upper)

        def expand(
            me: int,
            them: int,
            mlive: int,
            tlive: int,
            e: int,
            alpha: int,
            beta: int,
            lower: int,
            upper: int,
        ) -> int:
            """`negamax` past its quick answers: the table, then every move, best first.
            `lower` / `upper` bound the score from what the board shows."""
            key = me | them << cells
            symmetry = 0
            if e >= canonical_from:
                key, symmetry = canonical(key)
            hint = 0
            entry = table.get(key)
            if entry is not None:
                low, high, move = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                lower = max(lower, low)
                upper = min(upper, high)
                hint = 1 << (inverse[symmetry][move] if symmetry else move)

            makers, double = threat_makers(me, them)
            if double:
                store(key, symmetry, e - 2, e - 2, double)
                return e - 2
            if alpha < lower:
                alpha = lower
            if beta > upper:
                beta = upper
            moves = ordered_moves(me | them, makers, hint, mlive, tlive)

            alpha_in = alpha
            best = -_INFINITY
            best_bit = moves[0]
            for bit in moves:
                score = -negamax(
                    them,
                    me | bit,
                    makers.get(bit, 0),
                    tlive & ~kill_of[bit],
                    mlive,
                    e - 1,
                    -beta,
                    -alpha,
                )
                if score > best:
                    best = score
                    best_bit = bit
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            # A fail-low result is an upper bound, a fail-high one a lower bound.
            if best <= alpha_in:
                store(key, symmetry, lower, best, best_bit)
            elif best >= beta:
                store(key, symmetry, best, upper, best_bit)
            else:
                store(key, symmetry, best, best, best_bit)
            return best

        return negamax


def shared_search(geometry: Geometry) -> Search:
    """One search per board shape for the whole process, so every reply reuses the table."""
    return _search_for(geometry)


@cache
def _search_for(geometry: Geometry) -> Search:
    return Search(geometry)
