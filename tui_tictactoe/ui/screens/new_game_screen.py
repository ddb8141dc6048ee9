"""The new-game dialog: symbol, who starts, difficulty and alternating starts."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Label, RadioButton, RadioSet

from ...engine.strategies import DIFFICULTIES
from ..widgets import ActionButton
from .game_screen import GameOptions

FIRST_LABELS = {"human": "You", "ai": "AI"}


class OptionSet(RadioSet):
    """A RadioSet whose keyboard cursor starts on the chosen option rather than the first."""

    def on_mount(self) -> None:
        # RadioSet's own mount handler, which runs after this one, puts the
        # cursor on the first button: move it once that has happened.
        self.call_later(self._cursor_to_pressed)

    def _cursor_to_pressed(self) -> None:
        self._selected = self.pressed_index if self.pressed_index >= 0 else 0


class NewGameScreen(ModalScreen[GameOptions | None]):
    """Pick the options of a new game; Start returns them, Escape or Cancel returns None."""

    # Here rather than in tictactoe.tcss: parsed when the dialog first opens, not
    # at start-up. Every rule names #dialog (or the screen), so none is outranked
    # by a widget's own CSS.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    NewGameScreen {
        align: center middle;
    }

    #dialog {
        width: 56;
        height: auto;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text-primary;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }

    #dialog .option {
        height: auto;
    }

    #dialog .option-label {
        width: 12;
        padding: 1 0;
    }

    #dialog RadioSet {
        layout: horizontal;
        width: 1fr;
    }

    #dialog RadioButton {
        width: auto;
        margin-right: 3;
    }

    /* Only the focused set shows its cursor: a highlight elsewhere reads as a choice. */
    #dialog RadioSet:blur > RadioButton.-selected > .toggle--label {
        background: transparent;
    }

    #dialog Checkbox {
        width: 1fr;
    }

    #dialog-buttons {
        height: auto;
        align-horizontal: right;
    }

    #dialog-buttons ActionButton {
        min-width: 10;
        margin-left: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, options: GameOptions) -> None:
        super().__init__()
        self.options = options

    def compose(self) -> ComposeResult:
        options = self.options
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "New game"
            with Horizontal(classes="option"):
                yield Label("You play", classes="option-label")
                with OptionSet(id="symbol"):
                    for symbol in ("X", "O"):
                        yield RadioButton(symbol, value=options.symbol == symbol, name=symbol)
            with Horizontal(classes="option"):
                yield Label("First move", classes="option-label")
                with OptionSet(id="first"):
                    for side, label in FIRST_LABELS.items():
                        yield RadioButton(label, value=options.first == side, name=side)
            with Horizontal(classes="option"):
                yield Label("Difficulty", classes="option-label")
                with OptionSet(id="difficulty"):
                    for level in DIFFICULTIES:
                        yield RadioButton(level, value=options.difficulty == level, name=level)
            yield Checkbox("Alternate who starts each round", options.alternate, id="alternate")
            with Horizontal(id="dialog-buttons"):
                yield ActionButton("Start", variant="primary", id="start")
                yield ActionButton("Cancel", id="cancel")
        yield Footer(show_command_palette=False, compact=True)

    def chosen(self) -> GameOptions:
        """The options as currently set in the dialog."""

        def pick(radio_set_id: str) -> str:
            pressed = self.query_one(f"#{radio_set_id}", RadioSet).pressed_button
            assert pressed is not None and pressed.name is not None  # one is always pressed
            return pressed.name

        return GameOptions(
            symbol=pick("symbol"),
            first=pick("first"),
            difficulty=pick("difficulty"),
            alternate=self.query_one("#alternate", Checkbox).value,
        )

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
