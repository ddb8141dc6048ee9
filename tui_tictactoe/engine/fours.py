"""A forced win by fours (VCF): every move makes a four, so every answer is forced.

A four is a line holding four of the attacker's stones and an empty fifth cell, none of the
defender's: the defender must take that cell at once or lose. A sequence of fours that ends
in two at once (or a five) wins against every defence, since each defence is the one cell.
The search here is small and bounded (`VCF_NODES`), for the hard AI on 6x6 to win where a
pairing keeps it from losing (`strategies.MinimaxStrategy`): a win it finds is proven; one it
does not find may still be there.
"""

from __future__ import annotations

from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.lines import completions

VCF_NODES = 400
"""Positions `winning_fours` may look at before it gives up (each ~20-40 µs on 6x6)."""


class _Out(Exception):
    pass


def winning_fours(geometry: Geometry, me: int, them: int, nodes: int = VCF_NODES) -> int | None:
    """The first move of a forced win by fours for `me` (to move), or None if none was found
    within `nodes` positions. A win in one counts (its cell is returned)."""
    found = win_by_fours(geometry, me, them, nodes)
    return None if found is None else found[0]


def win_by_fours(
    geometry: Geometry, me: int, them: int, nodes: int = VCF_NODES
) -> tuple[int, int] | None:
    """(first move, plies to the win along the line found, this move included) of a forced
    win by fours for `me`, or None. The line is the first found, not always the shortest."""
    left = [nodes]
    try:
        return _attack(geometry.line_masks, me, them, left)
    except _Out:
        return None


def _attack(lines: tuple[int, ...], me: int, them: int, left: list[int]) -> tuple[int, int] | None:
    left[0] -= 1
    if left[0] < 0:
        raise _Out
    wins = completions(lines, me, them)
    if wins:
        return (wins & -wins).bit_length() - 1, 1
    threats = completions(lines, them, me)
    if threats & (threats - 1):
        return None  # two threats against me: I cannot block both and make a four
    candidates = 0
    for line in lines:
        if not line & them and (line & me).bit_count() == 3:
            candidates |= line & ~me
    if threats:
        candidates &= threats  # the block must be my four too
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        mine = me | bit
        fours = completions(lines, mine, them)
        if not fours:
            continue
        if fours & (fours - 1):
            return bit.bit_length() - 1, 3  # two fours: one is completed after the block
        # `them` has no threat left (none, or the one this move blocked): it must block.
        rest = _attack(lines, mine, them | fours, left)
        if rest is not None:
            return bit.bit_length() - 1, rest[1] + 2
    return None
