"""The record in the game: rounds saved, settings loaded and saved, notices, stats and replays.

Every test has its own data directory (conftest's `private_record`), so the record
starts empty; what a test expects there it writes first through `Record`.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypedDict

import pytest
from support import SIZE, SMALL, ai_thinking, board, press, settle
from textual.widgets import DataTable

from tui_tictactoe.controller import GameOptions
from tui_tictactoe.controller.replay import Replay
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import DATA_DIR_ENV, FinishedRound, Record, RoundRecord, database_path
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.menu_screen import ThemeMenu
from tui_tictactoe.ui.screens.replay_screen import ReplayScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen
from tui_tictactoe.ui.themes import HIGH_CONTRAST

WIN = ("1", "2", "3")  # against an AI scripted to (1, 0), (1, 1): the top row wins


def me() -> str:
    player = current_identity().player
    assert player is not None
    return player


def saved_rounds(player: str | None = None) -> list[RoundRecord]:
    with Record.open() as record:
        return record.recent_rounds(player or me(), 100)


def rounds_in_file() -> int:
    """Every round in the database, whoever played it (0 if there is no file)."""
    path = database_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        return count


# -- rounds ------------------------------------------------------------------------------


async def test_a_finished_round_is_saved_with_its_moves(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *WIN)
        assert app.controller.score.human == 1
        await settle(pilot)
    (kept,) = saved_rounds()
    assert (kept.result, kept.difficulty, kept.symbol, kept.first) == ("win", "hard", "X", "human")
    assert kept.moves == (1, 4, 2, 5, 3)
    assert not kept.took_back
    with Record.open() as record:
        assert record.stats(me()).by_difficulty["hard"].wins == 1


async def test_a_round_left_for_a_new_round_or_game_is_saved_abandoned(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "9", "r")  # a new round mid-round
        await press(pilot, "1", "n", "enter")  # a new game mid-round
        await settle(pilot)
        await press(pilot, "r")  # nothing played: nothing to save
        await settle(pilot)
    kept = saved_rounds()
    assert [round_.result for round_ in kept] == ["abandoned", "abandoned"]
    assert [round_.moves for round_ in reversed(kept)] == [(9, 4), (1, 4)]


async def test_a_guest_is_not_recorded(make_app, scripted, monkeypatch) -> None:
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", "visitor")
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *WIN)
        await settle(pilot)
        assert app.controller.score.human == 1
        assert app.game.sub_title.startswith("visitor · you X")  # hosted: the name shows
        await press(pilot, "s")
        assert "guest: your rounds are not kept" in str(
            app.screen.query_one("#stats-summary").render()
        )
    assert rounds_in_file() == 0


async def test_no_record_reads_and_writes_nothing(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)), record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *WIN, "r", "5", "r", "s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        assert "--no-record" in str(app.screen.query_one("#stats-summary").render())
    assert not list(Path(os.environ[DATA_DIR_ENV]).iterdir())  # not even an empty file


# -- settings ------------------------------------------------------------------------------


async def test_saved_settings_are_the_defaults_and_flags_beat_them(make_app) -> None:
    with Record.open() as record:
        assert record.save_settings(
            me(), symbol="O", first="human", difficulty="easy", alternate=True, theme="nord"
        )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = app.controller.options
        assert (options.symbol, options.difficulty, options.alternate) == ("O", "easy", True)
        assert app.theme == "nord"
        assert app.controller.human_symbol == "O"
        assert "you O vs AI X · easy" in app.game.sub_title
    app = make_app(difficulty="medium", symbol="X")  # as if given on the command line
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = app.controller.options
        assert (options.symbol, options.difficulty, options.alternate) == ("X", "medium", True)


@pytest.fixture
def late_settings(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Saved settings that reach the app only when the test sets the returned event: the
    player (or keys typed ahead) acts before the record has been read."""
    arrive = threading.Event()
    read = Record.settings

    def held(self: Record, player: str | None) -> dict[str, Any]:
        assert arrive.wait(10), "the test never let the settings arrive"
        return read(self, player)

    monkeypatch.setattr(Record, "settings", held)
    return arrive


