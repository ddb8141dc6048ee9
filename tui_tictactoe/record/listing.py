"""How the record is listed: one definition for the stats screen and `tui-tictactoe stats`.

The two must show the record alike, and the command must not import Textual to do
so, so the columns live here, below both, rather than with either of them. Both fit
60 columns: the narrowest terminal the game is laid out for.
"""

from __future__ import annotations

from .values import RoundRecord, Stats, board_name

RECENT_ROUNDS = 10
"""Rounds listed by the stats screen and `tui-tictactoe stats`, newest first."""
ROUND_COLUMNS = ("When", "Game", "You", "Result", "Moves", "Undo")
"""What a listed round shows: when, the board and level (`3x3 hard`), the player's
symbol and turn (`X 1st`: the player had X and started), the result, the number of
moves, and whether a move was taken back."""
STANDING_COLUMNS = ("Won", "Lost", "Drawn", "Abandoned", "Undo", "Streak", "Best")
"""A board's table, after its first column (headed by the board, `3x3`, over the
levels): wins, losses, draws, abandoned rounds, rounds with a move taken back, the
current unbeaten streak and the best."""


def round_cells(round_: RoundRecord) -> tuple[str, ...]:
    """A round as the stats screen and `stats` list it, under ROUND_COLUMNS."""
    return (
        local_time(round_.played_at),
        f"{board_name(round_.board_size)} {round_.difficulty}",
        f"{round_.symbol} {'1st' if round_.first == 'human' else '2nd'}",
        round_.result,
        str(len(round_.moves)),
        "yes" if round_.took_back else "",
    )


def board_tables(stats: Stats) -> list[tuple[str, list[tuple[str, ...]]]]:
    """The boards played, each with a row per level played on it (under STANDING_COLUMNS).

    Boards and levels without rounds are left out: three boards of three levels
    would not fit 18 lines beside the last rounds. `stats --json` has them all.
    """
    tables = []
    for board, levels in stats.by_board.items():
        rows = [
            (level, *(str(number) for number in numbers))
            for level, numbers in levels.items()
            if numbers.rounds
        ]
        if rows:
            tables.append((board, rows))
    return tables


def local_time(played_at: str) -> str:
    """A round's time in the local time zone, short: `11-23 14:05`."""
    from datetime import datetime  # on first use: start-up

    try:
        return (
            datetime.fromisoformat(played_at.replace("Z", "+00:00"))
            .astimezone()
            .strftime("%m-%d %H:%M")
        )
    except ValueError:
        return played_at[:11]
