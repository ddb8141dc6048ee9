"""How a stored player is named on screen: names are the clients' choice, keys are not.

A player is stored by a key (the local user's name, or serve-ssh's key
fingerprint) with the name it last played under. Names were stored uncleaned
before `identity.displayable` existed, and SSH clients choose theirs, so every
stored name is cleaned when shown, and a player known by a key shows the start of
its fingerprint: two "alice"s must look different.
"""

from __future__ import annotations

from tui_tictactoe.identity import displayable

FINGERPRINT = "SHA256:"
"""How serve-ssh's players (their SSH key's fingerprint) begin."""
FINGERPRINT_SHOWN = 8
"""Characters of a fingerprint shown after a player's name on the leaderboard."""


def shown_name(display_name: str, player: str) -> str:
    """A stored name as it may be shown; with nothing to show in it, the player's key."""
    return displayable(display_name, empty="") or displayable(player)


def labelled_name(display_name: str, player: str) -> str:
    """The name, and for a player known by a key the start of its fingerprint."""
    name = shown_name(display_name, player)
    if not player.startswith(FINGERPRINT):
        return name
    shown = len(FINGERPRINT) + FINGERPRINT_SHOWN
    short = player if len(player) <= shown else player[:shown] + "…"
    short = displayable(short, shown + 1)
    return short if name == displayable(player) else f"{name} ({short})"
