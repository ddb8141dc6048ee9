"""Oracles for the searches, sharing nothing with the engine: brute force over the lines of
small endings, for the engine's tests and `analyse`'s."""

from __future__ import annotations

import random
from functools import cache

from tui_tictactoe.engine import (
    other,
)


@cache
def oracle_lines(size: int, length: int) -> frozenset[frozenset[tuple[int, int]]]:
    """Every run of `length` cells, as sets of (row, col), from the four directions."""
    runs: set[frozenset[tuple[int, int]]] = set()
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = [(row + d_row * k, col + d_col * k) for k in range(length)]
                if all(0 <= r < size and 0 <= c < size for r, c in run):
                    runs.add(frozenset(run))
    return frozenset(runs)


def oracle_wins(cells: str, size: int, length: int, symbol: str) -> bool:
    return any(
        all(cells[r * size + c] == symbol for r, c in run) for run in oracle_lines(size, length)
    )


@cache
def oracle_value(cells: str, size: int, length: int, mover: str) -> int:
    """Brute force: the engine's score convention, every move tried, no pruning."""
    empty = [i for i, char in enumerate(cells) if char == "."]
    best = -len(cells) - 1
    for index in empty:
        after = cells[:index] + mover + cells[index + 1 :]
        if oracle_wins(after, size, length, mover):
            score = len(empty)
        elif len(empty) == 1:
            score = 0
        else:
            score = -oracle_value(after, size, length, other(mover))
        best = max(best, score)
    return best


def masks(cells: str, mover: str) -> tuple[int, int]:
    me = sum(1 << i for i, char in enumerate(cells) if char == mover)
    them = sum(1 << i for i, char in enumerate(cells) if char == other(mover))
    return me, them


def random_ending(rng: random.Random, size: int, length: int, empties: int) -> tuple[str, str]:
    """A position of random play with `empties` cells left and no winner yet, and who moves."""
    while True:
        cells = ["."] * (size * size)
        order = rng.sample(range(size * size), size * size - empties)
        mover = "X"
        for index in order:
            cells[index] = mover
            mover = other(mover)
        text = "".join(cells)
        if not (oracle_wins(text, size, length, "X") or oracle_wins(text, size, length, "O")):
            return text, mover
