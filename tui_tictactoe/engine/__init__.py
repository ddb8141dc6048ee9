"""The game itself: board, rules, players and search. Pure Python: no UI, no I/O.

Small immutable records (`Outcome`, `Verdict`, `Decision`, `MoveVerdict`,
`Analysis`) are `NamedTuple`s. The search of the bigger boards (`search`, `symmetry`,
`lines`) is imported when first asked for: a 3x3 game never searches.
"""

from typing import TYPE_CHECKING

from tui_tictactoe.engine.analysis import (
    Analysis,
    InvalidPosition,
    MoveVerdict,
    analyse,
    side_to_move,
    status_of,
)
from tui_tictactoe.engine.board import (
    EMPTY,
    SYMBOLS,
    Cell,
    GameBoard,
    IllegalMove,
    Outcome,
    Symbol,
    other,
)
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import STANDARD, Geometry, geometry
from tui_tictactoe.engine.players import AIPlayer, HumanPlayer, Player
from tui_tictactoe.engine.solver import NodeCounter, Solver, Verdict, shared_solver
from tui_tictactoe.engine.strategies import (
    DIFFICULTIES,
    Decision,
    MinimaxStrategy,
    MoveStrategy,
    RandomStrategy,
    strategy_for,
)

if TYPE_CHECKING:  # imported when first asked for (`__getattr__`); typed as what they are
    from tui_tictactoe.engine.search import CHECK_EVERY, Search, shared_search
    from tui_tictactoe.engine.symmetry import symmetries, transform

__all__ = [
    "CHECK_EVERY",
    "DIFFICULTIES",
    "EMPTY",
    "STANDARD",
    "SYMBOLS",
    "AIPlayer",
    "Analysis",
    "Cancelled",
    "Cell",
    "Decision",
    "GameBoard",
    "Geometry",
    "HumanPlayer",
    "IllegalMove",
    "InvalidPosition",
    "MinimaxStrategy",
    "MoveStrategy",
    "MoveVerdict",
    "NodeCounter",
    "Outcome",
    "Player",
    "RandomStrategy",
    "Search",
    "SearchCancelled",
    "Solver",
    "Symbol",
    "Verdict",
    "analyse",
    "geometry",
    "other",
    "shared_search",
    "shared_solver",
    "side_to_move",
    "status_of",
    "strategy_for",
    "symmetries",
    "transform",
]


_LAZY = {
    "CHECK_EVERY": "search",
    "Search": "search",
    "shared_search": "search",
    "symmetries": "symmetry",
    "transform": "symmetry",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
