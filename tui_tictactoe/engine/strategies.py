"""How an AI picks its move: the `MoveStrategy` interface and minimax behind it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from time import perf_counter
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol, cast

from tui_tictactoe.engine.board import SYMBOLS, Cell, GameBoard
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.geometry import STANDARD, Geometry, geometry, is_bounded
from tui_tictactoe.engine.solver import NodeCounter, Solver, Verdict, limited_scores, shared_solver

if TYPE_CHECKING:
    from tui_tictactoe.engine.bounded import BoundedSearch
    from tui_tictactoe.engine.pairing import Held, Pairing
    from tui_tictactoe.engine.search import Search

Difficulty = Literal["easy", "medium", "hard"]

# How many plies each level looks ahead; None searches to the end of the game.
# easy sees only its own winning moves, medium also blocks the opponent's.
DIFFICULTY_DEPTHS: dict[str, int | None] = {"easy": 1, "medium": 2, "hard": None}
DIFFICULTIES: tuple[str, ...] = tuple(DIFFICULTY_DEPTHS)


def search_of(geometry: Geometry) -> Search | BoundedSearch:
    """The one shared search of `geometry`: exact up to 5x5 (`search.shared_search`), bounded
    by a second on bigger boards (`bounded.shared_bounded`). The modules are imported here,
    on first use, so a 3x3 game, which never searches, does not load them: its start-up
    paid ~10M instructions for it."""
    from tui_tictactoe.engine.bounded import shared_bounded

    if is_bounded(geometry):
        return shared_bounded(geometry)
    from tui_tictactoe.engine.search import shared_search

    return shared_search(geometry)


class HasSymbol(Protocol):
    """Whoever a strategy plays for: any `Player`, or anything else that has a symbol."""

    @property
    def symbol(self) -> str: ...


def symbol_of(player: HasSymbol | str) -> str:
    """The symbol a strategy plays, given a player or the symbol itself; ValueError if unknown."""
    symbol = player if isinstance(player, str) else player.symbol
    if symbol not in SYMBOLS:
        raise ValueError(f"unknown symbol {symbol!r}: use X or O")
    return symbol


class MoveStrategy(ABC):
    """Chooses a move for `player` on `board` without changing the board.

    One protocol for every strategy: `cancelled` is always passed along (None when
    nobody can cancel). A long search polls it and gives up with `SearchCancelled`;
    a strategy that answers at once may ignore it. Callers never inspect a strategy
    to decide how to call it: that cost 12 µs a move.
    """

    @abstractmethod
    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        """Return (row, col) of an empty cell; ValueError if the game is already over."""


class Decision(NamedTuple):
    """What the AI did last and what it cost, for the "how the AI thinks" panel."""

    move: Cell
    verdict: Verdict  # of the chosen move under perfect play from both sides
    positions_searched: int  # new positions this decision had to search (0: all from memory)
    seconds: float
    # Nodes a plain minimax (no pruning, no memory) visits to the same depth; None where
    # that tree is too big to count (a perfect search on 4x4 and 5x5).
    plain_nodes: int | None
    depth: int | None  # plies looked ahead (6x6: free moves, forced blocks not counted),
    # None = to the end of the game
    # What proves the verdict where no search does (6x6): "pairing" (the move keeps the
    # pairing in `pairs`: at least a draw), "fours" (a forced win by fours), else None.
    proof: str | None = None
    pairs: tuple[tuple[int, int], ...] = ()  # the pairing held after the move (cell indices)
    line: tuple[int, ...] = ()  # the line of play, this move first (cell indices; see
    # `principal.line_of_play`): read on demand from the search's memory, off the hot path


BOOK_GEOMETRY = geometry(5, 4)
"""The board shape the shipped opening book (`opening_book.py`) was built for."""


class MinimaxStrategy(MoveStrategy):
    """Minimax that prefers faster wins and slower losses, ties broken at random.

    With `depth=None` (the default) it searches to the end of the game and plays
    perfectly; a small `depth` makes it shortsighted, which is how the easier
    levels are made. Pass a seeded `random.Random` for repeatable games.

    It plays on the board's own geometry. 3x3 goes through the shared solved
    table (`solver`); bigger boards through the pruning `Search` (`search`),
    which on 5x5 asks the opening book first. On 6x6 the perfect level keeps a pairing
    certificate (`pairing`: it cannot lose) and wins by fours where it sees them (`fours`);
    the bounded search (`bounded`) decides only where no pairing is found, or with
    `pairings=False`. A search on a big board can take
    a while: `find_best_move(..., cancelled=event.is_set)` abandons it with
    `SearchCancelled` as soon as `cancelled()` returns True.
    """

    def __init__(
        self,
        depth: int | None = None,
        rng: random.Random | None = None,
        solver: Solver | None = None,
        search: Search | BoundedSearch | None = None,
        book: dict[int, tuple[int, tuple[int, ...]]] | None = None,
        pairings: bool = True,
    ) -> None:
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.depth = depth
        self.rng = rng if rng is not None else random.Random()
        self._solver = solver
        self._search = search
        self._book = book
        self.pairings = pairings  # False: 6x6 by the bounded search alone, as before pairings
        self._last: tuple[int, int, int, int, float] | Decision | None = None
        self._before: tuple[int, int] = (0, 0)  # the position of the last decision
        self._last_geometry: Geometry = STANDARD
        self._held: Held | None = None  # 6x6: the pairing made at this strategy's last move

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = shared_solver()
        return self._solver

    def search_for(self, geometry: Geometry) -> Search | BoundedSearch:
        """The search used on boards of `geometry` (the shared one unless one was given)."""
        if self._search is not None and self._search.geometry == geometry:
            return self._search
        return search_of(geometry)

    def book_for(self, geometry: Geometry) -> dict[int, tuple[int, tuple[int, ...]]]:
        """The opening book for `geometry`: the shipped one on 5x5, else empty."""
        if self._book is not None:
            return self._book
        if geometry != BOOK_GEOMETRY:
            return {}
        from tui_tictactoe.engine.opening_book import (
            BOOK,  # imported on first use: 3x3 never pays for it
        )

        return BOOK

    def _uses_table(self, geometry: Geometry) -> bool:
        """3x3 (or the shape of a solver given) goes through the solved table."""
        if self._solver is not None:
            return self._solver.geometry == geometry
        return geometry == STANDARD

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        """The move to play; `cancelled` (polled during long searches) stops it early.

        Raises ValueError if the game is over, `SearchCancelled` if cancelled.
        """
        symbol = symbol_of(player)
        if self._uses_table(board.geometry):
            return self._table_move(board, symbol)
        return self._search_move(board, symbol, cancelled)

    def _table_move(self, board: GameBoard, symbol: str) -> Cell:
        """3x3: one shared solved table; details of the decision are worked out on demand."""
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

    def _search_move(self, board: GameBoard, symbol: str, cancelled: Cancelled | None) -> Cell:
        """4x4 and 5x5: the book, else the pruning search (or a short horizon)."""
        if board.is_game_over():
            raise ValueError("the game is over: there is no move to make")
        start = perf_counter()
        geometry = board.geometry
        me, them = board.masks_for(symbol)
        empties = geometry.cells - (me | them).bit_count()
        plain: int | None = None
        horizon = self.depth
        if self.depth is not None:
            counter = NodeCounter()
            scores = limited_scores(me, them, self.depth, geometry, counter)
            top = max(score for _, score in scores)
            cell = self.rng.choice([cell for cell, score in scores if score == top])
            searched = counter.nodes
            plain = tree_size(me, them, geometry, self.depth)
        elif (
            self.pairings
            and is_bounded(geometry)
            and (proven := self._proven_move(geometry, me, them))
        ):
            self._last = proven._replace(seconds=perf_counter() - start)
            return proven.move
        else:
            search = self.search_for(geometry)
            entry = search.book_entry(self.book_for(geometry), me, them)
            if entry is not None:
                top, moves = entry
                cell = moves[0] if len(moves) == 1 else self.rng.choice(moves)
                searched = 0
            else:
                cell, top = search.best_move(me, them, self.rng, cancelled)
                searched = search.last_nodes
                if is_bounded(geometry):  # 6x6: as deep as the budget let it
                    horizon = cast("BoundedSearch", search).last_depth
        self._before = (me, them)
        self._last_geometry = geometry
        self._last = Decision(
            move=geometry.coords(cell),
            verdict=Verdict.from_score(top, empties, not is_bounded(geometry)),
            positions_searched=searched,
            seconds=perf_counter() - start,
            plain_nodes=plain,
            depth=horizon,
        )
        return geometry.coords(cell)

    def _proven_move(self, geometry: Geometry, me: int, them: int) -> Decision | None:
        """6x6: a win in one or by fours, else the move of a pairing (`pairing.answer`), the
        partner first; None where no pairing is found (the bounded search then decides).
        A free move goes to the forced win by fours if one is found, else to the cell on
        the most of this side's open lines: any free move keeps the pairing."""
        from tui_tictactoe.engine.fours import fours_line
        from tui_tictactoe.engine.lines import centre_first
        from tui_tictactoe.engine.pairing import after_breaker_move, answer, check

        empties = geometry.cells - (me | them).bit_count()
        win = fours_line(geometry, me, them)
        if win is not None:
            cell, plies = win[0], len(win)
            # The fours win even where they leave the pairing; it is kept where it still holds
            # (the partner answers if a later four is not found).
            held = self._held
            pairs = () if held is None else after_breaker_move(held[2], cell)
            if held is None or check(geometry, me | 1 << cell, them, pairs) is not None:
                self._held, pairs = None, ()
            else:
                self._held = (me | 1 << cell, them, pairs)
            verdict = Verdict("win", plies, shortest=plies <= 3)
            return self._proven(geometry, cell, verdict, "fours", pairs, win)

        def free_move(free: int, pairs: Pairing) -> int:
            return self._free_move(geometry, me, them, free)

        move = answer(geometry, me, them, self._held, free_move, order=centre_first(geometry))
        if move is None:
            self._held = None
            return None
        self._held = (me | 1 << move.cell, them, move.pairs)
        verdict = Verdict("draw", empties)
        return self._proven(geometry, move.cell, verdict, "pairing", move.pairs, (move.cell,))

    def _free_move(self, geometry: Geometry, me: int, them: int, free: int) -> int:
        """The empty cell on the most open lines of this side (more stones weigh more),
        then those of the other side; ties at random."""
        best: list[int] = []
        top = -1
        for cell in range(geometry.cells):
            if not free >> cell & 1:
                continue
            worth = 0
            for line in geometry.lines_through[cell]:
                if not line & them:
                    worth += 4 ** (line & me).bit_count() * 2
                if not line & me:
                    worth += 4 ** (line & them).bit_count()
            if worth > top:
                best, top = [cell], worth
            elif worth == top:
                best.append(cell)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _proven(
        self,
        geometry: Geometry,
        cell: int,
        verdict: Verdict,
        proof: str,
        pairs: Pairing,
        line: tuple[int, ...],
    ) -> Decision:
        return Decision(
            move=geometry.coords(cell),
            verdict=verdict,
            positions_searched=0,
            seconds=0.0,
            plain_nodes=None,
            depth=None,
            proof=proof,
            pairs=pairs,
            line=line,
        )

    @property
    def last_decision(self) -> Decision | None:
        """Details of the last move chosen (computed on demand on 3x3, off the hot path).

        On bigger boards the decision is recorded as the move is chosen; there the
        verdict of a shortsighted level is what it saw within its horizon (a "draw"
        means it saw nothing forced), and `plain_nodes` is None for a perfect search.
        """
        from tui_tictactoe.engine.principal import line_of_play  # on demand only

        if self._last is None:
            return None
        if isinstance(self._last, Decision):
            decision = self._last
            if not decision.line and self.depth is None:
                shape = self._last_geometry
                me, them = self._before
                cell = shape.index(*decision.move)
                plies = None if decision.verdict.outcome == "draw" else decision.verdict.plies
                decision = self._last = decision._replace(
                    line=line_of_play(shape, me, them, cell, plies)
                )
            return decision
        me, them, cell, searched, seconds = self._last
        solver = self.solver
        scores = dict(solver.entry(me, them)[1])
        empties = solver.geometry.cells - (me | them).bit_count()
        verdict = Verdict.from_score(scores[cell], empties)
        plies = None if verdict.outcome == "draw" else verdict.plies
        line = line_of_play(solver.geometry, me, them, cell, plies) if self.depth is None else ()
        return Decision(
            move=solver.geometry.coords(cell),
            verdict=verdict,
            positions_searched=searched,
            seconds=seconds,
            plain_nodes=solver.tree_size(me, them, self.depth),
            depth=self.depth,
            line=line,
        )


class RandomStrategy(MoveStrategy):
    """Plays any empty cell, uniformly: the weakest opponent, for tests and practice."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        symbol_of(player)  # an unknown symbol is refused here as by every strategy
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


def tree_size(me: int, them: int, geometry: Geometry, depth: int) -> int:
    """Nodes a plain minimax visits looking `depth` plies ahead (finished leaves counted).

    Counted by walking the tree, so only for the short horizons of the easy levels.
    """
    occupied = me | them
    empties = geometry.cells - occupied.bit_count()
    size = 1
    for cell in range(geometry.cells):
        if occupied >> cell & 1:
            continue
        mine = me | 1 << cell
        if depth == 1 or empties == 1 or geometry.completes_line(mine, cell):
            size += 1
        else:
            size += tree_size(them, mine, geometry, depth - 1)
    return size
