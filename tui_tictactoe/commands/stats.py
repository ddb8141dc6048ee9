"""`tui-tictactoe stats`: the player's record on standard output, as text or JSON.

The record is imported when the command runs, not with the command line: every
other command would pay for it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tui_tictactoe.commands.play_arguments import PROG

if TYPE_CHECKING:
    from tui_tictactoe.record import (
        DifficultyStats,
        PeopleRound,
        PeopleStats,
        Record,
        RoundRecord,
        Stats,
    )


def run_stats(as_json: bool, named: str | None = None) -> int:
    """`stats`: the current player's record and last rounds, as the stats screen shows
    them (`--json`: the record alone); 1 (the record's notice on stderr) if unusable.
    `named` (`--player`, the host's): that player's instead, by key or shown name."""
    from tui_tictactoe.identity import current_identity
    from tui_tictactoe.record import RECENT_ROUNDS, Record

    identity = current_identity()
    with Record.open() as record:
        if named is not None:
            player, problem = _find_player(record, named)
            if player is None:
                print(f"{PROG} stats: {record.take_notice() or problem}", file=sys.stderr)
                return 1
            identity = identity._replace(player=player, name="")
        stats = record.stats(identity.player, identity.name or None)
        rounds = [] if as_json else record.recent_rounds(identity.player, RECENT_ROUNDS)
        people = record.people.stats(identity.player)
        met = [] if as_json else record.people.rounds(identity.player, RECENT_ROUNDS)
        notice = record.take_notice()
        usable = record.available
    if notice:
        print(f"{PROG} stats: {notice}", file=sys.stderr)
    if not usable:
        return 1
    print(stats_json(stats, people) if as_json else format_stats(stats, rounds, people, met))
    return 0


def _find_player(record: Record, named: str) -> tuple[str | None, str]:
    """The one player `named` is the key or shown name of, or why there is none."""
    keys = record.people.players_named(named)
    if named in keys:
        return named, ""
    if len(keys) == 1:
        return keys[0], ""
    if not keys:
        return None, f"no player {named!r} in this record (a key, or a name as shown)"
    return None, f"several players are shown as {named!r}: --player one of {', '.join(keys)}"


def stats_json(stats: Stats, people: PeopleStats | None = None) -> str:
    """The `tui-tictactoe stats --json` object (one line): every board and level offered.

    `by_board` splits by board, then level; `by_difficulty` is every board together;
    `people` the rounds against people (`rounds` counts those against the AI only).
    """
    import json

    from tui_tictactoe.record import empty_people_stats

    met = people if people is not None else empty_people_stats(stats.player)
    return json.dumps(
        {
            "player": stats.player,
            "rounds": stats.rounds,
            "by_board": {board: _levels_json(levels) for board, levels in stats.by_board.items()},
            "by_difficulty": _levels_json(stats.by_difficulty),
            "people": {
                "rounds": met.rounds,
                "rating": met.rating,
                "rated": met.rated,
                "rooms": {board: numbers._asdict() for board, numbers in met.rooms.items()},
                "hot_seat": {board: numbers._asdict() for board, numbers in met.hot_seat.items()},
            },
        }
    )


def _levels_json(levels: dict[str, DifficultyStats]) -> dict[str, dict[str, int]]:
    return {level: numbers._asdict() for level, numbers in levels.items()}


def format_stats(
    stats: Stats,
    rounds: Sequence[RoundRecord] = (),
    people: PeopleStats | None = None,
    met: Sequence[PeopleRound] = (),
) -> str:
    """`tui-tictactoe stats`: a table per board played (a row per level played there), then
    the rounds (the latest first); as the stats screen shows them, within 60 columns. Then,
    for a player who has played people, those rounds apart (`format_people`)."""
    from tui_tictactoe.record import (
        ROUND_COLUMNS,
        STANDING_COLUMNS,
        board_tables,
        round_cells,
        shown_name,
    )

    count = "1 round" if stats.rounds == 1 else f"{stats.rounds} rounds"
    met_people = people is not None and people.rounds > 0
    if met_people:  # "0 rounds" then "5 rounds against people" read as a contradiction
        count += " against the AI"
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
        lines.append("No rounds against the AI yet." if met_people else "No rounds kept yet.")
    if people is not None and met_people:
        lines += ["", *format_people(people, met)]
    return "\n".join(lines)


def format_people(people: PeopleStats, met: Sequence[PeopleRound]) -> list[str]:
    """The rounds against people, as the stats screen's people page shows them: the rating,
    the rooms and hot seat rounds per board, the last rounds (names cleaned)."""
    from tui_tictactoe.record import (
        HOT_SEAT_COLUMNS,
        PEOPLE_COLUMNS,
        PEOPLE_ROUND_COLUMNS,
        people_round_cells,
        people_summary,
        people_tables,
    )

    lines = [people_summary(people)]
    rooms, hot_seat = people_tables(people)
    for title, columns, rows in (
        ("rooms", PEOPLE_COLUMNS, rooms),
        ("hot seat", HOT_SEAT_COLUMNS, hot_seat),
    ):
        if rows:
            lines += _table([(title, *(c.lower() for c in columns)), *rows], left=1)
    if met:
        listed = [PEOPLE_ROUND_COLUMNS, *(people_round_cells(round_) for round_ in met)]
        lines += ["Last rounds against people, newest first:", *_table(listed, left=5)]
    return lines


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
