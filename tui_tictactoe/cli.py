"""Command line: `tui-tictactoe [play] [options]` starts the game, `analyse BOARD` prints verdicts,
`serve-ssh` / `serve-web` host it (`servers/`, imported only then).

Textual is imported only on the `play` path, and only once the terminal has
been checked, so `analyse`, `--help` and a refusal answer without paying the
UI's start-up cost.
"""

from __future__ import annotations

import argparse
import codecs
import os
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import NoReturn

from . import __version__
from .engine.analysis import Analysis, InvalidPosition, analyse
from .engine.board import GameBoard
from .engine.geometry import Geometry
from .options import BOARDS, CHOICES, board_geometry
from .servers.options import add_ssh_options, add_web_options

PROG = "tui-tictactoe"


# Exit status when stdout is closed under us (`| head -1`): 128 + SIGPIPE (13), the
# status a shell reports for a C tool killed by SIGPIPE, which is what scripts
# running with `set -o pipefail` already tolerate (`|| [ $? -eq 141 ]`).
EXIT_BROKEN_PIPE = 141

ECHO_LIMIT = 20  # characters of a user's value that an error message quotes
MESSAGE_LIMIT = 160  # characters of any argparse error message (its long words cut first)
WORD_LIMIT = 40  # characters of one word of an argparse error message


def _echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted for an error message: repr (control characters escaped), and at
    most `limit` characters of it, the cut marked with an ellipsis."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 1]) + "…"


class BoundedParser(argparse.ArgumentParser):
    """argparse with bounded, one-line error messages.

    The options' own type functions already quote at most `ECHO_LIMIT` characters
    of a bad value; this catches argparse's other messages that echo what was
    typed (unrecognized arguments, an unknown command, `--opt=value` on a flag,
    ambiguous abbreviations), which would otherwise print a 5,000-character
    argument whole, or a raw newline or escape sequence.
    """

    def error(self, message: str) -> NoReturn:
        super().error(_bounded(message))


def _bounded(message: str) -> str:
    # Non-printable characters (newlines, ESC...) are shown as escapes, long words
    # are cut, and so is the whole.
    message = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in message
    )
    message = re.sub(
        rf"\S{{{WORD_LIMIT + 1},}}", lambda match: match.group()[: WORD_LIMIT - 1] + "…", message
    )
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 1] + "…"
    return message


def _choice(option: str, *, fold_case: bool = False) -> Callable[[str], str]:
    """A `type=` for a choice from CHOICES[option]: quotes at most ECHO_LIMIT
    characters of a bad value (argparse's own `choices=` quotes all of it)."""
    allowed = CHOICES[option]

    def parse(text: str) -> str:
        value = text.upper() if fold_case else text
        if value not in allowed:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {_echo(text)} (choose from {', '.join(allowed)})"
            )
        return value

    parse.__name__ = option  # argparse names the type in some messages
    return parse


def _metavar(option: str) -> str:
    return "{" + ",".join(CHOICES[option]) + "}"


_symbol = _choice("symbol", fold_case=True)

SEED_DIGITS = 40  # 2**128 has 39 digits: enough for any seed anyone types


def _seed(text: str) -> int:
    """`--seed`: a whole number in ASCII digits, optionally signed, at most SEED_DIGITS long."""
    if not re.fullmatch(rf"[+-]?[0-9]{{1,{SEED_DIGITS}}}", text):
        raise argparse.ArgumentTypeError(
            f"must be a whole number of at most {SEED_DIGITS} digits, not {_echo(text)}"
        )
    return int(text)


