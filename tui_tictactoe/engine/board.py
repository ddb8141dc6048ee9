"""The board and the rules: who has won, what moves are left.

`GameBoard.game_board` (rows of `"X"`, `"O"` or `" "`) is the single source of
truth, so a position set up by writing into it directly is still read right;
the compact key the search needs is derived from it on demand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import suppress
from typing import Literal, NamedTuple, TypeGuard

from tui_tictactoe.engine.geometry import STANDARD, Geometry

Symbol = Literal["X", "O"]
EMPTY = " "
SYMBOLS: tuple[Symbol, Symbol] = ("X", "O")
Cell = tuple[int, int]


def other(symbol: str) -> Symbol:
    """The opponent's symbol."""
    if symbol == "X":
        return "O"
    if symbol == "O":
        return "X"
    raise ValueError(f"unknown symbol {symbol!r}: use X or O")


Refusal = Literal["symbol", "not-a-cell", "off-board", "taken", "not-a-key", "game-over"]
"""Why a board refuses a move (`IllegalMove.refusal`)."""


class IllegalMove(ValueError):
    """A move the board refuses; the board is unchanged (python-chess's `IllegalMoveError`).

    `refusal` says why in a word a program can test; `str()` says it to a person, in
    the words made here and nowhere else."""

    def __init__(
        self, refusal: Refusal, row: object, col: object, symbol: object, detail: object = ""
    ) -> None:
        self.refusal: str = refusal
        self.cell = (row, col)
        self.symbol = symbol
        if refusal == "symbol":
            text = f"Unknown symbol {symbol!r}: use X or O."
        elif refusal == "not-a-cell":
            text = (
                f"Cell ({row!r}, {col!r}) is not on the board: "
                "row and column must be whole numbers."
            )
        elif refusal == "off-board":
            text = f"Cell ({row}, {col}) is off the board: row and column go from 0 to {detail}."
        elif refusal == "not-a-key":
            text = f"Move {row!r} is not a cell: cells go from 1 to {detail}."
        elif refusal == "game-over":
            text = f"Move {row!r} comes after the game is over."
        else:
            text = f"Cell ({row}, {col}) is already taken by {detail}."
        super().__init__(text)


class Outcome(NamedTuple):
    """How a finished game ended: a winner and the line, or a draw (winner None)."""

    winner: Symbol | None
    line: tuple[Cell, ...] | None = None

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def __str__(self) -> str:
        return "draw" if self.winner is None else f"{self.winner} wins"


