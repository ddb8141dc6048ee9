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
    found = fours_line(geometry, me, them, nodes)
    return None if found is None else found[0]


def win_by_fours(
    geometry: Geometry, me: int, them: int, nodes: int = VCF_NODES
) -> tuple[int, int] | None:
    """(first move, plies to the win along the line found, this move included) of a forced
    win by fours for `me`, or None. The line is the first found, not always the shortest."""
    found = fours_line(geometry, me, them, nodes)
    return None if found is None else (found[0], len(found))


def fours_line(
    geometry: Geometry, me: int, them: int, nodes: int = VCF_NODES
) -> tuple[int, ...] | None:
    """The line of a forced win by fours for `me` (to move): its cells in the order played,
    `me`'s moves and the forced blocks alternating, the last one completing a line; None if
    none was found within `nodes` positions. The first found, not always the shortest."""
    left = [nodes]
    try:
        return _attack(geometry.line_masks, me, them, left)
    except _Out:
        return None


def fours_from(
    geometry: Geometry, me: int, them: int, cell: int, nodes: int = VCF_NODES
) -> tuple[int, ...] | None:
    """The line of a forced win by fours for `me` (to move) that begins by playing `cell`
    (an empty cell), or None: `cell` wins at once, or makes a four (two: a win in 3) after
    which the fours go on, within `nodes` positions. None too where `them` already has a
    line to complete that `cell` does not block: `them` wins first."""
    lines = geometry.line_masks
    bit = 1 << cell
    mine = me | bit
    if geometry.completes_line(mine, cell):
        return (cell,)
    if completions(lines, them, me) & ~bit:
        return None
    fours = completions(lines, mine, them)
    if not fours:
        return None
    low = fours & -fours
    if fours & (fours - 1):
        other_four = fours ^ low
        return cell, low.bit_length() - 1, (other_four & -other_four).bit_length() - 1
    left = [nodes]
    try:
        rest = _attack(lines, mine, them | fours, left)
    except _Out:
        return None
    return None if rest is None else (cell, low.bit_length() - 1, *rest)


def _attack(lines: tuple[int, ...], me: int, them: int, left: list[int]) -> tuple[int, ...] | None:
    left[0] -= 1
    if left[0] < 0:
        raise _Out
    wins = completions(lines, me, them)
    if wins:
        return ((wins & -wins).bit_length() - 1,)
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
        low = fours & -fours
        if fours & (fours - 1):  # two fours: one is blocked, the other completed
            other_four = fours ^ low
            return (
                bit.bit_length() - 1,
                low.bit_length() - 1,
                (other_four & -other_four).bit_length() - 1,
            )
        # `them` has no threat left (none, or the one this move blocked): it must block.
        rest = _attack(lines, mine, them | fours, left)
        if rest is not None:
            return bit.bit_length() - 1, low.bit_length() - 1, *rest
    return None


def check_line(geometry: Geometry, me: int, them: int, line: tuple[int, ...]) -> str | None:
    """None if `line` (cells, `me` to move first) is a forced win by fours for `me`: each of
    its moves empty, each defence forced (the one cell of `me`'s single four, or one of two),
    `me` blocking any four of `them` at once, and its last move completing a line of `me`;
    else why not, in one sentence."""
    lines = geometry.line_masks
    if not line or len(line) % 2 == 0:
        return "a line of fours has an odd number of moves, the attacker's first and last"
    for index, cell in enumerate(line):
        bit = 1 << cell
        if not 0 <= cell < geometry.cells or (me | them) & bit:
            return f"move {index + 1} ({cell}) is not an empty cell"
        if index % 2:  # the defender's: one of the attacker's fours
            if not completions(lines, me, them) & bit:
                return f"move {index + 1} ({cell}) is not a forced block"
            them |= bit
            continue
        threats = completions(lines, them, me)
        if threats and not threats & bit and not geometry.completes_line(me | bit, cell):
            return f"move {index + 1} ({cell}) leaves the defender a line to complete"
        me |= bit
        if geometry.completes_line(me, cell):
            return None if index == len(line) - 1 else "moves follow the completed line"
        if index == len(line) - 1:
            return "the last move does not complete a line"
        if completions(lines, them, me):
            return f"after move {index + 1} ({cell}) the defender can complete a line"
        if not completions(lines, me, them):
            return f"move {index + 1} ({cell}) makes no four: the defence is not forced"
    return "the last move does not complete a line"  # not reached: the loop returns
