"""`TicTacToeApp`: the Textual application around a `GameController`."""

from __future__ import annotations

import gc
import random
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from ..controller import GameController, GameOptions
from ..engine.strategies import MoveStrategy
from .screens.game_screen import GameScreen


class TicTacToeApp(App[None]):
    """Tic-Tac-Toe against a minimax AI.

    `seed` makes the AI's choice between equally good moves repeatable;
    `strategy` replaces the AI's brain (tests inject slow, failing or scripted
    ones) and is kept across new games.
    """

    CSS_PATH = "tictactoe.tcss"
    TITLE = "Tic-Tac-Toe"
    # Priority, like the game's keys, so a burst of keys is taken in order.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?", priority=True),
        Binding("q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        symbol: str = "X",
        first: str = "human",
        difficulty: str = "hard",
        seed: int | None = None,
        alternate: bool = False,
        strategy: MoveStrategy | None = None,
    ) -> None:
        super().__init__()
        options = GameOptions(symbol, first, difficulty, alternate)  # type: ignore[arg-type]
        # Built here so bad options fail before the terminal is taken over.
        self.controller = GameController.from_options(options, random.Random(seed), strategy)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        # Everything made so far (modules, classes, parsed tables) lives as long
        # as the process: freezing it keeps the garbage collector from walking
        # all of it again in every full collection.
        gc.freeze()
        return super().run(*args, **kwargs)

    def get_default_screen(self) -> GameScreen:
        return GameScreen(self.controller)

    @property
    def game(self) -> GameScreen:
        """The game screen, wherever it is in the screen stack."""
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    # Both command palettes the app opens (ctrl+p, and the theme list of its "Theme"
    # command) are the burst-proof one: see GameCommandPalette.

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        from .screens.command_palette import GameCommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(GameCommandPalette(id="--command-palette"))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        from .screens.command_palette import GameCommandPalette

        self.push_screen(
            GameCommandPalette(providers=[ThemeProvider], placeholder="Search for themes…")
        )

    def action_help(self) -> None:
        """Open the help, or close it when it is already open."""
        # Imported on demand: the Markdown widget is the heaviest import of the
        # app and start-up should not pay for it.
        from .screens.help_screen import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        else:
            self.push_screen(HelpScreen())
