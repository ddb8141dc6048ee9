"""A `serve-web` game's process: tied to the server's life, then the game.

textual-serve starts each game through a shell, which `exec`s this module, so the game
is the server's own child. PR_SET_PDEATHSIG then has the kernel kill it when the server
dies in a way that runs no clean-up (SIGKILL, the OOM killer): Textual's web driver
ignores the end of its input, so such a game would otherwise stay, idle, for good.
The server says which process it is (SERVER_VARIABLE): if that is not this process's
parent any more, the server died before the tie was made, and the game does not start.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from tui_tictactoe.servers.games.child import lower_priority

SERVER_VARIABLE = "TUI_TICTACTOE_WEB_SERVER"
PR_SET_PDEATHSIG = 1


def die_with_server() -> bool:
    """Tie this process to the server's life; False if the server has gone already."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    return os.environ.get(SERVER_VARIABLE) in (None, str(os.getppid()))


def main(args: list[str] | None = None) -> int:
    """The game, tied to the server's life and below its priority: the server relays every
    tab's bytes, and must not wait behind the games it relays (as `child` does for SSH)."""
    if not die_with_server():
        return 1
    lower_priority()
    from tui_tictactoe.commands.play import main as play

    return play(sys.argv[1:] if args is None else args)


if __name__ == "__main__":
    sys.exit(main())
