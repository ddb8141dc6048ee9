"""Predict (`p`): mark each empty cell win, draw or loss, then see what the solver says.

Before the analysis overlay shows the truth, the player says it: the cursor (arrows) or a
click picks an empty cell, `w`, `d` and `l` mark it (Space or a click cycles the marks),
Enter grades the marks against the overlay's own verdicts (`engine.predictions`). The
board then shows the truth (each cell's verdict, as the overlay draws it) beside the
marks, right or wrong, and the panel says the grade and explains each wrong mark with its
line of best play. Back in the game (Enter or Escape) the overlay is on and the status
line holds the score. Escape before grading leaves the game as it was.

The verdicts are found as the screen opens, while the player marks: at once on 3x3 and
the 5x5 opening, in a thread elsewhere (`analysis.analyse`, the overlay's path, with its
stop flag), so that on the big boards Enter may have to wait for the last cells.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Static
from textual.worker import get_current_worker

from tui_tictactoe.controller.status import Status, refused
from tui_tictactoe.engine.analysis import Analysis, analyse, known_analysis
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import is_bounded
from tui_tictactoe.engine.predictions import LETTERS, CellGrade, Grade, Mark, grade, next_mark
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import GameCell, GameGrid, TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint

if TYPE_CHECKING:
    from tui_tictactoe.controller import GameController
    from tui_tictactoe.engine.board import Cell, GameBoard, Symbol

MARKING_KEYS: tuple[KeyHint, ...] = (
    KeyHint("↑↓←→", "Move"),
    KeyHint("w", "Win", "w"),
    KeyHint("d", "Draw", "d"),
    KeyHint("l", "Loss", "l"),
    KeyHint("Space", "Cycle", "space"),
    KeyHint("Enter", "Grade", "enter"),
    KeyHint("Esc", "Cancel", "escape"),
)
"""The key bar while marking: every key that acts then, and only those."""

GRADED_KEYS: tuple[KeyHint, ...] = (
    KeyHint("↑↓←→", "Explain a cell"),
    KeyHint("Enter/Esc", "Back to the game", "escape"),
)
"""The key bar once graded: the marks are final, the cursor explains each cell."""

NARROW = 80
"""Below this width the panel is narrower (the board keeps its room)."""

RIGHT, WRONG = "✓", "✗"
"""Drawn after a graded cell's mark (unmarked: `UNMARKED` then the cross)."""

UNMARKED = "·"

LINE_MOVES = 5
"""Moves of a wrong cell's line the panel shows (a draw's runs to the end of the game)."""


def predict_refusal(game: GameController) -> Status | None:
    """Why `p` does nothing now (None: it opens). On the player's turn against the AI
    only: the verdicts are the player's, as the overlay's are."""
    if game.between_people:
        return refused("No predictions in a game between people.")
    if game.game_over:
        return refused("Nothing to predict: the round is over.")
    if game.ai_error is not None:
        return refused("No prediction: the AI failed.")
    if not game.is_human_turn:
        return refused("Predict on your turn: it is the AI's turn.")
    return None


def graded_status(found: Grade) -> Status:
    """The game's note once back from a graded prediction (one line of the board's column)."""
    if not found.graded:
        return Status("Predicted: nothing here is proven to grade it by.", "hint")
    score = f"Predicted {found.right} of {len(found.graded)} right"
    if found.ungraded:
        return Status(f"{score}, {found.ungraded} unproven: overlay on.", "hint")
    return Status(f"{score}: the overlay shows the truth.", "hint")


def cell_letters(marks: dict[Cell, Mark], found: Grade | None) -> dict[Cell, str]:
    """What each empty cell shows inside: its mark's letter; once graded, with a tick or a
    cross (a "?" where the verdict is not proven: not graded)."""
    if found is None:
        return {cell: LETTERS[mark] for cell, mark in marks.items()}
    letters = {}
    for one in found.cells:
        letter = UNMARKED if one.marked is None else LETTERS[one.marked]
        tail = "?" if not one.graded else RIGHT if one.right else WRONG
        letters[one.cell] = letter + tail
    return letters


