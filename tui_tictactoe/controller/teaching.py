"""Hints and the big-board analysis as data: requests the game's `Teacher` hands out, like the AI's.

The `Teacher` is a part the controller owns (`GameController.teacher`): it reads the game
through one `Lesson` (the board, the side to move, whom to teach, the generation), never
the controller itself. Each request carries what its search needs (its own copy of the
board, the side to help, the engine to ask) and the generation of the position it was
asked about, so its `compute()` can run on any thread without touching the game. The controller
applies a reply only while that generation is current (`GameController.apply`, the
one place where any background job's reply is judged stale).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from tui_tictactoe.controller.ai_turn import AIReply, AIRequest
from tui_tictactoe.engine.analysis import (
    Analysis,
    MoveScorer,
    Scored,
    analyse,
    empty_cells,
    known_scored,
    move_scores,
    verdicts,
)
from tui_tictactoe.engine.board import Cell, GameBoard, Symbol
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.known import Scores, known_best, known_scores
from tui_tictactoe.engine.strategies import MinimaxStrategy, MoveStrategy, search_of

if TYPE_CHECKING:
    from tui_tictactoe.engine.proof import Proof

HintStrategy = Callable[[random.Random], MoveStrategy]
"""Makes the search behind a big board's hint, from the hint's own seeded RNG."""


def perfect_hint(rng: random.Random) -> MoveStrategy:
    """The game's hint on the big boards: the perfect search (with the 5x5 opening book)."""
    return MinimaxStrategy(rng=rng)


class HintReply(NamedTuple):
    """A best move for the human in one generation's position."""

    generation: int
    cell: Cell | None
    cancelled: bool = False  # the search gave up: the position moved on, drop this reply


class HintRequest(NamedTuple):
    """Find a best move for `symbol` on `board` (a private copy).

    On 3x3 the solved table has answered already (`known`, drawn from the game's
    seeded RNG when it was asked, as ever): `instant` tells the UI it needs no thread.
    """

    generation: int
    board: GameBoard
    symbol: Symbol
    strategy: MoveStrategy | None  # None: `known` is the answer
    known: Cell | None = None
    # Polled by the search (4x4, 5x5); True once the controller has moved on.
    cancelled: Cancelled | None = None

    @property
    def instant(self) -> bool:
        return self.strategy is None

    def compute(self) -> HintReply:
        """Run the search. Thread-safe: it reads only this request's own board copy.
        A search cancelled because the game moved on is no error: its reply says so."""
        if self.strategy is None:
            return HintReply(self.generation, self.known)
        try:
            cell = self.strategy.find_best_move(self.board, self.symbol, self.cancelled)
        except (SearchCancelled, ValueError):  # moved on (or nothing left to play)
            return HintReply(self.generation, None, cancelled=True)
        return HintReply(self.generation, cell)


class CellScores(NamedTuple):
    """Scores of empty cells, found by an `AnalysisRequest`: every score the engine knew at
    once in one reply (on 6x6 all it proved at once in another), then one reply per cell it
    had to search. `found` carries each with its proof (`analysis.Scored`); without it a
    score is taken as a search's (0 on 6x6: unknown)."""

    generation: int
    scores: tuple[tuple[Cell, int], ...]
    found: tuple[Scored, ...] = ()


class AnalysisRequest(NamedTuple):
    """Score every empty cell of `board` (a private copy) for `symbol`.

    The engine's one path to every move's verdict (`analysis.move_scores`, as `analyse`),
    past what its run has read at once (`known`): on an open 5x5 board past the stored
    scores one cell is seconds of search, so each searched cell is a reply of its own and
    the overlay fills in as it goes.
    """

    generation: int
    board: GameBoard
    symbol: Symbol
    search: MoveScorer
    cancelled: Cancelled
    known: Scores | None = None  # read already (`AnalysisRun`); None: read them here

    def compute(self) -> Iterator[CellScores]:
        """The scores in turn; stops quietly once `cancelled` says so."""
        geometry = self.board.geometry
        me, them = self.board.masks_for(self.symbol)
        found = move_scores(geometry, me, them, self.search, self.cancelled, known=self.known)
        try:
            for scores in found:
                if self.cancelled():
                    return
                cells = tuple((geometry.coords(one.cell), one.score) for one in scores)
                yield CellScores(self.generation, cells, scores)
        except SearchCancelled:
            return


