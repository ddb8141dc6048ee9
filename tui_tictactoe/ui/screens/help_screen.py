"""Rules, keys and how the AI thinks, from the `help.md` shipped with the package."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from .stale_resize import IgnoresStaleResize

HELP_PATH = Path(__file__).parent.parent / "help.md"


class HelpScreen(IgnoresStaleResize, Screen[None]):
    """The help text, scrollable; Escape or ? goes back to the game."""

    # Parsed when the help first opens, not at start-up (see NewGameScreen).
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #help {
        padding: 0 2;
    }
    """

    # `?` toggles the help from the app's bindings.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back to the game")
    ]

    def compose(self) -> ComposeResult:
        text = HELP_PATH.read_text(encoding="utf-8")
        with VerticalScroll(id="help"):
            yield Static(Markdown(text))
        yield Footer(show_command_palette=False)
