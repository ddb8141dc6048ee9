"""Command line: `tui-tictactoe [play] [options]` starts the game, `analyse BOARD` prints verdicts,
`review` a round's blunders, `stats` the record, `grade` your own AI, `serve-ssh` / `serve-web` host it. This module only parses and
dispatches: each command lives in `commands/` or `servers/` (imported only when serving).

Textual is imported only on the `play` path, and only once the terminal has
been checked, so `analyse`, `--help` and a refusal answer without paying the
UI's start-up cost.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from tui_tictactoe import package_version
from tui_tictactoe.commands.play import end_at_once, run_play
from tui_tictactoe.commands.play_arguments import (
    PROG,
    BoundedParser,
    add_play_options,
    metavar,
    symbol,
)
from tui_tictactoe.commands.terminal_check import terminal_problem
from tui_tictactoe.ui.key_table import key_summary

__all__ = ["PROG", "build_parser", "end_at_once", "main", "terminal_problem"]


# Exit status when stdout is closed under us (`| head -1`): 128 + SIGPIPE (13), the
# status a shell reports for a C tool killed by SIGPIPE, which is what scripts
# running with `set -o pipefail` already tolerate (`|| [ $? -eq 141 ]`).
EXIT_BROKEN_PIPE = 141


class CommandParser(BoundedParser):
    """A command's parser: an argument it does not know is its own error, shown with its
    own usage. (argparse hands a command's leftovers up to the top-level parser, whose
    usage lists the play options: `stats --csv` would say nothing about `stats`.)"""

    def parse_known_args(  # type: ignore[override]  # typeshed: overloads on `namespace`
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


BOARD_RULES = (
    "BOARD holds the rows top to bottom: X or O (either case) for a mark, '.' for an empty "
    "cell; 9 cells make the 3x3 board, 16 the 4x4 and 25 the 5x5 (four in a row), 36 the 6x6 "
    "(five in a row: searched within a bound, not solved, so a move shows 'unknown' where "
    "no forced win or loss was found). Write the "
    "rows one after another (X.O.X...O), or with one '/' or one space between rows "
    "(X.O/.X./..O, 'X.O .X. ..O'). A space is an empty cell only where it cannot separate "
    "rows: in a board with '/' between rows, or one of exactly 9, 16, 25 or 36 characters "
    "('X O.X. .O' is X.O.X...O); anywhere else spaces separate rows, so write empty "
    "cells as '.'. On a terminal, an analysis that runs longer than a second shows its "
    "progress on stderr and ends by saying how long it took."
)
"""The `analyse` epilog: how a board is read, spaces included (here, with the parser: the
game's start-up does not import `commands.analyse`)."""


COMMANDS = (
    "play",
    "analyse",
    "analyze",
    "review",
    "stats",
    "grade",
    "serve-ssh",
    "serve-web",
    "admin",
)


class NotPlainPlay(Exception):
    """The command line is not just play options: the whole parser must read it."""


class PlayOnlyParser(BoundedParser):
    """The play options alone, which is all that starting the game needs; anything else it
    leaves to the whole parser (it never prints an error of its own)."""

    def error(self, message: str) -> NoReturn:
        raise NotPlainPlay(message)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, read by the play options alone when that is all it holds.

    Like a command's imports, the whole parser (five commands, the servers' options) is
    built only for a line that needs it: a line with a command, help, or anything the play
    options reject (or asking for help or the version) is read by the whole parser, so
    every message, usage and exit status stays its own.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    if not any(word in COMMANDS or word.startswith(("-h", "--h", "--v")) for word in words):
        quick = PlayOnlyParser(prog=PROG, add_help=False)  # help, --version: the whole one's
        add_play_options(quick, defaults=True, local=True)
        try:
            args = quick.parse_args(words)
        except NotPlainPlay:
            pass
        else:
            args.command = None
            return args
    parser = build_parser()
    args = parser.parse_args(words)
    server = parser.servers.get(args.command)
    if server is not None and args.config:
        # The file's settings become the command's defaults, so what the line gives wins.
        from tui_tictactoe.servers.config import ConfigError, read_config

        try:
            server.set_defaults(**read_config(args.config, server))
        except ConfigError as error:
            print(f"{PROG} {args.command}: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        args = parser.parse_args(words)
    if server is not None and args.print_config:
        from tui_tictactoe.servers.config import render_config

        print(render_config(args, server))
        raise SystemExit(0)  # as --help and --version leave
    return args


class WholeParser(BoundedParser):
    """The whole command line; `servers` holds the server commands' own parsers, whose
    options `--config` sets and `--print-config` shows."""

    servers: dict[str, argparse.ArgumentParser]


def build_parser() -> WholeParser:
    from tui_tictactoe.commands.admin import add_admin_options
    from tui_tictactoe.servers.arguments import add_ssh_options, add_web_options

    parser = WholeParser(
        prog=PROG,
        description="Tic-Tac-Toe against a minimax AI, in the terminal.",
        epilog=f"Run without a command to play. Keys in the game: {key_summary()}.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    add_play_options(parser, defaults=True, local=True)
    commands = parser.add_subparsers(
        dest="command", metavar="[COMMAND]", title="commands", parser_class=CommandParser
    )
    play = commands.add_parser("play", help="play the game (the default)")
    add_play_options(play, defaults=False, local=True)
    analyse_parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="print the minimax verdict of every legal move",
        description="Print the minimax verdict of every legal move of a position, and the best moves.",
        epilog=BOARD_RULES,
    )
    analyse_parser.add_argument(
        "board",
        metavar="BOARD",
        help="the rows top to bottom, X or O for a mark, '.' for empty: X.O.X...O, X.O/.X./..O "
        "or 'X.O .X. ..O'; 16 or 25 cells for the 4x4 and 5x5 boards (four in a row), 36 for "
        "6x6 (five in a row)",
    )
    analyse_parser.add_argument(
        "--to-move",
        type=symbol,
        metavar=metavar("symbol"),
        help="who moves next when the counts are equal (default X)",
    )
    analyse_parser.add_argument("--json", action="store_true", help="print one JSON object")
    analyse_parser.add_argument(
        "--proof",
        action="store_true",
        help="print under each move what proves its verdict: the forcing line, or the pairs",
    )
    from tui_tictactoe.commands.review import add_review_options

    add_review_options(
        commands.add_parser(
            "review",
            help="review a round: each move's verdict before and after it, and its blunders",
            description="Review a round move by move: the verdict the mover had and the one "
            "the move kept; a move that turned a win into a draw or a loss, or a draw into a "
            "loss, is a blunder, said with its line and the cell that held. A round of your "
            "record (--round N) or moves typed here (--moves 5 1 9 ...). On 6x6 a verdict "
            "nothing proves is 'unknown', never a blunder.",
        )
    )
    stats_parser = commands.add_parser(
        "stats",
        help="print your record: wins, losses, draws and streaks per difficulty",
        description="Print your record (the local user's; over SSH, "
        "ssh -p 2222 HOST -- stats, the key's you log in with): "
        "wins, losses, draws, abandoned rounds and unbeaten streaks per difficulty.",
    )
    stats_parser.add_argument("--json", action="store_true", help="print one JSON object")
    stats_parser.add_argument(
        "--player",
        type=lambda text: text[:256],
        metavar="KEY_OR_NAME",
        help="for a host: another player's record in this machine's data (or $TUI_TICTACTOE_"
        "DATABASE_URL's), by key fingerprint (SHA256:...) or name as shown; over SSH "
        "players read only their own: ssh -p 2222 HOST -- stats",
    )
    from tui_tictactoe.commands.grade import add_grade_options

    add_grade_options(
        commands.add_parser(
            "grade",
            help="grade your own MoveStrategy against the exact solver",
            description="Grade a MoveStrategy against the exact solver: on 3x3 against every "
            "sequence of opponent moves, as X and as O, first and second; on 4x4 and 5x5 a "
            "seeded sample of games. Exit status 1 on a loss or a fault.",
        )
    )
    ssh = commands.add_parser(
        "serve-ssh",
        help="host the game over SSH: a game of their own for everyone who connects",
        description="Host the game over SSH: each session plays in its own process "
        "(ssh -t -p 2222 localhost). An exec request is read as play options: "
        "ssh -t -p 2222 HOST -- --difficulty easy.",
    )
    add_ssh_options(ssh)
    web = commands.add_parser(
        "serve-web",
        help="host the game for a web browser (textual-serve)",
        description="Host the game for a web browser: each tab plays in its own process.",
    )
    add_web_options(web)
    admin = commands.add_parser(
        "admin",
        help="for a host: list, end, deny, rename and drain what running serve-ssh servers serve",
        description="Moderate the running serve-ssh servers of this data directory, or of every "
        "host sharing --database-url (docs/hosting.md, Moderation). Every action is logged "
        "with who ran it and why.",
    )
    add_admin_options(admin)
    parser.servers = {"serve-ssh": ssh, "serve-web": web}
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:
            # Flush here, inside the handler, not at interpreter exit: there a
            # closed pipe could only print "Exception ignored ... BrokenPipeError".
            # (This also covers --help and --version, which leave by SystemExit.)
            if sys.stdout is not None:
                sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head -1`): stop quietly, as command-line tools
        # do. Whatever is still buffered for stdout or stderr goes to devnull, so
        # the flush at exit cannot fail again (the recipe in Python's `signal` docs).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        return EXIT_BROKEN_PIPE


def _main(argv: Sequence[str] | None) -> int:
    args = parse(argv)
    # Each command is imported when it runs: the game's start-up pays for none of the
    # others (and the servers' asyncssh and aiohttp are heavy).
    if args.command in ("analyse", "analyze"):
        from tui_tictactoe.commands.analyse import run_analyse

        return run_analyse(args.board, args.to_move, args.json, args.proof)
    if args.command == "review":
        from tui_tictactoe.commands.review import run_review

        return run_review(args)
    if args.command == "stats":
        from tui_tictactoe.commands.stats import run_stats

        return run_stats(args.json, args.player)
    if args.command == "grade":
        from tui_tictactoe.commands.grade import run_grade

        return run_grade(args)
    if args.command == "serve-ssh":
        from tui_tictactoe.servers.ssh.main import serve

        return serve(args)
    if args.command == "admin":
        from tui_tictactoe.commands.admin import run_admin

        return run_admin(args)
    if args.command == "serve-web":
        from tui_tictactoe.servers.web.main import serve as serve_web

        return serve_web(args)
    return run_play(args)


if __name__ == "__main__":
    sys.exit(main())
