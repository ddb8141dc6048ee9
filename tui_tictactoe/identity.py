"""Who is playing: the local user, or the player `serve-ssh` names in the environment.

Beside the record (not in the UI) because the game and `tui-tictactoe stats`
must agree on whose record it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

PLAYER_ENV = "TUI_TICTACTOE_PLAYER"
"""Set by serve-ssh: the client's SSH key fingerprint, or empty for a guest (no key)."""
PLAYER_NAME_ENV = "TUI_TICTACTOE_PLAYER_NAME"
"""Set by serve-ssh: the name the client logged in with, shown as the player's name."""


class Identity(NamedTuple):
    player: str | None  # the record's key; None: a guest, whose rounds are not kept
    name: str  # what the player is called on screen
    hosted: bool  # playing through serve-ssh


def current_identity(environ: Mapping[str, str] | None = None) -> Identity:
    """The player of this process: serve-ssh's player if it set one, else the local user."""
    env = os.environ if environ is None else environ
    if PLAYER_ENV in env:
        player = env[PLAYER_ENV] or None
        return Identity(
            player, env.get(PLAYER_NAME_ENV) or ("guest" if player is None else player), True
        )
    try:
        import getpass

        user = getpass.getuser()
    except Exception:  # no user name anywhere (a container without passwd entry)
        user = ""
    return Identity(user or "player", user or "player", False)
