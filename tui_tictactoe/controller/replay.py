"""A kept round, position by position: what the replay screen steps through. No UI.

The record keeps a round as cell keys. `Replay` rebuilds every position from them,
each with the verdicts for the side to move there where the engine knows them
without searching (`analysis.known_analysis`: every 3x3 position, the 5x5 opening;
searching a big board's positions would take seconds each), and holds a cursor that moves
only within the round: a step past either end, or to a position the round never had,
changes nothing.

On 6x6 the verdicts are what is proven at once (fours, pairings; "unknown" elsewhere),
which takes tens to hundreds of milliseconds a position: too long for a whole round at
once on the UI thread, so those positions start `pending`, and the screen has them judged
(`judge`, any thread) and kept (`keep`) one at a time, nearest the one shown first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import suppress
from typing import NamedTuple

from tui_tictactoe.controller.game_options import BOARDS, SIDES, board_geometry
from tui_tictactoe.engine.analysis import Analysis, known_analysis, proven_analysis
from tui_tictactoe.engine.board import SYMBOLS, Cell, GameBoard, IllegalMove, Symbol, other
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.solver import Verdict


class Move(NamedTuple):
    """One move of a kept round: who played where, and how good it was when played."""

    symbol: Symbol
    cell: Cell
    verdict: Verdict | None  # None where the position was not analysed (past the 5x5 opening)
    best: bool  # (on 6x6 both as judged: None and False while the position is pending)


def analysis_of(board: GameBoard, to_move: Symbol) -> Analysis | None:
    """Every empty cell's verdict for `to_move`, where the engine knows them at once (3x3,
    the 5x5 opening); None elsewhere.

    The engine refuses positions no game could reach (`InvalidPosition`): a replay
    only asks about those it built itself, move by move, up to the end of the round.
    """
    return None if is_bounded(board.geometry) else known_analysis(board, to_move)


class Replay:
    """A round's positions (the empty board, then one after each move), the analysis of
    each, and which one is shown (`at`: the moves played up to it).

    The moves are read until the first that the game would not have played: a key
    off the board, a taken cell, or any move after the round was won or drawn (a
    hand-edited record). What comes after it is left out, not guessed at.
    """

    def __init__(self, geometry: Geometry, you: str, first: str, keys: Sequence[int]) -> None:
        if you not in SYMBOLS:
            raise ValueError(f"the player's symbol must be X or O, not {you!r}")
        if first not in SIDES:
            raise ValueError(f"who started must be one of {', '.join(SIDES)}, not {first!r}")
        self.geometry = geometry
        self.you: Symbol = you  # narrowed by the check above
        self.first: Symbol = self.you if first == "human" else other(self.you)
        board = GameBoard(geometry)
        self._boards = [board.copy()]
        self._analyses = [analysis_of(board, self.first)]
        self.moves: tuple[Move, ...] = tuple(self._read(board, keys))
        self._at = 0
        self._pending = set(range(len(self._boards))) if is_bounded(geometry) else set()

    @classmethod
    def of_round(cls, board_size: int, you: str, first: str, keys: Sequence[int]) -> Replay:
        """The replay of a round as the record keeps it (its size, the player's symbol,
        who started, the keys); ValueError with a one-line reason if it cannot be
        replayed (a board size this game does not play)."""
        if str(board_size) not in BOARDS:
            raise ValueError(
                f"a {board_size}x{board_size} board is not one this game plays"
                f" ({', '.join(f'{size}x{size}' for size in BOARDS)})"
            )
        return cls(board_geometry(board_size), you, first, keys)

    def _read(self, board: GameBoard, keys: Sequence[int]) -> list[Move]:
        """The moves up to the first the game would not have played; each position kept."""
        moves: list[Move] = []
        mover = self.first
        with suppress(IllegalMove):  # the moves before the first refused: the legal prefix
            for cell in board.play_keys(keys, self.first):
                before = self._analyses[-1]
                verdict = before.verdict_at(cell) if before is not None else None
                best = before is not None and cell in before.best
                moves.append(Move(mover, cell, verdict, best))
                mover = other(mover)
                self._boards.append(board.copy())
                self._analyses.append(analysis_of(board, mover))
        return moves

    # -- 6x6: the verdicts judged one position at a time ---------------------------

    def next_pending(self, skip: Collection[int] = ()) -> int | None:
        """The position still to judge nearest the one shown (and, of two, the one before
        it: the move line's verdict), leaving out `skip`; None once all are judged."""
        left = self._pending.difference(skip)
        return min(left, key=lambda at: (abs(at - self._at), at)) if left else None

    def judge(self, at: int) -> Analysis:
        """The proven verdicts of position `at` (`analysis.proven_analysis`); reads only that
        position's board (a copy), so a thread may call it while the screen steps."""
        board = self._boards[at].copy()
        return proven_analysis(board, self.first if at % 2 == 0 else other(self.first))

    def keep(self, at: int, analysis: Analysis) -> None:
        """Keep what `judge(at)` found: position `at`'s verdicts, and the verdict of the
        move played there."""
        if at not in self._pending:
            return
        self._pending.discard(at)
        self._analyses[at] = analysis
        if at < len(self.moves):
            move = self.moves[at]
            verdict = analysis.verdict_at(move.cell)
            best = move.cell in analysis.best
            moves = list(self.moves)
            moves[at] = move._replace(verdict=verdict, best=best)
            self.moves = tuple(moves)

    @property
    def pending(self) -> bool:
        """Whether some position is still to be judged (6x6)."""
        return bool(self._pending)

    # -- the cursor -------------------------------------------------------------

    @property
    def total(self) -> int:
        """The moves of the round (as far as it could be read)."""
        return len(self.moves)

    @property
    def at(self) -> int:
        """The moves played up to the position shown: 0 (the empty board) to `total`."""
        return self._at

    def go(self, at: int) -> bool:
        """Show the position after `at` moves; False, changing nothing, if there is none."""
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= self.total:
            return False
        self._at = at
        return True

    def step(self, delta: int) -> bool:
        """Move `delta` moves on (back if negative); False, changing nothing, past an end."""
        if isinstance(delta, bool) or not isinstance(delta, int):
            return False
        return self.go(self._at + delta)

    def go_to_end(self) -> bool:
        return self.go(self.total)

    # -- the position shown -----------------------------------------------------

    @property
    def board(self) -> GameBoard:
        """The position shown (a copy: the replay's own positions stay as they were)."""
        return self._boards[self._at].copy()

    @property
    def to_move(self) -> Symbol:
        """The side to move in the position shown (if the round had gone on)."""
        return self.first if self._at % 2 == 0 else other(self.first)

    @property
    def analysis(self) -> Analysis | None:
        """Every empty cell's verdict for the side to move there; None where not known."""
        return self._analyses[self._at]

    @property
    def last(self) -> Move | None:
        """The move that led to the position shown; None at the start."""
        return self.moves[self._at - 1] if self._at else None

    def describe(self) -> str:
        """The line under the board: where the replay stands, and the last move's verdict."""
        move = self.last
        if move is None:
            return f"The start: {self.total} moves. Right or Space steps on, Left back."
        who = "you" if move.symbol == self.you else "the AI"
        key = self.geometry.key(*move.cell)
        said = f"Move {self._at} of {self.total}: {who} ({move.symbol}) played {key}"
        if move.verdict is None:
            return f"{said}."
        if move.verdict.outcome == "unknown":  # 6x6: nothing proven about it, best or not
            return f"{said}: {move.verdict}."
        return f"{said}: {move.verdict}{' (a best move)' if move.best else ' (not a best move)'}."
