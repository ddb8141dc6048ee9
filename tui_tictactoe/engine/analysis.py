"""Verdicts for every move of a position: one path (`move_scores`) for `analyse`, the
game's overlay and hints, replays and a spectator's overlay."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from tui_tictactoe.engine.board import SYMBOLS, Cell, GameBoard, Symbol, other
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.strategies import search_of

if TYPE_CHECKING:
    from tui_tictactoe.engine.known import Scores

OnMove = Callable[[int, int], None]
"""Told (move number, number of moves) before each move of a position is searched."""


class MoveScorer(Protocol):
    """What the analysis asks of a search: one move's exact score (`Search.move_score`)."""

    def move_score(
        self, me: int, them: int, cell: int, cancelled: Cancelled | None = None
    ) -> int: ...


Status = Literal["in_progress", "X_wins", "O_wins", "draw"]


class InvalidPosition(ValueError):
    """A board that no game of alternating moves could have produced."""


class MoveVerdict(NamedTuple):
    cell: Cell
    verdict: Verdict
    best: bool


class Analysis(NamedTuple):
    board: str  # reading order, `.` for empty
    to_move: Symbol
    status: Status
    moves: tuple[MoveVerdict, ...]  # empty once the game is over

    @property
    def best(self) -> tuple[Cell, ...]:
        return tuple(move.cell for move in self.moves if move.best)

    def verdict_at(self, cell: Cell) -> Verdict | None:
        for move in self.moves:
            if move.cell == cell:
                return move.verdict
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "board": self.board,
            "to_move": self.to_move,
            "status": self.status,
            "moves": [
                {
                    "row": move.cell[0],
                    "col": move.cell[1],
                    "outcome": move.verdict.outcome,
                    "plies": move.verdict.plies,
                }
                for move in self.moves
            ],
            "best": [list(cell) for cell in self.best],
        }


def status_of(board: GameBoard) -> Status:
    outcome = board.outcome()
    if outcome is None:
        return "in_progress"
    if outcome.winner is None:
        return "draw"
    return "X_wins" if outcome.winner == "X" else "O_wins"


def side_to_move(board: GameBoard, to_move: str | None = None) -> Symbol:
    """Who moves next, checking that the board could come from alternating moves.

    The side with fewer marks moves; with equal counts X, unless `to_move` says
    O (an O-first game). Raises InvalidPosition with a one-line reason.
    """
    if to_move is not None and to_move not in SYMBOLS:
        raise InvalidPosition(f"side to move must be X or O, not {to_move!r}")
    x_won, o_won = board.is_winner("X"), board.is_winner("O")
    mover = _mover_by_counts(board, to_move, x_won and not o_won)
    _check_wins(board, mover, x_won, o_won)
    return mover


def _mover_by_counts(board: GameBoard, to_move: str | None, only_x_won: bool) -> Symbol:
    """The side with fewer marks; with equal counts `to_move`, else X (or O, when X has
    just won an O-first game)."""
    x_count, o_count = board.count("X"), board.count("O")
    if abs(x_count - o_count) > 1:
        raise InvalidPosition(f"impossible counts: {x_count} X and {o_count} O")
    if x_count == o_count:
        if to_move is not None:
            return to_move  # type: ignore[return-value]  # checked by the caller
        return "O" if only_x_won else "X"
    fewer: Symbol = "X" if x_count < o_count else "O"
    if to_move is not None and to_move != fewer:
        raise InvalidPosition(
            f"{to_move} cannot be to move with {x_count} X and {o_count} O: {fewer} moves"
        )
    return fewer


def _check_wins(board: GameBoard, mover: Symbol, x_won: bool, o_won: bool) -> None:
    """A finished game: one winner, who made the last move, with one move ending it."""
    if not (x_won or o_won):
        return
    if x_won and o_won:
        raise InvalidPosition("both X and O have a line")
    winner: Symbol = "X" if x_won else "O"
    if other(mover) != winner:  # the winner made the last move: the loser is to move
        raise InvalidPosition(f"{winner} has a line but moves were made after it won")
    if not _last_move_can_complete_all_lines(board, board.masks_for(winner)[0]):
        raise InvalidPosition("two separate lines: moves were made after the game was won")


