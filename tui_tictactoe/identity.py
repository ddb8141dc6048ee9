"""Who is playing: the local user, or the player a server names in the environment.

`serve-ssh` names the client's key (or a guest, for a client without one); `serve-web`
makes every browser visitor a guest, since a web page proves nobody's identity.

Beside the record (not in the UI) because the game and `tui-tictactoe stats`
must agree on whose record it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

PLAYER_ENV = "TUI_TICTACTOE_PLAYER"
"""Set by the servers: the SSH client's key fingerprint, or empty for a guest."""
PLAYER_NAME_ENV = "TUI_TICTACTOE_PLAYER_NAME"
"""Set by the servers: the name the SSH client logged in with, or "guest"."""
GUEST = "guest"


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
            player, env.get(PLAYER_NAME_ENV) or (GUEST if player is None else player), True
        )
    try:
        import getpass

        user = getpass.getuser()
    except Exception:  # no user name anywhere (a container without passwd entry)
        user = ""
    return Identity(user or "player", user or "player", False)


def guest_environment() -> dict[str, str]:
    """What a server sets for a player it cannot identify: rounds played are not kept."""
    return {PLAYER_ENV: "", PLAYER_NAME_ENV: GUEST}
