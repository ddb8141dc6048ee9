"""The new-game dialog: symbol, who starts, difficulty, alternating starts, the board size
and the opponent (the AI or a person here), all by keys. Against a person the
symbol, who starts and the difficulty do nothing: their rows are greyed out and skipped.
Its last row turns the bell for your turn in a room on or off (`ui.turn_bell`): not a game
option, so it is read apart (`bell`) once Start is pressed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static

from tui_tictactoe.controller import CHOICES, GameOptions
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets.narrow_button import NarrowButton
from tui_tictactoe.ui.widgets.too_small import fit_line, fits

LABEL_WIDTH = 12
ABANDONS = "Start abandons this round."
GAP = "   "

# What the player reads for each allowed value; the values come from CHOICES.
SHOWN = {
    "human": "You",
    "ai": "AI",
    False: "no",
    True: "yes",
    "3": "3x3",
    "4": "4x4",
    "5": "5x5",
    "6": "6x6",
}
OPPONENT_SHOWN = {"ai": "AI", "human": "Person here"}
AI_ONLY = ("symbol", "first", "difficulty")
"""The rows that matter only against the AI (between people X starts, and no AI plays)."""


class DialogButton(NarrowButton):
    """The dialog's Start and Cancel: a Button that survives a terminal a few columns wide."""


class ChoiceRow(Widget, can_focus=True):
    """One option: its name and every choice in a row; Left/Right or a click change it.

    The chosen value is marked by shape (● against ○) as well as colour, so it
    reads without colour too.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "change(-1)", "Change", key_display="←→"),
        Binding("right", "change(1)", "Change", show=False),
    ]

    value: reactive[object] = reactive(None, init=False)

    class Changed(Message):
        """The row's value changed (the dialog greys out rows that no longer matter)."""

        def __init__(self, row: ChoiceRow) -> None:
            super().__init__()
            self.row = row

        @property
        def control(self) -> ChoiceRow:
            return self.row

    def __init__(
        self,
        label: str,
        choices: tuple[object, ...],
        value: object,
        id: str,
        shown: dict[object, str] | None = None,
    ) -> None:
        """`shown`: what the player reads for each value, if not `SHOWN`'s words."""
        super().__init__(id=id)
        self.label = label
        self.choices = choices
        self.shown = shown if shown is not None else SHOWN
        self.set_reactive(ChoiceRow.value, value)

    def watch_value(self) -> None:
        self.post_message(self.Changed(self))

    def action_change(self, delta: int) -> None:
        """The next (or previous) choice, wrapping around: two presses never get stuck."""
        index = self.choices.index(self.value)
        self.value = self.choices[(index + delta) % len(self.choices)]

    def _pieces(self) -> list[tuple[object, int, str]]:
        """(value, first column, text) of each choice, as drawn."""
        pieces, x = [], LABEL_WIDTH
        for choice in self.choices:
            text = f"{'●' if choice == self.value else '○'} {self.shown.get(choice, choice)}"
            pieces.append((choice, x, text))
            x += len(text) + len(GAP)
        return pieces

    def render(self) -> Content:
        parts: list[tuple[str, str] | str] = [(self.label.ljust(LABEL_WIDTH), "$text-muted")]
        chosen = "$text-disabled" if self.disabled else "bold $text-accent"
        for index, (choice, _, text) in enumerate(self._pieces()):
            if index:
                parts.append(GAP)
            parts.append((text, chosen if choice == self.value else ""))
        return Content.assemble(*parts)

    def on_click(self, event: events.Click) -> None:
        for choice, start, text in self._pieces():
            if start <= event.x < start + len(text):
                self.value = choice


class NewGameScreen(IgnoresStaleResize, ModalScreen[GameOptions | None]):
    """Pick the options of a new game; Enter or Start returns them, Escape or Cancel None."""

    CSS_PATH = "new_game_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "app.focus_previous", "Next option", key_display="↑↓"),
        Binding("down", "app.focus_next", "Option", show=False),
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
        Binding("enter", "start", "Start"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        options: GameOptions,
        *,
        abandons: bool = False,
        bell: bool | None = None,
        needs: Mapping[str, Size] | None = None,
    ) -> None:
        """`abandons`: a round is in progress, and starting a game abandons it; `bell`: the
        turn bell's setting now (None: no such row); `needs`: the least terminal of each
        board, for the line under Board that says which fit this one (None: no line)."""
        super().__init__()
        self.options = options
        self.abandons = abandons
        self.bell = bell  # as chosen, once Start is pressed
        self.needs = needs

    def compose(self) -> ComposeResult:
        options = self.options
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "New game"
            rows = (
                ChoiceRow("You play", CHOICES["symbol"], options.symbol, id="symbol"),
                ChoiceRow("First move", CHOICES["first"], options.first, id="first"),
                ChoiceRow("Difficulty", CHOICES["difficulty"], options.difficulty, id="difficulty"),
                ChoiceRow("Alternate", (False, True), options.alternate, id="alternate"),
                ChoiceRow("Board", CHOICES["board"], options.board, id="board"),
                ChoiceRow(
                    "Opponent",
                    CHOICES["opponent"],
                    options.opponent,
                    id="opponent",
                    shown=OPPONENT_SHOWN,  # type: ignore[arg-type]
                ),
            )
            for row in rows:
                row.disabled = row.id in AI_ONLY and options.opponent == "human"
                yield row
                if row.id == "board" and self.needs is not None:
                    yield Static(id="board-fit", markup=False)
            if self.bell is not None:
                yield ChoiceRow("Turn bell", (False, True), self.bell, id="bell")
            with Horizontal(id="dialog-buttons"):
                if self.abandons:  # Start is the confirmation: say what it costs
                    yield Static(ABANDONS, id="abandons")
                yield DialogButton("Start", variant="primary", id="start")
                yield DialogButton("Cancel", id="cancel")
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self._show_fit()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self._show_fit()

    @on(ChoiceRow.Changed, "#board")
    def _show_fit(self) -> None:
        """Under Board, before Start: which boards fit this terminal and what the others
        need; shown only when one does not fit, in the warning's tone when it is chosen."""
        if self.needs is None or not self.is_mounted:
            return
        found = self.query("#board-fit").results(Static)
        shown = next(found, None)
        if shown is None:  # a resize while the dialog's rows are not (or no longer) there
            return
        line = fit_line(self.app.size, self.needs)
        shown.display = line is not None
        if line is not None:
            shown.update(line)
            board = self.query_one("#board", ChoiceRow).value
            shown.set_class(not fits(self.app.size, self.needs[str(board)]), "-warning")

    @on(ChoiceRow.Changed, "#opponent")
    def _grey_out(self, event: ChoiceRow.Changed) -> None:
        """Against a person the AI's rows do nothing: greyed out, and the keys skip them."""
        for row in self.query(ChoiceRow):
            if row.id in AI_ONLY:
                row.disabled = event.row.value == "human"

    def chosen(self) -> GameOptions:
        """The options as currently set in the dialog."""

        def pick(name: str) -> object:
            return self.query_one(f"#{name}", ChoiceRow).value

        names = ("symbol", "first", "difficulty", "alternate", "board", "opponent")
        options = GameOptions(*(pick(name) for name in names))  # type: ignore[arg-type]
        return options.validated()

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        if self.is_active:  # Enter and a click together must not start twice
            if self.bell is not None:
                self.bell = bool(self.query_one("#bell", ChoiceRow).value)
            self.dismiss(self.chosen())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        if self.is_active:
            self.dismiss(None)
