"""Verdicts for every move of a position: one path (`move_scores`) for `analyse`, the
game's overlay and hints, replays and a spectator's overlay."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from tui_tictactoe.engine.board import SYMBOLS, Cell, GameBoard, Symbol, other
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.strategies import search_of

if TYPE_CHECKING:  # imported where a proof is made: a 3x3 game's start-up does without it
    from tui_tictactoe.engine.proof import Proof

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


class Scored(NamedTuple):
    """One move's score as the searches score it (see `solver.py`), and what proves it:
    None where a bounded search (6x6) saw nothing forced: its 0 is then "unknown"."""

    cell: int  # index in reading order
    score: int
    proof: Proof | None
    shortest: bool = True  # False: a win (or loss) along a line that may not be the shortest


class MoveVerdict(NamedTuple):
    cell: Cell
    verdict: Verdict
    best: bool
    line: tuple[int, ...] = ()  # the line of play, this move first (cell indices)
    proof: Proof | None = None


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

    def to_json(self, geometry: Geometry) -> dict[str, object]:
        """As `analyse --json` prints it: cells as the game numbers them (1 top-left), each
        move's `line` and `proof` (`proof_json`)."""
        return {
            "board": self.board,
            "to_move": self.to_move,
            "status": self.status,
            "moves": [
                {
                    "cell": geometry.key(*move.cell),
                    "row": move.cell[0],
                    "col": move.cell[1],
                    "outcome": move.verdict.outcome,
                    "plies": move.verdict.plies,
                    "shortest": move.verdict.shortest,
                    "line": [cell + 1 for cell in move.line],
                    "proof": proof_json(move.proof),
                }
                for move in self.moves
            ],
            "best": [list(cell) for cell in self.best],
        }


def proof_json(proof: Proof | None) -> dict[str, object] | None:
    """A proof with cells as the game numbers them (1 top-left): `kind`; for "fours" the
    `line`; for "pairing" the other side's `reply` (null: none needed) and `pairs`, and the
    mover's `guard` pairs or its `answers` (one per reply)."""
    if proof is None:
        return None

    def keys(pairs: tuple[tuple[int, int], ...]) -> list[list[int]]:
        return [[a + 1, b + 1] for a, b in pairs]

    found: dict[str, object] = {"kind": proof.kind}
    if proof.kind == "fours":
        found["line"] = [cell + 1 for cell in proof.line]
    elif proof.kind == "pairing":
        found["reply"] = None if proof.reply is None else proof.reply + 1
        found["pairs"] = keys(proof.pairs)
        if proof.answers:
            found["answers"] = [
                {
                    "reply": reply + 1,
                    "answer": None if move is None else move + 1,
                    "pairs": keys(pairs),
                }
                for reply, move, pairs in proof.answers
            ]
        else:
            found["guard"] = keys(proof.guard)
    return found


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
        scores: dict[int, Scored] = {}
        for found in move_scores(board.geometry, me, them, search, cancelled, on_move):
            scores.update((scored.cell, scored) for scored in found)
        moves = verdicts(board.geometry, me, them, scores)
    return Analysis(board.to_string(), mover, status, moves)


def known_analysis(board: GameBoard, to_move: str | None = None) -> Analysis | None:
    """`analyse` without a search, for a caller that shows positions one after another (a
    replay): every move's verdict where all are known at once (3x3, the 5x5 opening), else
    None; on 6x6 `proven_analysis`."""
    if is_bounded(board.geometry):
        return proven_analysis(board, to_move)
    mover = side_to_move(board, to_move)
    status = status_of(board)
    if status != "in_progress":
        return Analysis(board.to_string(), mover, status, ())
    geometry = board.geometry
    me, them = board.masks_for(mover)
    cells = empty_cells(geometry, me, them)
    from tui_tictactoe.engine.known import (
        known_scores,  # on first use: a game's start needs no verdict
    )

    known = known_scores(geometry, me, them, cells)
    if len(known) < len(cells):
        return None
    scored = {cell: known_scored(geometry, cell, score) for cell, score in known.items()}
    return Analysis(board.to_string(), mover, status, verdicts(geometry, me, them, scored))


def proven_analysis(board: GameBoard, to_move: str | None = None) -> Analysis:
    """`analyse` without its search (6x6): what `move_scores` knows or proves at once
    (fours, pairings), every other move "unknown". Tens to hundreds of milliseconds a
    position (the pairings' node budgets bound it): a caller runs it off the UI thread."""
    mover = side_to_move(board, to_move)
    status = status_of(board)
    if status != "in_progress":
        return Analysis(board.to_string(), mover, status, ())
    geometry = board.geometry
    me, them = board.masks_for(mover)
    scores = {cell: Scored(cell, 0, None) for cell in empty_cells(geometry, me, them)}
    for found in move_scores(geometry, me, them, searched=False):
        scores.update((scored.cell, scored) for scored in found)
    return Analysis(board.to_string(), mover, status, verdicts(geometry, me, them, scores))


