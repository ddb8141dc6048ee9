"""`tui-tictactoe grade STRATEGY`: a learner's MoveStrategy graded by the exact solver.

The grading itself is `engine.grading`; this module reads the options, loads the strategy
(`strategy_loading`, from this machine's own command line only), and prints the grade as
text or one JSON object. Exit status: 0 passed, 1 a loss or a fault (a move that raised,
was illegal or ran out of time), 2 a command line or a strategy that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from tui_tictactoe.commands.play_arguments import PROG, _seed, echo, move_seconds

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from tui_tictactoe.engine.grading import Example, Grade

DEFAULT_GAMES = {4: 40, 5: 4}
"""Games of a sample unless `--games` says otherwise (a 5x5 game takes ~15 s: the oracle
searches at each of the strategy's moves, and the engine answers for the opponent)."""
GAMES_LIMIT = 100_000
MOVE_SECONDS = 1.0


def _games(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < int(text) <= GAMES_LIMIT):
        raise argparse.ArgumentTypeError(f"must be 1 to {GAMES_LIMIT:,}, not {echo(text)}")
    return int(text)


def _board(text: str) -> int:
    if text not in ("3", "4", "5"):
        raise argparse.ArgumentTypeError(
            f"invalid choice: {echo(text)} (choose from 3, 4, 5: 6x6 has no exact solver)"
        )
    return int(text)


def add_grade_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "strategy",
        nargs="?",
        metavar="STRATEGY",
        help="FILE.py:CLASS, MODULE:CLASS or an installed strategy's name (--list); "
        "the class is made with no arguments",
    )
    parser.add_argument(
        "--board",
        type=_board,
        default=3,
        metavar="{3,4,5}",
        help="board size (default 3: exhaustive; 4 and 5 a seeded sample of games)",
    )
    parser.add_argument(
        "--games",
        type=_games,
        metavar="N",
        help="play a seeded sample of N games instead (default on 4x4: "
        f"{DEFAULT_GAMES[4]}, on 5x5: {DEFAULT_GAMES[5]})",
    )
    parser.add_argument("--seed", type=_seed, default=0, metavar="N", help="the sample's seed")
    parser.add_argument(
        "--move-seconds",
        type=move_seconds,
        default=MOVE_SECONDS,
        metavar="S",
        help=f"time per move; a move over it forfeits its game (default {MOVE_SECONDS:g})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--list", action="store_true", help="list the installed strategies and exit"
    )


def run_grade(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    from tui_tictactoe.commands.strategy_loading import (
        StrategyLoadError,
        installed,
        load_strategy,
    )

    if args.list:
        return _print_list(installed(), args.json, out)
    if args.strategy is None:
        print(f"{PROG} grade: error: name a strategy (FILE.py:CLASS), or --list", file=sys.stderr)
        return 2
    try:
        strategy = load_strategy(args.strategy)
    except StrategyLoadError as error:
        print(f"{PROG} grade: error: {error}", file=sys.stderr)
        return 2
    from tui_tictactoe.engine.grading import Grader
    from tui_tictactoe.engine.guarded import GuardedStrategy
    from tui_tictactoe.options import board_geometry

    guarded = GuardedStrategy(strategy, args.strategy, args.move_seconds)
    games = args.games if args.games is not None else DEFAULT_GAMES.get(args.board)
    grade = Grader(guarded, board_geometry(args.board), games=games, seed=args.seed).run()
    if args.json:
        json.dump(grade.to_json(), out, indent=2)
        out.write("\n")
    else:
        out.write(render(grade))
    return 1 if grade.failed else 0


def _print_list(rows: list[EntryPoint], as_json: bool, out: TextIO) -> int:
    if as_json:
        listed = [
            {
                "name": point.name,
                "value": point.value,
                "package": point.dist.name if point.dist is not None else None,
            }
            for point in rows
        ]
        json.dump(listed, out, indent=2)
        out.write("\n")
        return 0
    if not rows:
        out.write("No strategies installed (entry point group tui_tictactoe.strategies).\n")
    width = max((len(point.name) for point in rows), default=0)
    for point in rows:
        package = f"  ({point.dist.name})" if point.dist is not None else ""
        out.write(f"{point.name:<{width}}  {point.value}{package}\n")
    return 0


def render(grade: Grade) -> str:
    """The grade as a person reads it."""
    how = (
        "every sequence of opponent moves, X and O, first and second"
        if grade.mode == "exhaustive"
        else f"{grade.games:,} sampled games (seed {grade.seed})"
    )
    lines = [
        f"{grade.name} on {grade.size}x{grade.size}: {how}.",
        f"Games: {grade.games:,} ({grade.decisions:,} moves asked): "
        f"{grade.wins:,} won, {grade.draws:,} drawn, {grade.losses.count:,} lost.",
    ]
    findings = (
        ("Lost games", grade.losses),
        ("Draws thrown away from won positions", grade.thrown_draws),
        ("Wins slower than possible", grade.slow_wins),
        ("Moves that lose against best play", grade.losing_moves),
        ("Illegal moves", grade.faults["illegal"]),
        ("Moves that raised", grade.faults["raised"]),
        ("Moves over the time limit", grade.faults["timeout"]),
        ("Moves refused (still running an earlier one)", grade.faults["hung"]),
    )
    for title, finding in findings:
        lines.append(f"{title}: {finding.count:,}")
        if finding.first is not None:
            lines += ["  " + line for line in _example(finding.first, grade.size)]
    if grade.stopped:
        lines.append(f"Stopped early: {grade.stopped}.")
    lines += _costs(grade)
    lines.append(
        f"Took {grade.seconds:.2f} s. "
        + ("FAILED: a loss or a fault." if grade.failed else "Passed: no loss, no fault.")
    )
    return "\n".join(lines) + "\n"


def _example(example: Example, size: int) -> list[str]:
    first = f"{example.strategy} ({'first' if example.first == example.strategy else 'second'})"
    moves = example.line() or "(no moves yet)"
    lines = [f"first: as {first}, after {moves}: {example.message}"]
    if example.best:
        lines.append(
            f"position {example.before}; the move {example.after}; "
            f"best: {', '.join(map(str, example.best))}"
        )
    rows = [example.board[i : i + size] for i in range(0, len(example.board), size)]
    lines += ["  " + row for row in rows]
    return lines


def _costs(grade: Grade) -> list[str]:
    costs = grade.costs.to_json()
    strategy, plain, engine = (costs[key] for key in ("strategy", "plain_minimax", "engine"))
    assert isinstance(strategy, dict) and isinstance(plain, dict) and isinstance(engine, dict)
    lines = ["Per move (mean):"]
    nodes = strategy["nodes_per_move"]
    lines.append(
        f"  this strategy  {_time(strategy['seconds_per_move'])}"
        + (f", {nodes:,.0f} nodes" if nodes is not None else ", nodes: set self.last_nodes")
    )
    if plain["nodes_per_move"] is not None:
        lines.append(
            f"  plain minimax  {_time(plain['seconds_per_move'])} (estimated), "
            f"{plain['nodes_per_move']:,.0f} nodes"
        )
    elif grade.size == 3:
        lines.append("  plain minimax  -")
    else:
        lines.append("  plain minimax  too big a tree to count here")
    lines.append(
        f"  the engine     {_time(engine['seconds_per_move'])}, "
        f"{engine['nodes_per_move'] or 0:,.1f} positions searched (its memory answers the rest)"
    )
    return lines


def _time(seconds: object) -> str:
    if not isinstance(seconds, float):
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"
