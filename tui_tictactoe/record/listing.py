"""How the record is listed: one definition for the stats screen and `tui-tictactoe stats`.

The two must show the record alike, and the command must not import Textual to do
so, so the columns live here, below both, rather than with either of them. Both fit
60 columns: the narrowest terminal the game is laid out for.
"""

from __future__ import annotations

from tui_tictactoe.identity import displayable
from tui_tictactoe.record.values import PeopleRound, PeopleStats, RoundRecord, Stats, board_name

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


# -- rounds between people -------------------------------------------------------------

PEOPLE_COLUMNS = ("Won", "Lost", "Drawn", "Abandoned", "Left")
"""A board's rounds in rooms, after the board: wins, losses, draws, rounds abandoned (by
either player) and those of them the player left."""
HOT_SEAT_COLUMNS = ("X won", "O won", "Drawn", "Abandoned")
"""A board's rounds at one keyboard, after the board: both seats are the player."""
PEOPLE_ROUND_COLUMNS = ("When", "Game", "Against", "You", "Result", "Elo")
"""A round between people: when, the board, the other player's name (`(hot seat)` for two
at one keyboard), the player's seat and turn (`O 2nd`; `both` at one keyboard), the
result and the Elo points; within 60 columns."""
OPPONENT_SHOWN = 12
"""Columns of the other player's name in a listed round: the listing fits 60 columns."""


def people_tables(stats: PeopleStats) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The boards with rounds in rooms (under PEOPLE_COLUMNS) and at one keyboard (under
    HOT_SEAT_COLUMNS), a row each: the board, then its numbers."""
    rooms = [
        (board, *map(str, numbers)) for board, numbers in stats.rooms.items() if numbers.rounds
    ]
    hot_seat = [
        (board, *map(str, numbers)) for board, numbers in stats.hot_seat.items() if numbers.rounds
    ]
    return rooms, hot_seat


def people_summary(stats: PeopleStats) -> str:
    """One line: the rounds against people and the rating."""
    count = "1 round" if stats.rounds == 1 else f"{stats.rounds} rounds"
    if stats.rating is None:
        return f"{count} against people; no rated round yet."
    rated = "1 rated round" if stats.rated == 1 else f"{stats.rated} rated rounds"
    return f"{count} against people. Elo rating {stats.rating} ({rated})."


def people_round_cells(round_: PeopleRound) -> tuple[str, ...]:
    """A round between people as the stats screen and `stats` list it, under
    PEOPLE_ROUND_COLUMNS; the other player's name cleaned and cut to OPPONENT_SHOWN."""
    if round_.kind == "hotseat":
        you, against = "both", "(hot seat)"
        result = {"X": "X won", "O": "O won"}.get(round_.result, round_.result)
    else:
        you = f"{round_.symbol} {'1st' if round_.first == round_.symbol else '2nd'}"
        against = displayable(round_.opponent, OPPONENT_SHOWN)
        result = round_.result
        if result == "abandoned":
            result = "you left" if round_.left_by == round_.symbol else "they left"
            if round_.cause == "claimed" and round_.left_by != round_.symbol:
                result = "win (claimed)"  # they left, this player claimed it: a win
        elif round_.cause == "time":
            result = f"{result} (time)"  # "win (time)", "loss (time)"
    elo = f"{round_.rating_change:+d}" if round_.rated else ""
    return (
        local_time(round_.ended_at),
        board_name(round_.board_size),
        against,
        you,
        result,
        elo,
    )
