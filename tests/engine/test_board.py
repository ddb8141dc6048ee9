"""The board and the rules: moves, winners, outcome, copies, keys and text forms."""

from __future__ import annotations

from itertools import product
from typing import cast

import pytest

from tui_tictactoe.engine import EMPTY, STANDARD, GameBoard, IllegalMove, Outcome, geometry, other

Cell = tuple[int, int]

ALL_CELLS: list[Cell] = [(r, c) for r in range(3) for c in range(3)]

# The eight winning shapes, written out by hand rather than taken from the engine.
ROWS = [((r, 0), (r, 1), (r, 2)) for r in range(3)]
COLS = [((0, c), (1, c), (2, c)) for c in range(3)]
DIAGONAL = ((0, 0), (1, 1), (2, 2))
ANTI_DIAGONAL = ((0, 2), (1, 1), (2, 0))
LINES = [*ROWS, *COLS, DIAGONAL, ANTI_DIAGONAL]
LINE_IDS = [f"row{r}" for r in range(3)] + [f"col{c}" for c in range(3)] + ["diag", "anti"]


def board_of(rows: str) -> GameBoard:
    """A board from three '/'-separated rows, built by writing into game_board directly."""
    board = GameBoard()
    for r, row in enumerate(rows.split("/")):
        for c, char in enumerate(row):
            board.game_board[r][c] = EMPTY if char == "." else char
    return board


def snapshot(board: GameBoard) -> tuple[list[list[str]], tuple[Cell, ...]]:
    return [row[:] for row in board.game_board], board.moves


# -- a new board ---------------------------------------------------------------


def test_new_board_is_three_rows_of_three_empty_strings() -> None:
    board = GameBoard()
    assert board.game_board == [[" ", " ", " "], [" ", " ", " "], [" ", " ", " "]]
    assert board.get_empty_cells() == ALL_CELLS
    assert board.legal_moves() == ALL_CELLS
    assert not board.is_full()
    assert not board.is_winner("X") and not board.is_winner("O")
    assert board.winner() is None and board.winning_line() is None
    assert board.outcome() is None and not board.is_game_over()
    assert board.key() == (0, 0)
    assert board.moves == ()


def test_rows_are_independent_lists() -> None:
    board = GameBoard()
    board.game_board[0][0] = "X"
    assert board.game_board[1][0] == EMPTY and board.game_board[2][0] == EMPTY


# -- make_move -------------------------------------------------------------------


@pytest.mark.parametrize(("row", "col"), ALL_CELLS)
@pytest.mark.parametrize("symbol", ["X", "O"])
def test_make_move_places_the_symbol_on_every_cell(row: int, col: int, symbol: str) -> None:
    board = GameBoard()
    board.make_move(row, col, symbol)
    assert board.game_board[row][col] == symbol
    assert sum(cell != EMPTY for line in board.game_board for cell in line) == 1
    assert (row, col) not in board.get_empty_cells()
    assert board.moves == ((row, col),)


@pytest.mark.parametrize(
    ("row", "col"), [(-1, 0), (0, -1), (3, 0), (0, 3), (3, 3), (-1, -1), (10, 1), (1, 99)]
)
def test_off_board_cells_are_refused_and_nothing_changes(row: int, col: int) -> None:
    board = board_of("X../.O./...")
    board.make_move(2, 2, "X")
    before = snapshot(board)
    with pytest.raises(IllegalMove) as refused:
        board.make_move(row, col, "O")
    message = str(refused.value)
    assert refused.value.refusal == "off-board"
    assert "off the board" in message and "0 to 2" in message
    assert snapshot(board) == before


@pytest.mark.parametrize("taker", ["X", "O"])
@pytest.mark.parametrize("mover", ["X", "O"])
def test_occupied_cell_is_refused_and_nothing_changes(taker: str, mover: str) -> None:
    board = GameBoard()
    board.make_move(1, 1, taker)  # IllegalMove if refused
    before = snapshot(board)
    with pytest.raises(IllegalMove) as refused:
        board.make_move(1, 1, mover)
    message = str(refused.value)
    assert refused.value.refusal == "taken"
    assert "already taken" in message and taker in message
    assert snapshot(board) == before


