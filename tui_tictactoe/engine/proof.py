"""What a verdict rests on (`Proof`): a small record, apart from the searches that find it
(`proven.py`), so that reading a verdict loads none of them."""

from __future__ import annotations

from typing import Literal, NamedTuple

Pair = tuple[int, int]
Pairing = tuple[Pair, ...]
"""Disjoint pairs of cells (indices in reading order), as `pairing.py` makes them."""

ProofKind = Literal["table", "book", "search", "fours", "pairing"]
"""What a verdict rests on: the solved 3x3 table, the 5x5 opening book's stored scores, an
exact (or, on 6x6, bounded) search, a line of fours, or pairings."""

Answer = tuple[int, int | None, Pairing]
"""(the other side's reply, the mover's answer or None, the mover's pairing after it)."""


class Proof(NamedTuple):
    """Why a move's verdict holds. `line`: the forcing line ("fours", the move first);
    `pairs`: the other side's pairing after its `reply` (None: it holds at once), so the
    mover cannot win; `guard`: the mover's pairing after its move, or `answers`: one per
    reply, so the mover cannot lose ("pairing")."""

    kind: ProofKind
    line: tuple[int, ...] = ()
    pairs: Pairing = ()
    reply: int | None = None
    guard: Pairing = ()
    answers: tuple[Answer, ...] = ()