class AnalysisFound(NamedTuple):
    """The overlay as far as found: verdicts of the cells scored so far, of `total`."""

    analysis: Analysis
    found: int
    total: int

    @property
    def done(self) -> bool:
        return self.found == self.total


class AnalysisRun:
    """The controller's record of one analysis: its scores so far and its off switch.

    What the engine knows at once (`known.known_scores`: a lookup or two, no search) is
    read as the run starts, on the caller's thread: the 5x5 opening's overlay is whole
    before any thread could start (`whole`), and a search, if one is needed, skips it."""

    def __init__(self, generation: int, board: GameBoard, symbol: Symbol) -> None:
        self.generation = generation
        self.board = board  # a private copy
        self.symbol = symbol
        self.total = len(board.legal_moves())
        geometry = board.geometry
        me, them = board.masks_for(symbol)
        cells = empty_cells(geometry, me, them) if self.total else []
        self.known = known_scores(geometry, me, them, cells) if cells else {}
        self.scores = {
            cell: known_scored(geometry, cell, score) for cell, score in self.known.items()
        }
        self.stop = threading.Event()

    @property
    def whole(self) -> bool:
        """Every cell's score is in: nothing (more) to search."""
        return len(self.scores) == self.total

    def request(
        self, search: Callable[[Geometry], MoveScorer], stale: Cancelled
    ) -> AnalysisRequest:
        """The search for this run: it stops once switched off (`stop`) or stale."""
        stop = self.stop.is_set
        scorer = search(self.board.geometry)
        cancelled = lambda: stop() or stale()  # noqa: E731
        return AnalysisRequest(
            self.generation, self.board, self.symbol, scorer, cancelled, self.known
        )

    def live(self, generation: int) -> bool:
        """Still wanted: about the position of `generation`, and not switched off."""
        return generation == self.generation and not self.stop.is_set()

    def add(self, reply: CellScores) -> bool:
        """Keep cells' scores, if this run is still wanted for them (see `live`)."""
        if not self.live(reply.generation):
            return False
        from tui_tictactoe.engine.proof import Proof  # with the first reply, not at start-up

        geometry = self.board.geometry
        if reply.found:
            self.scores.update((one.cell, one) for one in reply.found)
        else:
            exact = not is_bounded(geometry)
            for cell, score in reply.scores:
                index = geometry.index(*cell)
                proof = Proof("search") if exact or score else None
                self.scores[index] = Scored(index, score, proof)
        return True

    def found(self) -> AnalysisFound:
        """The verdicts so far; the best cells are marked once every cell is scored."""
        done = len(self.scores) == self.total
        me, them = self.board.masks_for(self.symbol)
        moves = verdicts(self.board.geometry, me, them, self.scores, done)  # as `analyse`
        analysis = Analysis(self.board.to_string(), self.symbol, "in_progress", moves)
        return AnalysisFound(analysis, len(self.scores), self.total)


Reply = AIReply | HintReply | CellScores
"""What a background job hands back: the AI's move, a hint, cells' analysis."""

Request = AIRequest | HintRequest | AnalysisRequest
"""A background job: `compute()` it off the UI thread, hand its replies to `apply`."""


class Lesson(NamedTuple):
    """What the teacher reads of the game, handed whole each time it is asked (`Teacher`)."""

    board: GameBoard  # the game's own: the teacher reads it, and copies it for a request
    generation: int  # of the position now: a reply about an older one is dropped
    to_move: Symbol  # the side to move (once the round is over, the side that would move)
    pupil: Symbol | None  # the person playing the AI, on their turn; None: no one to teach now
    stale: Cancelled  # True once the position has moved on


