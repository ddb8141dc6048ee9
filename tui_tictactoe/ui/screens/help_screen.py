"""Rules, keys and how the AI thinks, from the `help.md` shipped with the package.

The prose is help.md's; the key list in it is made from the command table
(`ui/key_table.py`), at the mark help.md holds for it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_tictactoe.ui.key_table import key_list_markdown
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize

HELP_PATH = Path(__file__).parent.parent / "help.md"

KEY_LIST_MARK = "<!-- keys: the help screen puts the key list here, made from ui/key_table.py -->"


FLAGS = re.compile(r",? or `--[^`]+`(?: / `--[^`]+`)*|\s*\(`--[^`]+`\)")
"""help.md's mentions of command-line flags ("New game, or `--board 4`", "(`--board 6`)")."""
BROWSER_QUIT = (
    "| Ctrl+Q | Quit at once (a browser may keep Ctrl+Q for itself: then **q**, and **y** "
    "mid-round) |"
)


def help_text(browser: bool = False) -> str:
    """help.md with the key list in place of its mark. In a `browser` (serve-web), whose
    visitor has no command line, without the flags, and with a quit that works where
    the browser takes Ctrl+Q."""
    text = HELP_PATH.read_text(encoding="utf-8")
    assert KEY_LIST_MARK in text, f"{HELP_PATH.name} has lost the key list's mark"
    keys = key_list_markdown()
    if browser:
        text = FLAGS.sub("", text)
        keys = "\n".join(
            BROWSER_QUIT if row.startswith("| Ctrl+Q |") else row for row in keys.splitlines()
        )
    return text.replace(KEY_LIST_MARK, keys)


class HelpScreen(IgnoresStaleResize, Screen[None]):
    """The help text, scrollable; Escape or ? goes back to the game."""

    CSS_PATH = "help_screen.tcss"

    # `?` toggles the help from the app's bindings.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back to the game")
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Markdown(help_text(browser=self.app.is_web)))
        yield Footer(show_command_palette=False)
