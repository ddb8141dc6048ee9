"""What the plain game prints, beside the status line's own words (`controller.status`):
the board as rows of numbers and marks, the prompt, the analysis as a list, the help, and
the review of a round (the plain game's and the plain room's `v`, `review_lines`).

Plain ASCII, so that a dumb terminal, a Latin-1 one and a screen reader all read the same
thing: the status line's typographic characters are spelled out (`ascii_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tui_tictactoe.controller import GameController
from tui_tictactoe.engine.analysis import Analysis
from tui_tictactoe.engine.board import EMPTY, Symbol
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.geometry import Geometry

TYPOGRAPHY = {"\u2026": "...", "\u00b7": "-", "\u2014": "-", "\u2013": "-"}
"""The status line's characters beyond ASCII, and what the plain game prints instead."""


def ascii_text(text: str) -> str:
    """`text` with the status line's typography in ASCII; anything else left to the
    output's error handler (a player's name may hold any letter)."""
    for fancy, plain in TYPOGRAPHY.items():
        text = text.replace(fancy, plain)
    return text


def board_rows(game: GameController) -> list[str]:
    """The board, one line per row: an empty cell shows its number (1 top-left, in
    reading order), a taken one its mark, each right-aligned to the widest number."""
    board = game.board
    geometry = board.geometry
    width = len(str(geometry.cells))
    rows = []
    for row in range(geometry.size):
        cells = []
        for col in range(geometry.size):
            mark = board.game_board[row][col]
            cells.append(str(geometry.key(row, col)) if mark == EMPTY else mark)
        rows.append("  ".join(cell.rjust(width) for cell in cells))
    return rows


QUIT_YES = ("y", "yes", "q", "quit")
"""The lines that answer the quit question yes; any other line only answers no."""

QUIT_PROMPT = "Quit? (q or y: yes; anything else: no):"
"""The prompt while the quit question stands: it says what it asks."""


def prompt(game: GameController) -> str:
    """What the player may type now, ending in a colon (on its own line, for scripts)."""
    cells = f"1-{game.board.geometry.cells}"
    if game.game_over or game.ai_error is not None:
        return "Round over (r new round, q quit, ? help):"
    if game.between_people:
        return f"{game.current_player.symbol} to move ({cells}, u undo, q quit, ? help):"
    return f"Your move ({cells}, h hint, a analysis, u undo, q quit, ? help):"


def score_line(game: GameController) -> str:
    score = game.score
    if game.between_people:
        tally = f"X {score.x}, O {score.o}"
    else:
        tally = f"you {score.human}, AI {score.ai}"
    return f"Score: {tally}, draws {score.draws}, abandoned {score.abandoned}."


def analysis_line(analysis: Analysis, geometry: Geometry) -> str:
    """Every empty cell's verdict for the side to move, in reading order:
    "Analysis for X: 1: draw, 5: win in 3 (best), ..."."""
    moves = sorted(analysis.moves, key=lambda move: move.cell)
    verdicts = ", ".join(
        f"{geometry.key(*move.cell)}: {move.verdict}" + (" (best)" if move.best else "")
        for move in moves
    )
    return f"Analysis for {analysis.to_move}: {verdicts}."


def help_lines(cells: int) -> list[str]:
    return [
        f"Type a cell's number (1-{cells}, 1 top-left, in reading order) to play there.",
        "h: a hint (a best move for you).",
        "a: analysis: every empty cell's verdict under perfect play.",
        "u: take back your last move (and the AI's reply).",
        "r: a new round (one left unfinished counts as abandoned).",
        REVIEW_HELP,
        "b: the board again. s: the score.",
        "q: quit (in the middle of a round it asks once).",
        "?: this help.",
    ]


REVIEW_HELP = "v: review the round once it is over: each move's verdict, its blunders."
"""`v` in the help of the plain game and of the plain room."""

REVIEW_LATER = "v reviews the round once it is over."
"""What `v` says mid-round, as the full-screen game's (`ui.screens.review_screen.REVIEW_LATER`:
the UI is above)."""

NO_MOVES = "No moves to review: the round ended before its first."
"""What `v` says of a room's round that ended before a move, as the room screen's
(`ui.screens.review_screen.NO_MOVES`)."""


def reviewing_line(geometry: Geometry, moves: int) -> str | None:
    """Said before a review that may take a while (a 4x4 or 5x5 one searches); None on 3x3,
    answered at once."""
    return f"Reviewing {counted(moves)}..." if geometry.cells > 9 else None


def counted(moves: int) -> str:
    """The count of moves in words, "1 move" or "5 moves": a room's round may end after its
    first (a player left)."""
    return f"{moves} move" if moves == 1 else f"{moves} moves"


def review_lines(
    geometry: Geometry,
    first: Symbol,
    keys: Sequence[int],
    name: str,
    cancelled: Cancelled | None = None,
) -> list[str]:
    """The review of the moves `keys` played from `first`, in `tui-tictactoe review`'s words
    (its formatter) under a heading that begins with `name` ("This round"). Blocking: a 4x4
    or 5x5 review searches for seconds; `SearchCancelled` once `cancelled` says so,
    `BadMoves` (a `ValueError`) for moves no game could have."""
    from tui_tictactoe.commands.review import format_review
    from tui_tictactoe.engine.review import review_moves

    review = review_moves(geometry, first, keys, cancelled)
    size = geometry.size
    heading = f"{name}: {size}x{size}, {first} first, {counted(len(keys))}"
    return format_review(review, heading).split("\n")
