"""The game's widgets, one concern per module."""

from .action_button import ActionButton
from .game_cell import GameCell
from .game_footer import GameFooter
from .game_grid import GameGrid
from .reasoning_panel import ReasoningPanel
from .scoreboard import Scoreboard
from .status_line import StatusLine

__all__ = [
    "ActionButton",
    "GameCell",
    "GameFooter",
    "GameGrid",
    "ReasoningPanel",
    "Scoreboard",
    "StatusLine",
]
