"""`tui-tictactoe analyse BOARD`: read a board written on the command line, print every
legal move's verdict as text or JSON."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from tui_tictactoe.commands.play_arguments import PROG, echo
from tui_tictactoe.engine.analysis import Analysis, InvalidPosition, MoveVerdict, analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.options import BOARDS, board_geometry

SIZES = {int(board) ** 2: int(board) for board in BOARDS}
"""Cells -> board size: 9 cells make the 3x3 board, 16 the 4x4, 25 the 5x5, 36 the 6x6."""

UNPROVEN = 'no move is proven better (6x6 is not solved: a verdict shown "unknown" is unproven)'
"""What `Best:` says on a board where no move is proven better (`analysis.best_score`)."""

CELL_CHARACTERS = frozenset("XxOo. /")
QUOTE_LIMIT = 41  # characters of the board an error quotes: a 6x6 board with spaces is 41

HOW_TO_TYPE = (
    "type rows of X, O or '.' (empty), one after another or with one '/' or one "
    "space between rows: X.O.X...O, X.O/.X./..O or 'X.O .X. ..O'"
)
SPACED_ROWS = (
    "with spaces between rows, type 3 rows of 3 cells, 4 of 4, 5 of 5 or 6 of 6, one space "
    "between rows and '.' for an empty cell (X.O .X. ..O)"
)


def board_from_text(text: str) -> GameBoard:
    """The board written in `text` (see `cli.BOARD_RULES`), its size read from its number of
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
    unless they are 3, 4, 5 or 6 rows of as many cells."""
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


class Progress:
    """'analysing move 3 of 25… 4 s' on a terminal's stderr, rewritten in place once an
    analysis has run for `DELAY` seconds, cleared at the end, then how long it took.

    Only on a terminal: a pipe or a file (a script, a log) gets nothing, and stdout never
    does, so `--json` stays one clean object. `poll` is handed to the search as its
    `cancelled` callback, which it calls every few milliseconds: it never cancels, it
    only keeps the display current without a thread.
    """

    DELAY = 1.0

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.enabled = _is_terminal(stream)
        self.width = _width(stream) if self.enabled else 0
        self.move = (0, 0)
        self.shown = ""

    def on_move(self, number: int, moves: int) -> None:
        self.move = (number, moves)
        self.poll()

    def poll(self) -> bool:
        """Redraw the line if what it says has changed; always False (never cancels)."""
        if not self.enabled:
            return False
        elapsed = self.clock() - self.start
        if elapsed < self.DELAY or not self.move[0]:
            return False
        number, moves = self.move
        text = f"analysing move {number} of {moves}… {elapsed:.0f} s"[: self.width]
        if text != self.shown:
            self._write("\r" + text.ljust(len(self.shown)))
            self.shown = text
        return False

    def clear(self) -> None:
        """Rub the line out (spaces, not escape sequences: any terminal understands them)."""
        if self.shown:
            self._write("\r" + " " * len(self.shown) + "\r")
            self.shown = ""

    def finish(self, moves: int) -> None:
        """After a long analysis, say how long it took (the line cleared first)."""
        self.clear()
        elapsed = self.clock() - self.start
        if self.enabled and elapsed >= self.DELAY:
            self._write(f"analysed {moves} moves in {elapsed:.1f} s\n")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _width(stream: TextIO) -> int:
    """Columns the progress line may use: one short of the terminal's width, so writing
    it never wraps (a wrapped line cannot be rewritten with a carriage return)."""
    try:
        return max(os.get_terminal_size(stream.fileno()).columns - 1, 1)
    except (AttributeError, ValueError, OSError):
        return 79


def run_analyse(text: str, to_move: str | None, as_json: bool, proof: bool = False) -> int:
    progress = Progress(sys.stderr)
    try:
        board = board_from_text(text)
        result = analyse(board, to_move, cancelled=progress.poll, on_move=progress.on_move)
    except (InvalidPosition, ValueError) as error:
        progress.clear()
        print(f"{PROG} analyse: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        progress.clear()
        print(f"{PROG} analyse: interrupted", file=sys.stderr)
        return 130
    progress.clear()  # before the answer, which may go to the same terminal
    if as_json:
        import json  # only `analyse --json` needs it; the game starts without it

        print(json.dumps(result.to_json(board.geometry)))
    else:
        print(format_analysis(result, board.geometry, proof))
    sys.stdout.flush()  # the board first, then (on stderr) how long it took
    progress.finish(len(result.moves))
    return 0


def format_analysis(result: Analysis, geometry: Geometry, proof: bool = False) -> str:
    """The board, each move's verdict and line of play, the best moves; with `proof` each
    move's proof under it (`proof_lines`)."""
    board, size = result.board, geometry.size
    lines = [" ".join(board[row * size : (row + 1) * size]) for row in range(size)]
    if result.status != "in_progress":
        ending = "It's a draw." if result.status == "draw" else f"{result.status[0]} has won."
        return "\n".join([*lines, "", ending])
    # A cell by its number, as the game draws it in every empty cell and names it in
    # every message ("AI played 15", "Hint: cell 6"); its row and column beside it.
    lines += ["", f"{result.to_move} to move.", "cell  row col  verdict     line"]
    width = max((len(line_text(move.line)) for move in result.moves), default=0)
    for move in result.moves:
        row, col = move.cell
        marker = "  best" if move.best else ""
        cell = geometry.key(row, col)
        played = line_text(move.line).ljust(width)
        lines.append(
            f"{cell:>4}  {row + 1:>3} {col + 1:>3}  {move.verdict!s:<10}  {played}{marker}".rstrip()
        )
        if proof:
            lines += ["      " + text for text in proof_lines(result, geometry, move)]
    best = ", ".join(
        f"cell {geometry.key(*cell)} (row {cell[0] + 1}, col {cell[1] + 1})" for cell in result.best
    )
    lines.append(f"Best: {best or UNPROVEN}")
    return "\n".join(lines)


