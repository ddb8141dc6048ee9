"""Players and strategies: who plays what, the board left untouched, seeds, invalid input."""

from __future__ import annotations

import random

import pytest
from textbook_search import plain_minimax

from tui_tictactoe.engine import (
    AIPlayer,
    Decision,
    GameBoard,
    HumanPlayer,
    IllegalMove,
    MinimaxStrategy,
    MoveStrategy,
    NodeCounter,
    Player,
    RandomStrategy,
    Solver,
    Verdict,
    other,
)
from tui_tictactoe.engine.cancel import Cancelled
from tui_tictactoe.engine.strategies import HasSymbol

Cell = tuple[int, int]

# Positions in play, some with turn order that no real game has (the AI plays them anyway).
BOARDS = [".........", "X........", "....X...O", "XX.OO....", "XO..X....", "XOXOXO...", "XXOO....."]
FINISHED = ["XXXOO....", "OOOXX.X..", "XOXXOOOXX", "X..X..X.."]


def strategies(seed: int = 0) -> list[MoveStrategy]:
    return [
        MinimaxStrategy(rng=random.Random(seed)),
        MinimaxStrategy(depth=1, rng=random.Random(seed)),
        MinimaxStrategy(depth=2, rng=random.Random(seed)),
        RandomStrategy(random.Random(seed)),
    ]


STRATEGY_IDS = ["perfect", "depth1", "depth2", "random"]


# -- players -------------------------------------------------------------------


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_human_player_places_its_own_symbol(symbol: str) -> None:
    board = GameBoard()
    human = HumanPlayer(symbol)
    assert human.symbol == symbol
    human.make_move(board, 1, 2)
    assert board.game_board[1][2] == symbol
    with pytest.raises(IllegalMove, match="already taken"):
        human.make_move(board, 1, 2)
    assert board.moves == ((1, 2),)


@pytest.mark.parametrize("cls", [HumanPlayer, AIPlayer])
@pytest.mark.parametrize("symbol", ["Z", "x", "", None])
def test_players_refuse_unknown_symbols(cls: type[Player], symbol: object) -> None:
    with pytest.raises(ValueError):
        cls(symbol)  # type: ignore[arg-type]


def test_ai_player_defaults_to_perfect_minimax() -> None:
    ai = AIPlayer("O")
    assert isinstance(ai.strategy, MinimaxStrategy)
    assert ai.strategy.depth is None
    assert repr(ai) == "AIPlayer('O')"


@pytest.mark.parametrize("text", BOARDS)
@pytest.mark.parametrize("symbol", ["X", "O"])
@pytest.mark.parametrize("index", range(4), ids=STRATEGY_IDS)
def test_find_best_move_returns_an_empty_cell_and_leaves_the_board_alone(
    text: str, symbol: str, index: int
) -> None:
    board = GameBoard.from_string(text)
    board.make_move(*board.get_empty_cells()[-1], "O")  # some history to keep, too
    rows_before = board.game_board
    before = ([row[:] for row in board.game_board], board.moves, board.key())
    cell = AIPlayer(symbol, strategies()[index]).find_best_move(board)
    assert cell in board.get_empty_cells()
    assert board.game_board is rows_before
    assert ([row[:] for row in board.game_board], board.moves, board.key()) == before


def test_ai_plays_for_its_own_symbol_on_whatever_board_it_is_given() -> None:
    # X X . / O O . / . . .  Each side has its own winning cell, whoever "should" move.
    board = GameBoard.from_string("XX.OO....")
    assert AIPlayer("X").find_best_move(board) == (0, 2)
    assert AIPlayer("O").find_best_move(board) == (1, 2)


def test_custom_strategy_plugs_into_ai_player() -> None:
    class FirstEmpty(MoveStrategy):
        def find_best_move(
            self, board: GameBoard, player: HasSymbol | str, cancelled: Cancelled | None = None
        ) -> Cell:
            return board.get_empty_cells()[0]

    board = GameBoard.from_string("XO.......")
    assert AIPlayer("X", FirstEmpty()).find_best_move(board) == (0, 2)


def test_move_strategy_is_abstract() -> None:
    with pytest.raises(TypeError):
        MoveStrategy()  # type: ignore[abstract]

    class Incomplete(MoveStrategy):
        pass

    with pytest.raises(TypeError):
        Incomplete()  # type: ignore[abstract]


# -- invalid input -----------------------------------------------------------------


@pytest.mark.parametrize("text", FINISHED)
@pytest.mark.parametrize("index", range(4), ids=STRATEGY_IDS)
@pytest.mark.parametrize("symbol", ["X", "O"])
def test_finished_board_is_a_value_error(text: str, index: int, symbol: str) -> None:
    board = GameBoard.from_string(text)
    with pytest.raises(ValueError, match="over"):
        strategies()[index].find_best_move(board, symbol)
    with pytest.raises(ValueError):
        AIPlayer(symbol, strategies()[index]).find_best_move(board)
    assert board.to_string() == text


