"""Textual's command palette, steady under keys that arrive in a burst."""

from __future__ import annotations

from contextlib import suppress

from textual import on
from textual.command import CommandPalette
from textual.widgets import Button, Input, OptionList


class GameCommandPalette(CommandPalette):
    """The command palette (ctrl+p: themes, keys, quit) that a quick typist cannot crash.

    Textual 8.2.8's palette ends the app with an exception on two key sequences
    that arrive together when typed fast or over SSH (found by the random-key
    tests in tests/test_app_monkey.py):

    * `ctrl+p pageup`: a page key that reaches the command list before the list
      has laid out its lines raises KeyError;
    * `ctrl+p enter enter` (or Enter twice on a theme): the second Enter reaches
      the palette after the first has closed it, and dismisses it again:
      ScreenStackError, with the command run twice.

    Here such a page key is dropped, and so is an Enter (or a selection) that
    arrives after the palette has closed.
    """

    def _action_command_list(self, action: str) -> None:
        with suppress(KeyError):  # no lines laid out yet: nothing to move through
            super()._action_command_list(action)

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