class Teacher:
    """Hints, "why can't I win?" and the analysis overlay: a part the game owns
    (`GameController.teacher`), which reads the game only through `lesson`, a `Lesson`
    of the position now, and keeps its own: the hint given, the overlay's run, the
    engines behind them (tests hold those at a gate)."""

    def __init__(self, rng: random.Random, lesson: Callable[[], Lesson]) -> None:
        """`rng`: the game's seeded generator (hints are drawn from it, so a seeded game's
        hints are repeatable)."""
        self.rng = rng
        self.lesson = lesson
        self.hint_strategy: HintStrategy = perfect_hint
        self.analysis_search: Callable[[Geometry], MoveScorer] = search_of
        self.hinted: Cell | None = None  # the hint given for the position now
        self._analysis: AnalysisRun | None = None  # the big board's overlay, as found
        self._hint_stop = threading.Event()  # set when a newer hint search takes over

    def moved_on(self) -> None:
        """The position changed: the hint given is about the last one."""
        self.hinted = None

    def apply(self, reply: HintReply | CellScores) -> bool:
        """Keep a hint or cells' scores the game judged current (`GameController.apply`);
        False, changing nothing, for a hint off the pupil's turn or an overlay switched off."""
        if isinstance(reply, HintReply):
            if reply.cell is None or self.lesson().pupil is None:
                return False
            self.hinted = reply.cell
            return True
        return self._analysis is not None and self._analysis.add(reply)

    def analysis(self) -> Analysis:
        """Verdicts of every move for the side to move now (none once the round is over)."""
        lesson = self.lesson()
        return analyse(lesson.board, lesson.to_move)

    @property
    def analysis_ready(self) -> bool:
        """`analysis()` is instant on every 3x3 position only: on the big boards the game screen
        runs `analysis_request` in a thread (one reply where every verdict is known, as in the
        5x5 opening; else one per searched cell)."""
        return self.lesson().board.geometry.cells <= 9

    def hint(self) -> Cell | None:
        """A best move for the pupil (random among equals, from the seeded RNG); None when
        there is no one to teach (off-turn, between people) and on boards bigger than 3x3
        (see `analysis_ready`)."""
        if self.lesson().pupil is None or not self.analysis_ready:
            return None
        best = self.analysis().best
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def why(self) -> Proof | None:
        """ "Why can't I win?" on the pupil's turn on 6x6 (`proven.why_not`): the AI's pairing
        held now, or the pupil's own forced line of fours; None where neither is proven (and
        off-turn, between people, on the solved boards: their overlay says it all)."""
        lesson = self.lesson()
        board, pupil = lesson.board, lesson.pupil
        if pupil is None or not is_bounded(board.geometry):
            return None
        from tui_tictactoe.engine.proven import why_not  # 6x6 only

        me, them = board.masks_for(pupil)
        return why_not(board.geometry, me, them)

    def hint_request(self) -> HintRequest | None:
        """A hint to ask for now (None off the pupil's turn): answered already where the
        engine knows the best moves without searching (3x3, `hint`; the 5x5 opening: the
        stored scores, the book); else a search for a thread, which stops the one before."""
        lesson = self.lesson()
        if lesson.pupil is None:
            return None
        board, symbol, generation = lesson.board.copy(), lesson.pupil, lesson.generation
        if self.analysis_ready:
            return HintRequest(generation, board, symbol, None, self.hint())
        # The AI's random tie-breaks stay the AI's: the hint draws its own seed, from
        # the game's seeded RNG, so a seeded game's hints are repeatable too.
        rng = random.Random(self.rng.random())
        me, them = board.masks_for(symbol)
        geometry = board.geometry
        known = known_best(geometry, me, them, empty_cells(geometry, me, them))
        if known:
            return HintRequest(generation, board, symbol, None, geometry.coords(rng.choice(known)))
        strategy = self.hint_strategy(rng)
        self._hint_stop.set()
        self._hint_stop = threading.Event()
        stop, stale = self._hint_stop.is_set, lesson.stale
        cancelled = lambda: stop() or stale()  # noqa: E731
        return HintRequest(generation, board, symbol, strategy, None, cancelled)

    def analysis_request(self) -> AnalysisRequest | None:
        """A search for the big board's overlay on the pupil's turn, unless one for this
        position is under way or done; None on 3x3, where `analysis()` answers at once, and
        where every verdict is known at once (the 5x5 opening: `analysis_found` is whole)."""
        lesson, run = self.lesson(), self._analysis
        if self.analysis_ready or lesson.pupil is None:
            return None
        if run and run.live(lesson.generation):
            return None
        self._analysis = AnalysisRun(lesson.generation, lesson.board.copy(), lesson.pupil)
        if self._analysis.whole:  # known at once (the 5x5 opening): `analysis_found` has it
            return None
        return self._analysis.request(self.analysis_search, lesson.stale)

    @property
    def analysis_found(self) -> AnalysisFound | None:
        """The big board's overlay as far as found, for the position now (else None)."""
        run = self._analysis
        return run.found() if run is not None and run.live(self.lesson().generation) else None

    def stop_analysis(self) -> None:
        """The overlay is off (or waits for the pupil's turn): its search stops, and
        starts over when it is shown again."""
        if self._analysis is not None:
            self._analysis.stop.set()
