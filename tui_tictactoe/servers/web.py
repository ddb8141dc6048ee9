"""`tui-tictactoe serve-web`: the game in a web browser, through Textual's own `textual-serve`.

textual-serve starts the command once per browser tab, through a shell, with
TEXTUAL_DRIVER set to its web driver (so the game's terminal check steps aside),
and relays the screen over a websocket to xterm.js in the page.

Every visitor plays as a guest, as an SSH client without a key does: a web page
says nothing about who is at the other end, so no visitor plays as the server's
user, with that user's record, settings and theme, and nothing a visitor plays is kept.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from ..cli import PROG
from ..identity import guest_environment

TITLE = "Tic-Tac-Toe"


def game_command() -> str:
    """The command line textual-serve runs (through a shell, hence quoted): the game,
    with the guest's environment assigned in front of it."""
    guest = " ".join(f"{name}={shlex.quote(value)}" for name, value in guest_environment().items())
    return f"{guest} {shlex.join([sys.executable, '-m', 'tui_tictactoe', 'play'])}"


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