class Saved(TypedDict):
    symbol: str
    first: str
    difficulty: str
    alternate: bool


SAVED: Saved = {"symbol": "O", "first": "human", "difficulty": "easy", "alternate": True}


def the_options(app) -> dict[str, object]:
    return {name: getattr(app.controller.options, name) for name in SAVED}


async def test_settings_that_arrive_after_a_move_apply_at_the_next_round(
    make_app, scripted, late_settings
) -> None:
    with Record.open() as record:
        record.save_settings(me(), **SAVED)
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    said: list[str] = []
    app.notify = lambda message, **_: said.append(message)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")  # before the record has been read
        late_settings.set()
        await settle(pilot)
        assert "X" in board(app)  # the move stands, whatever the settings did
        assert the_options(app)["difficulty"] == "hard"  # this round keeps its options
        assert said == ["Your saved settings apply from the next round (r) or new game (n)."]
        await press(pilot, "r")
        assert the_options(app) == SAVED
        assert app.controller.human_symbol == "O" and "easy" in app.game.sub_title
        await press(pilot, "r")  # once applied, `r` is a plain new round again
        assert app.controller.round == 2 and the_options(app) == SAVED
    (left,) = saved_rounds()
    assert (left.result, left.difficulty, left.symbol) == ("abandoned", "hard", "X")


async def test_the_new_game_dialog_offers_settings_that_arrived_late(
    make_app, scripted, late_settings
) -> None:
    with Record.open() as record:
        record.save_settings(me(), **SAVED)
    app = make_app(strategy=scripted((1, 0), (1, 1)), difficulty="medium")  # a flag
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        late_settings.set()
        await settle(pilot)
        await press(pilot, "n", "enter")  # the dialog as it opens: Enter changes nothing
        assert the_options(app) == {**SAVED, "difficulty": "medium"}  # the flag still wins
    with Record.open() as record:
        assert record.settings(me()) == SAVED  # neither the defaults nor the flag saved over


async def test_a_dialog_confirmed_before_the_settings_arrive_saves_no_defaults(
    make_app, late_settings
) -> None:
    with Record.open() as record:
        record.save_settings(me(), **SAVED)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "down", "down", "left", "enter")  # typed ahead: medium
        late_settings.set()
        await settle(pilot)
        # The player's choice in the dialog wins for this run, as a flag would.
        assert app.controller.options == GameOptions(difficulty="medium")
    with Record.open() as record:
        assert record.settings(me()) == {**SAVED, "difficulty": "medium"}  # only what changed


async def test_the_dialog_and_the_theme_menu_save_the_settings(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "right", "down", "down", "left", "enter")  # O, medium
        await settle(pilot)
        assert (app.controller.options.symbol, app.controller.difficulty) == ("O", "medium")
        app.search_themes()
        await pilot.pause()
        assert isinstance(app.screen, ThemeMenu)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        theme = app.theme
    with Record.open() as record:
        settings = record.settings(me())
    assert settings["symbol"] == "O" and settings["difficulty"] == "medium"
    assert settings["theme"] == theme