@pytest.mark.parametrize("symbol", ["Z", "x", "o", "", " ", "XO", "0", None, 1])
def test_bad_symbol_is_refused_and_nothing_changes(symbol: object) -> None:
    board = GameBoard()
    with pytest.raises(IllegalMove, match="X or O") as refused:
        board.make_move(0, 0, symbol)  # type: ignore[arg-type]
    assert refused.value.refusal == "symbol"
    assert board == GameBoard() and board.moves == ()


@pytest.mark.parametrize(
    ("row", "col"), [("1", 1), (1, "1"), (1.0, 1), (1, 0.5), (None, 0), (True, 0), (0, False)]
)
def test_non_integer_cell_is_refused_with_its_own_reason(row: object, col: object) -> None:
    board = GameBoard()
    with pytest.raises(IllegalMove) as refused:
        board.make_move(row, col, "X")  # type: ignore[arg-type]
    message = str(refused.value)
    assert refused.value.refusal == "not-a-cell"
    assert "whole numbers" in message
    assert "off the board" not in message
    assert board == GameBoard() and board.moves == ()


def test_board_does_not_enforce_turn_order() -> None:
    board = GameBoard()
    board.make_move(0, 0, "X")  # IllegalMove if refused
    board.make_move(0, 1, "X")  # IllegalMove if refused  # X again
    board.make_move(2, 2, "O")  # IllegalMove if refused
    board.make_move(2, 1, "O")  # IllegalMove if refused
    board.make_move(2, 0, "O")  # IllegalMove if refused  # O three times, and it wins
    assert board.count("X") == 2 and board.count("O") == 3
    assert board.winner() == "O"


def test_no_legal_moves_after_a_win_but_empty_cells_remain() -> None:
    board = board_of("XXX/OO./...")
    assert board.legal_moves() == []
    assert board.get_empty_cells() == [(1, 2), (2, 0), (2, 1), (2, 2)]


# -- winners -------------------------------------------------------------------


@pytest.mark.parametrize("line", LINES, ids=LINE_IDS)
@pytest.mark.parametrize("symbol", ["X", "O"])
def test_every_winning_shape_wins_for_both_symbols(line: tuple[Cell, ...], symbol: str) -> None:
    board = GameBoard()
    for row, col in line:
        board.make_move(row, col, symbol)  # IllegalMove if refused
    # Two opponent marks off the line that do not make a line themselves.
    spare = [cell for cell in ALL_CELLS if cell not in line]
    for row, col in spare[:2]:
        board.make_move(row, col, other(symbol))
    assert board.is_winner(symbol)
    assert not board.is_winner(other(symbol))
    assert board.winner() == symbol
    assert board.is_game_over()
    winning = board.winning_line()
    assert winning is not None and sorted(winning) == sorted(line)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner == symbol and not outcome.is_draw
    assert outcome.line is not None and sorted(outcome.line) == sorted(line)
    assert str(outcome) == f"{symbol} wins"


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_is_winner_matches_the_hand_written_lines_for_every_set_of_cells(symbol: str) -> None:
    """All 512 ways to fill cells with one symbol: a win exactly when a whole line is held."""
    for filled in product([False, True], repeat=9):
        board = GameBoard()
        held = {cell for cell, on in zip(ALL_CELLS, filled, strict=True) if on}
        for row, col in held:
            board.game_board[row][col] = symbol
        expected = any(set(line) <= held for line in LINES)
        assert board.is_winner(symbol) is expected, held
        assert not board.is_winner(other(symbol))
        line = board.winning_line()
        if expected:
            assert (
                line is not None
                and set(line) <= held
                and tuple(sorted(line)) in {tuple(sorted(shape)) for shape in LINES}
            )
        else:
            assert line is None


@pytest.mark.parametrize(
    "rows", ["XX./.../...", "X../.X./...", "XX./X../...", ".X./X.X/.X.", "X.X/.../X.X"]
)
def test_shapes_that_are_not_lines_do_not_win(rows: str) -> None:
    board = board_of(rows)
    assert not board.is_winner("X")
    assert board.outcome() is None


# -- full board and draws ---------------------------------------------------


def test_full_board_without_a_line_is_a_draw() -> None:
    board = board_of("XOX/XOO/OXX")
    assert board.is_full()
    assert board.get_empty_cells() == [] and board.legal_moves() == []
    assert not board.is_winner("X") and not board.is_winner("O")
    outcome = board.outcome()
    assert outcome == Outcome(None)
    assert outcome is not None and outcome.is_draw and outcome.line is None
    assert str(outcome) == "draw"
    assert board.is_game_over()