def add_play_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    # The `play` subcommand repeats the top-level options; SUPPRESS keeps its
    # defaults from overwriting values given before the word `play`. The game
    # options default to None, "not given": the player's saved settings apply,
    # then the game's defaults; a flag given wins for that run.
    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    group = parser.add_argument_group("game options")
    group.add_argument(
        "--symbol",
        type=_symbol,
        metavar=_metavar("symbol"),
        default=default(None),
        help="your symbol: X or O (default: your last choice, else X)",
    )
    group.add_argument(
        "--first",
        type=_choice("first"),
        metavar=_metavar("first"),
        default=default(None),
        help="who moves first in the first round (default: your last choice, else human)",
    )
    group.add_argument(
        "--difficulty",
        type=_choice("difficulty"),
        metavar=_metavar("difficulty"),
        default=default(None),
        help="easy looks 1 move ahead, medium 2, hard plays perfectly "
        "(default: your last choice, else hard)",
    )
    group.add_argument(
        "--board",
        type=_choice("board"),
        metavar=_metavar("board"),
        default=default(None),
        help="board size: 3 (3x3, three in a row), 4 or 5 (4x4, 5x5, four in a row) "
        "(default: your last choice, else 3)",
    )
    group.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        default=default(None),
        help="seed the AI's random choice between equally good moves, for repeatable games",
    )
    group.add_argument(
        "--alternate",
        action=argparse.BooleanOptionalAction,
        default=default(None),
        help="alternate who starts each round, or not (default: your last choice, else not)",
    )
    group.add_argument(
        "--no-record",
        dest="record",
        action="store_false",
        default=default(True),
        help="play without reading or writing your record and settings",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = BoundedParser(
        prog=PROG,
        description="Tic-Tac-Toe against a minimax AI, in the terminal.",
        epilog="Run without a command to play. Keys in the game: arrows, Enter/Space, 1-9, "
        "r reset (a new round), n new game, u take back, a analysis, h hint, i AI info, s stats, ? help, "
        "Ctrl+P menu, q quit (asks mid-round), Ctrl+Q quit at once.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_play_options(parser, defaults=True)
    commands = parser.add_subparsers(dest="command", metavar="[COMMAND]", title="commands")
    play = commands.add_parser("play", help="play the game (the default)")
    add_play_options(play, defaults=False)
    analyse_parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="print the minimax verdict of every legal move",
        description="Print the minimax verdict of every legal move of a position, and the best moves.",
    )
    analyse_parser.add_argument(
        "board",
        metavar="BOARD",
        help="9 cells in reading order, each X, O (either case) or '.' for empty (X.O.X...O), "
        "or 3 rows of 3 cells with one '/' between rows (X.O/.X./..O); 16 or 25 cells for "
        "the 4x4 and 5x5 boards (four in a row: an open 5x5 position takes a while)",
    )
    analyse_parser.add_argument(
        "--to-move",
        type=_symbol,
        metavar=_metavar("symbol"),
        help="who moves next when the counts are equal (default X)",
    )
    analyse_parser.add_argument("--json", action="store_true", help="print one JSON object")
    stats_parser = commands.add_parser(
        "stats",
        help="print your record: wins, losses, draws and streaks per difficulty",
        description="Print your record (the local user's, or under serve-ssh the player's): "
        "wins, losses, draws, abandoned rounds and unbeaten streaks per difficulty.",
    )
    stats_parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_ssh_options(
        commands.add_parser(
            "serve-ssh",
            help="host the game over SSH: a game of their own for everyone who connects",
            description="Host the game over SSH: each session plays in its own process "
            "(ssh -t -p 2222 localhost). An exec request is read as play options: "
            "ssh -t -p 2222 HOST -- --difficulty easy.",
        )
    )
    add_web_options(
        commands.add_parser(
            "serve-web",
            help="host the game for a web browser (textual-serve)",
            description="Host the game for a web browser: each tab plays in its own process.",
        )
    )
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("analyse", "analyze"):
        return run_analyse(args.board, args.to_move, args.json)
    if args.command == "stats":
        return run_stats(args.json)
    # The servers (asyncssh, aiohttp) are imported only when serving.
    if args.command == "serve-ssh":
        from .servers.ssh import serve

        return serve(args)
    if args.command == "serve-web":
        from .servers.web import serve as serve_web

        return serve_web(args)
    return run_play(args)


STREAMS = ((0, "standard input"), (1, "standard output"), (2, "standard error"))


def terminal_problem() -> str | None:
    """Why the game cannot run in this process's terminal, in one line; None if it can.

    Checked before Textual is imported, so a refusal is as fast as `--help`.
    """
    # TEXTUAL_DRIVER picks a driver other than the terminal's: textual-serve and
    # textual-web set it and talk to the app through pipes, so none of this applies.
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    # All three standard streams must be the terminal, because Textual 8 uses all
    # three: it reads keys from stdin (a pipe or /dev/null there makes its input
    # thread spin at 100% CPU forever, even after an SSH client has gone), draws
    # the screen on stderr (`2>/dev/null` blanks it, `2>log` fills the log with
    # escape codes), and takes the window size from stdout (redirected, the app is
    # drawn 80x24 whatever the window's size, and resizes are never seen).
    missing = [name for fd, name in STREAMS if not os.isatty(fd)]
    if missing:
        if len(missing) == 1:
            what = f"{missing[0]} is not a terminal"
        else:
            what = f"{', '.join(missing[:-1])} and {missing[-1]} are not terminals"
        return f"the game needs a terminal: {what} (over SSH use ssh -t)"
    # Textual never reads TERM to decide whether it may take over the screen: on a
    # dumb terminal (Emacs' shell, some IDE consoles) or with TERM unset or empty it
    # writes full-screen escape codes anyway, which show up as garbage. (On Windows
    # TERM is usually unset and Textual drives the console through its own API.)
    term = os.environ.get("TERM")
    if sys.platform != "win32" and (term is None or term.strip().lower() in ("", "dumb")):
        what = "TERM is not set" if term is None else f"TERM is {term!r}"
        return (
            f"the game needs a full-screen terminal, but {what} "
            "(run it in a terminal emulator, or set TERM, e.g. TERM=xterm-256color)"
        )
    # Textual writes the screen as text to sys.__stderr__, which Python encodes in
    # its own encoding with errors="backslashreplace": with an ASCII or Latin-1
    # encoding every border comes out as the literal text `\u2502`. Only the user
    # knows whether the terminal itself could show UTF-8 (a misconfigured locale)
    # or not (a real Latin-1 terminal, where forcing UTF-8 would print mojibake),
    # and Textual has no ASCII mode, so refuse and say what to change. A plain
    # `LANG=C` or `LC_ALL=C` is fine: Python then runs in UTF-8 mode (PEP 538/540).
    encoding = _stream_encoding(sys.__stderr__)
    if encoding != "utf-8":
        hint = (
            f"PYTHONIOENCODING is {_echo(os.environ['PYTHONIOENCODING'])}: unset it"
            if os.environ.get("PYTHONIOENCODING")
            else "use a UTF-8 locale, e.g. LANG=C.UTF-8"
        )
        return (
            f"the game needs a UTF-8 terminal, but the output encoding is {encoding} "
            f"({hint}, in a terminal that shows UTF-8)"
        )
    return None


def _stream_encoding(stream: object) -> str:
    """The codec's canonical name ("utf-8", "ascii", "iso8859-1"...), or "unknown"."""
    try:
        return codecs.lookup(stream.encoding).name  # type: ignore[attr-defined]
    except (AttributeError, LookupError, TypeError):
        return "unknown"


def run_play(args: argparse.Namespace) -> int:
    problem = terminal_problem()
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2

    from .ui.app import TicTacToeApp

    app = TicTacToeApp(
        symbol=args.symbol,
        first=args.first,
        difficulty=args.difficulty,
        seed=args.seed,
        alternate=args.alternate,
        record=args.record,
        board=args.board,
    )
    app.run()
    end_at_once(app.return_code or 0)


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


def run_stats(as_json: bool) -> int:
    """`stats`: the current player's record and last rounds, as the stats screen shows
    them (`--json`: the record alone); 1 (the record's notice on stderr) if unusable."""
    from .identity import current_identity
    from .record import RECENT_ROUNDS, Record, format_stats, stats_json

    identity = current_identity()
    with Record.open() as record:
        stats = record.stats(identity.player, identity.name)
        rounds = [] if as_json else record.recent_rounds(identity.player, RECENT_ROUNDS)
        notice = record.take_notice()
        usable = record.available
    if notice:
        print(f"{PROG} stats: {notice}", file=sys.stderr)
    if not usable:
        return 1
    print(stats_json(stats) if as_json else format_stats(stats, rounds))
    return 0


def board_from_text(text: str) -> GameBoard:
    """The board written in `text`, its size read from its number of cells (9, 16 or 25)."""
    cells = len(text) - text.count("/")
    sizes = {int(board) ** 2: int(board) for board in BOARDS}
    if cells in sizes:
        return GameBoard.from_string(text, board_geometry(sizes[cells]))
    try:
        GameBoard.from_string(text)  # a bad character or '/' is reported as such
    except ValueError as error:
        if not str(error).startswith("board must have"):
            raise
    counts = ", ".join(str(count) for count in list(sizes)[:-1]) + f" or {list(sizes)[-1]}"
    raise ValueError(f"board must have {counts} cells, got {cells} in {_echo(text)}")


def run_analyse(text: str, to_move: str | None, as_json: bool) -> int:
    try:
        board = board_from_text(text)
        result = analyse(board, to_move)
    except (InvalidPosition, ValueError) as error:
        print(f"{PROG} analyse: error: {error}", file=sys.stderr)
        return 2
    if as_json:
        import json  # only `analyse --json` needs it; the game starts without it

        print(json.dumps(result.to_json()))
    else:
        print(format_analysis(result, board.geometry))
    return 0


def format_analysis(result: Analysis, geometry: Geometry) -> str:
    board, size = result.board, geometry.size
    lines = [" ".join(board[row * size : (row + 1) * size]) for row in range(size)]
    if result.status != "in_progress":
        ending = "It's a draw." if result.status == "draw" else f"{result.status[0]} has won."
        return "\n".join([*lines, "", ending])
    lines += ["", f"{result.to_move} to move.", "key  row col  verdict"]
    for move in result.moves:
        row, col = move.cell
        marker = "  best" if move.best else ""
        key = geometry.key(row, col)
        lines.append(f"{key:>2}    {row + 1}   {col + 1}   {move.verdict!s:<10}{marker}".rstrip())
    best = ", ".join(
        f"{geometry.key(*cell)} (row {cell[0] + 1}, col {cell[1] + 1})" for cell in result.best
    )
    lines.append(f"Best: {best}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
