"""Property-based tests: random move sequences and random boards keep the board consistent."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine import EMPTY, GameBoard, IllegalMove, other
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.options import BOARDS, board_geometry

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

orders = st.permutations(range(9))
first_symbols = st.sampled_from(["X", "O"])
boards_text = st.text(alphabet="XO.", min_size=9, max_size=9)


def cells_of(board: GameBoard) -> list[str]:
    return [cell for row in board.game_board for cell in row]


def has_line(cells: list[str], symbol: str) -> bool:
    return any(all(cells[i] == symbol for i in line) for line in LINES)


def recomputed_key(cells: list[str]) -> tuple[int, int]:
    x = sum(2**i for i, cell in enumerate(cells) if cell == "X")
    o = sum(2**i for i, cell in enumerate(cells) if cell == "O")
    return x, o


def check_consistent(board: GameBoard) -> None:
    cells = cells_of(board)
    x_count, o_count = cells.count("X"), cells.count("O")
    assert len(board.get_empty_cells()) + x_count + o_count == 9
    assert all(cells[r * 3 + c] == EMPTY for r, c in board.get_empty_cells())
    assert board.key() == recomputed_key(cells)
    assert board.is_winner("X") == has_line(cells, "X")
    assert board.is_winner("O") == has_line(cells, "O")
    assert board.is_full() == (EMPTY not in cells)
    outcome = board.outcome()
    if board.is_winner("X") or board.is_winner("O"):
        assert outcome is not None and outcome.winner is not None
        assert board.is_winner(outcome.winner)
        assert outcome.line is not None
        assert all(cells[r * 3 + c] == outcome.winner for r, c in outcome.line)
        assert board.legal_moves() == []
    elif board.is_full():
        assert outcome is not None and outcome.is_draw
    else:
        assert outcome is None
        assert board.legal_moves() == board.get_empty_cells()
    assert board.is_game_over() == (outcome is not None)
    assert GameBoard.from_string(board.to_string()) == board


def play_sequence(order: tuple[int, ...], first: str) -> tuple[GameBoard, list[GameBoard]]:
    """Alternate moves in `order` until the game ends; the board and a copy after each move."""
    board = GameBoard()
    history = [board.copy()]
    mover = first
    for index in order:
        if board.is_game_over():
            break
        board.make_move(*divmod(index, 3), mover)  # IllegalMove if refused
        history.append(board.copy())
        mover = other(mover)
    return board, history


@settings(max_examples=300, deadline=None)
@given(orders, first_symbols)
def test_random_games_keep_the_board_consistent(order: tuple[int, ...], first: str) -> None:
    board = GameBoard()
    mover = first
    played = []
    for index in order:
        if board.is_game_over():
            break
        board.make_move(*divmod(index, 3), mover)  # IllegalMove if refused
        played.append(divmod(index, 3))
        mover = other(mover)

        check_consistent(board)
        first_count, second_count = board.count(first), board.count(other(first))
        assert first_count - second_count in (0, 1)  # strict alternation
        assert not (board.is_winner("X") and board.is_winner("O"))
        assert list(board.moves) == played
    # The game ran until someone won or the board filled up, and no further.
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is not None:
        # The winner made the last move.
        row, col = board.moves[-1]
        assert board.game_board[row][col] == outcome.winner


@settings(max_examples=200, deadline=None)
@given(orders, first_symbols)
def test_undo_restores_every_earlier_position(order: tuple[int, ...], first: str) -> None:
    board, history = play_sequence(order, first)
    for earlier in reversed(history[:-1]):
        board.undo()
        assert board == earlier
        assert board.key() == earlier.key()
        assert board.moves == earlier.moves
        check_consistent(board)
    assert board == GameBoard()


@settings(max_examples=200, deadline=None)
@given(orders, first_symbols, st.integers(min_value=0, max_value=8))
def test_copies_are_independent(order: tuple[int, ...], first: str, stop: int) -> None:
    board, _ = play_sequence(order[:stop], first)
    clone = board.copy()
    before = board.to_string()
    for row, col in clone.get_empty_cells():
        clone.make_move(row, col, "X")
    assert board.to_string() == before
    while clone.moves:
        clone.undo()
    assert clone == GameBoard() and board.to_string() == before


@settings(max_examples=300, deadline=None)
@given(boards_text)
def test_any_board_text_round_trips_and_reads_consistently(text: str) -> None:
    """Boards not reachable in play (two winners, too many X) are still read right."""
    board = GameBoard.from_string(text)
    assert board.to_string() == text
    assert board.key() == recomputed_key(
        ["X" if c == "X" else "O" if c == "O" else " " for c in text]
    )
    check_consistent(board)


@settings(max_examples=300, deadline=None)
@given(
    boards_text,
    st.one_of(st.integers(min_value=-3, max_value=5), st.sampled_from(["1", 1.0, None])),
    st.integers(min_value=-3, max_value=5),
    st.sampled_from(["X", "O", "Z", "", "x"]),
)
def test_make_move_accepts_exactly_the_legal_placements(
    text: str, row: object, col: int, symbol: str
) -> None:
    board = GameBoard.from_string(text)
    before = board.to_string()
    legal = (
        type(row) is int
        and 0 <= row <= 2
        and 0 <= col <= 2
        and symbol in ("X", "O")
        and text[row * 3 + col] == "."
    )
    try:
        board.make_move(row, col, symbol)  # type: ignore[arg-type]
    except IllegalMove as refused:
        assert not legal and str(refused)  # refused with its reason
    else:
        assert legal
    if legal:
        assert isinstance(row, int)
        index = row * 3 + col
        assert board.to_string() == before[:index] + symbol + before[index + 1 :]
        assert board.moves == ((row, col),)
    else:
        assert board.to_string() == before and board.moves == ()


sizes = st.sampled_from(BOARDS)


@st.composite
def legal_games(draw: st.DrawFn) -> tuple[Geometry, str, list[int], GameBoard]:
    """A random game on a random board, played by `make_move` in turn until it ends or the
    order runs out: its geometry, who opened, its cell keys and the board it made."""
    geometry = board_geometry(draw(sizes))
    first = draw(first_symbols)
    order = draw(st.permutations(range(1, geometry.cells + 1)))
    length = draw(st.integers(0, geometry.cells))
    board, keys, mover = GameBoard(geometry), [], first
    for key in order[:length]:
        if board.is_game_over():
            break
        board.make_move(*geometry.cell_of_key(key), mover)
        keys.append(key)
        mover = other(mover)
    return geometry, first, keys, board


@settings(max_examples=200, deadline=None)
@given(legal_games())
def test_a_legal_game_replays_to_the_same_board(
    game: tuple[Geometry, str, list[int], GameBoard],
) -> None:
    geometry, first, keys, board = game
    for replayed in (
        GameBoard.from_moves(geometry, first, keys),
        GameBoard.replay(geometry, first, keys),
    ):
        assert replayed == board and replayed.moves == board.moves
        assert replayed.outcome() == board.outcome()


@settings(max_examples=200, deadline=None)
@given(legal_games(), st.data())
def test_an_illegal_move_at_k_raises_or_leaves_the_legal_prefix(
    game: tuple[Geometry, str, list[int], GameBoard], data: st.DataObject
) -> None:
    """A move the rules refuse at position k: `from_moves` raises `IllegalMove` saying why,
    `replay` keeps the k moves before it, whatever follows."""
    geometry, first, keys, board = game
    bad: object
    if board.is_game_over():
        bad = data.draw(st.integers(1, geometry.cells), label="after the end")
        refusal = "game-over"
    else:
        choices: list[st.SearchStrategy[object]] = [
            st.sampled_from([0, geometry.cells + 1, -1, True, "5", 2.0, None])
        ]
        if keys:
            choices.append(st.sampled_from(keys))
        bad = data.draw(st.one_of(choices), label="bad move")
        refusal = "taken" if bad in keys and type(bad) is int else "not-a-key"
    rest = data.draw(st.lists(st.integers(1, geometry.cells), max_size=4), label="after it")
    moves = [*keys, bad, *rest]
    with pytest.raises(IllegalMove) as refused:
        GameBoard.from_moves(geometry, first, moves)
    assert refused.value.refusal == refusal and str(refused.value)
    prefix = GameBoard.replay(geometry, first, moves)
    assert prefix == board and len(prefix.moves) == len(keys)