def line_text(line: tuple[int, ...]) -> str:
    """A line of play by cell numbers: "5, 1, 9"."""
    return ", ".join(str(cell + 1) for cell in line)


def proof_lines(result: Analysis, geometry: Geometry, move: MoveVerdict) -> list[str]:
    """What proves `move`'s verdict, for a reader to check by hand: the forcing line, or
    the pairings drawn as small boards (a pair's two cells the same letter)."""
    found = move.proof
    if found is None:
        return ["unproven: nothing forced was found within the bound"]
    mover = result.to_move
    them = "O" if mover == "X" else "X"
    if found.kind == "fours":
        attacker = mover if move.verdict.outcome == "win" else them
        return [
            f"forced: {line_text(found.line)} (each move of {attacker} makes a four or five;"
            " every answer is forced)"
        ]
    if found.kind != "pairing":
        return [f"by the {PROOF_WORDS[found.kind]}"]
    index = geometry.index(*move.cell)
    after = result.board[:index] + mover + result.board[index + 1 :]
    theirs = after
    if found.reply is not None:
        theirs = after[: found.reply] + them + after[found.reply + 1 :]
    reply = "" if found.reply is None else f" after its reply {found.reply + 1}"
    out = [f"{them}'s pairs{reply}: every line {mover} could still fill holds one of them;"]
    out.append(f"whenever {mover} takes one cell of a pair, {them} takes the other:")
    out += pairs_board(theirs, geometry, found.pairs)
    if found.answers:
        out.append(
            f"and {mover} cannot lose: for each of {them}'s {len(found.answers)} replies an"
            " answer and pairs from the shipped openings (in --json)"
        )
    else:
        out.append(f"{mover}'s own pairs, so {them} cannot win either:")
        out += pairs_board(after, geometry, found.guard)
    return out


PROOF_WORDS = {"table": "solved table", "book": "opening book", "search": "exact search"}


def pairs_board(board: str, geometry: Geometry, pairs: tuple[tuple[int, int], ...]) -> list[str]:
    """The board with each pair's two cells as one letter (A A, B B, ...), stones as X and O,
    other empty cells as '.'."""
    cells = list(board)
    for number, (a, b) in enumerate(sorted(pairs)):
        letter = PAIR_LETTERS[number]
        cells[a] = cells[b] = letter
    size = geometry.size
    return ["  " + " ".join(cells[row * size : (row + 1) * size]) for row in range(size)]


PAIR_LETTERS = "ABCDEFGHIJKLMNPQRSTUVWYZ"
"""A pair's letter: no O (a stone's mark); 6x6 pairings hold at most 18 pairs."""
