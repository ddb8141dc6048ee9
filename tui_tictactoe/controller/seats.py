"""Who sits in each seat, X and O: this terminal's player or the AI.

The controller runs a turn the same way whoever sits in the seat: a `HumanPlayer`'s
move comes from outside (`GameController.play_human_move`), an `AIPlayer`'s from a
request the UI runs in a thread (`GameController.ai_request`). Against the AI one seat
is this terminal's player and the other the AI; between people (hot seat) both seats
are `HumanPlayer`s taking turns at one keyboard.
"""

from __future__ import annotations

from tui_tictactoe.controller.game_options import GameOptions, Side
from tui_tictactoe.engine.board import Symbol, other
from tui_tictactoe.engine.players import AIPlayer, HumanPlayer, Player
from tui_tictactoe.engine.strategies import MoveStrategy


class Seats:
    """The two seats of a game, by symbol.

    `home` is the seat of the player's own symbol (`GameOptions.symbol`); `ai` the AI's
    seat, None between people.
    """

    def __init__(self, options: GameOptions, brain: MoveStrategy | None) -> None:
        """`brain`: the AI's strategy (not asked for between people)."""
        self.home = HumanPlayer(options.symbol)
        away = other(options.symbol)
        self.ai: AIPlayer | None = None
        if options.opponent == "human":
            self.away: Player = HumanPlayer(away)
        else:
            self.ai = AIPlayer(away, brain)
            self.away = self.ai
        self._by_symbol: dict[str, Player] = {options.symbol: self.home, away: self.away}

    @property
    def between_people(self) -> bool:
        """Both seats are people at this keyboard (hot seat): no AI, no hints."""
        return self.ai is None

    def __getitem__(self, symbol: str) -> Player:
        return self._by_symbol[symbol]

    def next_after(self, player: Player) -> Player:
        """Who moves after `player`: the other seat."""
        return self[other(player.symbol)]

    def opener(self, first: Side) -> Symbol:
        """The seat that opens the first round: the side `first` names against the AI;
        between people, X (who starts is then the alternation's alone)."""
        if self.ai is None:
            return "X"
        return self.home.symbol if first == "human" else self.ai.symbol

    def side_of(self, symbol: str) -> Side:
        """Who sits at `symbol`: "ai" or "human" (both seats are "human" between people)."""
        return "ai" if self[symbol] is self.ai else "human"
