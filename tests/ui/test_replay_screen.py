"""The replay screen: a kept round on the game's own board, driven by `controller.replay`.

What `Replay` computes is tested without a UI (test_replay.py); here, that the screen
shows exactly that, with the widget the game plays on, and refuses what it cannot show.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support import SIZE, press, settle

from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.ui.screens.replay_screen import LAST_MOVE, ReplayScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen
from tui_tictactoe.ui.widgets import GameGrid

WIN = (1, 2, 5, 9, 7, 3, 4)  # X first: O's edge reply to a corner opening loses


def keep(moves: tuple[int, ...], board_size: int = 3) -> None:
    player = current_identity().player
    with Record.open() as record:
        assert record.save_round(
            player,
            FinishedRound(
                difficulty="hard",
                symbol="X",
                first="human",
                moves=moves,
                result="win",
                board_size=board_size,
                played_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC),
            ),
        )


# The marks, each cell's verdict and whether it is a best move, the cells marked last.
Shown = tuple[str, dict[tuple[int, int], tuple[Verdict, bool]], set[tuple[int, int]]]


def shown(screen: ReplayScreen) -> Shown:
    """What the grid shows: the marks, each cell's verdict (and best), the cells marked last."""
    grid = screen.grid
    marks = "".join(cell.symbol for cell in grid.cells).replace(" ", ".")
    verdicts = {
        (cell.row, cell.col): (cell.verdict.verdict, cell.verdict.best)
        for cell in grid.cells
        if cell.verdict is not None
    }
    last = {(cell.row, cell.col) for cell in grid.cells if cell.has_class(LAST_MOVE)}
    return marks, verdicts, last


def expected(screen: ReplayScreen) -> Shown:
    """What the controller's replay holds for the position it is at."""
    replay = screen.replay
    analysis = replay.analysis
    verdicts = {} if analysis is None else {m.cell: (m.verdict, m.best) for m in analysis.moves}
    last = set() if replay.last is None else {replay.last.cell}
    return replay.board.to_string(), verdicts, last


@pytest.mark.parametrize("board_size", [3, 4])
async def test_every_position_shows_on_the_games_own_board(make_app, board_size) -> None:
    keep(WIN if board_size == 3 else (1, 6, 2, 7, 3, 8, 4), board_size)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert type(screen.grid) is type(app.game.grid) is GameGrid  # one board, one renderer
        assert screen.grid.geometry.size == board_size
        total = screen.replay.total
        assert total == 7
        await press(pilot, "left", "home")  # at the start: nothing to go back to
        assert screen.replay.at == 0 and shown(screen) == expected(screen)
        assert shown(screen)[0] == "." * board_size**2
        for at in range(1, total + 1):
            await press(pilot, "right" if at % 2 else "space")
            assert screen.replay.at == at
            assert shown(screen) == expected(screen)
            if at < total:  # verdicts on 3x3 only, and none once the round is over
                assert bool(shown(screen)[1]) == (board_size == 3)
        await press(pilot, "right", "end")  # at the end: nothing further
        assert screen.replay.at == total and shown(screen) == expected(screen)
        assert screen.grid.has_class("-over")  # the won round, as the game shows it
        assert all(screen.grid.cell(0, col).has_class("-winning") for col in range(4)) == (
            board_size == 4
        )
        await press(pilot, "left")
        assert screen.replay.at == total - 1 and shown(screen) == expected(screen)
        assert not screen.grid.has_class("-over")


async def test_a_round_the_game_cannot_replay_is_refused_with_a_notice(make_app) -> None:
    keep((1, 2, 3), board_size=7)  # the record takes any size; the game plays 3 to 6
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter")
        assert isinstance(app.screen, StatsScreen)
        said = [str(toast.render()) for toast in app.screen.query("Toast")]
        assert said == [
            "This round cannot be replayed: a 7x7 board is not one this game plays"
            " (3x3, 4x4, 5x5, 6x6)."
        ]
        await press(pilot, "escape", "5")
        assert app.is_running and app.controller.board.count("X") == 1  # the game goes on


async def test_a_6x6_replay_shows_each_positions_proven_verdicts(make_app) -> None:
    """The 6x6 positions are judged in a thread worker, off the UI thread, and each shows
    once judged: the proven verdicts, "unknown" ("?") elsewhere (fails before: none)."""
    keep((15, 1, 22, 2, 29, 3, 8, 4, 36), board_size=6)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await press(pilot, "end", "left")  # judged nearest the position shown first
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert not screen.replay.pending
        assert str(screen.move_line.render()) == (
            "Move 8 of 9: the AI (O) played 4: loss in 2 (not a best move)."
        )
        await press(pilot, "home")
        outcomes = set()
        for at in range(screen.replay.total):
            assert screen.replay.at == at and shown(screen) == expected(screen)
            assert len(shown(screen)[1]) == 36 - at  # every empty cell: proven, or "?"
            outcomes |= {verdict.outcome for verdict, _ in shown(screen)[1].values()}
            await press(pilot, "right")
        assert outcomes == {"win", "draw", "loss", "unknown"}
