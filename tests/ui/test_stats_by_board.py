"""The stats screen by board (`s`), in Pilot at 80x24 and 60x18: a table of the boards played
with a row per level played, take-backs and abandoned rounds counted, the board in the last
rounds, all of it within the screen; and the leaderboard saying which board it ranks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from support import SIZE, press, settle

from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen

SIZES = [SIZE, (60, 18)]
IDS = ["80x24", "60x18"]
HEADING = ["Won", "Lost", "Drawn", "Abandoned", "Undo", "Streak", "Best"]

# board size, level, result, took back: in the order played
TWO_BOARDS = (
    (3, "hard", "draw", False),
    (4, "medium", "win", True),
    (3, "hard", "win", False),
    (4, "medium", "abandoned", False),
    (3, "easy", "loss", False),
    (4, "medium", "loss", False),
    (3, "hard", "draw", True),
)


def me() -> str:
    player = current_identity().player
    assert player is not None
    return player


def keep(player: str, rounds: tuple[tuple[int, str, str, bool], ...]) -> None:
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    with Record.open() as record:
        for minute, (size, level, result, took_back) in enumerate(rounds):
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty=level,
                    symbol="X",
                    first="human",
                    moves=(1, 2, 3),
                    result=result,
                    took_back=took_back,
                    board_size=size,
                    played_at=start + timedelta(minutes=minute),
                ),
            )


def cells(table: Any) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


def assert_in_view(app: Any, size: tuple[int, int]) -> None:
    """Nothing scrolls sideways or off the screen: every table is inside it, between the
    summary and the footer, and the screen itself does not scroll."""
    screen = app.screen
    width, height = size
    assert screen.max_scroll_y == 0
    for table in screen.query("DataTable"):
        assert table.max_scroll_x == 0, f"#{table.id} scrolls sideways at {size}"
        assert table.region.right <= width and table.region.bottom <= height - 1


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_stats_screen_splits_by_board_and_level(make_app, size) -> None:
    keep(me(), TWO_BOARDS)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert cells(screen.query_one("#by-board")) == [
            ["3x3", *HEADING],
            # won, lost, drawn, abandoned, undo, streak, best: the last draw had a take-back
            ["easy", "0", "1", "0", "0", "0", "0", "0"],
            ["hard", "1", "0", "2", "0", "1", "0", "2"],
            ["4x4", *HEADING],  # no medium or hard row on 3x3, no 5x5 table: not played
            ["medium", "1", "1", "0", "1", "1", "0", "0"],
        ]
        rounds = cells(screen.query_one("#rounds"))
        assert [row[1] for row in rounds] == [
            f"{size}x{size} {level}" for size, level, *_ in reversed(TWO_BOARDS)
        ]
        assert "7 rounds kept" in str(screen.summary.render())
        assert_in_view(app, size)
        rounds_table = screen.query_one("#rounds")
        assert rounds_table.scrollable_content_region.height >= 1 + len(TWO_BOARDS)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_every_board_and_level_played_stays_readable(make_app, size) -> None:
    """Three boards of three levels and ten rounds: the tables share the screen, the board
    table scrolls (Tab reaches it) and the last rounds keep at least three rows."""
    keep(
        me(),
        tuple((3 + n // 4 % 3, ("easy", "medium", "hard")[n % 3], "win", False) for n in range(12)),
    )
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        screen = app.screen
        by_board = screen.query_one("#by-board")
        assert by_board.row_count == 12
        assert_in_view(app, size)
        assert screen.query_one("#rounds").scrollable_content_region.height >= 1 + 3
        assert screen.focused is screen.query_one("#rounds")
        if by_board.max_scroll_y:  # at 18 lines: the last rows are reached by keys
            await press(pilot, "shift+tab", "pagedown")
            assert screen.focused is by_board
            assert by_board.scroll_y == by_board.max_scroll_y > 0
        await press(pilot, "tab", "enter")  # and Enter still replays the selected round
        assert type(app.screen).__name__ == "ReplayScreen"


async def test_a_guest_sees_no_board_table(make_app, monkeypatch) -> None:
    keep(me(), TWO_BOARDS)
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "")  # serve-ssh's client without a key
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        screen = app.screen
        assert screen.query_one("#by-board").row_count == 0
        assert not screen.query_one("#by-board").display


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_the_leaderboard_says_it_ranks_3x3_and_does(make_app, monkeypatch, size) -> None:
    keep("SHA256:alice", ((4, "hard", "draw", False),) * 5)  # a long streak, on 4x4
    keep("SHA256:carol", ((3, "hard", "draw", False),))
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "SHA256:bob")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", "bob")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s", "l")
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        lines = [str(line.render()) for line in screen.query(".stats-line")]
        assert lines == [
            "On 3x3: longest unbeaten streaks on hard",
            "On 3x3: most wins on medium (rounds without take-backs)",
            "Against people: Elo rating (rated rounds in rooms)",
        ]
        assert [row[1:] for row in cells(screen.query_one("#hard-streaks"))] == [
            ["SHA256:carol", "1"]
        ]
        assert_in_view(app, size)
