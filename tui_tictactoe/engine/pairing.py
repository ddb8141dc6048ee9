"""Pairing certificates: a proof that one side (the breaker) cannot lose, and how to play it.

A pairing is a set of disjoint pairs of empty cells such that every line the other side (the
attacker) could still complete, one holding none of the breaker's stones, holds a pair. The
breaker keeps it by one rule: whenever the attacker takes a cell of a pair, take its partner.
Each pair then never falls wholly to the attacker, so no line does: the attacker cannot win.
A free move of the breaker (the attacker took no pair cell) may go anywhere: a stone on a
pair cell kills every line through that pair, so the pair is dropped and the rest still
covers every line left (`after_breaker_move`).

6x6 with five in a row is a draw by such pairings (Hsu et al., Theor. Comput. Sci. 815, 2020;
docs/ai.md): after each first move of X, O has a reply and a pairing of 14-15 pairs; X,
opening at (2,2), has for each reply of O an answer and a pairing of about 11 pairs (and,
opening at (2,3), a pairing at once). The search here (`find_pairing`, `certificate_for`)
finds most in a millisecond, but O's reply to some first stones took 200-600 ms (candidate
replies that fail only after thousands of nodes), so the 37 positions of the breaker's first
move are shipped (`pairing_book`, built by benchmarks/build_pairing_book.py); every later
move is the partner or a free move of the pairing held, a search only for a position the AI
did not reach by its own play.

Public, for the AI (`strategies.MinimaxStrategy`) and for the UI and `analyse`:

- `check(geometry, me, them, pairs)`: None if `pairs` is a valid certificate for the breaker
  `me` against `them`, else the reason in words (anyone can check a shown proof with it);
- `find_pairing(geometry, me, them)`: a pairing for the breaker `me`, or None ("unproven":
  none found within the budget, or none exists);
- `certificate_for(geometry, me, them)`: for the breaker to move, a move and the pairing it
  keeps afterwards (move None: the position already holds one), or None;
- `partner(pairs, cell)`, `after_breaker_move(pairs, cell)`: the answer rule;
- `answer(geometry, me, them, held, free_move)`: the breaker's move by the pairing it holds
  (or one looked up or searched for), checked, or None: what the hard AI plays on 6x6.

For a `GameBoard`, `me, them = board.masks_for(symbol)` gives the masks: a proven draw for
the side that just moved is `find_pairing(board.geometry, me, them)`.

Cells are indices in reading order (`Geometry.index`), stones bitmasks, as in the searches.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.lines import completions

Pair = tuple[int, int]
Pairing = tuple[Pair, ...]
"""Disjoint pairs of cells (each pair's cells in increasing order)."""

PAIRING_NODES = 4_000
"""Search nodes `find_pairing` may spend on one position before it says "unproven"."""

CERTIFICATE_NODES = 40_000
"""Search nodes `certificate_for` may spend in all over the breaker's candidate moves."""

ROUND_NODES = 64
"""The budget of each candidate move in `certificate_for`'s first round (then 8x a round)."""


class _Tables:
    """Per-geometry tables: which lines hold both cells of a pair (bits over line indices)."""

    def __init__(self, geometry: Geometry) -> None:
        self.lines = geometry.line_masks
        self.full = geometry.full_mask
        cells = geometry.cells
        both: dict[Pair, int] = {}
        for index, line in enumerate(self.lines):
            members = [cell for cell in range(cells) if line >> cell & 1]
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    both[(a, b)] = both.get((a, b), 0) | 1 << index
        self.both = both
        # For each line, its candidate pairs, those covering most lines first (neighbours).
        self.pairs_of: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
            tuple(
                sorted(
                    (
                        (a, b, 1 << a | 1 << b, both[(a, b)])
                        for i, a in enumerate(members)
                        for b in members[i + 1 :]
                    ),
                    key=lambda entry: (-entry[3].bit_count(), entry[0], entry[1]),
                )
            )
            for members in (
                [cell for cell in range(cells) if line >> cell & 1] for line in self.lines
            )
        )


@cache
def _tables(geometry: Geometry) -> _Tables:
    return _Tables(geometry)