@pytest.mark.parametrize("index", range(4), ids=STRATEGY_IDS)
@pytest.mark.parametrize("symbol", ["Z", "x", "", "XO"])
def test_unknown_symbol_is_a_value_error(index: int, symbol: str) -> None:
    with pytest.raises(ValueError, match="symbol"):
        strategies()[index].find_best_move(GameBoard(), symbol)


@pytest.mark.parametrize("depth", [0, -1])
def test_depth_must_be_positive(depth: int) -> None:
    with pytest.raises(ValueError):
        MinimaxStrategy(depth=depth)


def test_strategy_accepts_a_player_or_a_symbol() -> None:
    board = GameBoard.from_string("XX.OO....")
    strategy = MinimaxStrategy()
    assert strategy.find_best_move(board, "O") == (1, 2)
    assert strategy.find_best_move(board, HumanPlayer("O")) == (1, 2)


# -- perfect play and seeds ---------------------------------------------------------


def play_out(x: MoveStrategy, o: MoveStrategy, first: str = "X") -> GameBoard:
    board = GameBoard()
    mover = first
    strategy = {"X": x, "O": o}
    while not board.is_game_over():
        row, col = strategy[mover].find_best_move(board, mover)
        board.make_move(row, col, mover)  # IllegalMove if refused
        mover = other(mover)
    return board


@pytest.mark.parametrize("first", ["X", "O"])
def test_perfect_against_perfect_is_always_a_draw(first: str) -> None:
    for seed in range(20):
        board = play_out(
            MinimaxStrategy(rng=random.Random(seed)),
            MinimaxStrategy(rng=random.Random(seed + 100)),
            first,
        )
        outcome = board.outcome()
        assert outcome is not None and outcome.is_draw


def test_same_seed_same_game() -> None:
    games = set()
    for _ in range(3):
        board = play_out(
            MinimaxStrategy(rng=random.Random(5)), MinimaxStrategy(rng=random.Random(6))
        )
        games.add(board.moves)
    assert len(games) == 1


def test_seeded_choice_is_repeatable_and_seeds_differ_where_moves_tie() -> None:
    # Every opening draws under perfect play, so all nine cells tie on the empty board.
    board = GameBoard()
    first_moves = {
        seed: AIPlayer("X", MinimaxStrategy(rng=random.Random(seed))).find_best_move(board)
        for seed in range(40)
    }
    for seed, cell in first_moves.items():
        assert AIPlayer("X", MinimaxStrategy(rng=random.Random(seed))).find_best_move(board) == cell
    assert len(set(first_moves.values())) >= 5


def test_no_seed_changes_a_forced_move() -> None:
    board = GameBoard.from_string("XX..O....")  # O must block at (0, 2)
    for seed in range(30):
        assert MinimaxStrategy(rng=random.Random(seed)).find_best_move(board, "O") == (0, 2)


def test_random_strategy_covers_every_empty_cell_and_only_those() -> None:
    board = GameBoard.from_string("X.O.X.O..")
    rng = random.Random(3)
    seen = {RandomStrategy(rng).find_best_move(board, "X") for _ in range(200)}
    assert seen == set(board.get_empty_cells())


# -- what the reasoning panel reads ---------------------------------------------------


def test_last_decision_describes_the_move_just_chosen() -> None:
    strategy = MinimaxStrategy(rng=random.Random(1), solver=Solver())
    assert strategy.last_decision is None
    board = GameBoard.from_string("XO..X....")  # O must block at (2, 2); it loses in 4 anyway
    cell = strategy.find_best_move(board, "O")
    decision = strategy.last_decision
    assert isinstance(decision, Decision)
    assert decision.move == cell == (2, 2)
    assert decision.verdict == Verdict("loss", 4)
    assert decision.depth is None
    assert decision.positions_searched > 0  # a fresh solver had to search
    assert decision.seconds >= 0
    # The plain minimax below this position, counted by running it.
    counter = NodeCounter()
    plain_minimax(*board.masks_for("O"), counter=counter)
    assert decision.plain_nodes == counter.nodes

    strategy.find_best_move(board, "O")
    again = strategy.last_decision
    assert again is not None and again.positions_searched == 0  # all from memory now


def test_last_decision_of_a_shortsighted_level_records_its_depth() -> None:
    strategy = MinimaxStrategy(depth=2, rng=random.Random(1))
    strategy.find_best_move(GameBoard.from_string("XX..O...."), "O")
    decision = strategy.last_decision
    assert decision is not None
    assert decision.depth == 2 and decision.move == (0, 2)
    assert decision.positions_searched > 0
