"""A guard every screen of the app carries against laying out at a stale terminal size.

Textual 8.2.8: when the terminal is resized twice in quick succession while a
modal screen is open, the screens below can receive Resize events for the older
size after the newer one; laying out at the old size makes a screen post itself
another Resize, and two screens then bounce the two sizes between them for ever:
the app stops drawing and no key (not even Ctrl+Q) is handled. Found by
tests/realtime/pty/test_pty_chaos.py (seed 20240: the menu open, the terminal resized to
139x52 and then 184x41 about 30 ms apart); tests/ui/test_app_edges.py checks that a
stale Resize is ignored. Remove this module once a Textual release survives that
chaos run without it; re-check when the `textual<8.3` pin moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from textual.app import App


class IgnoresStaleResize:
    """Drops a Resize whose size is no longer the terminal's: a newer one follows.

    A plain mixin, not a Screen subclass: as a Screen it would bring Screen's default
    CSS in again and make modal screens opaque.
    """

    app: App[object]  # provided by the screen it is mixed into

    def on_resize(self, event: events.Resize) -> None:
        if event.size != self.app.size:
            event.prevent_default()  # Screen's own handler would lay out at the old size
