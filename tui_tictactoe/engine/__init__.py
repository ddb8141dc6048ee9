"""The game itself: board, rules, players and search. Pure Python: no UI, no I/O.

Small immutable records (`Outcome`, `Verdict`, `Decision`, `MoveVerdict`,
`Analysis`) are `NamedTuple`s rather than frozen dataclasses: a dataclass
compiles its generated methods when its module is imported (~3.5M
instructions each), a cost the app's start-up would pay before its first frame.
"""

from .analysis import Analysis, InvalidPosition, MoveVerdict, analyse, side_to_move, status_of
from .board import EMPTY, SYMBOLS, Cell, GameBoard, Outcome, Symbol, other
from .geometry import STANDARD, Geometry, geometry
from .players import AIPlayer, HumanPlayer, Player
from .search import (
    CHECK_EVERY,
    Cancelled,
    Search,
    SearchCancelled,
    shared_search,
)
from .solver import NodeCounter, Solver, Verdict, shared_solver
from .strategies import (
    DIFFICULTIES,
    Decision,
    MinimaxStrategy,
    MoveStrategy,
    RandomStrategy,
    strategy_for,
)
from .symmetry import symmetries, transform

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