def test_a_line_on_the_last_cell_is_a_win_not_a_draw() -> None:
    board = board_of("XOX/OXO/OX.")
    assert not board.is_full() and board.outcome() is None
    board.make_move(2, 2, "X")  # IllegalMove if refused
    assert board.is_full()
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == "X"
    assert outcome.line is not None and sorted(outcome.line) == sorted(DIAGONAL)


def test_is_full_needs_every_cell() -> None:
    board = GameBoard()
    for index, (row, col) in enumerate(ALL_CELLS):
        assert not board.is_full()
        board.game_board[row][col] = "XO"[index % 2]
    assert board.is_full()


# -- copy, key, undo, count --------------------------------------------------


def test_copy_is_equal_and_independent() -> None:
    board = GameBoard()
    board.make_move(0, 0, "X")
    board.make_move(1, 1, "O")
    clone = board.copy()
    assert clone == board and clone is not board
    assert clone.moves == board.moves
    clone.make_move(2, 2, "X")  # IllegalMove if refused
    before = board.moves  # named: mypy would take `board.moves` to stay this pair below
    assert board.game_board[2][2] == EMPTY and before == ((0, 0), (1, 1))
    board.make_move(0, 2, "O")  # IllegalMove if refused
    assert clone.game_board[0][2] == EMPTY
    clone.undo()
    clone.undo()
    assert board.moves == ((0, 0), (1, 1), (0, 2))
    assert board.game_board[1][1] == "O"


def test_key_is_the_x_and_o_bitmasks_in_reading_order() -> None:
    board = GameBoard()
    board.make_move(0, 0, "X")  # cell 0
    board.make_move(2, 2, "O")  # cell 8
    board.make_move(1, 2, "X")  # cell 5
    board.make_move(0, 1, "O")  # cell 1
    assert board.key() == ((1 << 0) | (1 << 5), (1 << 8) | (1 << 1))
    assert board.masks_for("X") == board.key()
    assert board.masks_for("O") == ((1 << 8) | (1 << 1), (1 << 0) | (1 << 5))


def test_key_is_hashable_and_distinguishes_positions() -> None:
    keys = set()
    for row, col in ALL_CELLS:
        for symbol in "XO":
            board = GameBoard()
            board.make_move(row, col, symbol)
            keys.add(board.key())
    assert len(keys) == 18


def test_key_reads_cells_written_directly() -> None:
    board = board_of(".X./O../..X")
    assert board.key() == ((1 << 1) | (1 << 8), 1 << 3)


def test_undo_takes_back_moves_in_reverse_order() -> None:
    board = GameBoard()
    states = [board.to_string()]
    for row, col, symbol in [(1, 1, "X"), (0, 0, "O"), (2, 2, "X")]:
        board.make_move(row, col, symbol)
        states.append(board.to_string())
    assert board.undo() == (2, 2)
    assert board.to_string() == states[2]
    assert board.undo() == (0, 0)
    assert board.undo() == (1, 1)
    assert board == GameBoard() and board.moves == ()
    with pytest.raises(IndexError):
        board.undo()


def test_undo_ignores_refused_moves() -> None:
    board = GameBoard()
    board.make_move(1, 1, "X")
    for row, col in ((1, 1), (5, 5)):
        with pytest.raises(IllegalMove):
            board.make_move(row, col, "O")
    assert board.undo() == (1, 1)
    with pytest.raises(IndexError):
        board.undo()


def test_count() -> None:
    board = board_of("XOX/.O./X..")
    assert board.count("X") == 3 and board.count("O") == 2 and board.count(EMPTY) == 4


def test_equality_compares_cells_and_boards_are_unhashable() -> None:
    assert board_of("X../.../...") == board_of("X../.../...")
    assert board_of("X../.../...") != board_of("O../.../...")
    assert GameBoard() != "........."
    with pytest.raises(TypeError):
        hash(GameBoard())


# -- text ----------------------------------------------------------------------


@pytest.mark.parametrize("text", [".........", "X...O....", "XOXOXOOXO", "XX.OO.X.."])
def test_from_string_and_to_string_round_trip(text: str) -> None:
    board = GameBoard.from_string(text)
    assert board.to_string() == text
    assert GameBoard.from_string(board.to_string()) == board
    for index, char in enumerate(text):
        row, col = divmod(index, 3)
        assert board.game_board[row][col] == (EMPTY if char == "." else char)