def move_scores(
    geometry: Geometry,
    me: int,
    them: int,
    search: MoveScorer | None = None,
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
    known: dict[int, int] | None = None,
    searched: bool = True,
) -> Iterator[tuple[Scored, ...]]:
    """The one path to the score of every move of a position in play (`me` to move), each
    with its proof: first, in one batch, every score the engine knows without searching
    (`known.known_scores`: the 3x3 table, the 5x5 book), then on 6x6 in one batch what is
    proven at once (`proven.proven_moves`: fours, pairings), then each other move's as
    `search` (the shared search of `geometry` unless given) finds it. `on_move` hears
    (move number, moves) before each search; `cancelled` stops one with `SearchCancelled`.
    `known`: the scores a caller has read already with `known_scores` (to show them at
    once), not yielded again. `searched=False`: no search, only the known and proven ones."""
    cells = empty_cells(geometry, me, them)
    if known is None:
        from tui_tictactoe.engine.known import (
            known_scores,  # on first use: a game's start needs no verdict
        )

        known = known_scores(geometry, me, them, cells)
        if known:
            yield tuple(
                known_scored(geometry, cell, known[cell]) for cell in cells if cell in known
            )
    rest = [cell for cell in cells if cell not in known]
    done = len(known)
    if rest and is_bounded(geometry):
        proven = _proven(geometry, me, them, rest, cancelled)
        if proven:
            yield proven
        found = {scored.cell for scored in proven}
        rest = [cell for cell in rest if cell not in found]
        done += len(proven)
    if searched:
        yield from _searched(geometry, me, them, rest, done, len(cells), search, cancelled, on_move)


def _proven(
    geometry: Geometry, me: int, them: int, cells: list[int], cancelled: Cancelled | None
) -> tuple[Scored, ...]:
    """6x6: the verdicts of `cells` proven at once (`proven.proven_moves`), reading order."""
    from tui_tictactoe.engine.proven import proven_moves

    if cancelled is not None and cancelled():
        raise SearchCancelled
    proven = proven_moves(geometry, me, them, cells)
    return tuple(Scored(cell, *proven[cell]) for cell in cells if cell in proven)


def _searched(
    geometry: Geometry,
    me: int,
    them: int,
    cells: list[int],
    done: int,
    total: int,
    search: MoveScorer | None,
    cancelled: Cancelled | None,
    on_move: OnMove | None,
) -> Iterator[tuple[Scored, ...]]:
    """Each of `cells` searched in turn (`done` moves scored before, of `total`)."""
    from tui_tictactoe.engine.proof import Proof

    scorer = search if search is not None or not cells else search_of(geometry)
    exact = not is_bounded(geometry)
    for number, cell in enumerate(cells, done + 1):
        if on_move is not None:
            on_move(number, total)
        assert scorer is not None
        score = scorer.move_score(me, them, cell, cancelled)
        proof = Proof("search") if exact or score else None
        yield (Scored(cell, score, proof),)


def known_scored(geometry: Geometry, cell: int, score: int) -> Scored:
    """A score the engine knows without searching, with what it rests on."""
    from tui_tictactoe.engine.known import SOLVED_CELLS
    from tui_tictactoe.engine.proof import Proof

    return Scored(cell, score, Proof("table" if geometry.cells <= SOLVED_CELLS else "book"))


def empty_cells(geometry: Geometry, me: int, them: int) -> list[int]:
    """The empty cells' indices, in reading order."""
    occupied = me | them
    return [cell for cell in range(geometry.cells) if not occupied >> cell & 1]


def verdicts(
    geometry: Geometry, me: int, them: int, scores: dict[int, Scored], done: bool = True
) -> tuple[MoveVerdict, ...]:
    """Each scored cell's verdict with its line of play (`principal.line_of_play`, or the
    proof's), in reading order; the best ones marked once `done` (every cell scored)."""
    from tui_tictactoe.engine.principal import line_of_play

    empties = geometry.cells - (me | them).bit_count()
    top = best_score(scores.values()) if done else None
    moves = []
    for cell, scored in sorted(scores.items()):
        verdict = verdict_of(scored, empties)
        if scored.proof is not None and scored.proof.line:
            line = scored.proof.line
        else:
            plies = None if verdict.outcome == "draw" else verdict.plies
            line = line_of_play(geometry, me, them, cell, plies)
        best = top is not None and scored.proof is not None and scored.score == top
        moves.append(MoveVerdict(geometry.coords(cell), verdict, best, line, scored.proof))
    return tuple(moves)


def verdict_of(scored: Scored, empties: int) -> Verdict:
    """A scored move's verdict; `empties`: the empty cells before it."""
    if scored.proof is None:
        return Verdict("unknown", empties)
    return Verdict.from_score(scored.score, empties)._replace(shortest=scored.shortest)


def best_score(scores: Iterable[Scored]) -> int | None:
    """The score the best moves have; None where no move is proven better than another:
    the best proven score is no win while some move is unknown (an unknown may be better
    than any draw). A proven win is best whatever the unknowns."""
    scores = list(scores)
    proven = [scored.score for scored in scores if scored.proof is not None]
    if not proven:
        return None
    top = max(proven)
    if top <= 0 and len(proven) < len(scores):
        return None
    return top