async def test_the_games_own_theme_is_in_the_menu_and_comes_back_next_time(make_app) -> None:
    """`ui/themes.py` registers it beside Textual's: listed by the theme menu, saved when
    chosen there, and in force at the next start (before the record is read: a name the
    app does not know would be dropped)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.search_themes()
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, ThemeMenu)
        assert HIGH_CONTRAST.name in menu.themes
        steps = menu.themes.index(HIGH_CONTRAST.name) - menu.themes.index(app.theme)
        await pilot.press(*["down" if steps > 0 else "up"] * abs(steps), "enter")
        await settle(pilot)
        assert app.theme == HIGH_CONTRAST.name
    with Record.open() as record:
        assert record.settings(me())["theme"] == HIGH_CONTRAST.name
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == HIGH_CONTRAST.name


# -- notices -------------------------------------------------------------------------------


async def test_a_damaged_record_is_said_once_and_the_game_plays_on(make_app, scripted) -> None:
    path = database_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database, it is a shopping list\n")
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    said: list[str] = []
    app.notify = lambda message, **_: said.append(message)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, *WIN, "s", "escape")
        await settle(pilot)
        assert app.controller.score.human == 1
    assert len(said) == 1 and "moved aside" in said[0]
    assert len(saved_rounds()) == 1  # the fresh record keeps the round
    assert list(path.parent.glob("record.sqlite3.corrupt-*"))


async def test_a_postgres_server_stopped_mid_game_is_said_once_and_the_game_plays_on(
    make_app, scripted, own_cluster, monkeypatch
) -> None:
    """On PostgreSQL: the rounds while the server is down are lost, said once; once it is
    back, that is said too and rounds are kept again, none twice."""
    url = own_cluster.new_database()
    monkeypatch.setenv("TUI_TICTACTOE_DATABASE_URL", url)
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    said: list[str] = []
    app.notify = lambda message, **_: said.append(message)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "9", "r")  # left for a new round: kept, abandoned
        await settle(pilot)
        own_cluster.stop()
        for cell in ("7", "3"):  # two rounds while the server is down
            await press(pilot, cell, "r")
            await settle(pilot)
        own_cluster.start()
        await press(pilot, *WIN)
        await settle(pilot)
        assert app.controller.score.human == 1  # the game went on throughout
    assert len(said) == 2, said
    assert "cannot be reached" in said[0] and "back" in said[1]
    kept = saved_rounds()
    assert [(r.result, r.moves) for r in reversed(kept)] == [
        ("abandoned", (9, 4)),
        ("win", (1, 4, 2, 5, 3)),
    ]


# -- the stats screen and replays ------------------------------------------------------------


def keep_rounds(player: str, *rounds: tuple[str, str, tuple[int, ...], str]) -> None:
    """Rounds (difficulty, first, moves, result) as the player's, a minute apart."""
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    with Record.open() as record:
        for minute, (difficulty, first, moves, result) in enumerate(rounds):
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty=difficulty,
                    symbol="X",
                    first=first,
                    moves=moves,
                    result=result,
                    took_back=minute == 1,
                    played_at=start + timedelta(minutes=minute),
                ),
            )


ROUNDS = (
    ("hard", "human", (5, 1, 9, 3, 2, 8, 4, 6, 7), "draw"),
    ("easy", "human", (1, 4, 2, 5, 3), "win"),
    ("hard", "human", (1, 2, 5, 9, 7, 3, 4), "win"),
    ("medium", "ai", (5, 1, 9), "abandoned"),
)


@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_s_shows_the_record_and_enter_replays_a_round(make_app, size) -> None:
    keep_rounds(me(), *ROUNDS)
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        by_board = screen.query_one("#by-board", DataTable)
        rows = [[str(cell) for cell in by_board.get_row_at(i)] for i in range(by_board.row_count)]
        with Record.open() as record:
            stats = record.stats(me())
        assert rows[0][0] == "3x3"  # the board played heads its table, no other board
        assert len(rows) == 4
        for row, (level, numbers) in zip(rows[1:], stats.by_board["3x3"].items(), strict=True):
            assert row == [level, *(str(number) for number in numbers)]
        table = screen.query_one("#rounds", DataTable)
        assert table.row_count == len(ROUNDS)
        assert table.get_row_at(0)[1:4] == ["3x3 medium", "X 2nd", "abandoned"]  # newest first
        assert table.get_row_at(2)[5] == "yes"  # the round with a take-back
        assert screen.query_one("#rounds").region.bottom <= size[1]  # it fits
        await press(pilot, "down", "enter")  # the second newest: a hard win
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.round.moves == ROUNDS[2][2]
        assert replay.replay.at == 0
        await press(pilot, "right", "right", "space")
        assert replay.replay.at == 3
        said = str(replay.query_one("#replay-move").render())
        assert said.startswith("Move 3 of 7: you (X) played 5")
        marks = [cell.symbol for cell in replay.grid.cells]  # the game's own board
        assert marks.count("X") == 2 and marks.count("O") == 1
        assert replay.grid.cell(1, 1).has_class("-last")  # 5, the move just played
        await press(pilot, "end")
        assert replay.replay.at == 7
        await press(pilot, "left", "home")
        assert replay.replay.at == 0
        await press(pilot, "escape")
        assert app.screen is screen
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        await press(pilot, "5")  # the game goes on
        assert "X" in board(app)


