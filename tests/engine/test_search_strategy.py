"""The AI on 4x4 and 5x5 through the public API, and the 5x5 opening book against the search."""

from __future__ import annotations

import random

import pytest

from tui_tictactoe.engine import (
    AIPlayer,
    Decision,
    GameBoard,
    MinimaxStrategy,
    Search,
    Verdict,
    geometry,
    strategy_for,
    symmetries,
    transform,
)
from tui_tictactoe.engine.opening_book import BOOK

G4 = geometry(4, 4)
G5 = geometry(5, 4)


def board_of(rows: str, shape: object) -> GameBoard:
    return GameBoard.from_string(rows, shape)  # type: ignore[arg-type]


@pytest.mark.parametrize(("size", "length"), [(3, 3), (4, 4), (5, 4)])
def test_ai_player_finds_a_move_on_every_board_size(size: int, length: int) -> None:
    board = GameBoard(geometry(size, length))
    board.make_move(0, 0, "X")
    cell = AIPlayer("O", MinimaxStrategy(rng=random.Random(1))).find_best_move(board)
    assert cell in board.get_empty_cells()
    assert board.moves == ((0, 0),)  # the board is not modified


def test_perfect_ai_takes_the_win_and_blocks_on_5x5() -> None:
    # X to move: X wins on row 0 at (0, 3); O threatens column 4 at (3, 4).
    board = board_of("XXX.O/....O/....O/...../.....", G5)
    assert AIPlayer("X", MinimaxStrategy(rng=random.Random(0))).find_best_move(board) == (0, 3)
    board = board_of("XX..O/X...O/....O/...../.....", G5)  # X cannot win now: must block
    assert AIPlayer("X", MinimaxStrategy(rng=random.Random(0))).find_best_move(board) == (3, 4)


def test_last_decision_on_a_big_board_reports_the_search() -> None:
    strategy = MinimaxStrategy(rng=random.Random(4), search=Search(G4))
    board = board_of("X.../.O../..../....", G4)
    cell = strategy.find_best_move(board, "X")
    decision = strategy.last_decision
    assert isinstance(decision, Decision)
    assert decision.move == cell
    assert decision.verdict == Verdict("draw", 14)
    assert decision.positions_searched > 0
    assert decision.plain_nodes is None  # too many to count on 4x4
    assert decision.depth is None and decision.seconds >= 0


def count_plain(cells: list[str], mover: str, depth: int, size: int, lines: list[list[int]]) -> int:
    """Nodes of a plain minimax `depth` plies deep, finished leaves counted (no engine code)."""
    nodes = 1
    empty = [i for i, char in enumerate(cells) if char == "."]
    for index in empty:
        cells[index] = mover
        won = any(all(cells[i] == mover for i in line) for line in lines)
        if won or depth == 1 or len(empty) == 1:
            nodes += 1
        else:
            nodes += count_plain(cells, "O" if mover == "X" else "X", depth - 1, size, lines)
        cells[index] = "."
    return nodes


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_short_horizons_work_on_5x5_and_count_their_plain_tree(difficulty: str) -> None:
    board = board_of("XXX../OO.../O..../...../.....", G5)
    strategy = strategy_for(difficulty, random.Random(0))
    assert strategy.find_best_move(board, "X") == (0, 3)  # both see their own win
    decision = strategy.last_decision
    assert decision is not None and decision.depth == strategy.depth
    assert decision.verdict == Verdict("win", 1)
    lines = [
        [(r * 5 + c) + k * (dr * 5 + dc) for k in range(4)]
        for r in range(5)
        for c in range(5)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        if 0 <= r + 3 * dr < 5 and 0 <= c + 3 * dc < 5
    ]
    assert strategy.depth is not None
    expected = count_plain(list(board.to_string()), "X", strategy.depth, 5, lines)
    assert decision.plain_nodes == expected


def test_medium_blocks_on_4x4_and_easy_does_not_look() -> None:
    board = board_of("OOO./X.../X.../....", G4)  # X to move: O wins at (0, 3)
    blocks = {strategy_for("medium", random.Random(s)).find_best_move(board, "X") for s in range(8)}
    assert blocks == {(0, 3)}
    easy = {strategy_for("easy", random.Random(s)).find_best_move(board, "X") for s in range(40)}
    assert len(easy) > 1  # it sees no difference between the cells


def test_3x3_api_keeps_its_table_path() -> None:
    strategy = MinimaxStrategy(rng=random.Random(1))
    strategy.find_best_move(GameBoard(), "X")
    decision = strategy.last_decision
    assert decision is not None and decision.plain_nodes == 549_946


# -- the 5x5 opening book ------------------------------------------------------------------


def test_perfect_ai_opens_5x5_from_the_book() -> None:
    strategy = MinimaxStrategy(rng=random.Random(0), search=Search(G5))
    cell = strategy.find_best_move(GameBoard(G5), "X")
    decision = strategy.last_decision
    assert decision is not None and decision.positions_searched == 0
    assert decision.verdict == Verdict("draw", 25)
    assert cell in GameBoard(G5).get_empty_cells()


def unpack(key: int) -> tuple[int, int]:
    return key & G5.full_mask, key >> G5.cells


def test_book_keys_are_canonical_and_moves_legal() -> None:
    search = Search(G5)
    assert BOOK, "the book is empty: run benchmarks/build_opening_book.py"
    for key, (_, moves) in BOOK.items():
        me, them = unpack(key)
        assert search.canonical(me, them)[:2] == (me, them)
        assert moves and all(not (me | them) >> move & 1 for move in moves)


def test_book_covers_every_position_the_ai_can_meet() -> None:
    """The AI follows the book; the opponent plays anywhere: every AI turn is in the book."""
    deepest = max((me | them).bit_count() for me, them in map(unpack, BOOK))
    search = Search(G5)

    def lookup(me: int, them: int) -> tuple[int, ...]:
        for perm in symmetries(5):
            key = transform(me, perm) | transform(them, perm) << G5.cells
            if key in BOOK:
                back = [0] * G5.cells
                for cell, target in enumerate(perm):
                    back[target] = cell
                return tuple(back[move] for move in BOOK[key][1])
        raise AssertionError(f"position {me}, {them} is not in the book")

    starts = [(0, 0)] + [(0, 1 << cell) for cell in range(G5.cells)]
    frontier = list(starts)
    met = 0
    while frontier:
        me, them = frontier.pop()
        met += 1
        for move in lookup(me, them):
            mine = me | 1 << move
            if (mine | them).bit_count() + 1 > deepest:
                continue
            for reply in range(G5.cells):
                if not (mine | them) >> reply & 1:
                    frontier.append((me | 1 << move, them | 1 << reply))
    assert met > len(BOOK)  # symmetric copies were met too
    assert search.canonical(0, 0)[:2] == (0, 0)


def test_a_sample_of_book_entries_agrees_with_the_search() -> None:
    """Exact score and a best move, re-derived by the search (the cheaper, deeper entries)."""
    rng = random.Random(12)
    stones = {key: (unpack(key)[0] | unpack(key)[1]).bit_count() for key in BOOK}
    deep = sorted(key for key in BOOK if stones[key] >= 3)
    shallow = sorted(key for key in BOOK if stones[key] in (1, 2))
    search = Search(G5)
    for key in rng.sample(deep, 16) + rng.sample(shallow, 2):
        me, them = unpack(key)
        score, moves = BOOK[key]
        assert search.value(me, them) == score, key
        for move in moves:
            assert search.move_score(me, them, move) == score, (key, move)