def test_from_string_accepts_row_separators_lowercase_and_spaces() -> None:
    expected = board_of("X.O/.X./O..")
    assert GameBoard.from_string("X.O/.X./O..") == expected
    assert GameBoard.from_string("x.o.x.o..") == expected
    assert GameBoard.from_string("X O X O  ") == expected


@pytest.mark.parametrize("text", ["", "........", "..........", "X.O.Z....", "X.O.-...."])
def test_from_string_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError):
        GameBoard.from_string(text)


def test_str_draws_the_grid() -> None:
    board = board_of("X.O/.X./O..")
    assert str(board) == (" X |   | O\n---+---+---\n   | X |  \n---+---+---\n O |   |  ")


def test_repr_rebuilds_the_board() -> None:
    board = board_of("X.O/.X./O..")
    assert repr(board) == "GameBoard.from_string('X.O.X.O..')"


# -- helpers -------------------------------------------------------------------


def test_other() -> None:
    assert other("X") == "O" and other("O") == "X"
    with pytest.raises(ValueError):
        other("Z")


def test_standard_geometry_has_the_eight_lines() -> None:
    cell_lines = {tuple(sorted(divmod(i, 3) for i in line)) for line in STANDARD.lines}
    assert cell_lines == {tuple(sorted(line)) for line in LINES}
    # Lines through each cell: 4 for the centre, 3 for corners, 2 for edges.
    through = [len(STANDARD.lines_through[i]) for i in range(9)]
    assert through == [3, 2, 3, 2, 4, 2, 3, 2, 3]


# -- one vocabulary for cells ---------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5])
def test_geometry_converts_between_cell_index_and_key(size: int) -> None:
    shape = geometry(size, min(size, 4))
    cells = shape.all_cells()
    assert cells == tuple((row, col) for row in range(size) for col in range(size))
    for index, (row, col) in enumerate(cells):
        assert shape.index(row, col) == index
        assert shape.coords(index) == (row, col)
        assert shape.key(row, col) == index + 1  # players count from 1, in reading order
        assert shape.cell_of_key(index + 1) == (row, col)
    for bad in (0, -1, size * size + 1):
        with pytest.raises(ValueError, match="cell keys go from 1"):
            shape.cell_of_key(bad)


def test_keys_of_the_standard_board_are_the_digits_in_reading_order() -> None:
    assert [STANDARD.key(*cell) for cell in STANDARD.all_cells()] == list(range(1, 10))
    assert STANDARD.cell_of_key(7) == (2, 0)


def test_a_geometry_is_a_value_equal_and_hashed_by_its_shape_and_never_changed() -> None:
    """Its line tables follow from its shape: they neither compare nor show."""
    import pickle

    from tui_tictactoe.engine.geometry import Geometry, geometry

    four = Geometry(4, 4)
    assert four == geometry(4, 4) and hash(four) == hash(geometry(4, 4))
    assert four != Geometry(4, 3) and four != cast(object, (4, 4))
    assert {four: 1}[geometry(4, 4)] == 1
    assert repr(four) == "Geometry(size=4, win_length=4)"
    assert pickle.loads(pickle.dumps(four)) == four
    assert pickle.loads(pickle.dumps(four)).line_masks == four.line_masks
    with pytest.raises(AttributeError):
        four.size = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del four.lines
    with pytest.raises(ValueError):
        Geometry(3, 4)


def test_a_refusal_is_one_of_the_words_its_literal_lists() -> None:
    """`Refusal` is a real `Literal`: a program can list the words a board refuses with."""
    from typing import get_args

    from tui_tictactoe.engine.board import Refusal

    moves: list[tuple[object, object, object]] = [(0, 0, "Z"), ("1", 1, "X"), (3, 0, "X")]
    board = GameBoard()
    board.make_move(1, 1, "X")
    refusals = []
    for row, col, symbol in [*moves, (1, 1, "O")]:
        with pytest.raises(IllegalMove) as refused:
            board.make_move(row, col, symbol)  # type: ignore[arg-type]
        refusals.append(refused.value.refusal)
    for keys in ([5, 10], [1, 4, 2, 5, 3, 6]):  # a key off the board, a move after a win
        with pytest.raises(IllegalMove) as refused:
            GameBoard.from_moves(board.geometry, "X", keys)
        refusals.append(refused.value.refusal)
    assert tuple(refusals) == get_args(Refusal)
