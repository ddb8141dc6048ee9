"""A strategy someone else wrote, run so that its faults cannot stop the game.

A learner's `MoveStrategy` (`tui-tictactoe --strategy`, `tui-tictactoe grade`) may raise,
return a taken or made-up cell, or never return. `GuardedStrategy` runs it on a thread of
its own with a time limit per move and turns each of these into a `StrategyFault`: one line
that says what went wrong, which the game shows as the AI's failure and `grade` counts.

Why a thread and not a subprocess: the strategy reads the real `GameBoard` (no copy sent
through a pipe, so the time per move is the strategy's own), the seeds' protocol already
hands it a `cancelled` callable to poll, and the game's AI already runs off the UI's
thread. A Python thread cannot be stopped, though: a strategy that ignores `cancelled`
keeps running after its time is up. It is then abandoned (a daemon thread, so it never
holds up the process's exit) and every later move fails at once with a "hung" fault, so it
is never asked again while it still runs.
"""

from __future__ import annotations

import reprlib
import threading
from queue import SimpleQueue
from time import perf_counter
from typing import Literal

from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.strategies import HasSymbol, MoveStrategy, symbol_of

FaultKind = Literal["raised", "illegal", "timeout", "hung"]

DEFAULT_MOVE_SECONDS = 1.0
"""A move's time limit unless told otherwise (`grade --move-seconds`)."""

GRACE = 0.25
"""Of the time limit: how long a strategy told to stop (`cancelled()` True) has to return
before it is taken for hung."""

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 40  # a strategy's answer quoted in a message, at most


class StrategyFault(Exception):
    """A strategy failed to give a legal move: `kind` says how, `str()` says it in a line."""

    def __init__(self, kind: FaultKind, message: str) -> None:
        super().__init__(message)
        self.kind: FaultKind = kind
        self.message = message


class _Job:
    """One move asked of the strategy's thread, and its answer."""

    def __init__(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None
    ) -> None:
        self.board = board
        self.player = player
        self.outer = cancelled
        self.stop = False  # set when the time is up: `cancelled()` then returns True
        self.done = threading.Event()
        self.result: object = None
        self.error: BaseException | None = None
        self.seconds = 0.0

    def cancelled(self) -> bool:
        return self.stop or (self.outer is not None and self.outer())


class GuardedStrategy(MoveStrategy):
    """`inner` asked for each move on its own thread, given `seconds` per move; its
    faults raised as `StrategyFault`. `last_seconds` is the time the last move took on the
    strategy's thread (the hand-over not counted)."""

    def __init__(
        self, inner: MoveStrategy, name: str, seconds: float = DEFAULT_MOVE_SECONDS
    ) -> None:
        if not seconds > 0:
            raise ValueError(f"the time per move must be positive, got {seconds}")
        self.inner = inner
        self.name = name
        self.seconds = seconds
        self.last_seconds = 0.0
        self._jobs: SimpleQueue[_Job] = SimpleQueue()
        self._busy: _Job | None = None  # a job that outlived its time and never returned
        self._thread: threading.Thread | None = None

    @property
    def hung(self) -> bool:
        """The strategy is still inside a move whose time ran out."""
        return self._busy is not None and not self._busy.done.is_set()

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        """The strategy's move, checked legal on `board`. Raises `StrategyFault`, or
        `SearchCancelled` when `cancelled` (the caller's) stopped it."""
        symbol_of(player)  # an unknown symbol is the caller's error, as for every strategy
        if self.hung:
            raise StrategyFault(
                "hung",
                f"{self.name} is still computing a move it had {self.seconds:g} s for "
                "(it ignores cancelled()): it is not asked again",
            )
        job = _Job(board.copy(), player, cancelled)  # its own copy: the game's stays intact
        self._start()
        self._jobs.put(job)
        if not job.done.wait(self.seconds):
            job.stop = True
            self._busy, self._thread = job, None
            job.done.wait(self.seconds * GRACE)
            raise StrategyFault("timeout", f"{self.name} took longer than {self.seconds:g} s")
        self.last_seconds = job.seconds
        if job.error is not None:
            if isinstance(job.error, SearchCancelled) and cancelled is not None and cancelled():
                raise SearchCancelled from job.error
            error = job.error
            raise StrategyFault(
                "raised", f"{self.name} raised {type(error).__name__}: {_one_line(error)}"
            ) from error
        return checked_cell(job.result, board, self.name)

    def _start(self) -> None:
        """A thread for the strategy, with its own queue: a fresh one after a move that
        ran out of time (the old thread, if it ever returns, then ends)."""
        if self._thread is None:
            self._jobs = SimpleQueue()
            self._thread = threading.Thread(
                target=self._serve, args=(self._jobs,), name=f"strategy {self.name}", daemon=True
            )
            self._thread.start()

    def _serve(self, jobs: SimpleQueue[_Job]) -> None:
        while True:
            job = jobs.get()
            start = perf_counter()
            try:
                job.result = self.inner.find_best_move(job.board, job.player, job.cancelled)
            except BaseException as error:  # sys.exit() too: every failure is the strategy's
                job.error = error
            job.seconds = perf_counter() - start
            job.done.set()
            if job.stop:
                return  # abandoned: the next move gets a fresh thread


def checked_cell(answer: object, board: GameBoard, name: str) -> Cell:
    """`answer` as a (row, col) of an empty cell of `board`, else a `StrategyFault`
    ("illegal") saying what was wrong with it."""
    shown = _SHOWN.repr(answer)
    if (
        not isinstance(answer, tuple | list)
        or len(answer) != 2
        or not all(isinstance(part, int) and not isinstance(part, bool) for part in answer)
    ):
        raise StrategyFault("illegal", f"{name} returned {shown}, not a (row, col) pair")
    row, col = answer
    size = board.geometry.size
    if not (0 <= row < size and 0 <= col < size):
        raise StrategyFault(
            "illegal",
            f"{name} returned {shown}, off the {size}x{size} board (rows and columns 0-{size - 1})",
        )
    taken = board.game_board[row][col]
    if taken != " ":
        key = board.geometry.index(row, col) + 1
        raise StrategyFault(
            "illegal", f"{name} returned {shown} (cell {key}), already taken by {taken}"
        )
    return row, col


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or "(no message)"
    return text if len(text) <= 120 else text[:119] + "…"
