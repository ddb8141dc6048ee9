"""End to end: the installed command in a real pseudo-terminal, played with keys only.

`pexpect` runs `tui-tictactoe` in an 80x24 pty (TERM=xterm-256color) and every
byte it writes is fed to a `pyte` terminal emulator, so the assertions read
the screen a user would see: the marks in the cells and the status line. No
fixed sleeps: every wait polls the emulated screen until a condition holds or
a deadline passes (then the test fails and prints the screen).

The board is located once, on the first frame, from the nine cell boxes;
afterwards each cell's interior is read at those coordinates. The pty, the
emulator and the waits live in `pty_terminal.py` (shared with the chaos test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from pty_terminal import START_TIMEOUT, STEP_TIMEOUT, Board, Cell, Terminal

RESULTS = ("You win with X!", "The AI wins with O.", "It's a draw.")
YOUR_TURN = "Your turn: you play X."


def status(term: Terminal) -> str:
    """The status line: the line under the board saying whose turn it is or the result."""
    for line in term.lines:
        stripped = line.strip()
        if any(result in stripped for result in RESULTS) or stripped.startswith(
            (
                "Your turn",
                "AI played",
                "AI is thinking",
                "Cell ",
                "The round is over",
                "Not your turn",
            )
        ):
            return stripped
    return ""


def shown_result(term: Terminal) -> str | None:
    shown = status(term)
    return next((result for result in RESULTS if result in shown), None)


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        term = Terminal(*args)
        started.append(term)
        term.wait_until(
            "the empty board, the centre focused and the human to move",
            lambda: YOUR_TURN in term.text and term.locate_board() and term.focused() == [(1, 1)],
            START_TIMEOUT,
        )
        assert term.board() == dict.fromkeys(term.cells, ""), term.text
        return term

    yield start
    for term in started:
        term.close()


def counts(board: Board) -> tuple[int, int]:
    marks = list(board.values())
    return marks.count("X"), marks.count("O")


def wait_for_reply(term: Terminal, before: Board, cell: Cell) -> Board:
    """After the human played `cell`: the X is there and the AI answered (or the round ended)."""
    xs, os_ = counts(before)

    def settled() -> bool:
        board = term.board()
        stray = [c for c in board if board[c] == "X" and not before[c] and c != cell]
        assert not stray, f"X landed on {stray[0]} instead of {cell}:\n{term.text}"
        if board[cell] != "X" or counts(board)[0] != xs + 1:
            return False
        # A frame can arrive in pieces: wait until the board agrees with the status line.
        replied = counts(board)[1] == os_ + 1
        result = shown_result(term)
        if result == "You win with X!":
            return not replied
        if result == "The AI wins with O.":
            return replied
        if result == "It's a draw.":
            return all(board.values())
        # The status must name the AI's new move: a status line left from the previous
        # turn ("AI played 3. Your turn...") can reach the screen after the board.
        (new,) = [c for c in board if board[c] == "O" and before[c] != "O"] if replied else [None]
        named = new is not None and status(term).startswith(f"AI played {new[0] * 3 + new[1] + 1}.")
        return replied and named and status(term).endswith(YOUR_TURN)

    term.wait_until(f"X at {cell} and the AI's reply", settled, STEP_TIMEOUT)
    after = term.board()
    changed = {c for c in after if after[c] != before[c]}
    assert cell in changed and len(changed) <= 2, (before, after)
    assert all(before[c] == "" for c in changed), "a mark was overwritten"
    return after


def test_full_round_with_digit_keys(terminal: Callable[..., Terminal]) -> None:
    term = terminal("--seed", "1", "--first", "human", "--difficulty", "hard")
    board = term.board()
    refused_once = False
    for digit in (5, 1, 2, 3, 4, 6, 7, 8, 9):
        if shown_result(term) is not None:
            break
        cell = divmod(digit - 1, 3)
        if board[cell]:
            continue
        term.send(str(digit))
        board = wait_for_reply(term, board, cell)
        if not refused_once and shown_result(term) is None:
            # Press a cell the AI has just taken: refused, and nothing changes.
            taken = next(c for c, mark in board.items() if mark == "O")
            term.send(str(taken[0] * 3 + taken[1] + 1))
            term.wait_for_text(f"Cell {taken[0] * 3 + taken[1] + 1} is already taken by O.")
            assert term.board() == board
            refused_once = True
    assert refused_once
    result = shown_result(term)
    assert result in ("The AI wins with O.", "It's a draw."), term.text  # hard never loses
    assert "You win" not in term.text
    xs, os_ = counts(board)
    assert xs - os_ in (0, 1)
    if result == "It's a draw.":
        assert xs + os_ == 9

    # After the round, a digit on a free cell is refused and changes nothing.
    free = [c for c, mark in board.items() if not mark]
    if free:
        row, col = free[0]
        term.send(str(row * 3 + col + 1))
        term.wait_for_text("No move: the round is over.")
        assert shown_result(term) == result  # the result stays above it
        assert term.board() == board
    assert term.quit() == 0


def path_to(cursor: Cell, target: Cell) -> list[str]:
    """Arrow keys that move the keyboard cursor from `cursor` to `target` on the grid."""
    (row, col), (to_row, to_col) = cursor, target
    vertical = ["down" if to_row > row else "up"] * abs(to_row - row)
    horizontal = ["right" if to_col > col else "left"] * abs(to_col - col)
    return vertical + horizontal


TARGETS = [(0, 0), (2, 2), (0, 2), (2, 0), (0, 1), (1, 0), (1, 2), (2, 1), (1, 1)]
"""Corners first, so the cursor walks across the board."""


def play_with_arrows(term: Terminal, burst: bool) -> None:
    board = term.board()
    cursor: Cell = (1, 1)  # the cursor starts in the centre (checked by the fixture)
    moves = 0
    for target in TARGETS:
        if shown_result(term) is not None:
            break
        if board[target]:
            continue
        keys = path_to(cursor, target)
        if target == (0, 0):
            keys += ["up", "left"]  # past the edge the cursor stays on the corner cell
        if burst:
            term.send(*keys, "enter")  # all in one write, as over SSH or tmux
        else:
            for key in keys:
                term.send(key)
                cursor = step(cursor, key)

                def focused(on: Cell = cursor) -> bool:
                    return term.focused() == [on]

                term.wait_until(f"focus on {cursor}", focused, 5)
            assert cursor == target
            term.send("enter")
        cursor = target
        board = wait_for_reply(term, board, target)
        moves += 1
    assert moves >= 3
    assert shown_result(term) in RESULTS, term.text
    assert term.quit() == 0


def step(cursor: Cell, key: str) -> Cell:
    drow, dcol = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[key]
    return min(max(cursor[0] + drow, 0), 2), min(max(cursor[1] + dcol, 0), 2)


def test_arrow_keys_and_enter_play_the_focused_cell(terminal: Callable[..., Terminal]) -> None:
    """Typed one at a time: each arrow moves the focus border, Enter plays that cell."""
    play_with_arrows(terminal("--seed", "2", "--first", "human", "--difficulty", "easy"), False)


def test_arrow_keys_and_enter_typed_in_a_burst(terminal: Callable[..., Terminal]) -> None:
    """The same keys arriving together (SSH, tmux, paste) must play the same cells."""
    play_with_arrows(terminal("--seed", "2", "--first", "human", "--difficulty", "easy"), True)