class GameBoard:
    """A Tic-Tac-Toe board that knows its legal moves and its outcome.

    It does not enforce turn order (any symbol may go on an empty cell): taking
    turns is the controller's job, which lets tests and the analyser set up any
    position.
    """

    def __init__(self, geometry: Geometry = STANDARD) -> None:
        self.geometry = geometry
        size = geometry.size
        self.game_board: list[list[str]] = [[EMPTY] * size for _ in range(size)]
        self._history: list[Cell] = []

    # -- construction -------------------------------------------------------

    @classmethod
    def from_string(cls, text: str, geometry: Geometry = STANDARD) -> GameBoard:
        """Parse a board written as text; ValueError with a one-line reason otherwise.

        The accepted syntax, for a board of `size` x `size` cells (3 x 3: 9 cells):

        - a cell is `X` or `O` (either case) or an empty cell, written `.` or a space;
        - either exactly `size * size` cells in reading order (`X.O.X...O`), or exactly
          `size` rows of `size` cells with one `/` between rows (`X.O/.X./..O`):
          no `/` at either end, no `//`, and every row or none separated.

        Nothing else is accepted: no other character, no surrounding whitespace (a
        space is a cell). The error names the first bad character as typed (never
        upper-cased: `ß` stays `ß`) or the first misplaced or missing `/`, with its
        1-based position, and quotes at most the first ~40 characters of `text`.
        """
        size, cells = geometry.size, geometry.cells
        for index, char in enumerate(text):
            if char not in _CELL_CHARS and char != "/":
                raise ValueError(
                    f"bad character {char!r} at position {index + 1} of {_quote(text)}: {_SYNTAX}"
                )
        slashes = text.count("/")
        if len(text) - slashes != cells:
            raise ValueError(
                f"board must have {cells} cells, got {len(text) - slashes} in {_quote(text)}: "
                f"{_SYNTAX}"
            )
        if slashes:
            # The one form with slashes: `size` rows of `size` cells, one `/` between
            # every two rows. A '/' is in place when a whole number of rows comes
            # before it, at least one and not all, and no '/' right before it. A
            # misplaced '/' is reported first; else the first row end without one.
            seen = 0  # cells before the current character
            missing: int | None = None
            previous = ""
            for index, char in enumerate(text):
                if char == "/":
                    if seen % size or not 0 < seen < cells or previous == "/":
                        raise ValueError(
                            f"misplaced '/' at position {index + 1} of {_quote(text)}: {_ROWS}"
                        )
                else:
                    at_row_end = 0 < seen < cells and seen % size == 0
                    if at_row_end and previous != "/" and missing is None:
                        missing = index
                    seen += 1
                previous = char
            if missing is not None:
                raise ValueError(
                    f"missing '/' at position {missing + 1} of {_quote(text)}: {_ROWS}"
                )
        board = cls(geometry)
        index = 0
        for char in text:
            if char == "/":
                continue
            symbol = _CELL_CHARS[char]
            if symbol != EMPTY:
                row, col = geometry.coords(index)
                board.game_board[row][col] = symbol
            index += 1
        return board

    @classmethod
    def from_moves(cls, geometry: Geometry, first: str, keys: Iterable[object]) -> GameBoard:
        """The board after `keys` (cells as players call them, 1 to the geometry's `cells`),
        played in turn from `first`: the one replay of a kept game (a room, its rows, the
        record, a replay). `IllegalMove` at the first move the rules refuse: not a cell
        key, a taken cell, or any move once the game is over (`replay` keeps the moves
        before it instead)."""
        board = cls(geometry)
        for _ in board.play_keys(keys, first):
            pass
        return board

    @classmethod
    def replay(cls, geometry: Geometry, first: str, keys: Iterable[object]) -> GameBoard:
        """The board after the legal prefix of `keys`: the moves before the first that
        `from_moves` refuses (`moves` says how many), for a game from elsewhere that
        must be shown, never crash."""
        board = cls(geometry)
        with suppress(IllegalMove):
            for _ in board.play_keys(keys, first):
                pass
        return board

    def play_keys(self, keys: Iterable[object], first: str) -> Iterator[Cell]:
        """Play `keys` in turn from `first` on this board, yielding each cell once it is
        played (the caller may look at each position); `IllegalMove` at the first that
        `from_moves` refuses, the moves before it kept."""
        symbol = first
        for key in keys:
            if not _is_int(key) or not 1 <= key <= self.geometry.cells:
                raise IllegalMove("not-a-key", key, None, symbol, self.geometry.cells)
            if self.is_game_over():
                raise IllegalMove("game-over", key, None, symbol)
            row, col = self.geometry.cell_of_key(key)
            self.make_move(row, col, symbol)
            yield row, col
            symbol = other(symbol)

    def copy(self) -> GameBoard:
        clone = GameBoard(self.geometry)
        clone.game_board = [row[:] for row in self.game_board]
        clone._history = self._history[:]
        return clone

    # -- moves --------------------------------------------------------------

    def make_move(self, row: int, col: int, symbol: str) -> None:
        """Place `symbol`; on any problem raise `IllegalMove` and change nothing."""
        if symbol not in SYMBOLS:
            raise IllegalMove("symbol", row, col, symbol)
        if not (_is_int(row) and _is_int(col)):
            raise IllegalMove("not-a-cell", row, col, symbol)
        if not self.geometry.contains(row, col):
            raise IllegalMove("off-board", row, col, symbol, self.geometry.size - 1)
        taken = self.game_board[row][col]
        if taken != EMPTY:
            raise IllegalMove("taken", row, col, symbol, taken)
        self.game_board[row][col] = symbol
        self._history.append((row, col))

    def undo(self) -> Cell:
        """Take back the last move made with `make_move`; IndexError if there is none."""
        row, col = self._history.pop()
        self.game_board[row][col] = EMPTY
        return row, col

    @property
    def moves(self) -> tuple[Cell, ...]:
        """Moves made through `make_move`, oldest first."""
        return tuple(self._history)

    def get_empty_cells(self) -> list[Cell]:
        return [
            (r, c)
            for r, row in enumerate(self.game_board)
            for c, cell in enumerate(row)
            if cell == EMPTY
        ]

    def legal_moves(self) -> list[Cell]:
        """Empty cells while the game is on; none once someone has won."""
        return [] if self.winner() else self.get_empty_cells()

    # -- state --------------------------------------------------------------

    def key(self) -> tuple[int, int]:
        """Compact immutable key: the X and O bitmasks (bit i = cell i in reading order)."""
        x_mask = o_mask = 0
        bit = 1
        for row in self.game_board:
            for cell in row:
                if cell == "X":
                    x_mask |= bit
                elif cell == "O":
                    o_mask |= bit
                bit <<= 1
        return x_mask, o_mask

    def masks_for(self, symbol: str) -> tuple[int, int]:
        """(mine, theirs) bitmasks from `symbol`'s point of view."""
        x_mask, o_mask = self.key()
        return (x_mask, o_mask) if symbol == "X" else (o_mask, x_mask)

    def count(self, symbol: str) -> int:
        return sum(row.count(symbol) for row in self.game_board)

    def is_winner(self, symbol: str) -> bool:
        return self._line_of(symbol) is not None

    def winner(self) -> Symbol | None:
        """The symbol with a full line (X checked first if a hand-made board has two)."""
        for symbol in SYMBOLS:
            if self.is_winner(symbol):
                return symbol
        return None

    def winning_line(self) -> tuple[Cell, ...] | None:
        for symbol in SYMBOLS:
            line = self._line_of(symbol)
            if line is not None:
                return line
        return None

    def is_full(self) -> bool:
        return all(cell != EMPTY for row in self.game_board for cell in row)

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """The result if the game has ended, else None."""
        for symbol in SYMBOLS:
            line = self._line_of(symbol)
            if line is not None:
                return Outcome(symbol, line)
        if self.is_full():
            return Outcome(None)
        return None

    def _line_of(self, symbol: str) -> tuple[Cell, ...] | None:
        x_mask, o_mask = self.key()
        line = self.geometry.winning_line(x_mask if symbol == "X" else o_mask)
        if line is None:
            return None
        return tuple(self.geometry.coords(cell) for cell in line)

    # -- text ---------------------------------------------------------------

    def to_string(self) -> str:
        """Cells in reading order, `.` for empty: the inverse of `from_string`."""
        return "".join(cell if cell != EMPTY else "." for row in self.game_board for cell in row)

    def __str__(self) -> str:
        size = self.geometry.size
        rows = [" " + " | ".join(row) for row in self.game_board]
        rule = "\n" + "+".join(["---"] * size) + "\n"
        return rule.join(rows)

    def __repr__(self) -> str:
        return f"GameBoard.from_string({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameBoard):
            return NotImplemented
        return self.geometry == other.geometry and self.game_board == other.game_board

    __hash__ = None  # type: ignore[assignment]  # mutable: use key() for hashing


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# `from_string`'s vocabulary: each character a cell may be written as, and what it holds.
_CELL_CHARS = {"X": "X", "x": "X", "O": "O", "o": "O", ".": EMPTY, " ": EMPTY}
_SYNTAX = "cells are X, O or . (or a space), rows may be separated by / (X.O/.X./..O)"
_ROWS = "'/' goes between every two rows of cells, or nowhere (X.O/.X./..O)"
_QUOTE_LIMIT = 40


def _quote(text: str) -> str:
    """`text` quoted for an error message: repr (so control characters show as escapes),
    cut to about `_QUOTE_LIMIT` characters of input with an ellipsis."""
    if len(text) <= _QUOTE_LIMIT:
        return repr(text)
    return repr(text[: _QUOTE_LIMIT - 1]) + "…"
