"""Verdicts for every move of a position: what the overlay, hints and `analyse` show."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Literal, NamedTuple

from .board import SYMBOLS, Cell, GameBoard, Symbol, other
from .cancel import Cancelled
from .geometry import Geometry
from .solver import Solver, Verdict, shared_solver
from .strategies import BOOK_GEOMETRY, search_of

OnMove = Callable[[int, int], None]
"""Told (move number, number of moves) before each move of a position is searched."""

STORED_STONES = 2
"""5x5 positions with at most this many stones have every move's score stored beside the
opening book (`opening_book.VERDICTS`): an open 5x5 board would take many seconds."""

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
    solver: Solver | None = None,
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
) -> Analysis:
    """Every legal move's verdict for the side to move, and which are best.

    3x3 reads the solved table (instant), and so do 5x5 positions with at most
    `STORED_STONES` stones (the scores stored beside the opening book). Other
    positions on bigger boards search each move exactly, which on an open 5x5
    board takes up to seconds per move: `on_move` hears of each move before its
    search, and `cancelled` (polled) stops it with `SearchCancelled`.
    """
    mover = side_to_move(board, to_move)
    status = status_of(board)
    moves: tuple[MoveVerdict, ...] = ()
    if status == "in_progress":
        me, them = board.masks_for(mover)
        if board.geometry.cells <= 9 or solver is not None:
            solver = solver if solver is not None else shared_solver(board.geometry)
            _, scores, best_cells = solver.entry(me, them)
        else:
            cells = [board.geometry.index(row, col) for row, col in board.legal_moves()]
            stored = stored_scores(board.geometry, me, them, cells)
            scores = (
                stored
                if stored is not None
                else _searched_scores(board.geometry, me, them, cells, cancelled, on_move)
            )
            top = max(score for _, score in scores)
            best_cells = tuple(cell for cell, score in scores if score == top)
        empties = len(scores)
        moves = tuple(
            MoveVerdict(
                cell=board.geometry.coords(cell),
                verdict=Verdict.from_score(score, empties),
                best=cell in best_cells,
            )
            for cell, score in scores
        )
    return Analysis(board.to_string(), mover, status, moves)


def _searched_scores(
    geometry: Geometry,
    me: int,
    them: int,
    cells: list[int],
    cancelled: Cancelled | None,
    on_move: OnMove | None,
) -> tuple[tuple[int, int], ...]:
    search = search_of(geometry)
    scores = []
    for number, cell in enumerate(cells, 1):
        if on_move is not None:
            on_move(number, len(cells))
        scores.append((cell, search.move_score(me, them, cell, cancelled)))
    return tuple(scores)


def stored_scores(
    geometry: Geometry, me: int, them: int, cells: list[int]
) -> tuple[tuple[int, int], ...] | None:
    """(cell, score) of each of `cells` (the empty ones) from the scores stored beside the
    5x5 opening book, or None where none are stored (another board, more stones)."""
    if geometry != BOOK_GEOMETRY or (me | them).bit_count() > STORED_STONES:
        return None
    from .opening_book import VERDICTS  # imported on first use: 3x3 never pays for it

    canonical_me, canonical_them, symmetry = search_of(geometry).canonical(me, them)
    stored = VERDICTS.get(canonical_me | canonical_them << geometry.cells)
    if stored is None:
        return None
    occupied = canonical_me | canonical_them
    empty = [cell for cell in range(geometry.cells) if not occupied >> cell & 1]
    by_cell = dict(zip(empty, stored, strict=True))  # in the canonical frame
    to_canonical = _symmetries(geometry.size)[symmetry]
    return tuple((cell, by_cell[to_canonical[cell]]) for cell in cells)


@cache
def _symmetries(size: int) -> tuple[tuple[int, ...], ...]:
    from .symmetry import symmetries  # with the search, which is loaded by now

    return symmetries(size)
