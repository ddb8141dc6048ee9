"""Command line: `tui-tictactoe [play] [options]` starts the game, `analyse BOARD` prints verdicts.

Textual is imported only on the `play` path, so `analyse` answers without
paying the UI's start-up cost.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .controller.options import CHOICES
from .engine.analysis import Analysis, InvalidPosition, analyse
from .engine.board import GameBoard
from .engine.geometry import Geometry

PROG = "tui-tictactoe"


def _symbol(text: str) -> str:
    symbol = text.upper()
    if symbol not in CHOICES["symbol"]:
        choices = ", ".join(CHOICES["symbol"])
        raise argparse.ArgumentTypeError(f"invalid choice: {text[:20]!r} (choose from {choices})")
    return symbol


def _add_play_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    # The `play` subcommand repeats the top-level options; SUPPRESS keeps its
    # defaults from overwriting values given before the word `play`.
    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    group = parser.add_argument_group("game options")
    group.add_argument(
        "--symbol",
        type=_symbol,
        metavar="{X,O}",
        default=default("X"),
        help="your symbol: X or O (default X)",
    )
    group.add_argument(
        "--first",
        choices=CHOICES["first"],
        default=default("human"),
        help="who moves first in the first round (default human)",
    )
    group.add_argument(
        "--difficulty",
        choices=CHOICES["difficulty"],
        default=default("hard"),
        help="easy looks 1 move ahead, medium 2, hard plays perfectly (default hard)",
    )
    group.add_argument(
        "--seed",
        type=int,
        default=default(None),
        help="seed the AI's random choice between equally good moves, for repeatable games",
    )
    group.add_argument(
        "--alternate",
        action="store_true",
        default=default(False),
        help="alternate who starts each round",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Tic-Tac-Toe against a minimax AI, in the terminal.",
        epilog="Run without a command to play. Keys in the game: arrows, Enter/Space, 1-9, "
        "r new round, n new game, a analysis, h hint, ? help, q quit.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_play_options(parser, defaults=True)
    commands = parser.add_subparsers(dest="command", metavar="[COMMAND]", title="commands")
    play = commands.add_parser("play", help="play the game (the default)")
    _add_play_options(play, defaults=False)
    analyse_parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="print the minimax verdict of every legal move",
        description="Print the minimax verdict of every legal move of a position, and the best moves.",
    )
    analyse_parser.add_argument(
        "board",
        metavar="BOARD",
        help="9 cells in reading order, each X, O or '.'; '/' between rows is allowed (X.O/.X./..O)",
    )
    analyse_parser.add_argument(
        "--to-move",
        type=_symbol,
        metavar="{X,O}",
        help="who moves next when the counts are equal (default X)",
    )
    analyse_parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("analyse", "analyze"):
        return run_analyse(args.board, args.to_move, args.json)
    return run_play(args)


def run_play(args: argparse.Namespace) -> int:
    from .ui.app import TicTacToeApp

    app = TicTacToeApp(
        symbol=args.symbol,
        first=args.first,
        difficulty=args.difficulty,
        seed=args.seed,
        alternate=args.alternate,
    )
    app.run()
    return app.return_code or 0


def run_analyse(text: str, to_move: str | None, as_json: bool) -> int:
    try:
        board = GameBoard.from_string(text)
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
        lines.append(f" {key}    {row}   {col}   {move.verdict!s:<10}{marker}".rstrip())
    best = ", ".join(
        f"{geometry.key(*cell)} (row {cell[0]}, col {cell[1]})" for cell in result.best
    )
    lines.append(f"Best: {best}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
