"""`GameController`: turns, rounds and the score, the game as the app sees it, without UI."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Literal

from tui_tictactoe.controller.ai_turn import AIReply, AIRequest, Decisions
from tui_tictactoe.controller.game_options import GameOptions, Side
from tui_tictactoe.controller.rounds import Result, RoundSummary, Score, TakeBack
from tui_tictactoe.controller.seats import Seats
from tui_tictactoe.controller.teaching import Lesson, Reply, Teacher
from tui_tictactoe.engine.board import EMPTY, Cell, GameBoard, IllegalMove, Outcome, Symbol
from tui_tictactoe.engine.players import AIPlayer, HumanPlayer, Player
from tui_tictactoe.engine.round import Round
from tui_tictactoe.engine.strategies import Decision, MinimaxStrategy, MoveStrategy, strategy_for

GameRefusal = Literal["over", "ai-failed", "not-your-turn", "taken"]
"""Why the game refuses a human's move before the board is asked (`MoveRefused`)."""


class MoveRefused(IllegalMove):
    """A human move the game refuses, nothing changed: the round is over, the AI failed,
    it is the AI's turn, or the cell is taken. Like the board's `IllegalMove` (which the
    game raises as it is, for a cell off the board), `refusal` says why in a word and
    `str()` in the sentence made here only; `status.move_refused` words it for the screen."""

    def __init__(self, refusal: GameRefusal, detail: str = "", key: int = 0) -> None:
        if refusal == "over":
            text = "The round is over: press r for a new round."
        elif refusal == "ai-failed":
            text = f"The AI failed ({detail}). Press r for a new round."
        elif refusal == "not-your-turn":
            text = "Not your turn: the AI is thinking."
        else:
            text = f"Cell {key} is already taken by {detail}."
        ValueError.__init__(self, text)
        self.refusal = refusal


