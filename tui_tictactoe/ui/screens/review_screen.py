"""A round reviewed move by move (`v` after a round, and in a replay): each move's verdict
before and after it, and its blunders said in a sentence with their lines.

The review is `engine.review`'s: this screen runs it in a thread worker, one move at a
time (a 4x4 or 5x5 move may take seconds of search, a 6x6 one up to a second of proofs),
and adds each move to the list as it comes; closing the screen stops the search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from tui_tictactoe.engine.board import Symbol
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.review import ReviewedMove, reviewed, sentence
from tui_tictactoe.options import board_geometry
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint

if TYPE_CHECKING:
    from tui_tictactoe.controller import GameController
    from tui_tictactoe.rooms.game import RoomGame

KEYS = (
    KeyHint("↑↓", "Scroll"),
    KeyHint("Esc", "Back", "escape"),
)
"""The review's key bar: all it has."""


REVIEW_LATER = "v reviews the round once it is over."
"""What `v` says mid-round."""
NO_MOVES = "No moves to review: the round ended before its first."
"""What `v` says of a room's round that ended before a move."""


def review_of_game(game: GameController) -> ReviewScreen | None:
    """The review of the game's round, once it is over; None while it is in play."""
    if not game.game_over or not game.board.moves:
        return None
    geometry = game.board.geometry
    keys = [geometry.key(*cell) for cell in game.board.moves]
    return ReviewScreen(geometry, game.opener, keys, f"review · this round · {len(keys)} moves")


def review_of_room(game: RoomGame) -> ReviewScreen | None:
    """The review of a room's round, once it is over (or the room closed); None while it
    is in play, before the first view, or with no move to review."""
    view = game.view
    if view is None or game.in_progress or not view.moves:
        return None
    title = f"review · room {view.code} · round {view.round} · {len(view.moves)} moves"
    return ReviewScreen(board_geometry(view.size), view.first, view.moves, title)


def line_text(line: tuple[int, ...]) -> str:
    return ", ".join(str(cell + 1) for cell in line)


def move_lines(move: ReviewedMove, geometry: Geometry) -> tuple[str, str]:
    """A move as the list shows it: its verdicts before and after, then, for a blunder, its
    sentence and its lines (the one played, the one that held); "" for any other move."""
    mark = "blunder" if move.blunder else "best" if move.played.best else ""
    if not move.proven:
        mark = "not proven"
    head = f"{move.number:>2}. {move.symbol} cell {move.cell + 1:<2}  {move.before} → {move.after}"
    if not move.blunder:
        return f"{head}  {mark}".rstrip(), ""
    said = sentence(move, geometry)
    detail = f"{said[0].upper()}{said[1:]}.\nLine: {line_text(move.played.line)}"
    if move.best is not None:
        detail += f"\nHeld: {line_text(move.best.line)}"
    return f"{head}  {mark}", detail


def summary(found: Sequence[ReviewedMove], total: int, done: bool) -> str:
    """The line over the list: how far the review is, and its blunders."""
    blunders = sum(move.blunder for move in found)
    counted = "no blunders" if not blunders else f"{blunders} blunder{'s' * (blunders > 1)}"
    if not done:
        return f"Judging move {len(found) + 1} of {total}… {counted} so far"
    if not total:
        return "No moves to review."
    unproven = sum(not move.proven for move in found)
    tail = f", {unproven} not proven" if unproven else ""
    return f"{total} moves, {counted}{tail}."


class ReviewScreen(IgnoresStaleResize, Screen[None]):
    """The moves of a round, each judged, filled in as the review finds them."""

    CSS_PATH = "review_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,v", "close", "Back", priority=True),
        Binding("up", "scroll(-1)", "Up", show=False, priority=True),
        Binding("down", "scroll(1)", "Down", show=False, priority=True),
        Binding("pageup", "scroll(-10)", "Page up", show=False, priority=True),
        Binding("pagedown", "scroll(10)", "Page down", show=False, priority=True),
    ]

    class Judged(Message):
        """One move judged, from the worker (`_review`)."""

        def __init__(self, move: ReviewedMove) -> None:
            super().__init__()
            self.move = move

    class Finished(Message):
        """The worker is done (every move judged, or the moves refused: `problem`)."""

        def __init__(self, problem: str = "") -> None:
            super().__init__()
            self.problem = problem

    def __init__(
        self, geometry: Geometry, first: Symbol, keys: Sequence[int], title: str = "review"
    ) -> None:
        super().__init__()
        self.geometry = geometry
        self.first = first
        self.keys = tuple(keys)
        self.title_text = title
        self.found: list[ReviewedMove] = []
        self.done = False
        self.stopped = False  # the worker's search was stopped (the screen closed)
        self.heading = Static(summary((), len(self.keys), False), id="review-summary", markup=False)
        self.list = VerticalScroll(id="review-list")
        self.key_bar = KeyBar(KEYS, id="review-keys")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.heading
        yield self.list
        yield self.key_bar

    def on_mount(self) -> None:
        self.sub_title = self.title_text
        self._review()

    @work(thread=True, group="review", exit_on_error=False)
    def _review(self) -> None:
        """In a thread: judge each move in turn and post it; stops once the screen goes."""
        worker = get_current_worker()
        moves = reviewed(self.geometry, self.first, self.keys, lambda: worker.is_cancelled)
        try:
            for move in moves:
                if worker.is_cancelled:
                    return
                self.post_message(self.Judged(move))
        except SearchCancelled:
            self.stopped = True
            return
        except ValueError as error:  # moves no game could have (`review.BadMoves`)
            self.post_message(self.Finished(str(error)))
            return
        self.post_message(self.Finished())

    def on_review_screen_judged(self, message: Judged) -> None:
        move = message.move
        self.found.append(move)
        head, detail = move_lines(move, self.geometry)
        entry = Static(head, classes="review-move", markup=False)
        entry.set_class(move.blunder, "-blunder")
        self.list.mount(entry)
        if detail:
            self.list.mount(Static(detail, classes="review-detail", markup=False))
        self.heading.update(summary(self.found, len(self.keys), False))

    def on_review_screen_finished(self, message: Finished) -> None:
        self.done = True
        said = message.problem or summary(self.found, len(self.keys), True)
        self.heading.update(said)

    def action_scroll(self, lines: int) -> None:
        self.list.scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        self.dismiss()
