"""What the UI tests share: AI strategies the tests control, Pilot steps, and views of the screen.

One copy for every test file (and the screenshot script): `conftest.py` only
exposes these as fixtures.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual import events
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.widget import Widget

from tui_tictactoe.controller import AIReply, GameController, GameOptions, MoveRefused
from tui_tictactoe.controller.game_options import SETTINGS
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.bounded import BoundedSearch
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.search import Search
from tui_tictactoe.engine.solver import Solver
from tui_tictactoe.engine.strategies import Decision, MinimaxStrategy, MoveStrategy
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.widgets import GameCell

SIZE = (80, 24)
SMALL = (60, 20)
CHARACTERS = {"space": " ", "question_mark": "?", "enter": None}


# -- strategies ------------------------------------------------------------------


class ScriptedStrategy(MoveStrategy):
    """Plays the first still-empty cell of its script, else the first empty cell: forces a game."""

    def __init__(self, *cells: Cell) -> None:
        self.cells = cells

    def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
        empty = board.get_empty_cells()
        return next((cell for cell in self.cells if cell in empty), empty[0])


class GatedStrategy(ScriptedStrategy):
    """A scripted AI that thinks until the test opens the gate: a slow AI with no sleeps."""

    def __init__(self, *cells: Cell) -> None:
        super().__init__(*cells)
        self.started = threading.Event()
        self.gate = threading.Event()

    def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
        self.started.set()
        if not self.gate.wait(timeout=10):
            raise TimeoutError("the test never opened the gate")
        return super().find_best_move(board, player, cancelled)

    async def until_thinking(self) -> None:
        """Wait (in a thread, without sleeping) until the AI thread has started its search."""
        assert await asyncio.to_thread(self.started.wait, 5)


class FailingStrategy(MoveStrategy):
    """An AI with a bug."""

    def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
        raise RuntimeError("the AI tripped over its own feet")


class SteadyMinimax(MinimaxStrategy):
    """Perfect minimax with its own cold table and a stopped clock: a repeatable info panel.

    The shared solver's table fills up as other tests run, and search times vary, so
    a snapshot of the panel needs both pinned.
    """

    def __init__(self, seed: int = 1, big: Geometry | None = None) -> None:
        # On a `big` board (4x4, 5x5) a cold search table of its own, for the same reason;
        # on 6x6 a search bounded by positions only (no clock: the same move every run).
        search: Search | BoundedSearch | None = None
        if big is not None:
            search = (
                BoundedSearch(big, seconds=None, nodes=20_000) if is_bounded(big) else Search(big)
            )
        # On 6x6 the hard AI as it plays: its pairings (the overlay shows proven verdicts).
        super().__init__(rng=random.Random(seed), solver=Solver(), search=search)

    @property
    def last_decision(self) -> Decision | None:
        decision = super().last_decision
        return None if decision is None else decision._replace(seconds=0.000_412)


class GatedSearch:
    """The real search, but each cell waits for `gate`: the test decides when the overlay's
    thread finds its cells, whatever an earlier test left in the shared table."""

    def __init__(self, search: Search, gate: threading.Event) -> None:
        self.search, self.gate = search, gate

    def move_score(self, me: int, them: int, cell: int, cancelled: Cancelled | None = None) -> int:
        while not self.gate.wait(0.01):
            if cancelled is not None and cancelled():
                raise SearchCancelled
        return self.search.move_score(me, them, cell, cancelled)


def refusal(game: GameController, row: int, col: int) -> MoveRefused:
    """Why `game` refuses the human's move at (row, col): it must refuse it."""
    with pytest.raises(MoveRefused) as refused:
        game.play_human_move(row, col)
    return refused.value


def played(
    human: list[tuple[int, int]], ai: list[tuple[int, int]], **options: Any
) -> GameController:
    """A controller after the human's moves, each answered by the AI's next reply (if due)."""
    controller = GameController(GameOptions(**options), rng=random.Random(0))
    replies = iter(ai)
    for move in human:
        controller.play_human_move(*move)  # MoveRefused if refused
        request = controller.ai_request()
        if request is not None:
            assert controller.apply(AIReply(request.generation, next(replies)))
    return controller


