"""Proven verdicts on a board too big to solve (6x6, five in a row), each with its proof.

For every move of the side to move (`me`) this says what can be proven at once, without the
bounded search (`bounded.py`), and keeps the proof so anyone can check it:

- a win: the move completes a line, or begins a forced win by fours (`fours.fours_from`);
  the line of fours is the proof (`fours.check_line` checks it);
- a loss: the other side has a line to complete that the move does not block, or a forced
  win by fours after the move (`fours.fours_line`); its line is the proof;
- a draw: after the move neither side can win, by two pairings (`pairing.py`, each checked
  with `pairing.check` before it is shown): the other side's, which it holds at once or after
  one reply (`reply`), so the mover cannot win; and the mover's own (`guard`), so it cannot
  lose, or, after its first move of the game, one for each reply (`answers`, from the
  shipped openings: a stone more never hurts the side keeping a pairing).

Everything else is left to the bounded search, which proves a win or loss where it sees one
and says "unknown" (score 0) otherwise. Cells are indices in reading order, as in the searches.
"""

from __future__ import annotations

from tui_tictactoe.engine.fours import check_line, fours_from, fours_line
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.lines import completions
from tui_tictactoe.engine.pairing import (
    Pairing,
    after_breaker_move,
    certificate_for,
    check,
    find_pairing,
    partner,
)
from tui_tictactoe.engine.proof import Answer, Proof

GUARD_NODES = 1_000
"""Search nodes for the mover's own pairing after a move (`pairing.find_pairing`)."""

REPLY_NODES = 2_000
"""Search nodes for the other side's reply and pairing after a move (`certificate_for`)."""

Proven = tuple[int, Proof, bool]
"""(score as the searches score it: 0 a draw; the proof; whether the plies are the fewest)."""


def proven_moves(geometry: Geometry, me: int, them: int, cells: list[int]) -> dict[int, Proven]:
    """The verdict of each of `cells` (empty cells, `me` to move) that can be proven here, by
    cell; the rest are missing (for the bounded search)."""
    lines = geometry.line_masks
    empties = geometry.cells - (me | them).bit_count()
    found: dict[int, Proven] = {}
    threats = completions(lines, them, me)
    theirs = _position_pairing(geometry, them, me)  # the mover cannot win (if found)
    mine = _position_pairing(geometry, me, them)  # the mover cannot lose (if found)
    for cell in cells:
        bit = 1 << cell
        win = fours_from(geometry, me, them, cell)
        if win is not None and check_line(geometry, me, them, win) is None:
            found[cell] = (_score(empties, len(win)), Proof("fours", win), len(win) <= 3)
            continue
        if threats & ~bit:
            block = threats & ~bit
            blocked = (cell, (block & -block).bit_length() - 1)
            found[cell] = (-_score(empties, 2), Proof("fours", blocked), True)
            continue
        loss = None if mine else fours_line(geometry, them, me | bit)
        if loss is not None and check_line(geometry, them, me | bit, loss) is None:
            line = (cell, *loss)
            found[cell] = (-_score(empties, len(line)), Proof("fours", line), False)
            continue
        draw = _draw(geometry, me, them, cell, theirs, mine)
        if draw is not None:
            found[cell] = (0, draw, True)
    return found


def _score(empties: int, plies: int) -> int:
    """The search's score of a win `plies` moves from now (this one included); a loss's is
    its negative."""
    return empties - plies + 1


def _position_pairing(geometry: Geometry, breaker: int, other: int) -> Pairing | None:
    """A pairing `breaker` holds in the position now, whoever is to move."""
    if not breaker and other.bit_count() < 2:
        return None  # no stone to keep with hardly any of the other's: not worth the search
    pairs = find_pairing(geometry, breaker, other)
    return pairs if pairs is not None and check(geometry, breaker, other, pairs) is None else None


def _draw(
    geometry: Geometry,
    me: int,
    them: int,
    cell: int,
    theirs: Pairing | None,
    mine: Pairing | None,
) -> Proof | None:
    """A draw proof for `me` playing `cell`, or None."""
    after = me | 1 << cell
    keeps = _their_pairing(geometry, them, after, cell, theirs)
    if keeps is None:
        return None
    reply, pairs = keeps
    if mine is not None:
        guard = after_breaker_move(mine, cell)
        if check(geometry, after, them, guard) is None:
            return Proof(
                "pairing", (cell,) if reply is None else (cell, reply), pairs, reply, guard
            )
    line = (cell,) if reply is None else (cell, reply)
    booked = from_book(geometry, after, them, to_move=False)
    if booked is not None:
        return Proof("pairing", line, pairs, reply, booked[1])
    guard_found = find_pairing(geometry, after, them, GUARD_NODES)
    if guard_found is not None and check(geometry, after, them, guard_found) is None:
        return Proof("pairing", line, pairs, reply, guard_found)
    answers = _answers_from_book(geometry, after, them)
    if answers is not None:
        return Proof("pairing", line, pairs, reply, answers=answers)
    return None


