"""The game's widgets, one concern per module."""

from tui_tictactoe.ui.widgets.control_button import ControlButton
from tui_tictactoe.ui.widgets.game_cell import GameCell
from tui_tictactoe.ui.widgets.game_grid import GameGrid
from tui_tictactoe.ui.widgets.scoreboard import Scoreboard
from tui_tictactoe.ui.widgets.status_line import StatusLine
from tui_tictactoe.ui.widgets.title_bar import TitleBar

__all__ = [
    "ControlButton",
    "GameCell",
    "GameGrid",
    "Scoreboard",
    "StatusLine",
    "TitleBar",
]
