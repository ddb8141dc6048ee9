"""How a kept round is listed: one definition for the stats screen and `tui-tictactoe stats`.

The two must show a round alike, and the command must not import Textual to do
so, so the columns live here, below both, rather than with either of them.
"""

from __future__ import annotations

from .values import RoundRecord

RECENT_ROUNDS = 10
"""Rounds listed by the stats screen and `tui-tictactoe stats`, newest first."""
ROUND_COLUMNS = ("When", "Level", "You", "First", "Result", "Moves", "Undo")
"""What a listed round shows: when, the level, the player's symbol, who started, the
result, the number of moves, and whether a move was taken back."""


def round_cells(round_: RoundRecord) -> tuple[str, ...]:
    """A round as the stats screen and `stats` list it, under ROUND_COLUMNS."""
    return (
        local_time(round_.played_at),
        round_.difficulty,
        round_.symbol,
        "you" if round_.first == "human" else "AI",
        round_.result,
        str(len(round_.moves)),
        "yes" if round_.took_back else "",
    )


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
