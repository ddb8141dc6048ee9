"""The bell when it becomes the player's turn: once a turn, never for a redraw.

A player waiting for a person in another window hears the terminal's bell (`App.bell`,
Textual's public way: it writes BEL, 0x07, through the driver, so over SSH the byte
reaches the client's terminal) when their turn comes in a room, or when a quick match
is found. A turn is named by its caller (a room's code, round and move count; a match's
code): the bell rings when the name changes, so a view that comes again (a redraw, a
resize, the hub's repeated view) rings nothing. The player turns it off in the new-game
dialog; the record remembers that (`RecordLink`, setting `bell`).

The window's title says whose turn it is too (`TicTacToeApp.set_window_title`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable


class TurnBell:
    """`ring_for(turn)`: ring once for each new `turn`, if `enabled`."""

    def __init__(self, ring: Callable[[], None], enabled: bool = True) -> None:
        self.ring = ring
        self.enabled = enabled
        self._last: Hashable | None = None  # the turn rung for (or let pass) last

    def ring_for(self, turn: Hashable) -> bool:
        """Ring for `turn` unless it is the one rung for last; True if it rang."""
        if turn == self._last:
            return False
        self._last = turn
        if self.enabled:
            self.ring()
            return True
        return False
