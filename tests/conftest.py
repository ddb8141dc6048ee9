"""Fixtures for the UI tests: AI strategies that tests control, and a quiet app factory."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.solver import Solver
from tui_tictactoe.engine.strategies import Decision, MinimaxStrategy, MoveStrategy


class ScriptedStrategy(MoveStrategy):
    """Plays the first still-empty cell of its script, else the first empty cell: forces a game."""

    def __init__(self, *cells: Cell) -> None:
        self.cells = cells

    def find_best_move(self, board: GameBoard, player: Any) -> Cell:
        empty = board.get_empty_cells()
        return next((cell for cell in self.cells if cell in empty), empty[0])


class GatedStrategy(ScriptedStrategy):
    """A scripted AI that thinks until the test opens the gate: a slow AI with no sleeps."""

    def __init__(self, *cells: Cell) -> None:
        super().__init__(*cells)
        self.started = threading.Event()
        self.gate = threading.Event()

    def find_best_move(self, board: GameBoard, player: Any) -> Cell:
        self.started.set()
        if not self.gate.wait(timeout=10):
            raise TimeoutError("the test never opened the gate")
        return super().find_best_move(board, player)


class FailingStrategy(MoveStrategy):
    """An AI with a bug."""

    def find_best_move(self, board: GameBoard, player: Any) -> Cell:
        raise RuntimeError("the AI tripped over its own feet")


class SteadyMinimax(MinimaxStrategy):
    """Perfect minimax with its own cold table and a stopped clock: a repeatable info panel.

    The shared solver's table fills up as other tests run, and search times vary, so
    a snapshot of the panel needs both pinned.
    """

    def __init__(self, seed: int = 1) -> None:
        super().__init__(rng=random.Random(seed), solver=Solver())

    @property
    def last_decision(self) -> Decision | None:
        decision = super().last_decision
        return None if decision is None else decision._replace(seconds=0.000_412)


@pytest.fixture
def make_app() -> Callable[..., Any]:
    """`make_app(**options)`: a seeded TicTacToeApp with animations off, for repeatable runs."""
    from tui_tictactoe.ui.app import TicTacToeApp

    def make(**options: Any) -> TicTacToeApp:
        options.setdefault("seed", 7)
        app = TicTacToeApp(**options)
        app.animation_level = "none"
        return app

    return make


@pytest.fixture
def scripted() -> type[ScriptedStrategy]:
    return ScriptedStrategy


@pytest.fixture
def gated() -> type[GatedStrategy]:
    return GatedStrategy


@pytest.fixture
def failing() -> type[FailingStrategy]:
    return FailingStrategy


@pytest.fixture
def steady() -> type[SteadyMinimax]:
    return SteadyMinimax
