"""6x6 verdicts proven at once (`engine.proven`): over random positions of random play, every
proof shown checks (`pairing.check` for both pairings of a draw, `fours.check_line` for a win
or a loss), and a draw's pairings say what they claim: neither side's lines all stay open."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine.analysis import empty_cells
from tui_tictactoe.engine.fours import check_line
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.pairing import check
from tui_tictactoe.engine.proven import proven_moves, why_not

G6 = geometry(6, 5)


def random_position(seed: int, stones: int) -> tuple[int, int] | None:
    """(mover's stones, other's) after `stones` random moves with no line made, or None."""
    rng = random.Random(seed)
    sides = [0, 0]
    for number in range(stones):
        free = [cell for cell in range(36) if not (sides[0] | sides[1]) >> cell & 1]
        cell = rng.choice(free)
        sides[number % 2] |= 1 << cell
        if G6.completes_line(sides[number % 2], cell):
            return None
    mover = stones % 2
    return sides[mover], sides[1 - mover]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 14))
def test_every_proof_shown_on_a_random_position_checks(seed: int, stones: int) -> None:
    position = random_position(seed, stones)
    if position is None:
        return
    me, them = position
    cells = empty_cells(G6, me, them)
    for cell, (score, proof, _) in proven_moves(G6, me, them, cells).items():
        after = me | 1 << cell
        if proof.kind == "fours":
            assert proof.line[0] == cell
            if score > 0:
                assert check_line(G6, me, them, proof.line) is None
            else:  # the move, then the other side's line (its five, or its fours)
                assert check_line(G6, them, after, proof.line[1:]) is None
        else:
            assert proof.kind == "pairing" and score == 0
            stones_then = them if proof.reply is None else them | 1 << proof.reply
            assert check(G6, stones_then, after, proof.pairs) is None
            if proof.answers:
                for reply, move, pairs in proof.answers:
                    mine = after if move is None else after | 1 << move
                    assert check(G6, mine, them | 1 << reply, pairs) is None
            else:
                assert check(G6, after, them, proof.guard) is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 14))
def test_why_not_shows_a_pairing_or_a_line_that_checks(seed: int, stones: int) -> None:
    position = random_position(seed, stones)
    if position is None:
        return
    me, them = position
    found = why_not(G6, me, them)
    if found is None:
        return
    if found.kind == "pairing":
        assert check(G6, them, me, found.pairs) is None
    else:
        assert check_line(G6, me, them, found.line) is None
