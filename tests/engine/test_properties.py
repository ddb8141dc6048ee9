"""Property-based tests: random move sequences and random boards keep the board consistent."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.engine import EMPTY, GameBoard, IllegalMove, other

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
