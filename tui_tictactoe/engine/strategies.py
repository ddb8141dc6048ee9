"""How an AI picks its move: the `MoveStrategy` interface and minimax behind it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from time import perf_counter
from typing import TYPE_CHECKING, Literal, NamedTuple

from .board import SYMBOLS, Cell, GameBoard
from .solver import NodeCounter, Solver, Verdict, limited_scores, shared_solver

if TYPE_CHECKING:
    from .players import Player

Difficulty = Literal["easy", "medium", "hard"]

# How many plies each level looks ahead; None searches to the end of the game.
# easy sees only its own winning moves, medium also blocks the opponent's.
DIFFICULTY_DEPTHS: dict[str, int | None] = {"easy": 1, "medium": 2, "hard": None}
DIFFICULTIES: tuple[str, ...] = tuple(DIFFICULTY_DEPTHS)


class MoveStrategy(ABC):
    """Chooses a move for `player` on `board` without changing the board."""

    @abstractmethod
    def find_best_move(self, board: GameBoard, player: Player | str) -> Cell:
        """Return (row, col) of an empty cell; ValueError if the game is already over."""


class Decision(NamedTuple):
    """What the AI did last and what it cost, for the "how the AI thinks" panel."""

    move: Cell
    verdict: Verdict  # of the chosen move under perfect play from both sides
    positions_searched: int  # new positions this decision had to search (0: all from memory)
    seconds: float
    plain_nodes: int  # nodes a plain minimax (no pruning, no memory) visits to the same depth
    depth: int | None  # plies looked ahead, None = to the end of the game


class MinimaxStrategy(MoveStrategy):
    """Minimax that prefers faster wins and slower losses, ties broken at random.

    With `depth=None` (the default) it searches to the end of the game through a
    shared solved table and plays perfectly; a small `depth` makes it shortsighted,
    which is how the easier levels are made. Pass a seeded `random.Random` for
    repeatable games.
    """

    def __init__(
        self,
        depth: int | None = None,
        rng: random.Random | None = None,
        solver: Solver | None = None,
    ) -> None:
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.depth = depth
        self.rng = rng if rng is not None else random.Random()
        self._solver = solver
        self._last: tuple[int, int, int, int, float] | None = None

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = shared_solver()
        return self._solver

    def find_best_move(self, board: GameBoard, player: Player | str) -> Cell:
        symbol = player if isinstance(player, str) else player.symbol
        if symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {symbol!r}: use X or O")
        start = perf_counter()
        me, them = board.masks_for(symbol)
        if self.depth is None:
            solver = self.solver
            known = len(solver)
            best = solver.entry(me, them)[2]
            searched = len(solver) - known
        else:
            if board.is_game_over():
                raise ValueError("the game is over: there is no move to make")
            counter = NodeCounter()
            scores = limited_scores(me, them, self.depth, board.geometry, counter)
            top = max(score for _, score in scores)
            best = tuple(cell for cell, score in scores if score == top)
            searched = counter.nodes
        cell = best[0] if len(best) == 1 else self.rng.choice(best)
        self._last = (me, them, cell, searched, perf_counter() - start)
        return board.geometry.coords(cell)

    @property
    def last_decision(self) -> Decision | None:
        """Details of the last move chosen (computed on demand, off the hot path)."""
        if self._last is None:
            return None
        me, them, cell, searched, seconds = self._last
        solver = self.solver
        scores = dict(solver.entry(me, them)[1])
        empties = solver.geometry.cells - (me | them).bit_count()
        return Decision(
            move=solver.geometry.coords(cell),
            verdict=Verdict.from_score(scores[cell], empties),
            positions_searched=searched,
            seconds=seconds,
            plain_nodes=solver.tree_size(me, them, self.depth),
            depth=self.depth,
        )


class RandomStrategy(MoveStrategy):
    """Plays any empty cell, uniformly: the weakest opponent, for tests and practice."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def find_best_move(self, board: GameBoard, player: Player | str) -> Cell:
        symbol = player if isinstance(player, str) else player.symbol
        if symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {symbol!r}: use X or O")
        moves = board.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to make")
        return self.rng.choice(moves)


def strategy_for(difficulty: str, rng: random.Random | None = None) -> MinimaxStrategy:
    """The minimax strategy of a named level (`easy`, `medium`, `hard`)."""
    try:
        depth = DIFFICULTY_DEPTHS[difficulty]
    except KeyError:
        raise ValueError(
            f"unknown difficulty {difficulty!r}: choose from {', '.join(DIFFICULTIES)}"
        ) from None
    return MinimaxStrategy(depth=depth, rng=rng)
