"""The game's menu (Ctrl+P): every command by name, each with the key that does it.

It replaces Textual's command palette, which kept crashing under fast or random
input in Textual 8.2.8 (its search worker queried a list that was gone, a click
landed past the end of a list it had just refilled). A game has a dozen
commands, not thousands: a fixed list that never changes while it is open, and
a key per command, is both steadier and quicker to use than a fuzzy search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from tui_tictactoe.ui.key_table import menu_commands
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen


class MenuItem(NamedTuple):
    """One command: the key that runs it (in the menu and, for most, on the board)."""

    key: str
    name: str
    help: str
    run: Callable[[], object]


def command_items(app: App[Any], screen: Screen[Any], over_game: bool) -> list[MenuItem]:
    """The menu over `screen`, from the command table (`ui/key_table.py`): the game's
    own commands when `over_game`, run on it, and the app's. Each is picked by the key
    that does the same outside the menu (for most; Theme and Keys have the menu only)."""
    states = {"keys_panel": bool(screen.query("HelpPanel"))}
    return [
        MenuItem(
            command.keys,
            command.name,
            command.menu_help(states),
            partial(app.run_action, command.menu_action, screen if command.on == "game" else app),
        )
        for command in menu_commands(over_game)
    ]


def item_prompt(item: MenuItem, name_width: int = 11) -> Text:
    """One line: key, name padded to `name_width` (so the helps line up), help."""
    name = f"{item.name:<{name_width}}"
    return Text.assemble((f"{item.key:>2}  ", "bold"), (name, "bold"), item.help)


def name_width(items: Sequence[MenuItem]) -> int:
    """Room for the longest name and two spaces: a long theme name keeps its gap
    before "(now)"."""
    return max([11, *(len(item.name) + 2 for item in items)])


class MenuScreen(IgnoresStaleResize, ModalScreen[MenuItem | None]):
    """A fixed list of commands; Enter, a click or the command's key picks one.

    The choice goes to the callback given to `push_screen`, which runs it once the
    menu has closed, so a command that opens a screen opens it over the game.
    """

    CSS_PATH = "menu_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", show=False),
        # Enter picks at once, not through the list's message, so a key typed right
        # after it (Escape, say) cannot overtake it.
        Binding("enter", "pick", "Run", show=False, priority=True),
    ]

    def __init__(self, items: Sequence[MenuItem], title: str = "Menu") -> None:
        super().__init__()
        self.items = tuple(items)
        self.title = title
        self.chosen = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title or "", classes="menu-title")
            width = name_width(self.items)
            yield OptionList(*(item_prompt(item, width) for item in self.items))
            yield Static("Enter or a key runs a command · Esc closes", classes="menu-hint")

    # Not a focus() in on_mount: a key typed right after Ctrl+P can pick a command and
    # close the menu before it mounts, and the list is gone by then (chaos test).
    AUTO_FOCUS = "OptionList"

    def choose(self, item: MenuItem | None) -> None:
        # Keys and clicks typed in a burst can arrive after the first choice has
        # closed the menu: only the first one counts.
        if self.chosen or not self.is_active:
            return
        self.chosen = True
        self.dismiss(item)

    def action_close(self) -> None:
        self.choose(None)

    def action_pick(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None:
            self.choose(self.items[highlighted])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(self.items[event.option_index])

    def on_key(self, event: events.Key) -> None:
        for item in self.items:
            if event.character and event.character == item.key:
                event.stop()
                self.choose(item)
                return

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # outside the menu
            self.choose(None)


class ThemeMenu(MenuScreen):
    """The colour themes; the highlighted one is shown at once, Esc goes back."""

    def __init__(self, themes: Sequence[str], current: str, apply: Callable[[str], None]) -> None:
        items = [
            MenuItem("", name, "(now)" if name == current else "", lambda: None) for name in themes
        ]
        super().__init__(items, title="Theme")
        self.themes = tuple(themes)
        self.original = current
        self.apply = apply

    def on_mount(self) -> None:
        for menu in self.query(OptionList):  # none if a burst of keys has closed it already
            menu.highlighted = self.themes.index(self.original)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if not self.chosen:
            self.apply(self.themes[event.option_index])

    def choose(self, item: MenuItem | None) -> None:
        if not self.chosen and self.is_active:
            self.apply(self.original if item is None else item.name)
        super().choose(item)
