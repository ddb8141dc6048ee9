"""A round reviewed move by move: each move's verdict before and after it, and its blunders.

For every move of a round this says what the mover had (the verdict of a best move in the
position: "before") and what the move played kept ("after"), each with its line of play
(`principal.line_of_play`, or a proof's line on 6x6). A move that turned a win into a draw or
a loss, or a draw into a loss, is a **blunder**; a best move it could have played instead
"held" what it had.

No search of its own: the verdicts come from the engine's one path (`analysis`): every
move's verdict where the engine knows them at once (`analysis.known_analysis`: the 3x3
table, the 5x5 opening; on 6x6 `analysis.proven_analysis`, what is proven at once), else
the shared exact search (`strategies.search_of`) for two moves only: a best one
(`Search.best_move`, as a hint finds it) and the one played (`Search.move_score`, as
`analyse` scores it), which is several times faster than every move of a 5x5 position. On
6x6 a verdict nothing proves is "unknown": such a move is never a blunder, and a position
whose best is not proven (`analysis.best_score` None) has an unknown "before".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from tui_tictactoe.engine.analysis import (
    Analysis,
    MoveVerdict,
    Scored,
    Status,
    empty_cells,
    known_analysis,
    known_scored,
    proven_analysis,
    status_of,
    verdicts,
)
from tui_tictactoe.engine.board import GameBoard, Symbol, other
from tui_tictactoe.engine.cancel import Cancelled, SearchCancelled
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.solver import Outcome, Verdict

RANK: dict[Outcome, int] = {"loss": 0, "draw": 1, "win": 2}
"""Outcomes from worst to best for the mover; "unknown" has no rank (never a blunder)."""

OnMove = Callable[[int, int], None]
"""Told (move number, moves) before each move is judged."""


class ReviewedMove(NamedTuple):
    """One move of a round: who played which cell (an index in reading order), the verdict
    of a best move there (`best`, None where no move is proven best: 6x6) and of the move
    played (`played`), each with its line, this move first."""

    number: int  # 1: the round's first move
    symbol: Symbol
    cell: int
    empties: int  # empty cells before the move
    played: MoveVerdict
    best: MoveVerdict | None

    @property
    def before(self) -> Verdict:
        """What the mover had: a best move's verdict ("unknown" where none is proven)."""
        return self.best.verdict if self.best is not None else Verdict("unknown", self.empties)

    @property
    def after(self) -> Verdict:
        """What the move played kept."""
        return self.played.verdict

    @property
    def proven(self) -> bool:
        """Both verdicts are proven (never on 6x6's "unknown")."""
        return self.before.outcome in RANK and self.after.outcome in RANK

    @property
    def blunder(self) -> bool:
        """A win turned into a draw or a loss, or a draw into a loss: both verdicts proven."""
        return self.proven and RANK[self.after.outcome] < RANK[self.before.outcome]

    def held(self, geometry: Geometry) -> int | None:
        """The cell (its key, 1 top-left) that held what the mover had, where this move is
        a blunder; else None."""
        return geometry.key(*self.best.cell) if self.blunder and self.best is not None else None


def review_moves(
    geometry: Geometry,
    first: Symbol,
    keys: Sequence[int],
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
) -> Review:
    """The review of the moves `keys` (cell keys, 1 top-left) played in turn from `first`.
    `BadMoves` (a `ValueError`, one line) at the first move the rules refuse;
    `SearchCancelled` once `cancelled` says so."""
    moves = tuple(reviewed(geometry, first, keys, cancelled, on_move))
    board = GameBoard.from_moves(geometry, first, keys)
    return Review(geometry, first, tuple(keys), moves, status_of(board))


def reviewed(
    geometry: Geometry,
    first: Symbol,
    keys: Sequence[int],
    cancelled: Cancelled | None = None,
    on_move: OnMove | None = None,
) -> Iterator[ReviewedMove]:
    """Each move of `keys` judged in turn, as it is (a screen shows them as they come).
    The moves are checked whole first: `BadMoves` before any is judged."""
    problem = refusal(geometry, first, keys)
    if problem is not None:
        raise BadMoves(problem)
    board = GameBoard(geometry)
    mover = first
    for number, key in enumerate(keys, 1):
        if on_move is not None:
            on_move(number, len(keys))
        cell = geometry.index(*geometry.cell_of_key(key))
        yield judge(board, mover, cell, number, cancelled)
        board.make_move(*geometry.coords(cell), mover)
        mover = other(mover)


class BadMoves(ValueError):
    """Moves no game could have: its one line says the first and why (`refusal`)."""


def refusal(geometry: Geometry, first: Symbol, keys: Sequence[int]) -> str | None:
    """Why the moves `keys` cannot be reviewed, in one line naming the first bad one ("move
    3: cell 5 is taken"); None if every one is a legal move of a game in play."""
    board, mover = GameBoard(geometry), first
    for number, key in enumerate(keys, 1):
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= geometry.cells:
            size = geometry.size
            return f"move {number}: {key!r} is not a cell of {size}x{size} (1 to {geometry.cells})"
        if board.is_game_over():
            return f"move {number} (cell {key}) comes after the game is over"
        row, col = geometry.cell_of_key(key)
        if (row, col) not in board.legal_moves():
            return f"move {number}: cell {key} is taken"
        board.make_move(row, col, mover)
        mover = other(mover)
    return None


