"""`TicTacToeApp`: the Textual application around a `GameController`."""

from __future__ import annotations

import gc
import random
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from ..controller import GameController
from ..engine.strategies import MoveStrategy
from .screens.game_screen import GameOptions, GameScreen


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
        self.rng = random.Random(seed)
        self.strategy = strategy
        self._options = GameOptions(symbol, first, difficulty, alternate)
        # Built here so bad options fail before the terminal is taken over.
        self._first_controller = self.make_controller(self._options)

    def make_controller(self, options: GameOptions) -> GameController:
        """A controller for `options`; every game of this app shares one random generator."""
        return GameController(
            human_symbol=options.symbol,
            first=options.first,
            difficulty=options.difficulty,
            rng=self.rng,
            alternate=options.alternate,
            strategy=self.strategy,
        )

    def run(self, *args: Any, **kwargs: Any) -> None:
        # Everything created so far (modules, classes, parsed tables) lives as
        # long as the process. Freezing it keeps the cyclic garbage collector
        # from walking all of it again in its full collections, one of which
        # otherwise lands in the middle of building the first frame (~18 ms).
        gc.freeze()
        # And no collections at all until the first frame is on screen (the game
        # screen turns them back on): start-up makes many objects but little
        # garbage, and ~30 young-generation collections (~6 ms) would otherwise
        # run before the first frame.
        gc.disable()
        try:
            return super().run(*args, **kwargs)
        finally:
            gc.enable()

    def get_default_screen(self) -> GameScreen:
        return GameScreen(self._first_controller, self._options, self.make_controller)

    @property
    def game(self) -> GameScreen:
        """The game screen, wherever it is in the screen stack."""
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    @property
    def controller(self) -> GameController:
        """The controller of the game being played (replaced by a new game)."""
        return self.game.controller

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
