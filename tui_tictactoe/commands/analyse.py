"""`tui-tictactoe analyse BOARD`: read a board written on the command line, print every
legal move's verdict as text or JSON."""

from __future__ import annotations

import sys

from ..engine.analysis import Analysis, InvalidPosition, analyse
from ..engine.board import GameBoard
from ..engine.geometry import Geometry
from ..options import BOARDS, board_geometry
from .play_options import PROG, echo


def board_from_text(text: str) -> GameBoard:
    """The board written in `text`, its size read from its number of cells (9, 16 or 25)."""
    cells = len(text) - text.count("/")
    sizes = {int(board) ** 2: int(board) for board in BOARDS}
    if cells in sizes:
        return GameBoard.from_string(text, board_geometry(sizes[cells]))
    try:
        GameBoard.from_string(text)  # a bad character or '/' is reported as such
    except ValueError as error:
        if not str(error).startswith("board must have"):
            raise
    counts = ", ".join(str(count) for count in list(sizes)[:-1]) + f" or {list(sizes)[-1]}"
    raise ValueError(f"board must have {counts} cells, got {cells} in {echo(text)}")


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
