"""`Round`: the round on the board and the score of a pair's rounds, the rules both games share.

The game at one terminal (`controller.GameController`: against the AI, or two people at one
keyboard) and a room (`rooms.room.Room`: two people over SSH or the web) play their rounds
through it, so a rule of play has one home whoever sits in the other seat: who opens the next
round, what a take-back undoes, how the score counts a win, a draw and an abandoned round.
No clock, no people, no I/O: each game keeps what is its own around it (a room's seats,
offers and move clock; the controller's AI turn and its record of ended rounds).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from tui_tictactoe.engine.board import Cell, GameBoard, IllegalMove, Symbol, other
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.players import HumanPlayer

RoundResult = Literal["X", "O", "draw", "abandoned"]
"""How a round ended: the seat that won, a draw, or abandoned (left unfinished)."""

Counter = Literal["x", "o", "draws", "abandoned", "take_backs"]
"""One of the tally's counters (`Tally.plus`)."""


@dataclass(frozen=True, slots=True)
class Tally:
    """The score of a pair's rounds, by seat. A value: a round replaces it (`plus`), so a
    tally handed to a screen or a store stays what it was when handed."""

    x: int = 0  # rounds X won
    o: int = 0  # rounds O won
    draws: int = 0
    abandoned: int = 0  # rounds left unfinished (a claimed one is also its claimer's win)
    take_backs: int = 0  # rounds in which a move was taken back

    def plus(self, counter: Counter) -> Tally:
        """This tally with one more in `counter`."""
        return replace(self, **{counter: getattr(self, counter) + 1})

    def wins(self, seat: Symbol) -> int:
        return self.x if seat == "X" else self.o


class Round:
    """The round on the board: its number, the seat that opened it, its result once it
    has ended, the take-backs in it, and the tally of the rounds so far (this one's too).

    A round is over once it has a `result`: played out (a line or a full board), or ended
    by a rule of the game around it (`end`: a draw agreed, a win on time; `abandon`).
    Restored as stored (`moves` as cell keys, in turn from `opener`), it keeps its
    `result` as given: a round ended off the board is not read from the board."""

    def __init__(
        self,
        geometry: Geometry,
        opener: Symbol = "X",
        *,
        alternate: bool = True,
        number: int = 1,
        score: Tally | None = None,
        moves: Iterable[object] = (),
        result: RoundResult | None = None,
        take_backs: int = 0,
    ) -> None:
        """`alternate`: the seat that did not open a round opens the next (`next`)."""
        self.geometry = geometry
        self.opener: Symbol = opener
        self.alternate = alternate
        self.number = number
        self.score = score if score is not None else Tally()
        self.board = GameBoard.replay(geometry, opener, moves)
        self.result: RoundResult | None = result
        self.take_backs = take_backs

    def __eq__(self, other: object) -> bool:
        """The same round: the same rules, number, tally, result and moves in order."""
        if not isinstance(other, Round):
            return NotImplemented
        return self._compared() == other._compared()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the board is

    def _compared(self) -> tuple[object, ...]:
        rules = (self.geometry, self.opener, self.alternate)
        return (*rules, self.number, self.score, self.keys, self.result, self.take_backs)

    def __repr__(self) -> str:
        return (
            f"Round({self.geometry!r}, {self.opener!r}, number={self.number}, "
            f"moves={self.keys}, result={self.result!r}, score={self.score!r})"
        )

    # -- what the round is now ------------------------------------------------

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def in_progress(self) -> bool:
        """A move has been played and the round has not ended: leaving it abandons it."""
        return bool(self.board.moves) and self.result is None

    @property
    def mover(self) -> Symbol:
        """The seat whose turn it is by the moves (the opener, then in turn); once the
        round is over, the seat that would have moved next."""
        return self.opener if len(self.board.moves) % 2 == 0 else other(self.opener)

    @property
    def to_move(self) -> Symbol | None:
        """The seat to move; None once the round is over."""
        return None if self.over else self.mover

    @property
    def keys(self) -> tuple[int, ...]:
        """The moves as cell keys (1 = top-left, reading order), in the order played."""
        return tuple(self.geometry.key(*cell) for cell in self.board.moves)

    def moves_of(self, seat: Symbol) -> list[Cell]:
        """`seat`'s moves this round, in the order played."""
        marks = self.board.game_board
        return [(row, col) for row, col in self.board.moves if marks[row][col] == seat]

    # -- the rules --------------------------------------------------------------

    def play(self, row: int, col: int, player: HumanPlayer | None = None) -> None:
        """The mover's mark at (row, col), by `player`'s hand if a person plays it
        (`HumanPlayer.make_move`); a line or a full board ends the round and scores it.
        The board's `IllegalMove` (nothing changed) for a cell it refuses, or once the
        round is over; a ValueError if `player` is not the mover."""
        if self.over:
            raise IllegalMove("game-over", self.geometry.key(row, col), col, self.mover)
        if player is None:
            self.board.make_move(row, col, self.mover)
        elif player.symbol != self.mover:
            raise ValueError(f"{player.symbol} moved on {self.mover}'s turn")
        else:
            player.make_move(self.board, row, col)
        outcome = self.board.outcome()
        if outcome is not None:
            self.end("draw" if outcome.winner is None else outcome.winner)

    def end(self, result: RoundResult) -> None:
        """The round ends with `result`, counted: a seat's win, a draw, or abandoned."""
        self.result = result
        if result == "X" or result == "O":
            self.score = self.score.plus("x" if result == "X" else "o")
        else:
            self.score = self.score.plus("draws" if result == "draw" else "abandoned")

    def abandon(self, winner: Symbol | None = None) -> None:
        """The round is left unfinished: counted abandoned, so leaving never makes a lost
        position disappear from the score. A round claimed from a player who left is
        also the `winner`'s win (as a rating counts it)."""
        self.end("abandoned")
        if winner is not None:
            self.score = self.score.plus("x" if winner == "X" else "o")

    def take_back(self, seat: Symbol) -> tuple[Cell, ...]:
        """Undo `seat`'s last move and every move after it (the reply to it): `seat` moves
        again. The cells undone, newest first; none (nothing changed) once the round is
        over or before `seat` has moved. The first take-back of a round is counted in the
        tally's `take_backs`, each one in the round's."""
        mine = self.moves_of(seat)
        if self.over or not mine:
            return ()
        undone = [self.board.undo()]
        while undone[-1] != mine[-1]:
            undone.append(self.board.undo())
        if not self.take_backs:
            self.score = self.score.plus("take_backs")
        self.take_backs += 1
        return tuple(undone)

    def next(self) -> None:
        """The next round, on a fresh board: the seat that did not open this one opens it
        (when alternating). A round still in progress is abandoned first."""
        if self.in_progress:
            self.abandon()
        self.number += 1
        if self.alternate:
            self.opener = other(self.opener)
        self.board = GameBoard(self.geometry)
        self.result, self.take_backs = None, 0