class GameController:
    """Owns both seats, the round (`game_round`: the board, who opened, the score) and
    whose turn it is; its `teacher` gives hints and the analysis overlay.

    A seat holds a `HumanPlayer` or an `AIPlayer` (`seats.Seats`): `opponent` "ai" is a
    game against the AI, "human" two people at one keyboard (hot seat), both seats human.
    `rng` breaks the AI's ties and picks hints (seed it for repeatable games);
    `strategy` replaces the AI's brain for every game of this controller.
    """

    def __init__(
        self,
        options: GameOptions | None = None,
        rng: random.Random | None = None,
        strategy: MoveStrategy | None = None,
    ) -> None:
        """`options` (None: the defaults) are checked (`GameOptions.validated`): a
        ValueError names a bad one."""
        self.rng = rng if rng is not None else random.Random()
        self.injected_strategy = strategy
        self.teacher = Teacher(self.rng, self._lesson)
        self.decisions = Decisions()  # why the AI played each move (the info panel)
        self.generation = 0
        # Set when the generation moves on: a search still running for it stops early.
        self._stale = threading.Event()
        # Told of every round that ends or is abandoned (the app saves it to the record).
        self.on_round_end: Callable[[RoundSummary], None] | None = None
        self.player_name: str | None = None  # shown in the title when hosted (serve-ssh)
        self.new_game(options if options is not None else GameOptions())

    # -- games and rounds ---------------------------------------------------

    def new_game(self, options: GameOptions, *, abandon: bool = True) -> None:
        """Start over in place with `options`: new players, score 0, round 1.

        The random generator and an injected strategy are kept, so a seeded
        session stays repeatable across new games. A round in progress is reported
        abandoned, unless `abandon` is False (saved settings replacing the defaults
        before the player has moved).
        """
        options = options.validated()
        if abandon and getattr(self, "game_round", None) is not None and self.in_progress:
            self._ended("abandoned")
        self.options = options
        people = options.opponent == "human"
        brain = (
            None if people else self.injected_strategy or strategy_for(options.difficulty, self.rng)
        )
        self.seats = Seats(options, brain)
        self.human: HumanPlayer = self.seats.home
        self.ai: AIPlayer | None = self.seats.ai  # None between people
        opener = self.seats.opener(options.first)
        self.game_round = Round(options.geometry, opener, alternate=options.alternate)
        self._round_begins()

    @property
    def board(self) -> GameBoard:
        return self.game_round.board

    @property
    def round(self) -> int:
        """The round's number, from 1 in each game."""
        return self.game_round.number

    @property
    def opener(self) -> Symbol:
        """The seat that moved first this round."""
        return self.game_round.opener

    @property
    def took_back(self) -> bool:
        """A person took a move back this round."""
        return self.game_round.take_backs > 0

    @property
    def score(self) -> Score:
        """The round's tally as the scoreboard shows it: the person's and the AI's wins,
        or between people X's and O's."""
        tally = self.game_round.score
        rest = {"draws": tally.draws, "abandoned": tally.abandoned, "take_backs": tally.take_backs}
        if self.between_people:
            return Score(x=tally.x, o=tally.o, **rest)
        return Score(tally.wins(self.human.symbol), tally.wins(self.seats.away.symbol), **rest)

    @property
    def in_progress(self) -> bool:
        """A move has been played and the round is not over (nor left: see `leave`)."""
        return self.game_round.in_progress

    def leave(self) -> bool:
        """The player quits mid-round: the round counts as abandoned, as a new round would
        count it (quitting must not dodge a lost position either). Once; True if reported.
        The generation moves on, so an AI reply still on its way is dropped."""
        if not self.in_progress:
            return False
        self.game_round.abandon()
        self._changed()
        self._ended("abandoned")
        return True

    def new_round(self) -> None:
        """A fresh board; with `alternate`, the side that did not start last time starts
        (`Round.next`).

        A round left in progress counts as abandoned: a new round in the middle of a
        lost position must not make the loss disappear from the score.
        """
        if self.in_progress:
            self.game_round.abandon()
            self._ended("abandoned")
        self.game_round.next()
        self._round_begins()

    def _round_begins(self) -> None:
        self.decisions.clear()
        self.ai_error: str | None = None
        self._changed()

    def _changed(self) -> None:
        """The position changed: any reply still on its way is now stale, and its
        search is told to stop (a search on 5x5 can take seconds)."""
        self.generation += 1
        self.stop_thinking()
        self._stale = threading.Event()
        self.teacher.moved_on()

    def _lesson(self) -> Lesson:
        """What the teacher reads: the position now, and the person playing the AI while
        it is their turn (hints and the overlay are for them)."""
        teaches = self.is_human_turn and not self.between_people
        pupil = self.human.symbol if teaches else None
        round_ = self.game_round
        return Lesson(round_.board, self.generation, round_.mover, pupil, self.stale)

    @property
    def stale(self) -> Callable[[], bool]:
        """True once the position of now has changed: for searches about it (analysis)."""
        return self._stale.is_set

    def stop_thinking(self) -> None:
        """Tell a search still running for the current position to give up (quitting)."""
        self._stale.set()

    # -- turns --------------------------------------------------------------

    @property
    def starter(self) -> Side:
        """Who started this round: "human" or "ai" (between people, always "human")."""
        return self.seats.side_of(self.opener)

    @property
    def between_people(self) -> bool:
        """Two people at this keyboard (hot seat): no AI, so no hints and no analysis."""
        return self.seats.between_people

    @property
    def difficulty(self) -> str:
        return self.options.difficulty

    @property
    def first(self) -> Side:
        return self.options.first

    @property
    def alternate(self) -> bool:
        return self.options.alternate

    @property
    def play_begun(self) -> bool:
        """Has a person moved this round, or played a round already?"""
        return bool(self._people_moves()) or self.round > 1

    def _people_moves(self) -> list[Cell]:
        """This round's moves made by a person (every move, between people)."""
        board, seats = self.board, self.seats
        return [
            (row, col)
            for row, col in board.moves
            if isinstance(seats[board.game_board[row][col]], HumanPlayer)
        ]

    @property
    def current_player(self) -> Player:
        """The seat whose turn it is (once the round is over, the seat that would move)."""
        return self.seats[self.game_round.mover]

    @property
    def is_human_turn(self) -> bool:
        """A person is to move (between people, always, until the round is over)."""
        return isinstance(self.current_player, HumanPlayer) and not self.game_over

    @property
    def is_ai_turn(self) -> bool:
        """The AI is to move and has not failed: a request is waiting for its reply."""
        is_ai = isinstance(self.current_player, AIPlayer)
        return is_ai and not self.game_over and self.ai_error is None

    @property
    def game_over(self) -> bool:
        """The round has ended: played out, or left (`leave`)."""
        return self.game_round.over

    @property
    def outcome(self) -> Outcome | None:
        return self.board.outcome()

    @property
    def last_ai_move(self) -> Cell | None:
        """The AI's latest move of this round, if it has moved (never, between people)."""
        if self.ai is None:
            return None
        for row, col in reversed(self.board.moves):
            if self.board.game_board[row][col] == self.ai.symbol:
                return row, col
        return None

    @property
    def last_answered(self) -> Cell | None:
        """The move the board marks as the one to answer: the AI's latest, or between
        people the latest move of all (the other person's)."""
        if self.ai is None:
            return self.board.moves[-1] if self.board.moves else None
        return self.last_ai_move

    @property
    def result(self) -> str | None:
        """Who won, or that it is a draw, once the round has ended; None while it runs."""
        outcome = self.board.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return "It's a draw."
        if self.between_people:
            return f"{outcome.winner} wins!"
        if outcome.winner == self.human.symbol:
            return f"You win with {outcome.winner}!"
        return f"The AI wins with {outcome.winner}."

    def play_human_move(self, row: int, col: int) -> None:
        """Play the human's move; or refuse it, changing nothing: `MoveRefused`, or the
        board's `IllegalMove` for a cell that is not on it."""
        if self.game_over:
            raise MoveRefused("over")
        if self.ai_error is not None:
            raise MoveRefused("ai-failed", self.ai_error)
        player = self.current_player
        if not isinstance(player, HumanPlayer):
            raise MoveRefused("not-your-turn")
        taken = self._mark_at(row, col)
        if taken is not None:
            raise MoveRefused("taken", taken, self.board.geometry.key(row, col))
        self.game_round.play(row, col, player)  # the seat's player plays (`IllegalMove`)
        self._played()

    def _mark_at(self, row: int, col: int) -> str | None:
        """The mark on an existing, occupied cell; None for an empty or invalid cell."""
        valid = all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col))
        if not valid or not self.board.geometry.contains(row, col):
            return None
        mark = self.board.game_board[row][col]
        return None if mark == EMPTY else mark

    # -- background jobs: the AI's move, hints, the big-board analysis ------------

    def ai_request(self) -> AIRequest | None:
        """What the AI must answer now (run `compute()` anywhere); None off its turn."""
        if not self.is_ai_turn or self.ai is None:
            return None
        return AIRequest(self.generation, self.board.copy(), self.ai, self._stale.is_set)

    def apply(self, reply: Reply) -> bool:
        """Apply a background job's reply; False, changing nothing, if it answers an
        earlier position (or, switched off, an analysis no one sees now). The one place
        that judges a reply stale, whichever job it comes from."""
        if reply.generation != self.generation:
            return False
        if isinstance(reply, AIReply):
            return self._apply_ai_reply(reply)
        return self.teacher.apply(reply)

    def _apply_ai_reply(self, reply: AIReply) -> bool:
        """A reply that is current but has no legal move (the strategy raised, or
        chose an occupied cell) ends the AI's turn with `ai_error` set, so the
        player is told instead of waiting forever."""
        if not self.is_ai_turn:
            return False
        if reply.move is None:
            self.ai_error = reply.error or "no move"
        else:
            try:
                self.game_round.play(*reply.move)
                self._played()
            except IllegalMove as illegal:
                self.ai_error = f"it chose an illegal move. {illegal}"
            minimax = self.minimax  # read now, on this thread: on 3x3 it is worked out late
            self.decisions.note(
                self.board.moves, None if minimax is None else minimax.last_decision
            )
        self._changed()
        return True

    def _played(self) -> None:
        """After a move the round took (the turn passes with it): a round it ended (the
        round scored it) is reported."""
        self._changed()
        outcome = self.board.outcome()
        if outcome is None:
            return
        winner = outcome.winner
        # Between people the result is X's (`RoundSummary`).
        mine = "X" if self.between_people else self.human.symbol
        self._ended("draw" if winner is None else "win" if winner == mine else "loss", winner)

    def _ended(self, result: Result, winner: Symbol | None = None) -> None:
        """Tell `on_round_end` (the app saves it to the record) how the round ended."""
        if self.on_round_end is None:
            return
        geometry = self.board.geometry
        self.on_round_end(
            RoundSummary(
                self.options.difficulty,
                "X" if self.between_people else self.human.symbol,
                self.starter,
                tuple(geometry.key(*cell) for cell in self.board.moves),
                result,
                self.took_back,
                geometry.size,
                self.options.opponent,
                winner,
                self.opener,
            )
        )

    def take_back(self) -> TakeBack:
        """Undo the last move a person made, and the AI's reply to it if it has replied:
        against the AI the human's move and the reply, between people one move.

        The generation moves on, so an AI reply still being computed is dropped.
        Refused while the round is over (its result stands) or before a person
        has moved. The round is marked: the score counts it, the record keeps it.
        """
        if self.game_over:
            return TakeBack((), "over")
        mine = self._people_moves()
        if not mine:
            return TakeBack((), "nothing")
        row, col = mine[-1]
        taker = self.seats[self.board.game_board[row][col]]  # who moves again
        undone = self.game_round.take_back(taker.symbol)
        self.ai_error = None
        self._changed()
        return TakeBack(undone)

    @property
    def strategy(self) -> MoveStrategy | None:
        """The AI's strategy; None between people."""
        return self.ai.strategy if self.ai is not None else None

    @property
    def human_symbol(self) -> Symbol:
        return self.human.symbol

    @property
    def ai_symbol(self) -> Symbol:
        """The other seat's symbol: the AI's (between people, the second person's)."""
        return self.seats.away.symbol

    @property
    def last_decision(self) -> Decision | None:
        """Why the AI played its move that is last on the board now (none after a new
        round, a new game, or a take-back of its only move)."""
        return self.decisions.behind(self.board.moves, self.last_ai_move)

    @property
    def minimax(self) -> MinimaxStrategy | None:
        """The AI's minimax strategy, if it uses one (for the reasoning panel)."""
        strategy = self.strategy
        return strategy if isinstance(strategy, MinimaxStrategy) else None
