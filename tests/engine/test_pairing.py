"""6x6, five in a row: pairing certificates (`engine.pairing`) and the hard AI that keeps them.

The checker is tested on its own (every shipped opening certificate and every certificate of
X's second move passes; each kind of broken one fails), then the AI: over random play
(hypothesis) every answer keeps a certificate the checker accepts and the AI never loses,
as X and as O; seeded matches against random, greedy, medium and a threat-making attacker
lose nothing. No timing here: the reply times are measured by benchmarks/bench_search.py
`--six`.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine.board import Cell, GameBoard, other
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.fours import win_by_fours, winning_fours
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.lines import centre_first, completions
from tui_tictactoe.engine.pairing import (
    Pairing,
    after_breaker_move,
    answer,
    certificate_for,
    check,
    find_pairing,
    partner,
)
from tui_tictactoe.engine.pairing_book import OPENINGS
from tui_tictactoe.engine.strategies import (
    HasSymbol,
    MinimaxStrategy,
    MoveStrategy,
    RandomStrategy,
)

G6 = geometry(6, 5)


def shipped() -> list[tuple[int, int, Pairing]]:
    """(breaker's stones after its move, other's stones, pairs) of every shipped opening."""
    found = []
    for (size, length, me, them), (move, pairs) in OPENINGS.items():
        assert (size, length) == (6, 5)
        found.append((me if move is None else me | 1 << move, them, pairs))
    return found


def second_moves() -> list[tuple[int, int, Pairing]]:
    """X opened at (2,2): for each of O's 35 replies, X's answer and its pairing."""
    x = 1 << G6.index(2, 2)
    found = []
    for cell in range(G6.cells):
        if x >> cell & 1:
            continue
        certificate = certificate_for(G6, x, 1 << cell, order=centre_first(G6))
        assert certificate is not None, f"no certificate after O at {G6.coords(cell)}"
        move, pairs = certificate
        found.append((x if move is None else x | 1 << move, 1 << cell, pairs))
    return found


CERTIFICATES = shipped() + second_moves()


# -- the checker -----------------------------------------------------------------------------


def test_the_shipped_openings_cover_the_empty_board_and_every_first_stone() -> None:
    assert len(OPENINGS) == 37
    assert (6, 5, 0, 0) in OPENINGS
    assert {them for _, _, _, them in OPENINGS} == {0} | {1 << cell for cell in range(36)}


@pytest.mark.parametrize("me, them, pairs", CERTIFICATES)
def test_every_stored_and_opening_certificate_passes_the_checker(
    me: int, them: int, pairs: Pairing
) -> None:
    assert check(G6, me, them, pairs) is None
    # O's certificates after X's first stone have 14-15 pairs, as the literature says.
    if me.bit_count() == 1 and them.bit_count() == 1 and me != 1 << G6.index(2, 2):
        assert 14 <= len(pairs) <= 15


def lines_only_held_by(pairs: Pairing, me: int, index: int) -> bool:
    """Whether some line open to the other side holds pair `index` and no other pair."""
    a, b = pairs[index]
    for line in G6.line_masks:
        if line & me or not (line >> a & 1 and line >> b & 1):
            continue
        others = [p for i, p in enumerate(pairs) if i != index]
        if not any(line >> x & 1 and line >> y & 1 for x, y in others):
            return True
    return False


@pytest.mark.parametrize("me, them, pairs", CERTIFICATES[:12])
def test_each_mutation_of_a_certificate_fails_the_check(me: int, them: int, pairs: Pairing) -> None:
    (a, b), (c, d) = pairs[0], pairs[1]
    overlapping = ((a, b), (b, d), *pairs[2:])
    assert "shares a cell" in str(check(G6, me, them, overlapping))
    assert "holds a stone" in str(check(G6, me, them | 1 << a, pairs))
    assert "holds a stone" in str(check(G6, me | 1 << d, them, pairs))
    assert "not two distinct cells" in str(check(G6, me, them, ((a, a), *pairs[1:])))
    assert "not two distinct cells" in str(check(G6, me, them, ((a, 36), *pairs[1:])))
    needed = [i for i in range(len(pairs)) if lines_only_held_by(pairs, me, i)]
    assert needed, "some pair must be the only one on a line"
    for index in needed:
        dropped = pairs[:index] + pairs[index + 1 :]
        assert "holds no pair" in str(check(G6, me, them, dropped))
    # A pair split into two cells of different lines covers nothing it covered.
    assert check(G6, me, them, ((a, c), (b, d), *pairs[2:])) is not None or not needed


def test_no_pairing_holds_where_the_other_side_already_has_four() -> None:
    four = sum(1 << G6.index(0, col) for col in range(4))
    assert find_pairing(G6, 1 << G6.index(5, 5), four) is None
    assert check(G6, 0, four, ()) is not None


def test_the_answer_rule_partner_then_free() -> None:
    me, them, pairs = CERTIFICATES[1]
    a, b = pairs[0]
    assert partner(pairs, a) == b and partner(pairs, b) == a
    free = next(
        cell for cell in range(36) if not (me | them) >> cell & 1 and partner(pairs, cell) is None
    )
    assert partner(pairs, free) is None
    # The other side takes a pair cell: the answer is its partner, and the rest still holds.
    move = answer(G6, me, them | 1 << a, (me, them, pairs), lambda empties, held: -1)
    assert move is not None and (move.cell, move.how) == (b, "partner")
    assert check(G6, me | 1 << b, them | 1 << a, move.pairs) is None
    # It takes a free cell: any move of the breaker keeps a pairing, even one on a pair.
    move = answer(G6, me, them | 1 << free, (me, them, pairs), lambda empties, held: a)
    assert move is not None and (move.cell, move.how) == (a, "free")
    assert move.pairs == after_breaker_move(pairs, a)
    assert check(G6, me | 1 << a, them | 1 << free, move.pairs) is None


# -- the hard AI -----------------------------------------------------------------------------


def winning(board: GameBoard, symbol: str) -> list[tuple[int, int]]:
    me, them = board.masks_for(symbol)
    found = completions(G6.line_masks, me, them)
    return [G6.coords(cell) for cell in range(36) if found >> cell & 1]


class Greedy(RandomStrategy):
    """Wins if it can, else blocks, else plays at random."""

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        symbol = player if isinstance(player, str) else player.symbol
        for cells in (winning(board, symbol), winning(board, other(symbol))):
            if cells:
                return self.rng.choice(cells)
        return super().find_best_move(board, symbol)


class Attacker(RandomStrategy):
    """Makes threats: a win by fours if it sees one, else blocks, else the cell on the most
    of its own open lines (more stones weigh more)."""

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        symbol = player if isinstance(player, str) else player.symbol
        me, them = board.masks_for(symbol)
        win = winning_fours(G6, me, them)
        if win is not None:
            return G6.coords(win)
        blocks = winning(board, other(symbol))
        if blocks:
            return self.rng.choice(blocks)
        empty = [cell for cell in range(36) if not (me | them) >> cell & 1]

        def worth(cell: int) -> int:
            return sum(
                8 ** (line & me).bit_count() for line in G6.lines_through[cell] if not line & them
            )

        top = max(worth(cell) for cell in empty)
        return G6.coords(self.rng.choice([cell for cell in empty if worth(cell) == top]))


def play_checked(ai_symbol: str, opponent: MoveStrategy, rng: random.Random) -> str:
    """One game of the hard AI; after each of its moves the pairing it holds is checked."""
    ai = MinimaxStrategy(rng=rng)
    board, mover = GameBoard(G6), "X"
    while board.outcome() is None:
        if mover == ai_symbol:
            cell = ai.find_best_move(board, mover)
            board.make_move(*cell, mover)
            decision = ai.last_decision
            assert decision is not None and decision.proof in ("pairing", "fours")
            # The pairing kept is checked (a win by fours may drop it: pairs then empty).
            if (decision.proof == "pairing" or decision.pairs) and board.outcome() is None:
                me, them = board.masks_for(mover)
                assert check(G6, me, them, decision.pairs) is None
        else:
            board.make_move(*opponent.find_best_move(board, mover), mover)
        mover = other(mover)
    outcome = board.outcome()
    assert outcome is not None, "the game was played to its end"
    winner = outcome.winner
    return "draw" if winner is None else "win" if winner == ai_symbol else "loss"


class Scripted(RandomStrategy):
    """Plays the empty cell its next number picks (hypothesis draws the numbers)."""

    def __init__(self, picks: list[int]) -> None:
        super().__init__(random.Random(0))
        self.picks = picks

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        moves = board.legal_moves()
        pick = self.picks.pop() if self.picks else 0
        return moves[pick % len(moves)]


@settings(deadline=None, max_examples=40)
@given(
    ai_symbol=st.sampled_from(["X", "O"]),
    picks=st.lists(st.integers(0, 35), min_size=18, max_size=18),
    seed=st.integers(0, 2**16),
)
def test_over_random_play_the_hard_ai_keeps_a_certificate_and_never_loses(
    ai_symbol: str, picks: list[int], seed: int
) -> None:
    assert play_checked(ai_symbol, Scripted(picks), random.Random(seed)) != "loss"


OPPONENTS = {
    "random": lambda rng: RandomStrategy(rng),
    "greedy": lambda rng: Greedy(rng),
    "medium": lambda rng: MinimaxStrategy(depth=2, rng=rng),
    "attacker": lambda rng: Attacker(rng),
}


@pytest.mark.parametrize("kind", sorted(OPPONENTS))
def test_seeded_matches_lose_nothing_as_x_and_as_o(kind: str) -> None:
    results = []
    for game in range(20):
        rng = random.Random(f"pairing-{kind}-{game}")
        results.append(play_checked("XO"[game % 2], OPPONENTS[kind](rng), rng))
    assert results.count("loss") == 0
    if kind in ("random", "medium"):
        assert results.count("win") >= 5  # it still wins: the fours and the free moves


def test_a_position_it_did_not_reach_is_searched_and_one_without_a_pairing_falls_back() -> None:
    # Set up by hand (a take-back, say): the AI finds a certificate for it.
    board = GameBoard(G6)
    for (row, col), symbol in (((2, 2), "X"), ((3, 3), "O"), ((0, 0), "X"), ((5, 5), "O")):
        board.make_move(row, col, symbol)
    ai = MinimaxStrategy(rng=random.Random(1))
    cell = ai.find_best_move(board, "X")
    decision = ai.last_decision
    assert decision is not None and decision.proof == "pairing"
    board.make_move(*cell, "X")
    me, them = board.masks_for("X")
    assert check(G6, me, them, decision.pairs) is None
    # The other side has an open four: no pairing exists, the bounded search decides.
    board = GameBoard(G6)
    for col in range(1, 5):
        board.make_move(2, col, "O")
    for cell in ((0, 0), (5, 5), (0, 5)):
        board.make_move(*cell, "X")
    ai = MinimaxStrategy(rng=random.Random(1))
    ai.find_best_move(board, "X")
    decision = ai.last_decision
    assert decision is not None and decision.proof is None
    assert decision.verdict.outcome == "loss"


def test_easy_and_medium_keep_their_horizons_on_6x6() -> None:
    board = GameBoard(G6)
    board.make_move(2, 2, "X")
    for depth in (1, 2):
        ai = MinimaxStrategy(depth=depth, rng=random.Random(0))
        ai.find_best_move(board, "O")
        decision = ai.last_decision
        assert decision is not None and decision.proof is None and decision.depth == depth


def test_a_3x3_game_does_not_import_the_pairing_modules() -> None:
    code = (
        "import sys\n"
        "from tui_tictactoe.engine import GameBoard, MinimaxStrategy\n"
        "MinimaxStrategy().find_best_move(GameBoard(), 'X')\n"
        "print(sorted(m for m in sys.modules if m.endswith(('pairing', 'pairing_book', 'fours'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the wins by fours -----------------------------------------------------------------------


def test_fours_find_a_double_four_and_not_a_win_that_is_not_there() -> None:
    me = sum(1 << G6.index(2, col) for col in (1, 2, 3))  # three in the middle of row 2
    them = 1 << G6.index(5, 5)
    win = winning_fours(G6, me, them)
    assert win is not None and G6.coords(win) == (2, 4)  # 1..4: two fours (0 and 5)
    assert win_by_fours(G6, me, them) == (win, 3)  # the four, the block, the five
    assert win_by_fours(G6, me | 1 << win, them) == (G6.index(2, 0), 1)
    assert winning_fours(G6, 0, 0) is None
    # The other side has a four of its own: a four of mine elsewhere does not win.
    four = sum(1 << G6.index(5, col) for col in range(4))
    assert winning_fours(G6, me, four) is None


@settings(deadline=None, max_examples=200)
@given(seed=st.integers(0, 2**32), mine=st.integers(4, 9), theirs=st.integers(3, 9))
def test_a_win_by_fours_wins_against_every_defence(seed: int, mine: int, theirs: int) -> None:
    """Played out: after each four the defender's only move that does not lose at once is the
    block, and it cannot win first; the attacker finds its next four again, and wins. The
    positions are random stones, the attacker's often more (so wins by fours are common), the
    defender's sometimes a four of its own."""
    cells = random.Random(seed).sample(range(36), mine + theirs)
    me = sum(1 << cell for cell in cells[:mine])
    them = sum(1 << cell for cell in cells[mine:])
    if G6.winning_line(me) or G6.winning_line(them):
        return
    cell = winning_fours(G6, me, them)
    if cell is None:
        return
    for _ in range(18):
        assert cell is not None, "the attacker lost its win by fours"
        me |= 1 << cell
        if G6.completes_line(me, cell):
            return  # won
        assert not completions(G6.line_masks, them, me), "the defender could win first"
        forced = completions(G6.line_masks, me, them)
        assert forced, "a move of the win by fours made no four"
        them |= forced & -forced  # the block (with two fours, one block: the other wins)
        cell = winning_fours(G6, me, them)
    raise AssertionError("no win within 18 fours")