def test_a_replay_gives_each_move_the_solver_verdict() -> None:
    moves = (1, 2, 5, 9, 7, 3, 4)  # O's edge reply to a corner opening loses
    played = RoundRecord(1, "", "p", "p", 3, "hard", "X", "human", moves, "win", False)
    steps = Replay.of_round(played.board_size, played.symbol, played.first, played.moves).moves
    assert len(steps) == len(moves)
    board = GameBoard()
    for step, key in zip(steps, moves, strict=True):
        cell = board.geometry.cell_of_key(key)
        assert step.cell == cell
        expected = analyse(board, step.symbol)
        assert step.verdict == expected.verdict_at(cell)
        assert step.best == (cell in expected.best)
        board.make_move(*cell, step.symbol)
    assert steps[1].verdict is not None and steps[1].verdict.outcome == "loss"
    assert not steps[1].best
    assert steps[-1].verdict is not None and steps[-1].verdict.outcome == "win"


async def test_the_leaderboard_is_there_only_when_hosted(make_app, monkeypatch) -> None:
    keep_rounds("SHA256:alice", *ROUNDS)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s", "l")
        assert isinstance(app.screen, StatsScreen)  # not hosted: no leaderboard
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "SHA256:bob")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", "bob")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "s", "l")
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        with Record.open() as record:
            leaders = record.leaderboard(limit=5)
        table = screen.query_one("#hard-streaks", DataTable)
        assert table.row_count == len(leaders.hard_streaks) > 0
        assert [str(cell) for cell in table.get_row_at(0)[1:]] == [
            leaders.hard_streaks[0].label,
            str(leaders.hard_streaks[0].value),
        ]
        await press(pilot, "escape", "escape")
        assert isinstance(app.screen, GameScreen)


async def test_the_leaderboard_tells_players_of_one_name_apart(make_app, monkeypatch) -> None:
    for key in ("SHA256:AAAAAAAAbcdefgh", "SHA256:BBBBBBBBbcdefgh"):
        with Record.open() as record:
            assert record.save_round(
                key,
                FinishedRound(
                    difficulty="hard",
                    symbol="X",
                    first="human",
                    moves=(5,),
                    result="draw",
                    display_name="alice",
                ),
            )
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "SHA256:bob")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", "bob")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "s", "l")
        table = app.screen.query_one("#hard-streaks", DataTable)
        shown = sorted(str(table.get_row_at(row)[1]) for row in range(table.row_count))
        assert shown == ["alice (SHA256:AAAAAAAA…)", "alice (SHA256:BBBBBBBB…)"]


# -- quitting mid-round ------------------------------------------------------------------


@pytest.mark.parametrize("keys", [("q", "y"), ("q", "q"), ("ctrl+q",)])
async def test_quitting_mid_round_saves_it_abandoned(make_app, scripted, keys) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "9")
        played = app.controller.board.moves
        for key in keys:
            await pilot.press(key)
    (kept,) = saved_rounds()
    geometry = app.controller.board.geometry
    assert kept.result == "abandoned"
    assert kept.moves == tuple(geometry.key(*cell) for cell in played)
    with Record.open() as record:
        assert record.stats(me()).by_difficulty["hard"].abandoned == 1


