"""Rounds against people on screen, in Pilot at 80x24 and 60x18: `p` on the stats screen
shows them apart from the AI's (rating, rooms and hot seat per board, the last rounds with
the other player's name), and the leaderboard ranks people by Elo rating.
"""

from __future__ import annotations

from typing import Any

import pytest
from record_tools import people_rounds
from support import SIZE, press, settle
from test_stats_by_board import assert_in_view, cells

from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import Match, Record, Seat
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.people_screen import PeopleScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen

SIZES = [SIZE, (60, 18)]
IDS = ["80x24", "60x18"]


def keep(matches: tuple[Match, ...]) -> None:
    with Record.open() as record:
        for match in matches:
            assert record.people.save_match(match)


def local() -> Seat:
    player = current_identity().player
    assert player is not None
    return Seat(player, player)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_p_shows_the_rounds_against_people_apart(make_app, size) -> None:
    me = local()
    keep(people_rounds(me))
    with Record.open() as record:
        rating = record.people.stats(me.key).rating
    assert rating is not None
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert cells(stats.query_one("#rounds")) == []  # none of them against the AI
        await press(pilot, "p")
        screen = app.screen
        assert isinstance(screen, PeopleScreen)
        summary = str(screen.summary.render())
        assert summary == f"5 rounds against people. Elo rating {rating} (4 rated rounds)."
        assert cells(screen.by_board) == [
            ["Rooms", "Won", "Lost", "Drawn", "Abandoned", "Left"],
            ["3x3", "1", "0", "1", "1", "0"],
            ["4x4", "0", "1", "0", "0", "0"],
            ["Hot seat", "X won", "O won", "Drawn", "Abandoned", ""],
            ["3x3", "1", "0", "0", "0", ""],
        ]
        rows = [row[1:] for row in cells(screen.table)]  # newest first, without the time
        # By hand: 1200 v 1200, a win: +16; 1216 v 1200, a draw: 32 * (0.5 - 0.523) = -1;
        # 1215 v 1184, a loss: 32 * -0.5445 = -17; 1198 v 1201, bob leaves: 32 * 0.5043 = +16.
        assert rows == [
            ["3x3", "(hot seat)", "both", "X won", ""],
            ["3x3", "bob", "O 1st", "they left", "+16"],
            ["4x4", "ann", "O 2nd", "loss", "-17"],
            ["3x3", "bob", "O 2nd", "draw", "-1"],
            ["3x3", "ann", "X 1st", "win", "+16"],
        ]
        assert_in_view(app, size)
        await press(pilot, "p")
        assert isinstance(app.screen, StatsScreen)
        await press(pilot, "p", "escape", "escape")
        assert isinstance(app.screen, GameScreen)


async def test_without_rounds_against_people_the_screen_says_so(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "p")
        screen = app.screen
        assert isinstance(screen, PeopleScreen)
        assert str(screen.summary.render()) == "0 rounds against people; no rated round yet."
        assert not screen.by_board.display and screen.table.row_count == 0
        assert str(screen.rounds_title.render()) == "No rounds against people yet."


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_leaderboard_ranks_people_by_elo(make_app, monkeypatch, size) -> None:
    me = Seat("me", "SHA256:mememememememememe")
    keep(people_rounds(me))
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", me.key or "")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", me.name)
    with Record.open() as record:
        expected = [
            [str(place), entry.label, str(entry.rating), str(entry.games)]
            for place, entry in enumerate(record.people.ratings(5), 1)
        ]
    assert [row[1].split(" ")[0] for row in expected] == ["me", "ann", "bob"]
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s", "l")
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        table: Any = screen.query_one("#people-ratings")
        assert cells(table) == expected
        assert expected[0] == ["1", "me (SHA256:memememe…)", "1214", "4"]
        if size == SIZE:  # at 60x18 the three tables share 13 lines: this one scrolls
            assert table.region.bottom <= size[1] - 1
        await press(pilot, "escape")
        assert isinstance(app.screen, StatsScreen)


async def test_the_app_keeps_a_round_between_people_once_from_both_sessions(make_app) -> None:
    """`RecordLink.match_ended`, as the game calls it when a round against a person ends:
    saved in a thread, and kept once when both players' sessions report it."""
    me = local()
    round_ = people_rounds(me)[0]
    guests = Match(Seat("g1", None), Seat("g2", None), *round_[2:8], "guests")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        link = app.record_link
        with pytest.raises(ValueError):
            link.match_ended(round_._replace(result="O"))
        link.match_ended(round_)
        link.match_ended(round_)  # the other player's session, the same round key
        link.match_ended(guests)  # nobody to show it to: not kept
        await app.workers.wait_for_complete()
        await press(pilot, "s", "p")
        screen = app.screen
        assert isinstance(screen, PeopleScreen)
        assert [row[1:] for row in cells(screen.table)] == [["3x3", "ann", "X 1st", "win", "+16"]]
    with Record.open() as record:
        assert record.people.rounds("g1") == [] and len(record.people.ratings()) == 2
