"""`tui-tictactoe review`: a round reviewed move by move, its blunders said with their lines.

The round is the record's (`--round N`, the Nth newest of the player's rounds, as `stats`
lists them) or moves typed on the command line (`--moves 5 1 9 ...`, `--board N`,
`--first`). The review is `engine.review`'s; this module reads the options and prints it
as text or one JSON object. Bad input is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from tui_tictactoe.commands.play_arguments import PROG, echo, metavar, symbol

if TYPE_CHECKING:
    from tui_tictactoe.engine.board import Symbol
    from tui_tictactoe.engine.review import Review

    Kept = tuple[int, Symbol, list[int], str]
    """(board size, who moved first, the moves, a heading)."""

ROUND_LIMIT = 10_000
"""`--round` reaches this far back (the record's SQL asks for that many rows at most)."""
MOVES_LIMIT = 36
"""At most as many moves as the biggest board has cells."""


def _round(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < int(text) <= ROUND_LIMIT):
        raise argparse.ArgumentTypeError(f"must be 1 to {ROUND_LIMIT:,}, not {echo(text)}")
    return int(text)


def _cell(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise argparse.ArgumentTypeError(f"a move is a cell number (1 top-left), not {echo(text)}")
    return int(text)


def add_review_options(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--round",
        type=_round,
        metavar="N",
        help="the Nth newest round of your record (1: the latest, as `stats` lists them)",
    )
    which.add_argument(
        "--moves",
        type=_cell,
        nargs="+",
        metavar="CELL",
        help="the moves in turn, by cell number (1 top-left, reading order): 5 1 9 ...",
    )
    parser.add_argument(
        "--board",
        choices=("3", "4", "5", "6"),
        help="with --moves: the board size (default 3)",
    )
    parser.add_argument(
        "--first",
        type=symbol,
        metavar=metavar("symbol"),
        help="with --moves: who moves first (default X)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run_review(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """`review`: 0 reviewed, 2 bad input (one line on stderr, nothing else printed)."""
    out = out if out is not None else sys.stdout
    from tui_tictactoe.commands.analyse import Progress
    from tui_tictactoe.engine.cancel import SearchCancelled
    from tui_tictactoe.engine.review import BadMoves, review_moves
    from tui_tictactoe.options import board_geometry

    found = _moves(args)
    if isinstance(found, str):
        return _error(found)
    size, first, keys, heading = found
    if len(keys) > MOVES_LIMIT:
        return _error(f"at most {MOVES_LIMIT} moves, not {len(keys)}")
    progress = Progress(sys.stderr)
    try:
        review = review_moves(
            board_geometry(size), first, keys, cancelled=progress.poll, on_move=progress.on_move
        )
    except BadMoves as error:
        progress.clear()
        return _error(str(error))
    except (KeyboardInterrupt, SearchCancelled):
        progress.clear()
        print(f"{PROG} review: interrupted", file=sys.stderr)
        return 130
    progress.clear()
    if args.json:
        import json

        out.write(json.dumps(review.to_json()) + "\n")
    else:
        out.write(format_review(review, heading) + "\n")
    out.flush()
    progress.finish(len(review.moves))
    return 0


def _error(message: str) -> int:
    print(f"{PROG} review: error: {message}", file=sys.stderr)
    return 2


def _moves(args: argparse.Namespace) -> Kept | str:
    """(board size, who moved first, the moves, a heading), or why not in one line."""
    if args.moves is not None:
        size = int(args.board or 3)
        first: Symbol = args.first or "X"
        return size, first, list(args.moves), f"{size}x{size}, {first} first"
    if args.board is not None or args.first is not None:
        return "--board and --first go with --moves (a kept round knows its own)"
    return _kept_round(args.round)


def _kept_round(number: int) -> Kept | str:
    """The player's `number`th newest round from the record."""
    from tui_tictactoe.engine.board import other
    from tui_tictactoe.identity import current_identity
    from tui_tictactoe.options import BOARDS
    from tui_tictactoe.record import Record

    identity = current_identity()
    with Record.open() as record:
        rounds = record.recent_rounds(identity.player, number)
        notice = record.take_notice()
    if notice:
        return notice
    if len(rounds) < number:
        kept = "no rounds" if not rounds else f"{len(rounds)} round{'s' * (len(rounds) > 1)}"
        return f"no round {number}: your record holds {kept} (see `{PROG} stats`)"
    kept_round = rounds[number - 1]
    if str(kept_round.board_size) not in BOARDS:
        return f"round {number} was played on a board this game does not play"
    you = kept_round.symbol
    mine: Symbol = "O" if you == "O" else "X"  # the record checks it is one of them
    first = mine if kept_round.first == "human" else other(mine)
    size = kept_round.board_size
    heading = (
        f"Round {number} ({kept_round.played_at[:16].replace('T', ' ')} UTC): {size}x{size} "
        f"{kept_round.difficulty}, you {you}, {first} first, {kept_round.result}"
    )
    return size, first, list(kept_round.moves), heading


def format_review(review: Review, heading: str) -> str:
    """A line per move (its verdict before and after, `!` on a blunder), then each blunder's
    sentence with the line that punishes it and the line that held."""
    from tui_tictactoe.commands.analyse import line_text
    from tui_tictactoe.engine.review import sentence

    geometry = review.geometry
    lines = [heading, "", "move  who  cell  before       after"]
    for move in review.moves:
        mark = "  ! blunder" if move.blunder else "  best" if move.played.best else ""
        if not move.proven:
            mark = "  (not proven)"
        lines.append(
            f"{move.number:>4}  {move.symbol:>3}  {move.cell + 1:>4}  "
            f"{move.before!s:<11}  {move.after!s:<11}{mark}".rstrip()
        )
    blunders = review.blunders
    lines.append("")
    if not blunders:
        lines.append("No blunders: no move turned a win or a draw into worse.")
    for move in blunders:
        said = sentence(move, geometry)
        lines.append(said[0].upper() + said[1:] + ".")
        lines.append(f"  line: {line_text(move.played.line)}")
        if move.best is not None:
            lines.append(f"  held: {line_text(move.best.line)}")
    return "\n".join(lines)
