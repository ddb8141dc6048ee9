"""The key bar, redrawn only when the keys it shows change."""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


def shown_keys(screen: Screen) -> Hashable:
    """What the footer would draw for `screen`: the shown bindings and whether each is enabled."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class GameFooter(Footer):
    """A `Footer` that skips rebuilding itself when nothing it shows has changed.

    Textual's footer rebuilds on every focus change. Arrow keys move focus from
    cell to cell, all with the same keys to show, so each arrow paid for a
    rebuild; a burst of arrows over SSH then lagged behind.
    """

    _drawn: Hashable = None

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = shown_keys(self.screen)
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        if self._bindings_ready and screen is self.screen and shown_keys(screen) == self._drawn:
            return
        super().bindings_changed(screen)
