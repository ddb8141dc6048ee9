"""Turns, rounds and the score: the game as the app sees it, without any UI.

The AI's move is split in two so the UI can compute it off the main thread:
`ai_request()` hands out a copy of the board tagged with the round's
generation number, and `play_ai_move()` drops a reply whose generation is no
longer current. A reset while the AI thinks therefore never lets the stale
move land, whatever the timing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, NamedTuple

from .engine.analysis import Analysis, analyse
from .engine.board import EMPTY, Cell, GameBoard, Outcome, Symbol, other
from .engine.players import AIPlayer, HumanPlayer, Player
from .engine.strategies import DIFFICULTIES, MinimaxStrategy, MoveStrategy, strategy_for

Side = Literal["human", "ai"]
SIDES: tuple[Side, Side] = ("human", "ai")


@dataclass
class Score:
    human: int = 0
    ai: int = 0
    draws: int = 0


class AIRequest(NamedTuple):
    """What the AI thread needs: its own copy of the board and the round it belongs to."""

    generation: int
    board: GameBoard


class GameController:
    """Owns the board, both players, whose turn it is, the round and the score."""

    def __init__(
        self,
        human_symbol: str = "X",
        first: str = "human",
        difficulty: str = "hard",
        rng: random.Random | None = None,
        alternate: bool = False,
        strategy: MoveStrategy | None = None,
    ) -> None:
        if first not in SIDES:
            raise ValueError(f"first must be 'human' or 'ai', not {first!r}")
        if difficulty not in DIFFICULTIES:
            raise ValueError(
                f"unknown difficulty {difficulty!r}: choose from {', '.join(DIFFICULTIES)}"
            )
        self.rng = rng if rng is not None else random.Random()
        self.human = HumanPlayer(human_symbol)
        self.ai = AIPlayer(other(human_symbol), strategy or strategy_for(difficulty, self.rng))
        self.difficulty = difficulty
        self.first: Side = first  # type: ignore[assignment]  # checked above
        self.alternate = alternate
        self.score = Score()
        self.round = 0
        self.generation = 0
        self.board = GameBoard()
        self.starter: Side = self.first
        self.current_player: Player = self.human
        self._recorded = False
        self.new_round()

    # -- rounds -------------------------------------------------------------

    def new_round(self) -> None:
        """A fresh board; with `alternate`, the side that did not start last time starts."""
        self.round += 1
        self.generation += 1
        if self.round == 1 or not self.alternate:
            self.starter = self.first
        else:
            self.starter = "ai" if self.starter == "human" else "human"
        self.board = GameBoard()
        self.current_player = self.human if self.starter == "human" else self.ai
        self._recorded = False

    # -- turns --------------------------------------------------------------

    @property
    def is_human_turn(self) -> bool:
        return self.current_player is self.human and not self.game_over

    @property
    def is_ai_turn(self) -> bool:
        return self.current_player is self.ai and not self.game_over

    @property
    def game_over(self) -> bool:
        return self.board.is_game_over()

    @property
    def outcome(self) -> Outcome | None:
        return self.board.outcome()

    def switch_player(self) -> None:
        self.current_player = self.ai if self.current_player is self.human else self.human

    def check_game_over(self) -> tuple[bool, str]:
        """(True, who won or that it is a draw) once the round has ended."""
        outcome = self.board.outcome()
        if outcome is None:
            return False, ""
        if outcome.winner is None:
            return True, "It's a draw."
        if outcome.winner == self.human.symbol:
            return True, f"You win with {outcome.winner}!"
        return True, f"The AI wins with {outcome.winner}."

    def play_human_move(self, row: int, col: int) -> tuple[bool, str]:
        """Play the human's move; refuse it (changing nothing) after game over or out of turn."""
        if self.game_over:
            return False, "The round is over: start a new round to play again."
        if self.current_player is not self.human:
            return False, "Not your turn: the AI is thinking."
        taken = self._mark_at(row, col)
        if taken is not None:
            # Players name cells by their key (1 top-left .. 9 bottom-right), not (row, col).
            number = row * self.board.geometry.size + col + 1
            return False, f"Cell {number} is already taken by {taken}."
        return self._play(self.human, row, col)

    def _mark_at(self, row: int, col: int) -> str | None:
        """The mark on an existing, occupied cell; None for an empty or invalid cell."""
        valid = all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col))
        if not valid or not self.board.geometry.contains(row, col):
            return None
        mark = self.board.game_board[row][col]
        return None if mark == EMPTY else mark

    def ai_request(self) -> AIRequest:
        """A snapshot for computing the AI's move elsewhere (a worker thread)."""
        return AIRequest(self.generation, self.board.copy())

    def find_best_ai_move(self, board: GameBoard | None = None) -> Cell:
        """The AI's choice on `board` (default: the current board); changes nothing."""
        return self.ai.find_best_move(board if board is not None else self.board)

    def play_ai_move(self, row: int, col: int, generation: int | None = None) -> tuple[bool, str]:
        """Apply the AI's move, unless it was computed for an earlier round."""
        if generation is not None and generation != self.generation:
            return False, "Ignored a move computed for an earlier round."
        if self.game_over:
            return False, "The round is over."
        if self.current_player is not self.ai:
            return False, "It is not the AI's turn."
        return self._play(self.ai, row, col)

    def _play(self, player: Player, row: int, col: int) -> tuple[bool, str]:
        ok, message = self.board.make_move(row, col, player.symbol)
        if not ok:
            return False, message
        over, result = self.check_game_over()
        if over:
            self._record()
            return True, result
        self.switch_player()
        return True, message

    def _record(self) -> None:
        if self._recorded:
            return
        self._recorded = True
        outcome = self.board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            self.score.draws += 1
        elif outcome.winner == self.human.symbol:
            self.score.human += 1
        else:
            self.score.ai += 1

    # -- teaching aids ------------------------------------------------------

    def analysis(self) -> Analysis:
        """Verdicts of every move for the side to move now (none once the round is over)."""
        # After the last move the turn does not pass, so the side to move is the other one.
        mover = self.current_player.symbol
        return analyse(self.board, other(mover) if self.game_over else mover)

    def hint(self) -> Cell | None:
        """A best move for the human (random among equals, from the seeded RNG); None off-turn."""
        if not self.is_human_turn:
            return None
        best = self.analysis().best
        return best[0] if len(best) == 1 else self.rng.choice(best)

    @property
    def strategy(self) -> MoveStrategy:
        return self.ai.strategy

    @property
    def human_symbol(self) -> Symbol:
        return self.human.symbol

    @property
    def ai_symbol(self) -> Symbol:
        return self.ai.symbol

    @property
    def minimax(self) -> MinimaxStrategy | None:
        """The AI's minimax strategy, if it uses one (for the reasoning panel)."""
        strategy = self.ai.strategy
        return strategy if isinstance(strategy, MinimaxStrategy) else None
