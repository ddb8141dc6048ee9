"""`tui-tictactoe serve-web`: the game in a web browser, through Textual's own `textual-serve`.

textual-serve starts the command once per browser tab, through a shell, with
TEXTUAL_DRIVER set to its web driver (so the game's terminal check steps aside),
and relays the screen over a websocket to xterm.js in the page.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from ..cli import PROG

TITLE = "Tic-Tac-Toe"


def game_command() -> str:
    """The command line textual-serve runs (through a shell, hence quoted)."""
    return shlex.join([sys.executable, "-m", "tui_tictactoe", "play"])


def serve(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM (textual-serve handles both and exits cleanly)."""
    from textual_serve.server import Server

    server = Server(
        game_command(), host=args.host, port=args.port, title=TITLE, public_url=args.public_url
    )
    try:
        server.serve()
    except OSError as error:
        print(
            f"{PROG} serve-web: cannot listen on {args.host}:{args.port}: {error.strerror}",
            file=sys.stderr,
        )
        return 1
    return 0
