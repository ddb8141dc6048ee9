"""Grading a player's predictions: each empty cell marked win, draw or loss, checked.

Berkeley's abTreePractice has learners predict values and check them; here the player
marks every empty cell of the position with what playing there leads to (from the mover's
view, as the overlay says it), and the exact verdicts grade the marks. The verdicts are
the overlay's own (`analysis.analyse`, or an `Analysis` the caller found through the same
path, cell by cell on the big boards): no second solver. Each wrong mark is explained with
the verdict and its line of best play ("cell 7 is a loss in 2, not a win: 7, 3"). On 6x6 a
cell whose verdict is not proven ("unknown") is not graded, and the grade says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

from tui_tictactoe.engine.analysis import Analysis, MoveVerdict, analyse
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.solver import Verdict

Mark = Literal["win", "draw", "loss"]
"""A player's prediction for one cell: what playing there leads to, for the mover."""

MARKS: tuple[Mark, ...] = ("win", "draw", "loss")
"""The marks in the order one key cycles through them."""

LETTERS: Mapping[Mark, str] = {"win": "W", "draw": "D", "loss": "L"}
"""The letter a mark is drawn with on the board (the overlay's own one-letter forms)."""


def next_mark(mark: Mark | None) -> Mark | None:
    """The mark after `mark` when one key cycles: none, win, draw, loss, none again."""
    if mark is None:
        return MARKS[0]
    at = MARKS.index(mark) + 1
    return MARKS[at] if at < len(MARKS) else None


class CellGrade(NamedTuple):
    """One empty cell: the player's mark (None: left unmarked), the truth, its line."""

    key: int  # the number players call the cell by (1 top-left)
    cell: Cell
    marked: Mark | None
    truth: Verdict
    line: tuple[int, ...]  # the line of best play, this cell first, as cell numbers
    pairings: bool = False  # a 6x6 draw proven by pairings (its line is one or two moves)

    @property
    def graded(self) -> bool:
        """Graded only where the verdict is proven (6x6's "unknown" is not)."""
        return self.truth.outcome != "unknown"

    @property
    def right(self) -> bool:
        return self.graded and self.marked == self.truth.outcome

    def explain(self, moves: int | None = None) -> str:
        """Why a mark is wrong: "cell 7 is a loss in 2, not a win: 7, 3"; the line cut to
        its first `moves` (None: whole) with "…" after it."""
        said = "not marked" if self.marked is None else f"not a {self.marked}"
        shown = self.line if moves is None else self.line[:moves]
        line = ", ".join(str(key) for key in shown) + ("…" if len(shown) < len(self.line) else "")
        why = " by pairings" if self.pairings else ""
        return f"cell {self.key} is a {self.truth}{why}, {said}: {line}"


class Grade(NamedTuple):
    """Every empty cell's grade, in reading order."""

    cells: tuple[CellGrade, ...]

    @property
    def graded(self) -> tuple[CellGrade, ...]:
        return tuple(cell for cell in self.cells if cell.graded)

    @property
    def right(self) -> int:
        return sum(cell.right for cell in self.cells)

    @property
    def wrong(self) -> tuple[CellGrade, ...]:
        return tuple(cell for cell in self.graded if not cell.right)

    @property
    def ungraded(self) -> int:
        return len(self.cells) - len(self.graded)

    def score(self) -> str:
        """ "4 of 5 right", and the cells left ungraded."""
        if not self.graded:
            return f"nothing to grade: no verdict is proven ({self.ungraded} cells)"
        said = f"{self.right} of {len(self.graded)} right"
        if self.ungraded:
            cells = "cell" if self.ungraded == 1 else "cells"
            said += f" ({self.ungraded} {cells} not proven, not graded)"
        return said

    def sentence(self) -> str:
        """The whole grade in one line: "4 of 5 right: cell 7 is a loss in 2, not a win: 7, 3"."""
        wrong = "; ".join(cell.explain() for cell in self.wrong)
        return f"{self.score()}: {wrong}" if wrong else self.score()


class PredictionError(ValueError):
    """Marks that do not fit the position: a cell that is not empty, or off the board."""


def grade(analysis: Analysis, geometry: Geometry, marks: Mapping[Cell, Mark]) -> Grade:
    """Grade `marks` (by cell; a missing cell is unmarked) against `analysis`, every empty
    cell's verdict for the side to move. PredictionError (one line) for a mark on a cell
    with no verdict (taken, off the board) or a mark that is none of win, draw, loss."""
    moves = {move.cell: move for move in analysis.moves}
    for cell, mark in marks.items():
        if cell not in moves:
            raise PredictionError(f"no empty cell at {cell}: only empty cells take a mark")
        if mark not in MARKS:
            raise PredictionError(f"a mark is win, draw or loss, not {mark!r}")
    cells = tuple(_graded(geometry, move, marks.get(move.cell)) for move in analysis.moves)
    return Grade(cells)


def _graded(geometry: Geometry, move: MoveVerdict, marked: Mark | None) -> CellGrade:
    key = geometry.key(*move.cell)
    line = tuple(cell + 1 for cell in move.line) or (key,)
    pairings = move.proof is not None and move.proof.kind == "pairing"
    return CellGrade(key, move.cell, marked, move.verdict, line, pairings)


def grade_position(
    board: GameBoard, marks: Mapping[Cell, Mark], to_move: str | None = None
) -> Grade:
    """Grade `marks` on `board` for the side to move, with `analyse`'s verdicts (at once on
    3x3 and the 5x5 opening; elsewhere `analyse` searches)."""
    return grade(analyse(board, to_move), board.geometry, marks)


Window = tuple[int, int]
"""(alpha, beta), the maximiser's view; an open end is `search_steps.WIDE` (or its minus)."""


class WindowGrade(NamedTuple):
    """A guess of the alpha-beta window a node is entered with, against the search's own
    (`search_steps.Step.alpha`, `beta`), as abTreePractice checks a learner's."""

    guess: Window
    truth: Window

    @property
    def alpha_right(self) -> bool:
        return self.guess[0] == self.truth[0]

    @property
    def beta_right(self) -> bool:
        return self.guess[1] == self.truth[1]

    @property
    def right(self) -> bool:
        return self.alpha_right and self.beta_right


def grade_window(guess: Window, truth: Window) -> WindowGrade:
    """Grade a guessed (alpha, beta) against the node's real window."""
    return WindowGrade(guess, truth)
