"""`TeachingAids`: hints and the big board's analysis for the person to move, as the
controller hands them out (a base of `GameController`, over its board and turn).

Apart from the turns: what is asked of the engine to teach, and when there is nothing to
teach (the AI's turn, the round over, a game between people).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.analysis import Analysis, MoveScorer, analyse, empty_cells
from ..engine.board import Cell, GameBoard, Symbol, other
from ..engine.geometry import Geometry
from ..engine.known import known_best
from ..engine.players import Player
from ..engine.strategies import search_of
from .teaching import (
    AnalysisFound,
    AnalysisRequest,
    AnalysisRun,
    HintRequest,
    HintStrategy,
    perfect_hint,
)


class TeachingAids:
    """Hints and the analysis overlay. The game supplies the state they read."""

    # Supplied by `GameController`: its fields, and (for the type checker only, so that
    # the game's own properties are what runs) its read-only properties.
    board: GameBoard
    rng: random.Random
    generation: int
    current_player: Player

    if TYPE_CHECKING:

        @property
        def game_over(self) -> bool: ...
        @property
        def is_human_turn(self) -> bool: ...
        @property
        def between_people(self) -> bool: ...
        @property
        def human_symbol(self) -> Symbol: ...
        @property
        def stale(self) -> Callable[[], bool]: ...

    def _init_teaching(self) -> None:
        # The engine behind the big boards' hints and analysis (tests hold it at a gate).
        self.hint_strategy: HintStrategy = perfect_hint
        self.analysis_search: Callable[[Geometry], MoveScorer] = search_of
        self.hinted: Cell | None = None  # the hint given for the position now
        self._analysis: AnalysisRun | None = None  # the big board's overlay, as found
        self._hint_stop = threading.Event()  # set when a newer hint search takes over

    @property
    def _teaches(self) -> bool:
        """A person plays the AI and it is their turn: hints and the overlay are for them."""
        return self.is_human_turn and not self.between_people

    def analysis(self) -> Analysis:
        """Verdicts of every move for the side to move now (none once the round is over)."""
        # After the last move the turn does not pass, so the side to move is the other one.
        mover = self.current_player.symbol
        return analyse(self.board, other(mover) if self.game_over else mover)

    @property
    def analysis_ready(self) -> bool:
        """`analysis()` is instant on every 3x3 position only: on the big boards the game screen
        runs `analysis_request` in a thread (one reply where every verdict is known, as in the
        5x5 opening; else one per searched cell)."""
        return self.board.geometry.cells <= 9

    def hint(self) -> Cell | None:
        """A best move for the human (random among equals, from the seeded RNG); None off-turn,
        between people and on boards bigger than 3x3 (see `analysis_ready`)."""
        if not self._teaches or not self.analysis_ready:
            return None
        best = self.analysis().best
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def hint_request(self) -> HintRequest | None:
        """A hint to ask for now (None off the human's turn): answered already where the
        engine knows the best moves without searching (3x3, `hint`; the 5x5 opening: the
        stored scores, the book); else a search for a thread, which stops the one before."""
        if not self._teaches:
            return None
        board, symbol = self.board.copy(), self.human_symbol
        if self.analysis_ready:
            return HintRequest(self.generation, board, symbol, None, self.hint())
        # The AI's random tie-breaks stay the AI's: the hint draws its own seed, from
        # the game's seeded RNG, so a seeded game's hints are repeatable too.
        rng = random.Random(self.rng.random())
        me, them = board.masks_for(symbol)
        geometry = board.geometry
        known = known_best(geometry, me, them, empty_cells(geometry, me, them))
        if known:
            return HintRequest(
                self.generation, board, symbol, None, geometry.coords(rng.choice(known))
            )
        strategy = self.hint_strategy(rng)
        self._hint_stop.set()
        self._hint_stop = threading.Event()
        stop, stale = self._hint_stop.is_set, self.stale
        cancelled = lambda: stop() or stale()  # noqa: E731
        return HintRequest(self.generation, board, symbol, strategy, None, cancelled)

    def analysis_request(self) -> AnalysisRequest | None:
        """A search for the big board's overlay on the human's turn, unless one for this
        position is under way or done; None on 3x3, where `analysis()` answers at once, and
        where every verdict is known at once (the 5x5 opening: `analysis_found` is whole)."""
        run = self._analysis
        if self.analysis_ready or not self._teaches:
            return None
        if run and run.live(self.generation):
            return None
        self._analysis = AnalysisRun(self.generation, self.board.copy(), self.human_symbol)
        if self._analysis.whole:  # known at once (the 5x5 opening): `analysis_found` has it
            return None
        return self._analysis.request(self.analysis_search, self.stale)

    @property
    def analysis_found(self) -> AnalysisFound | None:
        """The big board's overlay as far as found, for the position now (else None)."""
        run = self._analysis
        return run.found() if run is not None and run.live(self.generation) else None

    def stop_analysis(self) -> None:
        """The overlay is off (or waits for the human's turn): its search stops, and
        starts over when it is shown again."""
        if self._analysis is not None:
            self._analysis.stop.set()