def make_app(**options: Any) -> TicTacToeApp:
    """A seeded TicTacToeApp with animations off, for repeatable runs. The game's options
    (`symbol=`, `board=`, ...) are given as the command line gives them: they beat saved
    settings; the rest (`seed=`, `strategy=`, `record=`, ...) are the app's own."""
    options.setdefault("seed", 7)
    given = {name: options.pop(name) for name in SETTINGS if options.get(name) is not None}
    for name in SETTINGS:
        options.pop(name, None)  # None: not given, as a flag left out
    app = TicTacToeApp(GameOptions().with_settings({}, given), given=given.keys(), **options)
    app.animation_level = "none"
    return app


@asynccontextmanager
async def ai_thinking(
    *script: Cell, keys: Iterable[str] = ("5",), **options: Any
) -> AsyncIterator[tuple[TicTacToeApp, Pilot[None], GatedStrategy]]:
    """An app whose gated AI is thinking after `keys`: the test opens `strategy.gate`."""
    strategy = GatedStrategy(*script)
    app = make_app(strategy=strategy, **options)
    async with app.run_test(size=SIZE) as pilot:
        for key in keys:
            await pilot.press(key)
        await strategy.until_thinking()
        yield app, pilot, strategy


# -- Pilot steps -----------------------------------------------------------------


async def settle(pilot: Pilot[None]) -> None:
    """Let the AI worker finish and its reply be applied."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def press(pilot: Pilot[None], *keys: str) -> None:
    """Press keys one at a time, letting the AI answer after each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def key_event(key: str) -> events.Key:
    """The Key event a terminal's driver posts for `key` (a Pilot key name)."""
    return events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None))


async def burst(pilot: Pilot[None], keys: Iterable[str]) -> None:
    """Keys posted without waiting between them, as they arrive over SSH or from a paste."""
    for key in keys:
        pilot.app.post_message(key_event(key))
    await pilot.pause()


def play(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """A snapshot's `run_before`: press `keys` one at a time and let the AI answer each."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await press(pilot, *keys)

    return run_before


# -- what the screen shows ---------------------------------------------------------


def cell(app: TicTacToeApp, row: int, col: int) -> GameCell:
    return app.game.query_one(f"#cell-{row}-{col}", GameCell)


def board(app: TicTacToeApp) -> str:
    """The board as the cells hold it (`GameCell.symbol`, reading order, `.` for empty).

    Also checks that what is shown is what the controller holds.
    """
    cells = app.game.grid.cells
    shown = "".join(cell.symbol if cell.symbol != " " else "." for cell in cells)
    drawn = ("X" if c.has_class("-x") else "O" if c.has_class("-o") else "." for c in cells)
    assert shown == "".join(drawn)
    assert shown == app.controller.board.to_string()
    return shown


def status(app: TicTacToeApp) -> str:
    """The status line's first line: the state of play (whose turn, the AI's move, the result)."""
    return app.game.status.state.text


def note(app: TicTacToeApp) -> str:
    """The status line's second line: a passing note (a refusal, a hint), or ""."""
    said = app.game.status.note
    return said.text if said is not None else ""


def ai_played(app: TicTacToeApp) -> str:
    """How the status starts after the AI's move: "AI played 7. " (its cell's key)."""
    move = app.controller.last_ai_move
    assert move is not None, "the AI has not moved"
    return f"AI played {app.controller.board.geometry.key(*move)}. "


def under_cursor(app: TicTacToeApp) -> Widget:
    """The one widget the keyboard cursor is drawn on."""
    (widget,) = app.game.query(".-cursor")
    return widget


async def driver_click(pilot: Pilot[None], widget: Widget, at: tuple[int, int] = (1, 1)) -> None:
    """A click as a terminal's driver sends it: a press and a release at `at` in
    `widget`, posted to the app (Pilot's own click goes past `App.on_event`, where the
    quit question is answered)."""
    x, y = widget.region.offset + Offset(*at)
    for kind in (events.MouseDown, events.MouseUp):
        pilot.app.post_message(
            kind(
                None,
                x=x,
                y=y,
                delta_x=0,
                delta_y=0,
                button=1,
                shift=False,
                meta=False,
                ctrl=False,
                screen_x=x,
                screen_y=y,
            )
        )
        await pilot.pause()