async def test_quitting_while_the_ai_thinks_saves_the_round_without_its_reply() -> None:
    async with ai_thinking((1, 1), keys=("9",)) as (_app, pilot, strategy):
        await pilot.press("ctrl+q")
        strategy.gate.set()  # the reply comes after the quit: it must not be saved
    (kept,) = saved_rounds()
    assert (kept.result, kept.moves) == ("abandoned", (9,))


async def test_quitting_with_no_round_in_progress_saves_nothing_more(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *WIN, "r")  # a finished round, then a fresh one left untouched
        await pilot.press("q")
    assert [kept.result for kept in saved_rounds()] == ["win"]


async def test_a_slow_record_does_not_hold_the_quit(make_app, scripted, monkeypatch) -> None:
    """The save on quit is given a short wait, not the record's busy timeout: the app has
    exited while the save is still stuck (a save cut short is never committed)."""
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def stuck(self: Record, *args: object, **kwargs: object) -> bool:
        started.set()
        release.wait(30)
        finished.set()
        return False

    monkeypatch.setattr(Record, "save_round", stuck)
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await press(pilot, "9")
            await pilot.press("ctrl+q")
        assert started.wait(10)
        assert not finished.is_set()  # the app is gone; the save still waits
    finally:
        release.set()


async def test_the_new_game_dialog_says_when_start_abandons_the_round(make_app, scripted) -> None:
    """A new game mid-round starts the score over, so the score cannot show the round
    abandoned: the dialog says so before Start, and the record keeps it."""
    from tui_tictactoe.ui.screens.new_game_screen import ABANDONS, NewGameScreen

    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "n")  # nothing played yet: nothing to abandon
        assert isinstance(app.screen, NewGameScreen) and not app.screen.query("#abandons")
        await press(pilot, "escape", "9", "n")
        assert str(app.screen.query_one("#abandons").render()) == ABANDONS
        await press(pilot, "escape")  # cancelled: the round goes on
        assert board(app) == "...O....X" and not saved_rounds()
        await press(pilot, "n", "enter")
        assert board(app) == "........." and app.controller.score.abandoned == 0
        await settle(pilot)
    assert [(kept.result, kept.moves) for kept in saved_rounds()] == [("abandoned", (9, 4))]


async def test_settings_that_arrive_while_the_app_quits_are_dropped(
    make_app, late_settings
) -> None:
    """Settings for another board size reached a game quitting at that moment, and the new
    board was mounted on a screen on its way out: MountError (chaos run, action 18,895)."""
    with Record.open() as record:
        record.save_settings(me(), **SAVED, board="4")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        late_settings.set()
        time.sleep(0.3)  # blocks the app's loop: the settings are read and posted meanwhile
        app.exit()  # ... and reach the app only after this
        await asyncio.sleep(0.1)
    assert app.return_code == 0
    assert app.controller.options.board == "3"


@pytest.mark.parametrize(("size", "shown"), [((60, 18), 5), (SIZE, 6)], ids=["60x18", "80x24"])
async def test_a_board_remembered_from_a_larger_terminal_does_not_lock_the_start(
    make_app, size: tuple[int, int], shown: int
) -> None:
    """Issue 36: 6x6 chosen once, every later start in a smaller terminal opened on "Please
    enlarge the terminal". Now it opens on the largest board that fits and says so; the
    record keeps 6x6 for a terminal that holds it (fails before: the too-small message)."""
    with Record.open() as record:
        record.save_settings(me(), board="6")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for _ in range(50):  # the record is read after the first frame
            if app.game.geometry.size != 3:
                break
            await pilot.pause(0.05)
        assert app.game.geometry.size == shown and not app.game.has_class("-too-small")
        fitted = "6x6 needs 60x19: playing 5x5 (n: change)."
        assert (app.game.status.note is not None and app.game.status.note.text) == (
            fitted if shown == 5 else False
        )
    with Record.open() as record:
        assert record.settings(me())["board"] == "6"
