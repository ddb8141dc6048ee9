"""The player's record (`s`): a table per board played and the last rounds, each to replay.

Imported when first opened, like the help: start-up does not pay for it. The
record is read in a thread worker (it may be opening, or busy with another
process). Enter opens a round's replay (`ReplayScreen`), `p` the rounds against
people (`PeopleScreen`), `l` the server's leaderboard (`LeaderboardScreen`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from tui_tictactoe.record import (
    RECENT_ROUNDS,
    ROUND_COLUMNS,
    STANDING_COLUMNS,
    board_tables,
    round_cells,
)
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.people_screen import PeopleScreen
from tui_tictactoe.ui.screens.replay_screen import ReplayScreen
from tui_tictactoe.ui.widgets import TitleBar

if TYPE_CHECKING:
    from tui_tictactoe.record import RoundRecord, Stats
    from tui_tictactoe.ui.record_link import RecordLink


class StatsScreen(Screen[None]):
    """Per board played and level: wins, losses, draws, abandoned rounds, take-backs and
    streaks; then the last rounds."""

    CSS_PATH = "record_tables.tcss"
    AUTO_FOCUS = "#rounds"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s", "app.pop_screen", "Back to the game"),
        Binding("enter", "replay", "Replay", priority=True),
        Binding("p", "people", "People"),
        Binding("l", "leaderboard", "Leaderboard"),
    ]

    def __init__(self, link: RecordLink) -> None:
        super().__init__()
        self.link = link
        self.rounds: list[RoundRecord] = []
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.summary = Static("Reading the record…", id="stats-summary", classes="stats-line")
        # One table for every board played: each board's heading row (`3x3 Won Lost ...`)
        # over a row per level played there, so the columns line up from board to board.
        # Focusable (Tab): at 18 lines three boards of three levels scroll.
        self.by_board: DataTable[Any] = DataTable(
            id="by-board", cursor_type="none", show_header=False
        )
        self.by_board.add_columns(*(str(column) for column in range(1 + len(STANDING_COLUMNS))))
        self.rounds_title = Static(
            "Last rounds: Enter replays one", id="rounds-title", classes="stats-line"
        )
        self.table: DataTable[Any] = DataTable(id="rounds", cursor_type="row", zebra_stripes=True)
        self.table.add_columns(*ROUND_COLUMNS)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.summary
        yield self.by_board
        yield self.rounds_title
        with Vertical(id="rounds-area"):  # the rest of the screen, the table as tall as it needs
            yield self.table
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.sub_title = f"{self.link.identity.name}'s record"
        self.run_worker(self._read, name="read the record", group="stats", thread=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leaderboard":
            return self.link.hosted  # the leaderboard is the server's
        return True

    def _read(self) -> tuple[Stats, list[RoundRecord]]:
        """In a thread: the record may still be opening, or busy with another process."""
        record = self.link.record()
        player, name = self.link.player, self.link.identity.name
        return record.stats(player, name), record.recent_rounds(player, RECENT_ROUNDS)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if (
            event.worker.group == "stats"
            and event.state == WorkerState.SUCCESS
            and event.worker.result is not None
        ):
            stats, rounds = event.worker.result
            self._show(stats, rounds)
            self.link.show_notice()

    def _show(self, stats: Stats, rounds: list[RoundRecord]) -> None:
        self.rounds = rounds
        summary = self.summary
        if not self.link.enabled:
            summary.update("Playing without a record (--no-record): nothing is kept.")
        elif self.link.player is None:
            # serve-web's visitors, serve-ssh's clients without a key
            summary.update("You play as a guest: your rounds are not kept.")
        else:
            count = "1 round" if stats.rounds == 1 else f"{stats.rounds} rounds"
            summary.update(f"{count} kept. Streak: rounds unbeaten in a row.")
        by_board = self.by_board
        by_board.clear()
        for board, rows in board_tables(stats):
            heading = (board, *STANDING_COLUMNS)
            by_board.add_row(*(Text(cell, style="bold", justify="left") for cell in heading))
            for row in rows:
                by_board.add_row(*row)
        by_board.display = by_board.row_count > 0
        table = self.table
        table.clear()
        for round_ in rounds:
            table.add_row(*round_cells(round_))
        if not rounds:
            self.rounds_title.update("No rounds kept yet.")

    def action_replay(self) -> None:
        table = self.table
        if not (self.rounds and 0 <= table.cursor_row < len(self.rounds)):
            return
        try:
            replay = ReplayScreen(self.rounds[table.cursor_row])
        except ValueError as error:  # a round from a hand-edited (or newer) record
            self.notify(f"This round cannot be replayed: {error}.", markup=False)
            return
        self.app.push_screen(replay)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """A click on a round (Enter is the binding above)."""
        event.stop()
        self.action_replay()

    def action_people(self) -> None:
        self.app.push_screen(PeopleScreen(self.link))

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.link))
