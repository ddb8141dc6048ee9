"""The player's rounds against people (`p` on the stats screen), apart from the AI's.

The rating, a table of the boards played in rooms (won, lost, drawn, abandoned, left)
and at one keyboard, then the last rounds with the other player's name. Names are
other people's choice: every cell is `rich.text.Text`, never markup. Read in a thread
worker, like the stats.
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
    HOT_SEAT_COLUMNS,
    PEOPLE_COLUMNS,
    PEOPLE_ROUND_COLUMNS,
    RECENT_ROUNDS,
    people_round_cells,
    people_summary,
    people_tables,
)
from tui_tictactoe.ui.widgets import TitleBar

if TYPE_CHECKING:
    from tui_tictactoe.record import PeopleRound, PeopleStats
    from tui_tictactoe.ui.record_link import RecordLink


def _cells(row: tuple[str, ...], style: str = "") -> list[Text]:
    """A row as `Text`: a `str` cell of a DataTable is read as markup."""
    return [Text(cell, style=style, end="") for cell in row]


class PeopleScreen(Screen[None]):
    """Rounds against people: per board in rooms and at one keyboard, the Elo rating, and
    the last rounds."""

    CSS_PATH = "record_tables.tcss"
    AUTO_FOCUS = "#people-rounds"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,p", "app.pop_screen", "Back to the stats"),
    ]

    def __init__(self, link: RecordLink) -> None:
        super().__init__()
        self.link = link
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.summary = Static("Reading the record…", id="people-summary", classes="stats-line")
        # One table for rooms and hot seat: each kind's heading row over a row per board.
        self.by_board: DataTable[Any] = DataTable(
            id="people-by-board", cursor_type="none", show_header=False
        )
        self.by_board.add_columns(*(str(column) for column in range(1 + len(PEOPLE_COLUMNS))))
        self.rounds_title = Static(
            "Last rounds against people", id="people-rounds-title", classes="stats-line"
        )
        self.table: DataTable[Any] = DataTable(
            id="people-rounds", cursor_type="row", zebra_stripes=True
        )
        self.table.add_columns(*PEOPLE_ROUND_COLUMNS)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.summary
        yield self.by_board
        yield self.rounds_title
        with Vertical(id="people-rounds-area"):
            yield self.table
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.sub_title = f"{self.link.identity.name} against people"
        self.run_worker(self._read, name="read the record", group="people", thread=True)

    def _read(self) -> tuple[PeopleStats, list[PeopleRound]]:
        record = self.link.record()
        player = self.link.player
        return record.people.stats(player), record.people.rounds(player, RECENT_ROUNDS)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if (
            event.worker.group == "people"
            and event.state == WorkerState.SUCCESS
            and event.worker.result is not None
        ):
            stats, rounds = event.worker.result
            self._show(stats, rounds)
            self.link.show_notice()

    def _show(self, stats: PeopleStats, rounds: list[PeopleRound]) -> None:
        if self.link.player is None or not self.link.enabled:
            self.summary.update("Without a record, rounds against people are not kept.")
        else:
            self.summary.update(people_summary(stats))
        rooms, hot_seat = people_tables(stats)
        by_board = self.by_board
        by_board.clear()
        for title, columns, rows in (
            ("Rooms", PEOPLE_COLUMNS, rooms),
            ("Hot seat", HOT_SEAT_COLUMNS, hot_seat),
        ):
            if rows:
                heading = (title, *columns, *("",) * (len(PEOPLE_COLUMNS) - len(columns)))
                by_board.add_row(*_cells(heading, "bold"))
                for row in rows:
                    by_board.add_row(*_cells(row), *("",) * (len(PEOPLE_COLUMNS) + 1 - len(row)))
        by_board.display = by_board.row_count > 0
        self.table.clear()
        for round_ in rounds:
            self.table.add_row(*_cells(people_round_cells(round_)))
        if not rounds:
            self.rounds_title.update("No rounds against people yet.")
