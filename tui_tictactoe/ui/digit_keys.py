"""The keys 1-9, which play a cell by its number, and how the footer names them.

Nine footer entries would crowd out the rest, so the footer shows one, "1-9 Play",
and only where it leaves room for every other entry up to "q Quit" (a test checks
`FOOTER_ROOM`). The cells show their numbers too, faintly, and the help lists them.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen

FOOTER_ROOM = 66
"""Columns the footer needs to show "1-9 Play" and every other entry."""

SHOWN = "digits_in_footer"
"""The action of the shown entry. No method has this name: pressed, the key 1 falls
through to the next binding of 1, `play(1)`, as Textual tries a key's bindings in turn
until one acts; clicked in the footer, it does nothing."""

DIGIT_KEYS = [
    Binding("1", SHOWN, "Play", key_display="1-9", priority=True),
    *(
        Binding(str(key), f"play({key})", f"Play {key}", show=False, priority=True)
        for key in range(1, 10)
    ),
]
"""Priority bindings, like every game key (see `GameScreen.BINDINGS`)."""


def fits_footer(screen: Screen[object], action: str) -> bool:
    """For `check_action`: False hides "1-9 Play" where "q Quit" would not fit beside it,
    and refuses the digits on boards bigger than 3x3 (nine keys cannot name 16 cells)."""
    if action == SHOWN or action.startswith("play"):
        geometry = getattr(screen, "geometry", None)
        if geometry is not None and geometry.cells > 9:
            return False
    return action != SHOWN or screen.size.width >= FOOTER_ROOM