def check(geometry: Geometry, me: int, them: int, pairs: Pairing) -> str | None:
    """None if `pairs` proves the breaker `me` cannot lose against `them` by the pairing
    rule; else why not, in one sentence. Checks: every pair two distinct cells of the
    board, the pairs disjoint, every cell of a pair empty, every line holding none of
    `me`'s stones holding both cells of some pair."""
    if me & them:
        return "a cell holds both symbols"
    used = 0
    for pair in pairs:
        if len(pair) != 2:
            return f"{pair!r} is not a pair of cells"
        a, b = pair
        if not (0 <= a < geometry.cells and 0 <= b < geometry.cells) or a == b:
            return f"{pair!r} is not two distinct cells of the board"
        bits = 1 << a | 1 << b
        if used & bits:
            return f"pair {pair!r} shares a cell with another pair"
        if (me | them) & bits:
            return f"pair {pair!r} holds a stone"
        used |= bits
    masks = [1 << a | 1 << b for a, b in pairs]
    for line in geometry.line_masks:
        if line & me:
            continue
        if not any(line & mask == mask for mask in masks):
            cells = [cell for cell in range(geometry.cells) if line >> cell & 1]
            return f"line {cells} holds no pair"
    return None


def is_certificate(geometry: Geometry, me: int, them: int, pairs: Pairing) -> bool:
    """True if `check` finds nothing wrong."""
    return check(geometry, me, them, pairs) is None


def partner(pairs: Pairing, cell: int) -> int | None:
    """The other cell of the pair holding `cell`, or None if no pair holds it."""
    for a, b in pairs:
        if a == cell:
            return b
        if b == cell:
            return a
    return None


def after_breaker_move(pairs: Pairing, cell: int) -> Pairing:
    """The pairing left after the breaker plays `cell`: the pair holding it (if any) is
    dropped, since every line through that pair now holds a breaker's stone."""
    return tuple(pair for pair in pairs if cell not in pair)


class _Budget:
    __slots__ = ("nodes",)

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes


class _OutOfNodes(Exception):
    pass


def find_pairing(
    geometry: Geometry, me: int, them: int, nodes: int = PAIRING_NODES
) -> Pairing | None:
    """A pairing for the breaker `me` against `them`, or None: none exists, or none was found
    within `nodes` search nodes (unproven, not disproven)."""
    return _find(_tables(geometry), me, them, _Budget(nodes))


def _find(tables: _Tables, me: int, them: int, budget: _Budget) -> Pairing | None:
    uncovered = 0
    for index, line in enumerate(tables.lines):
        if not line & me:
            uncovered |= 1 << index
    free = tables.full & ~(me | them)
    failed: set[tuple[int, int]] = set()
    chosen: list[Pair] = []
    try:
        if _cover(tables, uncovered, free, chosen, budget, failed):
            return tuple(chosen)
    except _OutOfNodes:
        pass
    return None


def _cover(
    tables: _Tables,
    uncovered: int,
    free: int,
    chosen: list[Pair],
    budget: _Budget,
    failed: set[tuple[int, int]],
) -> bool:
    """Depth-first: take the uncovered line with fewest free cells, try each of its pairs."""
    if not uncovered:
        return True
    if (uncovered, free) in failed:
        return False
    budget.nodes -= 1
    if budget.nodes < 0:
        raise _OutOfNodes
    lines = tables.lines
    best_index, best_count = -1, 99
    rest = uncovered
    while rest:
        low = rest & -rest
        index = low.bit_length() - 1
        count = (lines[index] & free).bit_count()
        if count < best_count:
            best_index, best_count = index, count
            if count < 2:
                failed.add((uncovered, free))
                return False
        rest ^= low
    for a, b, bits, covers in tables.pairs_of[best_index]:
        if free & bits != bits:
            continue
        chosen.append((a, b))
        if _cover(tables, uncovered & ~covers, free & ~bits, chosen, budget, failed):
            return True
        chosen.pop()
    failed.add((uncovered, free))
    return False


