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

from tui_tictactoe.commands.play_arguments import (
    NO_HUB,
    PROG,
    BoundedParser,
    add_play_options,
    plays_the_ai,
    room_request,
    seat_from_environment,
)
from tui_tictactoe.commands.terminal_check import terminal_problem

if TYPE_CHECKING:
    from tui_tictactoe.engine.strategies import MoveStrategy
    from tui_tictactoe.rooms.hub import RoomHub
    from tui_tictactoe.rooms.request import RoomRequest
    from tui_tictactoe.rooms.view import Person


def main(argv: Sequence[str]) -> int:
    """`tui-tictactoe [play] OPTIONS` without the rest of the command line: how a hosted
    game starts (serve-ssh's game processes), with the same options and checks."""
    words = list(argv)
    if words[:1] == ["play"]:
        words = words[1:]
    parser = BoundedParser(prog=f"{PROG} play")
    add_play_options(parser, defaults=True)
    args = parser.parse_args(words)
    if args.seat is None:  # serve-ssh passes a seat token in the environment, never argv
        args.seat = seat_from_environment()
    return run_play(args)


HUB_ENV = "TUI_TICTACTOE_ROOM_HUB"
"""`rooms.socket.wire.ENV_VAR` (a test checks they agree), named here so that a game with no hub
imports no module of the rooms (start-up)."""


def run_play(args: argparse.Namespace) -> int:
    try:
        room = room_request(args, int(args.board or 3))
        strategy = own_strategy(args, room is not None)
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    if getattr(args, "plain", False):  # line by line: no Textual, no terminal needed
        if room is not None:
            return run_plain_room(room)
        from tui_tictactoe.commands.plain import run_plain

        return run_plain(args, strategy=strategy)
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

    from tui_tictactoe.controller.game_options import SETTINGS, GameOptions
    from tui_tictactoe.ui.app import TicTacToeApp

    # Each value was checked where it was read (the play options' choices).
    given = {name: getattr(args, name) for name in SETTINGS if getattr(args, name) is not None}
    rooms = None
    if hub is not None:  # the rooms' values are imported only for a session with a hub
        from tui_tictactoe.rooms.request import RoomsEntry

        rooms = RoomsEntry(hub, session_person(), room)
    app = TicTacToeApp(
        GameOptions().with_settings({}, given),
        given=given.keys(),
        seed=args.seed,
        record=args.record,
        rooms=rooms,
        strategy=strategy,
    )
    app.run()
    dropped = app.input_gate.dropped
    if dropped:  # the screen was stderr until now (under serve-web, the server's log)
        from tui_tictactoe.ui.input_gate import dropped_line

        print(dropped_line(dropped, PROG, since="in this game"), file=sys.stderr)
    end_at_once(app.return_code or 0)


def own_strategy(args: argparse.Namespace, in_room: bool) -> MoveStrategy | None:
    """The learner's `--strategy`, loaded and guarded (`engine.guarded`: its faults and
    hangs become the AI's failure, said on the status line); None without one. Its games
    are kept out of the record (they are not the player's record against the AI). Only
    this machine's own command line has the option: a server's parsers refuse it.
    ValueError (one line) for a strategy that cannot be used here."""
    spec = getattr(args, "strategy", None)
    if spec is None:
        return None
    if in_room or getattr(args, "opponent", None) == "human":
        raise ValueError("--strategy plays against you: not with a room or --opponent human")
    from tui_tictactoe.commands.strategy_loading import StrategyLoadError, load_strategy
    from tui_tictactoe.engine.guarded import GuardedStrategy

    try:
        strategy = load_strategy(spec)
    except StrategyLoadError as error:
        raise ValueError(f"--strategy: {error}") from None
    args.record = False
    return GuardedStrategy(strategy, spec, args.move_seconds)


def run_plain_room(room: RoomRequest) -> int:
    """A room line by line (`plain.room`), on the hub serve-ssh names."""
    hub = room_hub()
    if hub is None:
        print(NO_HUB, file=sys.stderr)
        return 2
    from tui_tictactoe.commands.plain.room import run_plain_room as run

    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="replace")  # a name the output's encoding cannot show
    from tui_tictactoe.identity import current_identity

    if notice := current_identity().notice:  # as the full-screen game's toast says it
        print(f"Name: {notice}", file=out, flush=True)
    # At once: the reader thread may sit in a read of stdin, which Python's own exit
    # would wait on for the stream's lock and then abort.
    end_at_once(run(hub, session_person(), room, sys.stdin.buffer, out))


def room_hub() -> RoomHub | None:
    """The rooms' hub this game can reach: serve-ssh names its socket in the environment
    (`rooms.socket.wire.ENV_VAR`); None: no rooms here (a game started outside serve-ssh, or
    `serve-ssh --no-rooms`). The socket is connected on first use, in the app's event
    loop (which only `App.run()` starts), from this process (after the fork)."""
    if not os.environ.get(HUB_ENV):
        return None
    from tui_tictactoe.rooms.socket.client import SocketHub

    return SocketHub()


def session_person() -> Person:
    """Who this session is to the hub: the player serve-ssh named (the SSH user name and
    key's fingerprint; no key: a guest) and the client's address."""
    from tui_tictactoe.identity import current_identity
    from tui_tictactoe.rooms.request import PLAYER_ADDRESS_ENV
    from tui_tictactoe.rooms.view import Person

    identity = current_identity()
    address = os.environ.get(PLAYER_ADDRESS_ENV, "")[:64]
    return Person(identity.shown, identity.player or "", address)


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