def cell_words(one: CellGrade) -> str:
    """One graded cell, explained: right, wrong (with its line), or not graded."""
    if not one.graded:
        return f"Cell {one.key}: not proven either way (not graded)."
    if one.right:
        return f"Cell {one.key}: {one.truth}, right."
    said = one.explain(LINE_MOVES)
    return said[0].upper() + said[1:] + ("" if said.endswith("…") else ".")


def nearest_empty(cursor: Cell, empty: frozenset[Cell]) -> Cell:
    """Where the cursor starts: on `cursor` if it is empty (the game's), else on the empty
    cell nearest it (the first in reading order of the nearest); `cursor` if none is."""
    if cursor in empty or not empty:
        return cursor

    def distance(cell: Cell) -> tuple[int, Cell]:
        return abs(cell[0] - cursor[0]) + abs(cell[1] - cursor[1]), cell

    return min(empty, key=distance)


class PredictScreen(IgnoresStaleResize, Screen["Grade | None"]):
    """The position's empty cells, marked by the player, then graded."""

    CSS_PATH = "predict_screen.tcss"
    AUTO_FOCUS = None

    # Priority, as the game's: keys act in the order they came, whatever is focused.
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(key, f"navigate({drow}, {dcol})", key.title(), show=False, priority=True)
            for key, drow, dcol in (
                ("up", -1, 0),
                ("down", 1, 0),
                ("left", 0, -1),
                ("right", 0, 1),
            )
        ),
        Binding("w", "mark('win')", "Win", priority=True),
        Binding("d", "mark('draw')", "Draw", priority=True),
        Binding("l", "mark('loss')", "Loss", priority=True),
        Binding("space", "cycle", "Cycle", priority=True),
        Binding("enter", "grade", "Grade", priority=True),
        Binding("escape,p", "close", "Cancel", priority=True),
    ]

    class Found(Message):
        """The position's verdicts, from the worker (`_find`)."""

        def __init__(self, analysis: Analysis) -> None:
            super().__init__()
            self.analysis = analysis

    class Searching(Message):
        """The worker starts on move `number` of `total` (the big boards)."""

        def __init__(self, number: int, total: int) -> None:
            super().__init__()
            self.number = number
            self.total = total

    def __init__(self, board: GameBoard, symbol: Symbol, cursor: Cell) -> None:
        """`board`: a private copy of the position, `symbol` to move (the player)."""
        super().__init__()
        self.board = board
        self.symbol = symbol
        self.geometry = board.geometry
        self.empty = frozenset(board.legal_moves())
        self.cursor: Cell = nearest_empty(cursor, self.empty)
        self.marks: dict[Cell, Mark] = {}
        self.truth: Analysis | None = None
        self.found: Grade | None = None
        self.waiting = False  # Enter came before the verdicts: grade once they are in
        self.searched = ""  # how far the search has gone ("cell 3 of 16")
        self.note = ""  # what the last key said (a refused one)
        self.stop = threading.Event()
        self.grid = GameGrid(self.geometry, id="predict-board")
        self.panel = Static(id="predict-panel", markup=False)
        self.key_bar = KeyBar(MARKING_KEYS, id="predict-keys")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Container(id="predict-main"):
            yield self.grid
            with VerticalScroll(id="predict-side", can_focus=False):
                yield self.panel
        yield self.key_bar

    def on_mount(self) -> None:
        self.sub_title = f"predict · you play {self.symbol}"
        self.set_class(self.app.size.width < NARROW, "-narrow")
        self.grid.show_board(self.board)
        if not is_bounded(self.geometry):
            self.truth = known_analysis(self.board, self.symbol)  # no search: at once
        if self.truth is None:
            self._find()
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.set_class(self.app.size.width < NARROW, "-narrow")

    # -- the verdicts ------------------------------------------------------------------

    @work(thread=True, group="predict", exit_on_error=False)
    def _find(self) -> None:
        """In a thread: every move's verdict, as the overlay finds it; nothing once closed."""
        worker = get_current_worker()

        def searching(number: int, total: int) -> None:
            self.post_message(self.Searching(number, total))

        try:
            found = analyse(self.board, self.symbol, self.stop.is_set, searching)
        except SearchCancelled:
            return
        if not worker.is_cancelled and not self.stop.is_set():
            self.post_message(self.Found(found))

    def on_predict_screen_searching(self, message: Searching) -> None:
        self.searched = f"cell {message.number} of {message.total}"
        self._show()

    def on_predict_screen_found(self, message: Found) -> None:
        self.truth = message.analysis
        if self.waiting:
            self._grade()
        self._show()

    # -- keys and clicks ---------------------------------------------------------------

    def action_navigate(self, drow: int, dcol: int) -> None:
        last = self.geometry.size - 1
        row = min(max(self.cursor[0] + drow, 0), last)
        col = min(max(self.cursor[1] + dcol, 0), last)
        self.cursor = (row, col)
        self.note = ""
        self._show()

    def action_mark(self, mark: Mark) -> None:
        self._set_mark(self.cursor, mark)

    def action_cycle(self) -> None:
        self._set_mark(self.cursor, next_mark(self.marks.get(self.cursor)), cycle=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a cell: the cursor goes there and its mark cycles (marking only)."""
        cell = event.button
        if isinstance(cell, GameCell):
            event.stop()
            self.cursor = (cell.row, cell.col)
            self.note = ""
            if self.found is None and not self.waiting:
                self.action_cycle()
            else:
                self._show()

    def _set_mark(self, cell: Cell, mark: Mark | None, *, cycle: bool = False) -> None:
        self.note = ""
        if self.found is not None or self.waiting:
            self.note = "Graded: the marks are final. Enter or Escape goes back."
        elif cell not in self.empty:
            key = self.geometry.key(*cell)
            self.note = f"Cell {key} is taken: mark the empty cells."
        elif mark is None:
            self.marks.pop(cell, None)
        elif not cycle and self.marks.get(cell) == mark:
            self.marks.pop(cell)  # the same key again takes the mark off
        else:
            self.marks[cell] = mark
        self._show()

    def action_grade(self) -> None:
        """Enter: grade the marks (or wait for the verdicts); once graded, back."""
        if self.found is not None:
            self.action_close()
            return
        self.note = ""
        self.waiting = True
        if self.truth is not None:
            self._grade()
        self._show()

    def _grade(self) -> None:
        assert self.truth is not None
        self.found = grade(self.truth, self.geometry, self.marks)
        self.waiting = False
        self.key_bar.hints = GRADED_KEYS

    def action_close(self) -> None:
        """Escape: back to the game; with the grade if there is one (the overlay goes on)."""
        self.stop.set()
        self.workers.cancel_group(self, "predict")
        self.dismiss(self.found)

    # -- showing ------------------------------------------------------------------------

    def _show(self) -> None:
        grid = self.grid
        grid.show_marker("-cursor", self.cursor)
        grid.show_pairs(cell_letters(self.marks, self.found))
        grid.show_analysis(self.truth if self.found is not None else None)
        self.panel.update("\n".join(self._lines()))

    def _lines(self) -> list[str]:
        found = self.found
        if found is None:
            return self._marking_lines()
        lines = [f"{found.score()[0].upper()}{found.score()[1:]}."]
        here = next((one for one in found.cells if one.cell == self.cursor), None)
        if here is not None:
            lines += ["", cell_words(here)]
        wrong = [one for one in found.wrong if one.marked is not None]
        if wrong:
            lines += ["", "Wrong:", *(f"- {cell_words(one)}" for one in wrong)]
        unmarked = [str(one.key) for one in found.wrong if one.marked is None]
        if unmarked:
            lines += ["", f"Not marked: {', '.join(unmarked)} (the cursor explains each)."]
        if self.note:
            lines += ["", self.note]
        return lines

    def _marking_lines(self) -> list[str]:
        total = len(self.empty)
        lines = [
            f"You play {self.symbol}. What does each empty cell lead to for you?",
            "",
            f"Marked {len(self.marks)} of {total}.",
        ]
        if self.waiting:
            where = f": {self.searched}" if self.searched else ""
            lines += ["", f"Checking your marks{where}…"]
        elif self.truth is None and self.searched:
            lines += ["", f"The solver works meanwhile ({self.searched})."]
        if self.note:
            lines += ["", self.note]
        return lines
