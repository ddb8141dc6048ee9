"""The player's record (`s`): a table per difficulty, the last rounds, replays, a leaderboard.

Imported when first opened, like the help: start-up does not pay for it. The
record is read in a thread worker (it may be opening, or busy with another
process); a replay is computed here, from the round's moves and the solver's
verdicts (its memo table answers each position at once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from ...controller.options import board_geometry
from ...engine.analysis import Analysis, InvalidPosition, analyse
from ...engine.board import Cell, GameBoard, other
from ...engine.solver import Verdict
from ...record import RECENT_ROUNDS, ROUND_COLUMNS, round_cells
from ..widgets import TitleBar

if TYPE_CHECKING:
    from ...record import Leaderboard, RoundRecord, Stats
    from ..record_link import RecordLink

STATS_CSS = """
StatsScreen, ReplayScreen, LeaderboardScreen {
    layout: vertical;
    align-horizontal: center;
}
StatsScreen .stats-line, LeaderboardScreen .stats-line {
    height: 1;
    width: 1fr;
    padding: 0 1;
    color: $text-muted;
    text-wrap: nowrap;
    text-overflow: ellipsis;
}
StatsScreen DataTable, LeaderboardScreen DataTable {
    height: auto;
    max-height: 1fr;
    width: auto;
    max-width: 100%;
    margin: 0 1;
}
#replay-board {
    width: auto;
    height: auto;
    margin: 1 0 0 0;
    text-wrap: nowrap;
}
#replay-move {
    height: 2;
    width: 1fr;
    max-width: 60;
    padding: 0 1;
    content-align: center middle;
    text-align: center;
}
"""


class StatsScreen(Screen[None]):
    """Wins, losses, draws, abandoned rounds and streaks per level; the last rounds."""

    DEFAULT_CSS = STATS_CSS
    AUTO_FOCUS = "#rounds"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s", "app.pop_screen", "Back to the game"),
        Binding("enter", "replay", "Replay the round", priority=True),
        Binding("l", "leaderboard", "Leaderboard"),
    ]

    def __init__(self, link: RecordLink) -> None:
        super().__init__()
        self.link = link
        self.rounds: list[RoundRecord] = []
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.summary = Static("Reading the record…", id="stats-summary", classes="stats-line")
        self.by_level: DataTable[Any] = DataTable(
            id="by-level", cursor_type="none", zebra_stripes=True
        )
        self.by_level.can_focus = False
        self.by_level.add_columns("Level", "Wins", "Losses", "Draws", "Abandoned", "Streak", "Best")
        self.rounds_title = Static(
            "Last rounds: Enter replays one", id="rounds-title", classes="stats-line"
        )
        self.table: DataTable[Any] = DataTable(id="rounds", cursor_type="row", zebra_stripes=True)
        self.table.add_columns(*ROUND_COLUMNS)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.summary
        yield self.by_level
        yield self.rounds_title
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
        if event.worker.group == "stats" and event.state == WorkerState.SUCCESS:
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
        by_level = self.by_level
        by_level.clear()
        for level, numbers in stats.by_difficulty.items():
            by_level.add_row(level, *(str(number) for number in numbers))
        table = self.table
        table.clear()
        for round_ in rounds:
            table.add_row(*round_cells(round_))
        if not rounds:
            self.rounds_title.update("No rounds kept yet.")

    def action_replay(self) -> None:
        table = self.table
        if self.rounds and 0 <= table.cursor_row < len(self.rounds):
            self.app.push_screen(ReplayScreen(self.rounds[table.cursor_row]))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """A click on a round (Enter is the binding above)."""
        event.stop()
        self.action_replay()

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.link))


# -- replays ---------------------------------------------------------------------


class Step(NamedTuple):
    """One move of a replay: who played where, and the verdict of that move."""

    symbol: str
    cell: Cell
    verdict: Verdict | None  # None if the position could not be analysed
    best: bool


def replay_steps(round_: RoundRecord) -> list[Step]:
    """The round's moves with the solver's verdict of each, until an illegal one (if any)."""
    board = GameBoard(board_geometry(round_.board_size))
    mover = round_.symbol if round_.first == "human" else other(round_.symbol)
    steps = []
    for key in round_.moves:
        try:
            cell = board.geometry.cell_of_key(key)
            # The analysis is for 3x3 for now: on 4x4 and 5x5 it would take seconds a move.
            verdicts = analyse(board, mover) if board.geometry.cells <= 9 else None
        except (InvalidPosition, ValueError):
            break
        ok, _ = board.make_move(*cell, mover)
        if not ok:
            break
        if verdicts is None:
            steps.append(Step(mover, cell, None, False))
        else:
            steps.append(Step(mover, cell, verdicts.verdict_at(cell), cell in verdicts.best))
        mover = other(mover)
    return steps


class ReplayScreen(Screen[None]):
    """A recorded round, move by move, with every empty cell's verdict (the analysis)."""

    DEFAULT_CSS = STATS_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right,space", "step(1)", "Next move"),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("escape", "app.pop_screen", "Back to the stats"),
    ]

    def __init__(self, round_: RoundRecord) -> None:
        super().__init__()
        self.round = round_
        self.steps = replay_steps(round_)
        self.at = 0  # moves shown
        # Held, not queried: keys in a burst can close the screen before it has mounted.
        self.board_view = Static(id="replay-board")
        self.move_line = Static(id="replay-move")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        # Each in a Center of its own: the screen's `align` moves its children as one
        # block, which left the board off-centre by half the width of the wider move line.
        with Center():
            yield self.board_view
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

    def action_step(self, delta: int) -> None:
        self.action_go(min(max(self.at + delta, 0), len(self.steps)))

    def action_go(self, at: int) -> None:
        self.at = len(self.steps) if at < 0 else at
        self._show()

    def _board(self) -> tuple[GameBoard, str]:
        """The board after `at` moves, and the side to move there."""
        board = GameBoard(board_geometry(self.round.board_size))
        for step in self.steps[: self.at]:
            board.make_move(*step.cell, step.symbol)
        first = self.round.symbol if self.round.first == "human" else other(self.round.symbol)
        return board, first if self.at % 2 == 0 else other(first)

    def _show(self) -> None:
        board, mover = self._board()
        try:
            overlay: Analysis | None = analyse(board, mover) if board.geometry.cells <= 9 else None
        except InvalidPosition:
            overlay = None
        last = self.steps[self.at - 1].cell if self.at else None
        self.board_view.update(draw_board(board, overlay, last))
        self.move_line.update(self._describe())

    def _describe(self) -> str:
        total = len(self.steps)
        if not self.at:
            return f"The start: {total} moves. Right or Space steps on, Left back."
        step = self.steps[self.at - 1]
        who = "you" if step.symbol == self.round.symbol else "the AI"
        key = board_geometry(self.round.board_size).key(*step.cell)
        said = f"Move {self.at} of {total}: {who} ({step.symbol}) played {key}"
        if step.verdict is None:
            return f"{said}."
        return f"{said}: {step.verdict}{' (a best move)' if step.best else ' (not a best move)'}."


