"""GameController: turns, who starts, refused moves, stale AI replies, rounds, the tally, hints."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import cast

import pytest
from controller_tools import ai_moves, ai_reply, requested

from tui_tictactoe.controller import AIReply, GameController, GameOptions, MoveRefused, Score
from tui_tictactoe.engine import (
    STANDARD,
    GameBoard,
    MinimaxStrategy,
    MoveStrategy,
    Player,
    RandomStrategy,
    strategy_for,
)
from tui_tictactoe.engine.board import Cell, IllegalMove, Symbol
from tui_tictactoe.engine.strategies import HasSymbol
from tui_tictactoe.options import Side


class Scripted(MoveStrategy):
    """Plays the first still-empty cell of a fixed list: a predictable AI for scripted rounds."""

    def __init__(self, cells: Sequence[int]) -> None:
        self.cells = [STANDARD.coords(i) for i in cells]

    def find_best_move(
        self, board: GameBoard, player: HasSymbol | str, cancelled: object = None
    ) -> Cell:
        return next(cell for cell in self.cells if cell in board.get_empty_cells())


def state(
    controller: GameController,
) -> tuple[str, tuple[Cell, ...], Player, int, int, Score]:
    return (
        controller.board.to_string(),
        controller.board.moves,
        controller.current_player,
        controller.round,
        controller.generation,
        controller.score,
    )


def play_round(controller: GameController, human: Sequence[int]) -> str | None:
    """Play human cells (reading-order indexes) in turn, the AI answering, until the round ends."""
    moves = iter(human)
    while not controller.game_over:
        if controller.is_human_turn:
            controller.play_human_move(*STANDARD.coords(next(moves)))  # MoveRefused if refused
        else:
            ai_moves(controller)
    return controller.result


# Scripts with the human as X moving first and a Scripted AI as O.
HUMAN_WINS = ([0, 1, 2], [3, 4])  # X takes the top row
AI_WINS = ([0, 1, 8], [3, 4, 5])  # O takes the middle row
DRAW = ([0, 8, 7, 2, 3], [4, 1, 6, 5])  # X 0 8 7 2 3 / O 4 1 6 5: no line for either


def scripted(
    human_first_ai_cells: Sequence[int], rng: random.Random | None = None, **options: object
) -> GameController:
    strategy = Scripted(human_first_ai_cells)
    return GameController(GameOptions(**options), rng, strategy)  # type: ignore[arg-type]


# -- setting up ------------------------------------------------------------------


@pytest.mark.parametrize("human_symbol", ["X", "O"])
@pytest.mark.parametrize("first", ["human", "ai"])
def test_either_symbol_and_either_side_first(human_symbol: Symbol, first: Side) -> None:
    controller = GameController(GameOptions(symbol=human_symbol, first=first), rng=random.Random(0))
    ai_symbol = "O" if human_symbol == "X" else "X"
    assert controller.human_symbol == human_symbol and controller.ai_symbol == ai_symbol
    assert controller.starter == first
    assert controller.is_human_turn is (first == "human")
    assert controller.is_ai_turn is (first == "ai")
    assert controller.current_player is (controller.human if first == "human" else controller.ai)

    rng = random.Random(1)
    while not controller.game_over:
        if controller.is_human_turn:
            controller.play_human_move(*rng.choice(controller.board.get_empty_cells()))
        else:
            ai_moves(controller)
    # The starter's symbol went first and the symbols alternated.
    starter_symbol = human_symbol if first == "human" else ai_symbol
    symbols = [controller.board.game_board[r][c] for r, c in controller.board.moves]
    assert symbols[0] == starter_symbol
    assert all(a != b for a, b in pairwise(symbols))
    # The hard AI never loses, whoever starts.
    outcome = controller.outcome
    assert outcome is not None and outcome.winner != human_symbol


@pytest.mark.parametrize(
    "kwargs",
    [
        {"first": "nobody"},
        {"difficulty": "impossible"},
        {"symbol": "Z"},
        {"symbol": "x"},
    ],
)
def test_invalid_setup_is_a_value_error(kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        GameController(GameOptions(**kwargs))  # type: ignore[arg-type]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_difficulty_selects_the_named_strategy(difficulty: str) -> None:
    controller = GameController(GameOptions(difficulty=difficulty))
    assert controller.difficulty == difficulty
    assert controller.minimax is not None
    assert controller.minimax.depth == strategy_for(difficulty).depth


def test_custom_strategy_is_used_and_is_not_minimax() -> None:
    strategy = RandomStrategy(random.Random(0))
    controller = GameController(strategy=strategy)
    assert controller.strategy is strategy
    assert controller.minimax is None


# -- turns -----------------------------------------------------------------------


def test_the_turn_passes_with_each_move() -> None:
    controller = GameController(rng=random.Random(0))
    first = controller.current_player  # named: mypy would keep it the human's below
    assert first is controller.human
    controller.play_human_move(1, 1)
    second = controller.current_player
    assert second is controller.ai
    assert controller.is_ai_turn and not controller.is_human_turn
    assert controller.apply(ai_reply(controller))
    assert controller.current_player is controller.human


def test_human_move_passes_the_turn() -> None:
    controller = GameController(rng=random.Random(0))
    controller.play_human_move(1, 1)  # MoveRefused if refused
    assert controller.board.game_board[1][1] == "X"
    assert controller.is_ai_turn


def test_human_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    before = state(controller)
    with pytest.raises(MoveRefused, match=r"(?i)not your turn"):
        controller.play_human_move(0, 0)
    assert state(controller) == before


def test_invalid_human_move_is_refused_and_the_turn_stays() -> None:
    controller = GameController(rng=random.Random(0))
    controller.play_human_move(0, 0)  # MoveRefused if refused
    ai_moves(controller)
    taken = controller.board.moves[-1]
    before = state(controller)
    number = STANDARD.key(*taken)  # the key that plays the cell
    refusals = [(*taken, f"Cell {number} is already taken by O."), (3, 0, "off the board")]
    for row, col, reason in refusals:
        with pytest.raises(IllegalMove, match=re.escape(reason)):
            controller.play_human_move(row, col)
        assert state(controller) == before
        assert controller.is_human_turn


def test_ai_move_on_the_humans_turn_is_refused() -> None:
    controller = GameController()
    assert controller.ai_request() is None
    before = state(controller)
    # Current generation, empty cell: only the turn stops it.
    assert not controller.apply(AIReply(controller.generation, (0, 0)))
    assert state(controller) == before
    assert controller.ai_error is None and controller.is_human_turn


def test_invalid_ai_move_is_refused_and_stops_the_round_with_the_reason() -> None:
    controller = GameController(GameOptions(first="ai"))
    before = state(controller)
    assert controller.apply(AIReply(controller.generation, (9, 9)))  # current: it is judged
    assert controller.ai_error is not None and "illegal move" in controller.ai_error
    assert "off the board" in controller.ai_error
    assert state(controller)[:4] == before[:4]  # no mark, no turn passed, same round
    assert controller.generation > before[4]  # the position's meaning changed: stale now
    assert not controller.is_ai_turn and controller.ai_request() is None
    with pytest.raises(MoveRefused, match="illegal move"):
        controller.play_human_move(0, 0)


# -- the AI's move, computed elsewhere -----------------------------------------------


def test_ai_request_is_a_tagged_copy() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    request = requested(controller)
    assert request.generation == controller.generation
    assert request.board == controller.board and request.board is not controller.board
    request.board.make_move(0, 0, "O")
    assert controller.board == GameBoard()


def test_computing_a_request_changes_nothing() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    before = state(controller)
    request = requested(controller)
    assert request.compute().move in controller.board.get_empty_cells()
    assert state(controller) == before and controller.is_ai_turn


@pytest.mark.parametrize("alternate", [False, True])
def test_stale_ai_move_after_a_new_round_is_rejected(alternate: bool) -> None:
    controller = GameController(GameOptions(first="ai", alternate=alternate), rng=random.Random(0))
    reply = ai_reply(controller)
    controller.new_round()  # the player resets while the AI is thinking
    before = state(controller)
    assert not controller.apply(reply)
    assert state(controller) == before
    assert controller.board == GameBoard()
    if not alternate:
        # The AI starts the new round too, so the stale move would have been legal:
        # only the generation stops it. The same move for a fresh request lands.
        assert controller.is_ai_turn
        fresh = requested(controller)
        assert controller.apply(AIReply(fresh.generation, reply.move))
        assert reply.move is not None and controller.board.moves == (reply.move,)


def test_request_computes_a_reply_that_lands_once() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    request = requested(controller)
    assert request is not None
    reply = request.compute()
    assert reply.generation == request.generation and reply.error is None
    assert reply.move in controller.board.get_empty_cells()
    assert controller.apply(reply)
    row, col = reply.move
    assert controller.board.game_board[row][col] == controller.ai_symbol
    assert controller.board.count(controller.ai_symbol) == 1
    assert controller.is_human_turn
    assert controller.ai_request() is None  # nothing to ask on the human's turn
    before = state(controller)
    assert not controller.apply(reply)  # the same reply twice: stale now
    assert state(controller) == before


@pytest.mark.parametrize("change", ["new_round", "new_game", "human_move"])
def test_a_reply_to_an_earlier_position_changes_nothing(change: str) -> None:
    """Whatever happened since the request (a reset, a new game, any move), its reply is dropped."""
    controller = GameController(
        GameOptions(first="ai"), rng=random.Random(0), strategy=Scripted([4, 0, 1])
    )
    request = requested(controller)
    if change == "new_round":
        controller.new_round()
    elif change == "new_game":
        controller.new_game(controller.options)
    else:
        assert controller.apply(request.compute())
        controller.play_human_move(2, 2)  # MoveRefused if refused
        assert controller.apply(requested(controller).compute())
    before = state(controller)
    # The stale reply would be legal on the new board: only its generation stops it.
    empty = controller.board.get_empty_cells()[0]
    assert not controller.apply(AIReply(request.generation, empty))
    assert not controller.apply(AIReply(request.generation, None, "boom"))
    assert state(controller) == before
    assert controller.ai_error is None


def test_a_failed_or_illegal_reply_stops_the_round_with_the_reason() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    request = requested(controller)
    assert controller.apply(AIReply(request.generation, None, "ValueError: no"))
    assert controller.ai_error == "ValueError: no"
    assert not controller.is_ai_turn and controller.ai_request() is None
    with pytest.raises(MoveRefused, match="ValueError: no"):
        controller.play_human_move(0, 0)
    controller.new_round()
    assert controller.ai_error is None and controller.is_ai_turn
    controller.board.make_move(0, 0, "O")  # a position made by hand, the AI's (O's) turn:
    controller.board.make_move(1, 1, "X")
    controller.generation += 1  # the test plays the UI's part
    request = requested(controller)
    assert controller.apply(AIReply(request.generation, (1, 1)))
    assert controller.ai_error is not None and "already taken" in controller.ai_error


def test_a_strategy_that_raises_is_reported_in_the_reply() -> None:
    class Broken(MoveStrategy):
        def find_best_move(
            self, board: GameBoard, player: HasSymbol | str, cancelled: object = None
        ) -> Cell:
            raise RuntimeError("bug")

    controller = GameController(GameOptions(first="ai"), strategy=Broken())
    reply = requested(controller).compute()
    assert reply.move is None and reply.error == "RuntimeError: bug"


def test_new_game_starts_over_in_place_and_keeps_the_rng_and_the_strategy() -> None:
    strategy = Scripted([4, 0, 1])
    rng = random.Random(3)
    controller = scripted(HUMAN_WINS[1], rng=rng)
    play_round(controller, HUMAN_WINS[0])
    assert controller.score == Score(human=1)
    options = GameOptions(symbol="O", first="ai", difficulty="easy", alternate=True)
    controller.new_game(options)
    assert controller.options == options
    assert (controller.human_symbol, controller.ai_symbol) == ("O", "X")
    assert controller.score == Score() and controller.round == 1
    assert controller.is_ai_turn and controller.board == GameBoard()
    assert controller.rng is rng
    plain = GameController(strategy=strategy)
    plain.new_game(GameOptions(difficulty="easy"))
    assert plain.strategy is strategy  # an injected strategy outlives new games
    fresh = GameController(GameOptions(difficulty="hard"))
    fresh.new_game(GameOptions(difficulty="easy"))
    assert fresh.minimax is not None and fresh.minimax.depth == 1
    assert fresh.minimax.rng is fresh.rng


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (GameOptions(symbol="x"), "symbol"),  # type: ignore[arg-type]
        (GameOptions(first="nobody"), "first"),  # type: ignore[arg-type]
        (GameOptions(difficulty="impossible"), "difficulty"),
        (GameOptions(alternate="yes"), "alternate"),  # type: ignore[arg-type]
        (GameOptions(difficulty="9" * 5000), "difficulty"),
    ],
)
def test_bad_options_are_refused_once_with_a_short_reason(options: GameOptions, named: str) -> None:
    controller = GameController()
    before = state(controller), controller.options
    with pytest.raises(ValueError, match=f"^{named} must be") as error:
        controller.new_game(options)
    assert len(str(error.value)) < 120
    assert (state(controller), controller.options) == before


def test_every_allowed_option_value_starts_a_game() -> None:
    from itertools import product

    from tui_tictactoe.controller import CHOICES

    for values in product(
        CHOICES["symbol"], CHOICES["first"], CHOICES["difficulty"], (False, True)
    ):
        controller = GameController()
        controller.new_game(GameOptions(*values))  # type: ignore[arg-type]
        assert controller.options[:4] == values  # the board (5th) keeps its default, 3


# -- game over -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "expected_message", "expected_score"),
    [
        (HUMAN_WINS, "You win with X!", Score(human=1)),
        (AI_WINS, "The AI wins with O.", Score(ai=1)),
        (DRAW, "It's a draw.", Score(draws=1)),
    ],
    ids=["human-wins", "ai-wins", "draw"],
)
def test_round_result_message_and_tally(
    script: tuple[list[int], list[int]], expected_message: str, expected_score: Score
) -> None:
    human, ai = script
    controller = scripted(ai)
    assert controller.result is None
    assert play_round(controller, human) == expected_message
    assert controller.result == expected_message
    assert controller.score == expected_score
    assert controller.board.count("X") + controller.board.count("O") == len(human) + len(ai)


def test_human_symbol_o_messages() -> None:
    # Human is O and moves first; the scripted AI (X) takes the middle row.
    controller = scripted([3, 4, 5], symbol="O")
    assert play_round(controller, [0, 1, 8]) == "The AI wins with X."
    assert controller.score == Score(ai=1)
    controller.new_round()
    assert play_round(controller, [0, 1, 2]) == "You win with O!"
    assert controller.score == Score(human=1, ai=1)


def test_nothing_is_played_or_counted_after_game_over() -> None:
    controller = scripted(HUMAN_WINS[1])
    play_round(controller, HUMAN_WINS[0])
    before = state(controller)
    for _ in range(3):
        assert controller.result == "You win with X!"
    with pytest.raises(MoveRefused, match="round is over"):
        controller.play_human_move(2, 2)
    assert not controller.apply(AIReply(controller.generation, (2, 2)))
    assert controller.ai_error is None
    assert not controller.is_human_turn and not controller.is_ai_turn
    assert controller.teacher.hint() is None
    assert state(controller) == before
    assert controller.score == Score(human=1)


def test_tally_over_several_rounds_counts_each_round_once() -> None:
    tally_of = {"human": "human", "ai": "ai", "draw": "draws"}
    ai_cells = {"human": HUMAN_WINS[1], "ai": AI_WINS[1], "draw": DRAW[1]}
    human_cells = {"human": HUMAN_WINS[0], "ai": AI_WINS[0], "draw": DRAW[0]}
    expected = Score()
    plan = ["human", "draw", "ai", "ai", "draw", "human", "draw"]
    controller = scripted([])
    for number, result in enumerate(plan, start=1):
        if number > 1:
            controller.new_round()
        assert controller.round == number
        assert controller.ai is not None
        controller.ai.strategy = Scripted(ai_cells[result])
        play_round(controller, human_cells[result])
        assert controller.result is not None
        counter = tally_of[result]
        expected = replace(expected, **{counter: getattr(expected, counter) + 1})
        assert controller.score == expected
    assert controller.score == Score(human=2, ai=2, draws=3)


def test_an_unfinished_round_counts_no_result_only_that_it_was_abandoned() -> None:
    controller = GameController(rng=random.Random(0))
    controller.play_human_move(0, 0)
    controller.new_round()
    assert controller.score == Score(abandoned=1)


# -- rounds ------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["human", "ai"])
def test_alternate_switches_the_starter_every_round(first: Side) -> None:
    controller = GameController(GameOptions(first=first, alternate=True), rng=random.Random(0))
    other_side = "ai" if first == "human" else "human"
    starters = [controller.starter]
    for _ in range(4):
        controller.new_round()
        starters.append(controller.starter)
        assert controller.is_human_turn is (controller.starter == "human")
    assert starters == [first, other_side, first, other_side, first]


@pytest.mark.parametrize("first", ["human", "ai"])
def test_without_alternate_the_same_side_always_starts(first: Side) -> None:
    controller = GameController(GameOptions(first=first), rng=random.Random(0))
    for _ in range(3):
        controller.new_round()
        assert controller.starter == first


def test_alternating_starter_after_finished_rounds() -> None:
    controller = GameController(GameOptions(alternate=True), rng=random.Random(2))
    rng = random.Random(3)
    first_symbols = []
    for _ in range(4):
        while not controller.game_over:
            if controller.is_human_turn:
                controller.play_human_move(*rng.choice(controller.board.get_empty_cells()))
            else:
                ai_moves(controller)
        row, col = controller.board.moves[0]
        first_symbols.append(controller.board.game_board[row][col])
        controller.new_round()
    # Human is X: X opens, then the AI's O, and so on.
    assert first_symbols == ["X", "O", "X", "O"]
    assert controller.score.human == 0
    assert controller.score.ai + controller.score.draws == 4


def test_new_round_resets_the_board_and_advances_round_and_generation() -> None:
    controller = GameController(rng=random.Random(0))
    controller.play_human_move(1, 1)
    round_, generation = controller.round, controller.generation
    controller.new_round()
    assert controller.board == GameBoard() and controller.board.moves == ()
    assert controller.round == round_ + 1 and controller.generation == generation + 1
    assert controller.is_human_turn and not controller.game_over


# -- hints and analysis ----------------------------------------------------------------


def test_hint_is_one_of_the_best_moves_for_the_human() -> None:
    controller = scripted([4, 8])  # AI (O): centre, then corner
    controller.play_human_move(0, 0)
    ai_moves(controller)
    controller.play_human_move(0, 1)
    ai_moves(controller)
    # X X . / . O . / . . O  O did not block: the only best move is to win at (0, 2).
    assert controller.teacher.hint() == (0, 2)
    assert controller.teacher.analysis().best == ((0, 2),)


def test_hint_blocks_a_threat() -> None:
    controller = scripted([4, 3])  # AI (O) takes 4 then 3, threatening (1, 2)
    controller.play_human_move(0, 0)
    ai_moves(controller)
    controller.play_human_move(2, 2)
    ai_moves(controller)
    assert controller.teacher.hint() == (1, 2)


def test_hint_is_none_off_turn_and_seeded() -> None:
    controller = GameController(GameOptions(first="ai"), rng=random.Random(0))
    assert controller.teacher.hint() is None
    # On an empty board every cell is best; the seeded RNG makes the hint repeatable.
    hints = [GameController(rng=random.Random(9)).teacher.hint() for _ in range(3)]
    assert len(set(hints)) == 1 and hints[0] is not None
    assert {GameController(rng=random.Random(seed)).teacher.hint() for seed in range(30)} != {
        hints[0]
    }


def test_analysis_is_for_the_side_to_move() -> None:
    controller = GameController(GameOptions(symbol="O", first="human"), rng=random.Random(0))
    analysis = controller.teacher.analysis()
    assert analysis.to_move == "O" and analysis.status == "in_progress"
    assert len(analysis.moves) == 9
    controller.play_human_move(1, 1)
    analysis = controller.teacher.analysis()
    assert analysis.to_move == "X" and len(analysis.moves) == 8
    assert analysis.board == "....O...."


@pytest.mark.parametrize(
    ("script", "status"),
    [(HUMAN_WINS, "X_wins"), (AI_WINS, "O_wins"), (DRAW, "draw")],
    ids=["human-wins", "ai-wins", "draw"],
)
@pytest.mark.parametrize("human_symbol", ["X", "O"])
def test_analysis_after_the_round_ends(
    script: tuple[list[int], list[int]], status: str, human_symbol: str
) -> None:
    human, ai = script
    controller = scripted(ai, symbol=human_symbol)
    play_round(controller, human)
    analysis = controller.teacher.analysis()
    if human_symbol == "O":  # the same cells, colours swapped
        status = {"X_wins": "O_wins", "O_wins": "X_wins", "draw": "draw"}[status]
    assert analysis.status == status
    assert analysis.moves == () and analysis.best == ()


def test_analysis_after_the_ai_wins_moving_first() -> None:
    # The AI (O) starts and wins with more marks than the human: the human would move next.
    controller = scripted([0, 1, 2], symbol="X", first="ai")
    play_round(controller, [3, 4])
    analysis = controller.teacher.analysis()
    assert analysis.status == "O_wins" and analysis.to_move == "X"


def test_minimax_controller_uses_a_seeded_rng_for_repeatable_rounds() -> None:
    def game(seed: int) -> tuple[Cell, ...]:
        controller = GameController(GameOptions(first="ai"), rng=random.Random(seed))
        other = MinimaxStrategy(rng=random.Random(seed))
        while not controller.game_over:
            if controller.is_human_turn:
                cell = other.find_best_move(controller.board, controller.human_symbol)
                controller.play_human_move(*cell)
            else:
                ai_moves(controller)
        return controller.board.moves

    assert game(4) == game(4)
    assert len({game(seed) for seed in range(10)}) > 1


def test_a_new_round_in_the_middle_of_one_counts_it_as_abandoned() -> None:
    controller = scripted(AI_WINS[1])
    controller.new_round()  # nothing played yet: not abandoned
    assert controller.score == Score()
    controller.play_human_move(0, 0)
    ai_moves(controller)
    assert controller.in_progress
    controller.new_round()  # a losing position left behind
    assert controller.score == Score(abandoned=1)
    play_round(controller, AI_WINS[0])
    controller.new_round()  # a finished round is counted as its result, not abandoned
    assert controller.score == Score(ai=1, abandoned=1)
    controller.new_game(controller.options)
    assert controller.score == Score()


def test_the_score_is_a_value_compared_field_by_field_and_never_changed() -> None:
    """A score handed out stays as it was: the controller reads a new one from its round."""
    score, a_tuple = Score(human=1), cast(object, (1,))
    assert score == Score(1) and score != Score(ai=1) and score != a_tuple
    assert repr(score) == "Score(human=1, ai=0, draws=0, abandoned=0, take_backs=0, x=0, o=0)"
    assert hash(score) == hash(Score(human=1))
    with pytest.raises(AttributeError):
        score.draws = 2  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):  # CPython 3.11's slotted frozen: TypeError
        score.wins = 1  # type: ignore[attr-defined]
    controller = scripted(HUMAN_WINS[1])
    handed = controller.score
    play_round(controller, HUMAN_WINS[0])
    assert handed == Score() and controller.score == Score(human=1)


def test_a_game_refusal_is_one_of_the_words_its_literal_lists() -> None:
    """`GameRefusal` is a real `Literal`: a program can list the words the game refuses with."""
    from typing import get_args

    from tui_tictactoe.controller.game import GameRefusal

    refusals = []
    over = scripted(HUMAN_WINS[1])
    play_round(over, HUMAN_WINS[0])
    failed = GameController(GameOptions(first="ai"), rng=random.Random(0))
    assert failed.apply(AIReply(failed.generation, None, "ValueError: no"))
    waiting = GameController(GameOptions(first="ai"), rng=random.Random(0))
    taken = GameController(rng=random.Random(0))
    taken.play_human_move(1, 1)
    ai_moves(taken)
    for controller, cell in ((over, (2, 2)), (failed, (0, 0)), (waiting, (0, 0)), (taken, (1, 1))):
        with pytest.raises(MoveRefused) as refused:
            controller.play_human_move(*cell)
        refusals.append(refused.value.refusal)
    assert tuple(refusals) == get_args(GameRefusal)


@pytest.mark.parametrize("opponent", ["ai", "human"])
def test_the_game_plays_through_its_seats_players(
    opponent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The domain model as designed (docs/ai.md): a person's move is `HumanPlayer.make_move`,
    the AI's is `AIPlayer.find_best_move`; the real methods, counted on the way."""
    from tui_tictactoe.engine.players import AIPlayer, HumanPlayer

    made: list[tuple[str, Cell]] = []
    found: list[str] = []
    make, find = HumanPlayer.make_move, AIPlayer.find_best_move

    def counted_make(self: HumanPlayer, board: GameBoard, row: int, col: int) -> None:
        made.append((self.symbol, (row, col)))
        make(self, board, row, col)

    def counted_find(self: AIPlayer, board: GameBoard, cancelled: object = None) -> Cell:
        found.append(self.symbol)
        return find(self, board, cancelled)  # type: ignore[arg-type]

    monkeypatch.setattr(HumanPlayer, "make_move", counted_make)
    monkeypatch.setattr(AIPlayer, "find_best_move", counted_find)
    controller = scripted(DRAW[1], opponent=opponent)
    human = iter(DRAW[0] if opponent == "ai" else (0, 4, 8, 1, 7, 6, 2, 5, 3))
    while not controller.game_over:
        if controller.is_human_turn:
            controller.play_human_move(*STANDARD.coords(next(human)))
        else:
            ai_moves(controller)
    moves = controller.board.moves
    people = [cell for index, cell in enumerate(moves) if opponent == "human" or index % 2 == 0]
    assert [cell for _, cell in made] == people
    assert len(found) == (len(moves) - len(people))
