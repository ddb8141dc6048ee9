"""`tui-tictactoe analyse BOARD`: read a board written on the command line, print every
legal move's verdict as text or JSON."""

from __future__ import annotations

import sys

from ..engine.analysis import Analysis, InvalidPosition, analyse
from ..engine.board import GameBoard
from ..engine.geometry import Geometry
from ..options import BOARDS, board_geometry
from .play_options import PROG, echo

SIZES = {int(board) ** 2: int(board) for board in BOARDS}
"""Cells -> board size: 9 cells make the 3x3 board, 16 the 4x4, 25 the 5x5."""

CELL_CHARACTERS = frozenset("XxOo. /")
QUOTE_LIMIT = 30  # characters of the board an error quotes: a 5x5 board with spaces is 29

HOW_TO_TYPE = (
    "type rows of X, O or '.' (empty), one after another or with one '/' or one "
    "space between rows: X.O.X...O, X.O/.X./..O or 'X.O .X. ..O'"
)
SPACED_ROWS = (
    "with spaces between rows, type 3 rows of 3 cells, 4 of 4 or 5 of 5, one space "
    "between rows and '.' for an empty cell (X.O .X. ..O)"
)

BOARD_RULES = (
    "BOARD holds the rows top to bottom: X or O (either case) for a mark, '.' for an empty "
    "cell; 9 cells make the 3x3 board, 16 the 4x4 and 25 the 5x5 (four in a row). Write the "
    "rows one after another (X.O.X...O), or with one '/' or one space between rows "
    "(X.O/.X./..O, 'X.O .X. ..O'). A space is an empty cell only where it cannot separate "
    "rows: in a board with '/' between rows, or one of exactly 9, 16 or 25 characters "
    "('X O.X. .O' is X.O.X...O); anywhere else spaces separate rows, so write empty "
    "cells as '.'."
)
"""The `analyse` epilog: how a board is read, spaces included."""


def board_from_text(text: str) -> GameBoard:
    """The board written in `text` (see BOARD_RULES), its size read from its number of
    cells; ValueError with a one-line reason that says what to type."""
    for index, char in enumerate(text):
        if char not in CELL_CHARACTERS:
            raise ValueError(
                f"bad character {char!r} at position {index + 1} of {_quote(text)}: {HOW_TO_TYPE}"
            )
    if "/" not in text and " " in text and len(text) not in SIZES:
        text = _rows_from_spaces(text)
    cells = len(text) - text.count("/")
    if cells not in SIZES:
        counts = ", ".join(str(count) for count in list(SIZES)[:-1]) + f" or {list(SIZES)[-1]}"
        raise ValueError(
            f"board must have {counts} cells, got {cells} in {_quote(text)}: {HOW_TO_TYPE}"
        )
    return GameBoard.from_string(text, board_geometry(SIZES[cells]))


def _rows_from_spaces(text: str) -> str:
    """`text`'s rows, separated by single spaces, joined with '/' instead; ValueError
    unless they are 3, 4 or 5 rows of as many cells."""
    rows = text.split(" ")
    if "" in rows:  # a space at either end, or right after another
        position = next(
            index + 1
            for index, char in enumerate(text)
            if char == " " and (index in (0, len(text) - 1) or text[index - 1] == " ")
        )
        raise ValueError(f"misplaced space at position {position} of {_quote(text)}: {SPACED_ROWS}")
    lengths = [len(row) for row in rows]
    if len(rows) in SIZES.values() and set(lengths) == {len(rows)}:
        return "/".join(rows)
    if len(rows) > max(SIZES.values()):
        found = f"{len(rows)} rows"
    elif len(set(lengths)) == 1:
        found = f"{len(rows)} rows of {lengths[0]} cells"
    else:
        found = f"rows of {', '.join(map(str, lengths[:-1]))} and {lengths[-1]} cells"
    raise ValueError(f"got {found} in {_quote(text)}: {SPACED_ROWS}")


def _quote(text: str) -> str:
    return echo(text, QUOTE_LIMIT)


def run_analyse(text: str, to_move: str | None, as_json: bool) -> int:
    try:
        board = board_from_text(text)
        result = analyse(board, to_move)
    except (InvalidPosition, ValueError) as error:
        print(f"{PROG} analyse: error: {error}", file=sys.stderr)
        return 2
    if as_json:
        import json  # only `analyse --json` needs it; the game starts without it

        print(json.dumps(result.to_json()))
    else:
        print(format_analysis(result, board.geometry))
    return 0


def format_analysis(result: Analysis, geometry: Geometry) -> str:
    board, size = result.board, geometry.size
    lines = [" ".join(board[row * size : (row + 1) * size]) for row in range(size)]
    if result.status != "in_progress":
        ending = "It's a draw." if result.status == "draw" else f"{result.status[0]} has won."
        return "\n".join([*lines, "", ending])
    lines += ["", f"{result.to_move} to move.", "key  row col  verdict"]
    for move in result.moves:
        row, col = move.cell
        marker = "  best" if move.best else ""
        key = geometry.key(row, col)
        lines.append(f"{key:>2}    {row + 1}   {col + 1}   {move.verdict!s:<10}{marker}".rstrip())
    best = ", ".join(
        f"{geometry.key(*cell)} (row {cell[0] + 1}, col {cell[1] + 1})" for cell in result.best
    )
    lines.append(f"Best: {best}")
    return "\n".join(lines)
