"""`tui-tictactoe stats`: the player's record on standard output, as text or JSON.

The record is imported when the command runs, not with the command line: every
other command would pay for it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .play_options import PROG

if TYPE_CHECKING:
    from ..record import DifficultyStats, RoundRecord, Stats


def run_stats(as_json: bool) -> int:
    """`stats`: the current player's record and last rounds, as the stats screen shows
    them (`--json`: the record alone); 1 (the record's notice on stderr) if unusable."""
    from ..identity import current_identity
    from ..record import RECENT_ROUNDS, Record

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


def stats_json(stats: Stats) -> str:
    """The `tui-tictactoe stats --json` object (one line): every board and level offered.

    `by_board` splits by board, then level; `by_difficulty` is every board together.
    """
    import json

    return json.dumps(
        {
            "player": stats.player,
            "rounds": stats.rounds,
            "by_board": {board: _levels_json(levels) for board, levels in stats.by_board.items()},
            "by_difficulty": _levels_json(stats.by_difficulty),
        }
    )


def _levels_json(levels: dict[str, DifficultyStats]) -> dict[str, dict[str, int]]:
    return {level: numbers._asdict() for level, numbers in levels.items()}


def format_stats(stats: Stats, rounds: Sequence[RoundRecord] = ()) -> str:
    """`tui-tictactoe stats`: a table per board played (a row per level played there), then
    the rounds (the latest first); as the stats screen shows them, within 60 columns."""
    from ..record import ROUND_COLUMNS, STANDING_COLUMNS, board_tables, round_cells, shown_name

    count = "1 round" if stats.rounds == 1 else f"{stats.rounds} rounds"
    lines = [f"{shown_name(stats.display_name, stats.player)}: {count}"]
    tables = board_tables(stats)
    if tables:
        heading = tuple(column.lower() for column in STANDING_COLUMNS)
        rows = [row for board, levels in tables for row in ((board, *heading), *levels)]
        lines += _table(rows, left=1)
    lines.append("")
    if rounds:
        listed = [ROUND_COLUMNS, *(round_cells(round_) for round_ in rounds)]
        lines += ["Last rounds, newest first:", *_table(listed, left=len(ROUND_COLUMNS))]
    else:
        lines.append("No rounds kept yet.")
    return "\n".join(lines)


def _table(rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Rows in columns two spaces apart: the first `left` flush left, the rest right."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if column < left else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