def _last_move_can_complete_all_lines(board: GameBoard, mask: int) -> bool:
    """A winner's lines must share a cell: the move that ended the game."""
    lines = [line for line in board.geometry.line_masks if mask & line == line]
    common = board.geometry.full_mask
    for line in lines:
        common &= line
    return common != 0


def analyse(
    board: GameBoard,
    to_move: str | None = None,
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
    search: MoveScorer | None = None,
) -> Analysis:
    """Every legal move's verdict for the side to move, and which are best.

    The scores come from `move_scores`: what the engine knows at once (`known`), then a
    search of each move left, which on an open 5x5 board takes up to seconds per move:
    `on_move` hears of each move before its search, and `cancelled` (polled) stops it
    with `SearchCancelled`.
    """
    mover = side_to_move(board, to_move)
    status = status_of(board)
    moves: tuple[MoveVerdict, ...] = ()
    if status == "in_progress":
        me, them = board.masks_for(mover)
        scores: Scores = {}
        for found in move_scores(board.geometry, me, them, search, cancelled, on_move):
            scores.update(found)
        moves = verdicts(board.geometry, scores)
    return Analysis(board.to_string(), mover, status, moves)


def known_analysis(board: GameBoard, to_move: str | None = None) -> Analysis | None:
    """`analyse` where every move's verdict is known without searching (3x3, the 5x5
    opening), else None: for a caller that must answer at once (a replay's positions)."""
    mover = side_to_move(board, to_move)
    status = status_of(board)
    if status != "in_progress":
        return Analysis(board.to_string(), mover, status, ())
    me, them = board.masks_for(mover)
    cells = empty_cells(board.geometry, me, them)
    from tui_tictactoe.engine.known import (
        known_scores,  # on first use: a game's start needs no verdict
    )

    scores = known_scores(board.geometry, me, them, cells)
    if len(scores) < len(cells):
        return None
    return Analysis(board.to_string(), mover, status, verdicts(board.geometry, scores))


def move_scores(
    geometry: Geometry,
    me: int,
    them: int,
    search: MoveScorer | None = None,
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
    known: Scores | None = None,
) -> Iterator[tuple[tuple[int, int], ...]]:
    """The one path to the score of every move of a position in play (`me` to move), as
    (cell index, score) pairs: first, in one batch, every score the engine knows without
    searching (`known.known_scores`), then each other move's as `search` (the shared
    search of `geometry` unless given) finds it. `on_move` hears (move number, moves)
    before each search; `cancelled` stops one with `SearchCancelled`. `known`: the scores
    a caller has read already with `known_scores` (to show them at once), not yielded again."""
    cells = empty_cells(geometry, me, them)
    if known is None:
        from tui_tictactoe.engine.known import (
            known_scores,  # on first use: a game's start needs no verdict
        )

        known = known_scores(geometry, me, them, cells)
        if known:
            yield tuple((cell, known[cell]) for cell in cells if cell in known)
    rest = [cell for cell in cells if cell not in known]
    scorer = search if search is not None or not rest else search_of(geometry)
    for number, cell in enumerate(rest, len(known) + 1):
        if on_move is not None:
            on_move(number, len(cells))
        assert scorer is not None
        yield ((cell, scorer.move_score(me, them, cell, cancelled)),)


def empty_cells(geometry: Geometry, me: int, them: int) -> list[int]:
    """The empty cells' indices, in reading order."""
    occupied = me | them
    return [cell for cell in range(geometry.cells) if not occupied >> cell & 1]


def verdicts(geometry: Geometry, scores: Scores) -> tuple[MoveVerdict, ...]:
    """Each scored cell's verdict, in reading order, the best ones marked."""
    empties = len(scores)
    exact = not is_bounded(geometry)
    top = best_score(scores.values(), exact)
    return tuple(
        MoveVerdict(geometry.coords(cell), Verdict.from_score(score, empties, exact), score == top)
        for cell, score in sorted(scores.items())
    )


def best_score(scores: Iterable[int], exact: bool) -> int | None:
    """The score the best moves have; None where no move is known to be best: a bounded
    search (6x6) whose top score is 0 proved nothing, and one unknown is as good as
    another (its losses are still worse, its wins still best)."""
    top = max(scores, default=0)
    return None if top == 0 and not exact else top