def certificate_for(
    geometry: Geometry,
    me: int,
    them: int,
    nodes: int = CERTIFICATE_NODES,
    order: tuple[int, ...] | None = None,
) -> tuple[int | None, Pairing] | None:
    """For the breaker `me` to move: (None, pairs) if the position already holds a pairing
    (any move keeps it: `after_breaker_move`), else (cell, pairs) for a move after which it
    does, else None (unproven within `nodes` search nodes in all).

    `order` is the order in which to try the moves (default: reading order); a single
    threat of `them` (a line it completes next move) leaves only its block to try. Each
    candidate is tried with a small budget first, then with 8 times more, and so on: some
    replies are proven in 20 nodes where others need 5,000 (measured on 6x6)."""
    tables = _tables(geometry)
    occupied = me | them
    cells = order if order is not None else tuple(range(geometry.cells))
    moves = [cell for cell in cells if not occupied >> cell & 1]
    threats = completions(tables.lines, them, me)
    if threats:
        moves = [cell for cell in moves if threats >> cell & 1]
    candidates: list[int | None] = [None, *moves]
    left = nodes
    step = ROUND_NODES
    while left > 0 and candidates:
        for cell in candidates:
            budget = _Budget(min(step, left))
            stones = me if cell is None else me | 1 << cell
            found = _find(tables, stones, them, budget)
            left -= min(step, left) - max(budget.nodes, 0)
            if found is not None:
                return cell, found
            if budget.nodes >= 0:  # searched to the end: no pairing after this move
                candidates = [other for other in candidates if other != cell]
            if left <= 0:
                break
        step *= 8
    return None


Held = tuple[int, int, Pairing]
"""A pairing the breaker holds: its stones and the other side's when it was made (the other
side to move), and the pairs."""


class PairingMove(NamedTuple):
    """A move of the breaker by its pairing, and the pairing it holds afterwards."""

    cell: int
    pairs: Pairing
    how: str  # "partner": the answer to a pair cell; "free": any move; "found": a search's


def answer(
    geometry: Geometry,
    me: int,
    them: int,
    held: Held | None,
    free_move: Callable[[int, Pairing], int],
    nodes: int = CERTIFICATE_NODES,
    order: tuple[int, ...] | None = None,
) -> PairingMove | None:
    """The breaker's (`me`, to move) move by a pairing, or None when it has none (unproven).

    With `held` the pairing made at its last move, when the other side has since added one
    stone: that stone on a pair cell is answered by its partner; anywhere else the pairing
    still holds and `free_move(empty cells, pairs)` picks the move. Otherwise the pairing is
    looked up (`pairing_book`, the openings) or searched for (`certificate_for`, `nodes`).
    Whatever the source, the pairing kept is checked (`check`) before the move is returned.
    """
    occupied = me | them
    pairs: Pairing | None = None
    if held is not None and held[0] == me and held[1] & ~them == 0:
        added = them & ~held[1]
        if added and not added & (added - 1):
            cell = partner(held[2], added.bit_length() - 1)
            if cell is not None:
                return _checked(
                    geometry,
                    me,
                    them,
                    PairingMove(cell, after_breaker_move(held[2], cell), "partner"),
                )
            pairs = held[2]
    how = "free"
    if pairs is None:
        from tui_tictactoe.engine.pairing_book import OPENINGS

        found = OPENINGS.get((geometry.size, geometry.win_length, me, them))
        if found is None:
            found = certificate_for(geometry, me, them, nodes, order)
        if found is None:
            return None
        move, pairs = found
        if move is not None:
            return _checked(
                geometry, me, them, PairingMove(move, after_breaker_move(pairs, move), "found")
            )
    empties = geometry.full_mask & ~occupied
    cell = free_move(empties, pairs)
    return _checked(geometry, me, them, PairingMove(cell, after_breaker_move(pairs, cell), how))


def _checked(geometry: Geometry, me: int, them: int, move: PairingMove) -> PairingMove | None:
    """The move if the pairing it keeps is a certificate (never trust a stale one)."""
    if (me | them) >> move.cell & 1:
        return None
    if check(geometry, me | 1 << move.cell, them, move.pairs) is not None:
        return None
    return move
