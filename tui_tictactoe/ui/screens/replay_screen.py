"""A kept round, move by move (Enter on the stats screen), on the game's own board.

The positions, verdicts and wording are the controller's (`controller.replay`); this
screen shows them with the `GameGrid` the game plays on, read-only: nothing here
handles a press on a cell. Each empty cell carries the verdict of playing there, as
the game's analysis overlay shows it (where known at once: 3x3, the 5x5 opening; on 6x6
what is proven, judged in a thread worker position by position, nearest the one shown
first, since one can take up to a second on a loaded machine), and the latest move a
square border.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, CenterMiddle
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from tui_tictactoe.controller.replay import Replay
from tui_tictactoe.ui.widgets import GameGrid, TitleBar

if TYPE_CHECKING:
    from tui_tictactoe.engine.analysis import Analysis
    from tui_tictactoe.record import RoundRecord

LAST_MOVE = "-last"
"""The CSS class of the cell played last (the game's `-last-ai` look, for either side)."""


class ReplayScreen(Screen[None]):
    """A recorded round, move by move, with every empty cell's verdict (the analysis)."""

    CSS_PATH = "replay_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right,space", "step(1)", "Next"),
        Binding("home", "start", "Start", show=False),
        Binding("end", "end", "End", show=False),
        Binding("escape", "app.pop_screen", "Stats"),
        Binding("t", "explore", "Explore the search", show=False),
        Binding("v", "review", "Review"),
    ]

    class Judged(Message):
        """A 6x6 position's verdicts, from the worker (`_judge`)."""

        def __init__(self, at: int, analysis: Analysis) -> None:
            super().__init__()
            self.at = at
            self.analysis = analysis

    def __init__(self, round_: RoundRecord) -> None:
        """ValueError (one line) for a round that cannot be replayed: see `Replay.of_round`."""
        super().__init__()
        self.round = round_
        self.replay = Replay.of_round(round_.board_size, round_.symbol, round_.first, round_.moves)
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.grid = GameGrid(self.replay.geometry, id="replay-board")
        self.move_line = Static(id="replay-move", markup=False)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        # Each in a container of its own: the screen's `align` moves its children as one
        # block, which left the board off-centre by half the width of the wider move line.
        with CenterMiddle(id="replay-stage"):
            yield self.grid
        with Center():
            yield self.move_line
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        round_ = self.round
        took_back = ", moves taken back" if round_.took_back else ""
        self.sub_title = (
            f"replay · {round_.difficulty} · you {round_.symbol} · {round_.result}{took_back}"
        )
        self._show()
        if self.replay.pending:
            self._judge()

    @work(thread=True, group="replay-judge", exit_on_error=False)
    def _judge(self) -> None:
        """In a thread: judge each pending position, nearest the one shown first, and post
        it (the replay is changed only on the UI thread, by `on_replay_screen_judged`)."""
        replay, done = self.replay, set[int]()
        worker = get_current_worker()
        while not worker.is_cancelled and (at := replay.next_pending(done)) is not None:
            done.add(at)
            self.post_message(self.Judged(at, replay.judge(at)))

    def on_replay_screen_judged(self, message: Judged) -> None:
        self.replay.keep(message.at, message.analysis)
        if message.at in (self.replay.at - 1, self.replay.at):
            self._show()

    def action_step(self, delta: int) -> None:
        if self.replay.step(delta):
            self._show()

    def action_start(self) -> None:
        if self.replay.go(0):
            self._show()

    def action_end(self) -> None:
        if self.replay.go_to_end():
            self._show()

    def action_explore(self) -> None:
        """`t`: the search explorer on the position shown (the player maximises)."""
        from tui_tictactoe.engine.board import other
        from tui_tictactoe.ui.explorer_view import Position
        from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen

        replay = self.replay
        names: dict[str, str] = {replay.you: "you", other(replay.you): "the AI"}
        position = Position.of_board(replay.board, replay.to_move, replay.you, names)
        if position is None:
            self.notify("The round is over here: no search to explore.", markup=False)
        else:
            self.app.push_screen(ExplorerScreen(position))

    def action_review(self) -> None:
        """`v`: every move of the round judged, its blunders (`review_screen.py`)."""
        from tui_tictactoe.ui.screens.review_screen import ReviewScreen

        replay = self.replay
        keys = [replay.geometry.key(*move.cell) for move in replay.moves]
        title = f"review · {(self.sub_title or '').removeprefix('replay · ')}"
        self.app.push_screen(ReviewScreen(replay.geometry, replay.first, keys, title))

    def _show(self) -> None:
        replay, grid = self.replay, self.grid
        last = replay.last
        grid.show_board(replay.board, {LAST_MOVE: last.cell if last is not None else None})
        grid.show_analysis(replay.analysis)
        self.move_line.update(replay.describe())