def judge(
    board: GameBoard, mover: Symbol, cell: int, number: int = 1, cancelled: Cancelled | None = None
) -> ReviewedMove:
    """`mover` playing `cell` (empty, the game in play) on `board`, judged."""
    geometry = board.geometry
    me, them = board.masks_for(mover)
    empties = geometry.cells - (me | them).bit_count()
    if cancelled is not None and cancelled():
        raise SearchCancelled
    if is_bounded(geometry):
        analysis: Analysis | None = proven_analysis(board, mover)
    else:
        analysis = known_analysis(board, mover)
    if analysis is None:  # 4x4, 5x5 past the opening: the exact search, for two moves
        played, best = _searched(geometry, me, them, cell, cancelled)
        return ReviewedMove(number, mover, cell, empties, played, best)
    by_cell = {geometry.index(*move.cell): move for move in analysis.moves}
    tops = [index for index, move in by_cell.items() if move.best]
    found: MoveVerdict | None = None
    if tops:
        found = by_cell[cell if cell in tops else tops[0]]
    return ReviewedMove(number, mover, cell, empties, by_cell[cell], found)


def _searched(
    geometry: Geometry, me: int, them: int, cell: int, cancelled: Cancelled | None
) -> tuple[MoveVerdict, MoveVerdict]:
    """(the move played, a best move), from what the engine knows at once (the 5x5 book's
    best cells and scores, `known`), else by the shared exact search."""
    from tui_tictactoe.engine.known import known_best, known_scores
    from tui_tictactoe.engine.proof import Proof
    from tui_tictactoe.engine.search import Search
    from tui_tictactoe.engine.strategies import search_of

    search = search_of(geometry)
    assert isinstance(search, Search)  # an exact board: 6x6 takes `proven_analysis`
    cells = empty_cells(geometry, me, them)
    known = known_scores(geometry, me, them, cells)
    scores = {one: known_scored(geometry, one, value) for one, value in known.items()}
    tops = [one for one in known_best(geometry, me, them, cells) if one in known]
    if tops:
        top = cell if cell in tops else tops[0]
    else:
        top, top_score = search.best_move(me, them, cancelled=cancelled)
        scores[top] = Scored(top, top_score, Proof("search"))
    if cell not in scores:
        scores[cell] = Scored(cell, search.move_score(me, them, cell, cancelled), Proof("search"))
    if scores[cell].score == scores[top].score:
        top = cell  # the move played was a best one
    chosen = {one: scores[one] for one in (top, cell)}
    moves = {
        geometry.index(*move.cell): move for move in verdicts(geometry, me, them, chosen, False)
    }
    return moves[cell]._replace(best=cell == top), moves[top]._replace(best=True)


class Review(NamedTuple):
    """A round's moves, each judged (`ReviewedMove`), and how the round stands after them."""

    geometry: Geometry
    first: Symbol
    keys: tuple[int, ...]
    moves: tuple[ReviewedMove, ...]
    status: Status

    @property
    def blunders(self) -> tuple[ReviewedMove, ...]:
        return tuple(move for move in self.moves if move.blunder)

    def to_json(self) -> dict[str, object]:
        """As `review --json` prints it: cells as the game numbers them (1 top-left)."""
        return {
            "board": self.geometry.size,
            "first": self.first,
            "moves": [move_json(move, self.geometry) for move in self.moves],
            "blunders": [move.number for move in self.blunders],
            "status": self.status,
        }


def verdict_json(verdict: Verdict) -> dict[str, object]:
    return {"outcome": verdict.outcome, "plies": verdict.plies, "shortest": verdict.shortest}


def move_json(move: ReviewedMove, geometry: Geometry) -> dict[str, object]:
    best = move.best
    return {
        "number": move.number,
        "symbol": move.symbol,
        "cell": move.cell + 1,
        "before": verdict_json(move.before),
        "after": verdict_json(move.after),
        "proven": move.proven,
        "blunder": move.blunder,
        "best": None if best is None else geometry.key(*best.cell),
        "held": move.held(geometry),
        "line": [cell + 1 for cell in move.played.line],
        "best_line": [] if best is None else [cell + 1 for cell in best.line],
        "sentence": sentence(move, geometry),
    }


def said(verdict: Verdict) -> str:
    """A verdict with its article: "a win in 3", "a draw", "a loss" (a line not the shortest)."""
    return f"a {verdict}"


def sentence(move: ReviewedMove, geometry: Geometry) -> str:
    """What a move did, in one line: "move 4 (cell 7) turned a draw into a loss in 5; cell 3
    held the draw" for a blunder, else "move 4 (cell 7) kept a draw" (or "was a best move"),
    and on 6x6 what is not proven said so."""
    head = f"move {move.number} (cell {move.cell + 1})"
    before, after = move.before, move.after
    if move.blunder and move.best is not None:
        held = geometry.key(*move.best.cell)
        return f"{head} turned {said(before)} into {said(after)}; cell {held} held the {before.outcome}"
    if after.outcome == "unknown":
        return f"{head}: not proven (nothing forced found)"
    if before.outcome == "unknown":
        return f"{head} led to {said(after)}; the best was not proven"
    if move.played.best:
        return f"{head} kept {said(after)}: a best move"
    best = "" if move.best is None else f"cell {geometry.key(*move.best.cell)}: "
    return f"{head} kept {said(after)} ({best}{said(before)})"
