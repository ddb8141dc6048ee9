"""The server's leaderboard (`l` on the stats screen, under serve-ssh only), on 3x3.

One board, said on screen: a streak on 3x3 hard (draws against a perfect player) and
one on 4x4 are not the same feat, so they are not ranked together. Below them, people
ranked by their Elo rating from rounds in rooms (every board).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from tui_tictactoe.record import LEADERBOARD_BOARD, board_name
from tui_tictactoe.ui.widgets import TitleBar

if TYPE_CHECKING:
    from tui_tictactoe.record import Leaderboard, RatingEntry
    from tui_tictactoe.ui.record_link import RecordLink


class LeaderboardScreen(Screen[None]):
    """Under serve-ssh, on `LEADERBOARD_BOARD`: the longest unbeaten streaks on hard, the
    most wins on medium; then the top Elo ratings from rounds between people."""

    CSS_PATH = "record_tables.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,l", "app.pop_screen", "Back to the stats"),
    ]

    def __init__(self, link: RecordLink) -> None:
        super().__init__()
        self.link = link
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.tables: dict[str, DataTable[Any]] = {
            "hard": DataTable(id="hard-streaks", cursor_type="none"),
            "medium": DataTable(id="medium-wins", cursor_type="none"),
            "people": DataTable(id="people-ratings", cursor_type="none"),
        }
        self.tables["hard"].add_columns("#", "Player", "Streak")
        self.tables["medium"].add_columns("#", "Player", "Wins")
        self.tables["people"].add_columns("#", "Player", "Elo", "Rounds")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        board = board_name(LEADERBOARD_BOARD)
        yield Static(f"On {board}: longest unbeaten streaks on hard", classes="stats-line")
        yield self.tables["hard"]
        yield Static(
            f"On {board}: most wins on medium (rounds without take-backs)", classes="stats-line"
        )
        yield self.tables["medium"]
        yield Static("Against people: Elo rating (rated rounds in rooms)", classes="stats-line")
        yield self.tables["people"]
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.sub_title = f"leaderboard on {board_name(LEADERBOARD_BOARD)}"
        self.run_worker(self._read, name="read the leaderboard", group="stats", thread=True)

    def _read(self) -> tuple[Leaderboard, list[RatingEntry]]:
        record = self.link.record()
        return record.leaderboard(limit=5, board_size=LEADERBOARD_BOARD), record.people.ratings(
            limit=5
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if (
            event.worker.group == "stats"
            and event.state == WorkerState.SUCCESS
            and event.worker.result is not None
        ):
            board, ratings = event.worker.result
            for table, entries in (
                (self.tables["hard"], board.hard_streaks),
                (self.tables["medium"], board.medium_wins),
            ):
                for place, entry in enumerate(entries, 1):
                    # `Text`, not `str`: DataTable reads a `str` cell as markup, and a
                    # name is whatever an SSH client logged in with.
                    table.add_row(str(place), Text(entry.label, end=""), str(entry.value))
            for place, rated in enumerate(ratings, 1):
                self.tables["people"].add_row(
                    str(place), Text(rated.label, end=""), str(rated.rating), str(rated.games)
                )
            self.link.show_notice()