def _their_pairing(
    geometry: Geometry, them: int, after: int, cell: int, theirs: Pairing | None
) -> tuple[int | None, Pairing] | None:
    """The other side's (to move after `cell`) reply and the pairing it holds after it."""
    if theirs is not None:
        reply = partner(theirs, cell)
        if reply is None:
            pairs: Pairing = theirs
        else:
            pairs = after_breaker_move(theirs, reply)
        stones = them if reply is None else them | 1 << reply
        if check(geometry, stones, after, pairs) is None:
            return reply, pairs
    from tui_tictactoe.engine.pairing_book import OPENINGS

    found = OPENINGS.get((geometry.size, geometry.win_length, them, after))
    if found is None:
        found = from_book(geometry, them, after, to_move=True)
    if found is None:
        found = certificate_for(geometry, them, after, REPLY_NODES)
    if found is None:
        return None
    reply, pairs = found
    stones = them if reply is None else them | 1 << reply
    return (reply, pairs) if check(geometry, stones, after, pairs) is None else None


def _answers_from_book(geometry: Geometry, me: int, them: int) -> tuple[Answer, ...] | None:
    """After the mover's first stones with none of the other's (`them` empty, to move): for
    every reply, the mover's answer and pairing from the shipped openings, the mover's
    stones beyond the book's one more each (a stone more never breaks a pairing: the pairs
    through it are dropped). None where any reply has none."""
    if them:
        return None
    from tui_tictactoe.engine.pairing_book import OPENINGS

    answers: list[Answer] = []
    for reply in range(geometry.cells):
        if me >> reply & 1:
            continue
        found = OPENINGS.get((geometry.size, geometry.win_length, 0, 1 << reply))
        if found is None:
            return None
        move, pairs = found
        if move is not None and me >> move & 1:
            move = None  # the book's answer is a stone the mover has already: any move keeps it
        for stone in range(geometry.cells):
            if me >> stone & 1:
                pairs = after_breaker_move(pairs, stone)
        stones = me if move is None else me | 1 << move
        if move is not None:
            pairs = after_breaker_move(pairs, move)
        if check(geometry, stones, 1 << reply, pairs) is not None:
            return None
        answers.append((reply, move, pairs))
    return tuple(answers)


def from_book(
    geometry: Geometry, breaker: int, other: int, to_move: bool
) -> tuple[int | None, Pairing] | None:
    """A shipped opening pairing (`pairing_book`) that holds here too, with the breaker's
    move (None: none needed): the breaker's extra stones drop the pairs through them, the
    other's extra stones must sit on no pair. With `to_move` False the book's move must be
    a stone the breaker has already. Each candidate is checked (`pairing.check`)."""
    from tui_tictactoe.engine.pairing_book import OPENINGS

    occupied = breaker | other
    for (size, length, _, _), (move, pairs) in OPENINGS.items():
        if (size, length) != (geometry.size, geometry.win_length):
            continue
        if move is not None and breaker >> move & 1:
            move = None  # the breaker holds the book's stone already
        if move is not None and (not to_move or occupied >> move & 1):
            continue
        kept = tuple(pair for pair in pairs if not (breaker >> pair[0] | breaker >> pair[1]) & 1)
        stones = breaker if move is None else breaker | 1 << move
        if move is not None:
            kept = after_breaker_move(kept, move)
        if check(geometry, stones, other, kept) is None:
            return move, kept
    return None


def why_not(geometry: Geometry, me: int, them: int) -> Proof | None:
    """For `me` to move ("why can't I win?"): the other side's pairing held now, so no move
    of `me` wins (`pairs`; `pairing.check`ed), or, where `me` wins by force, its line of
    fours (`line`); None where neither is found."""
    win = fours_line(geometry, me, them)
    if win is not None and check_line(geometry, me, them, win) is None:
        return Proof("fours", win)
    pairs = _position_pairing(geometry, them, me)
    if pairs is None:
        booked = from_book(geometry, them, me, to_move=False)
        pairs = None if booked is None else booked[1]
    return None if pairs is None else Proof("pairing", pairs=pairs)