CELL_WIDTH = 11


def draw_board(board: GameBoard, overlay: Analysis | None, last: Cell | None) -> Content:
    """The board in box-drawing lines: marks, and each empty cell's verdict for the
    side to move ("best" under the best ones); the last move is marked "last"."""
    size = board.geometry.size
    bar = "─" * CELL_WIDTH
    text = "╭" + "┬".join([bar] * size) + "╮\n"
    spans: list[tuple[int, int, str]] = []
    for row in range(size):
        for line in range(3):
            text += "│"
            for col in range(size):
                cell_text, style = _cell_line(board, overlay, last, (row, col), line)
                word = cell_text.strip()
                if word and style:  # only the word is styled, not the padding
                    at = len(text) + cell_text.index(word)
                    spans.append((at, at + len(word), style))
                text += cell_text + "│"
            text += "\n"
        if row < size - 1:
            text += "├" + "┼".join([bar] * size) + "┤\n"
    text += "╰" + "┴".join([bar] * size) + "╯"
    content = Content(text)
    for begin, end, style in spans:
        content = content.stylize(style, begin, end)
    return content


def _cell_line(
    board: GameBoard, overlay: Analysis | None, last: Cell | None, cell: Cell, line: int
) -> tuple[str, str]:
    mark = board.game_board[cell[0]][cell[1]]
    if mark.strip():
        if line == 1:
            style = "bold $text-accent" if mark == "X" else "bold italic $text-primary"
            return mark.center(CELL_WIDTH), style
        if line == 2 and cell == last:
            return "last".center(CELL_WIDTH), "reverse"
        return " " * CELL_WIDTH, ""
    verdict = overlay.verdict_at(cell) if overlay is not None else None
    if line == 0:
        return f" {board.geometry.key(*cell)}".ljust(CELL_WIDTH), "$text-muted"
    if line == 1 and verdict is not None:
        style = {"win": "$text-success", "loss": "$text-error"}.get(verdict.outcome, "")
        return str(verdict).center(CELL_WIDTH), style
    if line == 2 and overlay is not None and cell in overlay.best:
        return "best".center(CELL_WIDTH), "bold"
    return " " * CELL_WIDTH, ""


# -- the server's leaderboard ---------------------------------------------------------


class LeaderboardScreen(Screen[None]):
    """Under serve-ssh: the longest unbeaten streaks on hard, the most wins on medium."""

    DEFAULT_CSS = STATS_CSS
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
        }
        self.tables["hard"].add_columns("#", "Player", "Streak")
        self.tables["medium"].add_columns("#", "Player", "Wins")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static("Longest unbeaten streaks on hard", classes="stats-line")
        yield self.tables["hard"]
        yield Static("Most wins on medium (rounds without take-backs)", classes="stats-line")
        yield self.tables["medium"]
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.sub_title = "leaderboard"
        self.run_worker(self._read, name="read the leaderboard", group="stats", thread=True)

    def _read(self) -> Leaderboard:
        return self.link.record().leaderboard(limit=5)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "stats" and event.state == WorkerState.SUCCESS:
            board: Leaderboard = event.worker.result
            for table, entries in (
                (self.tables["hard"], board.hard_streaks),
                (self.tables["medium"], board.medium_wins),
            ):
                for place, entry in enumerate(entries, 1):
                    # `Text`, not `str`: DataTable reads a `str` cell as markup, and a
                    # name is whatever an SSH client logged in with.
                    table.add_row(str(place), Text(entry.label, end=""), str(entry.value))
            self.link.show_notice()
