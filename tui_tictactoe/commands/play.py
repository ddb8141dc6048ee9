"""`tui-tictactoe play`: check the terminal, run the app, and end the process at once.

Textual is imported only here, and only once the terminal has been checked.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn

from .play_options import (
    NO_HUB,
    PROG,
    BoundedParser,
    add_play_options,
    plays_the_ai,
    room_request,
)
from .terminal_check import terminal_problem

if TYPE_CHECKING:
    from ..rooms.hub import RoomHub
    from ..rooms.view import Person


def main(argv: Sequence[str]) -> int:
    """`tui-tictactoe [play] OPTIONS` without the rest of the command line: how a hosted
    game starts (serve-ssh's game processes), with the same options and checks."""
    words = list(argv)
    if words[:1] == ["play"]:
        words = words[1:]
    parser = BoundedParser(prog=f"{PROG} play")
    add_play_options(parser, defaults=True)
    return run_play(parser.parse_args(words))


PLAIN_ROOMS = f"{PROG}: error: rooms are not played in --plain yet: leave out --plain (ssh -t)"

HUB_ENV = "TUI_TICTACTOE_ROOM_HUB"
"""`rooms.wire.ENV_VAR` (a test checks they agree), named here so that a game with no hub
imports no module of the rooms (start-up)."""


def run_play(args: argparse.Namespace) -> int:
    try:
        room = room_request(args, int(args.board or 3))
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    if getattr(args, "plain", False):  # line by line: no Textual, no terminal needed
        if room is not None:
            print(PLAIN_ROOMS, file=sys.stderr)
            return 2
        from .plain import run_plain

        return run_plain(args)
    hub = room_hub()
    if room is not None and hub is None:
        print(NO_HUB, file=sys.stderr)
        return 2
    if room is None and plays_the_ai(args):
        hub = None  # a game option and no room: the game against the AI, no lobby
    problem = terminal_problem()
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2

    from ..ui.app import TicTacToeApp

    app = TicTacToeApp(
        symbol=args.symbol,
        first=args.first,
        difficulty=args.difficulty,
        seed=args.seed,
        alternate=args.alternate,
        record=args.record,
        board=args.board,
        opponent=args.opponent,
        hub=hub,
        room=room,
        person=session_person() if hub is not None else None,
    )
    app.run()
    end_at_once(app.return_code or 0)


def room_hub() -> RoomHub | None:
    """The rooms' hub this game can reach: serve-ssh names its socket in the environment
    (`rooms.wire.ENV_VAR`); None: no rooms here (a game started outside serve-ssh, or
    `serve-ssh --no-rooms`). The socket is connected on first use, in the app's event
    loop (which only `App.run()` starts), from this process (after the fork)."""
    if not os.environ.get(HUB_ENV):
        return None
    from ..rooms.hub_client import SocketHub

    return SocketHub()


def session_person() -> Person:
    """Who this session is to the hub: the player serve-ssh named (the SSH user name and
    key's fingerprint; no key: a guest) and the client's address."""
    from ..identity import current_identity
    from ..rooms.request import PLAYER_ADDRESS_ENV
    from ..rooms.view import Person

    identity = current_identity()
    address = os.environ.get(PLAYER_ADDRESS_ENV, "")[:64]
    return Person(identity.name, identity.player or "", address)


def end_at_once(status: int) -> NoReturn:
    """End the game's process as soon as the app has handed the terminal back.

    Python's own exit took 0.2 s here after that (collecting Textual's ~50,000 objects,
    several times), half of what a player waited for the prompt after Ctrl+Q. Nothing is
    left to do by then: the round was saved before the app exited, every thread still
    running is a daemon (an AI search, a save past the 0.1 s quitting allows: a normal exit
    drops them too), and output is flushed here. The record's write-ahead log left open is
    a committed file that SQLite folds back in on the next open.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            with suppress(OSError, ValueError):  # a terminal gone, a stream closed
                stream.flush()
    os._exit(status)
