"""Rules, keys and how the AI thinks, from the `help.md` shipped with the package.

The prose is help.md's; the key list in it is made from the command table
(`ui/commands.py`), at the mark help.md holds for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_tictactoe.ui.commands import key_list_markdown
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize

HELP_PATH = Path(__file__).parent.parent / "help.md"

KEY_LIST_MARK = "<!-- keys: the help screen puts the key list here, made from ui/commands.py -->"


def help_text() -> str:
    """help.md with the key list in place of its mark."""
    text = HELP_PATH.read_text(encoding="utf-8")
    assert KEY_LIST_MARK in text, f"{HELP_PATH.name} has lost the key list's mark"
    return text.replace(KEY_LIST_MARK, key_list_markdown())


class HelpScreen(IgnoresStaleResize, Screen[None]):
    """The help text, scrollable; Escape or ? goes back to the game."""

    CSS_PATH = "help_screen.tcss"

    # `?` toggles the help from the app's bindings.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back to the game")
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Markdown(help_text()))
        yield Footer(show_command_palette=False)
