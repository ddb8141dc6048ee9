"""Names other people chose, in rounds between people, are text wherever they are shown:
the people screen's last rounds (`s` then `p`), the leaderboard's Elo table (`l`) and
`tui-tictactoe stats`. Each hostile name of `test_hostile_names.HOSTILE` is stored as given
(as a room would save it) and must show cleaned, literally, inert (no link, no click action),
within 60 columns, the fingerprint in view on the leaderboard.
"""

from __future__ import annotations

from typing import Any

import pytest
from hostile import HOSTILE
from support import SIZE, SMALL, press
from test_hostile_names import (
    IDS,
    ME,
    OTHER,
    as_text,
    assert_inert,
    drawn,
    hosted_as,
    short,
    storable,
)

from tui_tictactoe.commands.stats import format_people
from tui_tictactoe.identity import displayable
from tui_tictactoe.record import Match, Record, Seat
from tui_tictactoe.record.listing import OPPONENT_SHOWN
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.people_screen import PeopleScreen


def keep_match(name: str) -> None:
    """A rated room round: OTHER, under `name`, beats ME ("me")."""
    with Record.open() as record:
        assert record.people.save_match(
            Match(
                Seat(name, OTHER), Seat("me", ME), "room", 3, "X", (1, 4, 2, 5, 3), "X", None, "r"
            )
        )


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
async def test_a_hostile_opponent_shows_literally_on_the_people_screen_and_leaderboard(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, name: str, shown: str | None
) -> None:
    stored = name if storable(name) else displayable(name)
    keep_match(stored)
    hosted_as(monkeypatch, "me")
    against = displayable(stored, OPPONENT_SHOWN)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await press(pilot, "s", "p")
        screen = app.screen
        assert isinstance(screen, PeopleScreen)
        table = screen.table
        assert table.row_count == 1
        assert str(table.get_row_at(0)[2]) == against
        assert against in as_text(drawn(table))
        assert table.max_scroll_x == 0  # 60 columns whatever the name
        assert_inert(table)

        await press(pilot, "escape", "l")
        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        ratings = board.query_one("#people-ratings")
        label = short(OTHER) if shown is None else f"{shown} ({short(OTHER)})"
        lines = as_text(drawn(ratings))
        assert label in lines, lines  # the name and the fingerprint in view at 60 columns
        assert_inert(ratings)
        await press(pilot, "escape", "escape")
        assert app.is_running


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
def test_a_hostile_opponent_is_cleaned_in_stats(name: str, shown: str | None) -> None:
    stored = name if storable(name) else displayable(name)
    keep_match(stored)
    with Record.open() as record:
        text = "\n".join(format_people(record.people.stats(ME), record.people.rounds(ME)))
    assert displayable(stored, OPPONENT_SHOWN) in text
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    assert max(len(line) for line in text.splitlines()) <= 60


async def test_clicking_an_opponent_that_looks_like_a_click_action_does_nothing(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep_match("[@click=app.quit]x[/]")
    hosted_as(monkeypatch, "me")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s", "p")
        table = app.screen.query_one("#people-rounds")
        lines = [strip.text for strip in drawn(table)]
        y = next(y for y, line in enumerate(lines) if "[@click" in line)
        for x in range(lines[y].index("[@click"), lines[y].index("[@click") + 12):
            await pilot.click(table, offset=(x, y))
        assert app.is_running and isinstance(app.screen, PeopleScreen)
