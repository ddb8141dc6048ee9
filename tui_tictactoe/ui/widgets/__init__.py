"""The game's widgets, one concern per module."""

from .control_button import ControlButton
from .game_cell import GameCell
from .game_grid import GameGrid
from .scoreboard import Scoreboard
from .status_line import StatusLine
from .title_bar import TitleBar

__all__ = [
    "ControlButton",
    "GameCell",
    "GameGrid",
    "Scoreboard",
    "StatusLine",
    "TitleBar",
]
