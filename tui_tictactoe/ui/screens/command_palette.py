"""Textual's command palette, steady under keys that arrive in a burst.

Workaround for two crashes in Textual 8.2.8's `CommandPalette` (found by the
random-key tests in tests/test_app_monkey.py; both replayed by
`test_command_palette_survives_keys_in_a_burst` in tests/test_app.py):

* `ctrl+p pageup` typed together: the page key reaches the command list before
  it has laid out its lines, and `OptionList` raises KeyError;
* `ctrl+p enter enter` (or Enter twice on a theme): the second Enter reaches the
  palette after the first has closed it, which dismisses it again
  (ScreenStackError) and runs the command twice.

Remove this module (and use `CommandPalette` again) once a Textual release
passes those two tests without it; re-check when the `textual<8.3` pin moves.
"""

from __future__ import annotations

from contextlib import suppress
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.widgets import Button, Input, OptionList


class GameCommandPalette(CommandPalette):
    """The command palette (ctrl+p) that a quick typist cannot crash."""

    # The palette's own list-paging keys, sent through an action that tolerates
    # a list with no lines laid out yet.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+end,shift+end", "page_list('last')", "Go to bottom", show=False),
        Binding("ctrl+home,shift+home", "page_list('first')", "Go to top", show=False),
        Binding("pagedown", "page_list('page_down')", "Next page", show=False),
        Binding("pageup", "page_list('page_up')", "Previous page", show=False),
    ]

    def action_page_list(self, action: str) -> None:
        with suppress(KeyError):  # no lines laid out yet: nothing to move through
            getattr(self.query_one(CommandList), f"action_{action}")()

    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _ignore_once_closed(
        self, event: Input.Submitted | Button.Pressed | OptionList.OptionSelected
    ) -> None:
        # Runs before CommandPalette's own handler, which prevent_default skips.
        if not self.is_active:
            event.prevent_default()
            event.stop()
