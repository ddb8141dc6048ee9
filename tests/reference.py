"""A deliberately naive Tic-Tac-Toe solver, the yardstick the engine is checked against.

It shares nothing with the engine: boards are 9-character strings (`.` for empty),
the lines are written out by hand, and a position's value is found by trying every
move to the end of the game. Its only trick is a cache, which changes no answer.
Best play means: win as fast as possible, else draw, else lose as slowly as possible.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

Result = Literal["win", "draw", "loss"]
Value = tuple[Result, int]  # outcome for the side that moves, and moves left including this one

EMPTY_BOARD = "........."
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
FLIP: dict[Result, Result] = {"win": "loss", "loss": "win", "draw": "draw"}


def opponent(symbol: str) -> str:
    return "O" if symbol == "X" else "X"


def has_line(board: str, symbol: str) -> bool:
    return any(board[a] == board[b] == board[c] == symbol for a, b, c in LINES)


def is_terminal(board: str) -> bool:
    return has_line(board, "X") or has_line(board, "O") or "." not in board


def status(board: str) -> str:
    """The `analyse --json` status: X_wins, O_wins, draw or in_progress."""
    if has_line(board, "X"):
        return "X_wins"
    if has_line(board, "O"):
        return "O_wins"
    return "draw" if "." not in board else "in_progress"


def play(board: str, index: int, symbol: str) -> str:
    return board[:index] + symbol + board[index + 1 :]


def empties(board: str) -> list[int]:
    return [i for i, char in enumerate(board) if char == "."]


@cache
def move_value(board: str, index: int, mover: str) -> Value:
    """What playing `index` is worth to `mover` when both sides then play perfectly."""
    after = play(board, index, mover)
    if has_line(after, mover):
        return "win", 1
    if "." not in after:
        return "draw", 1
    result, plies = position_value(after, opponent(mover))
    return FLIP[result], plies + 1


def rank(value: Value) -> tuple[int, int]:
    """Order of preference: fast win > slow win > draw > slow loss > fast loss."""
    result, plies = value
    if result == "win":
        return 2, -plies
    if result == "draw":
        return 1, 0
    return 0, plies


@cache
def position_value(board: str, mover: str) -> Value:
    return max((move_value(board, i, mover) for i in empties(board)), key=rank)


def best_moves(board: str, mover: str) -> set[int]:
    best = rank(position_value(board, mover))
    return {i for i in empties(board) if rank(move_value(board, i, mover)) == best}


def reachable(first: str) -> dict[str, str]:
    """Every position of games that start with `first`, mapped to the side that would move next.

    Finished positions are included (mapped to the side that would have moved).
    """
    seen: dict[str, str] = {}
    frontier = [(EMPTY_BOARD, first)]
    while frontier:
        board, mover = frontier.pop()
        if board in seen:
            continue
        seen[board] = mover
        if not is_terminal(board):
            frontier.extend((play(board, i, mover), opponent(mover)) for i in empties(board))
    return seen
