"""Strategies that fail each in their own way: `grade` and the game report them."""

from __future__ import annotations

import random
import time

from tui_tictactoe import MoveStrategy
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.strategies import HasSymbol, MinimaxStrategy, symbol_of


class Raises(MoveStrategy):
    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        raise RuntimeError("my search has a bug")


class Hangs(MoveStrategy):
    """Never returns and never polls `cancelled`: a thread that cannot be stopped."""

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        while True:
            time.sleep(0.05)


class PlaysTaken(MoveStrategy):
    """Plays well, except that it answers a board holding a mark with a taken cell."""

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        taken = [cell for cell in board.geometry.all_cells() if cell not in board.get_empty_cells()]
        if taken:
            return taken[0]
        return board.get_empty_cells()[0]


class WinsSlowly(MoveStrategy):
    """Never loses, but of the winning moves it takes the slowest win."""

    def __init__(self) -> None:
        self.perfect = MinimaxStrategy(rng=random.Random(0))

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        from tui_tictactoe.engine.solver import shared_solver

        me, them = board.masks_for(symbol_of(player))
        _, scores, _ = shared_solver().entry(me, them)
        wins = [(score, cell) for cell, score in scores if score > 0]
        if not wins:
            return self.perfect.find_best_move(board, player, cancelled)
        return board.geometry.coords(min(wins)[1])


class NeedsArguments(MoveStrategy):
    def __init__(self, depth: int) -> None:
        self.depth = depth

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
    ) -> Cell:
        return board.get_empty_cells()[0]


class NotAStrategy:
    pass
