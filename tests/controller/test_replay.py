"""The replay of a kept round, below the UI (`controller.replay.Replay`).

Any order of keys, as a hand-edited record could hold: the replay keeps the moves the
game would have played and no others, every position it shows is the board those
moves make, the cursor never leaves the round, and every verdict is the engine's.
Then real rounds: played by the controller against the real AI, kept in a real
record, read back and replayed as they were played.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from controller_tools import ai_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.controller import GameController, GameOptions
from tui_tictactoe.controller.replay import Replay
from tui_tictactoe.engine.analysis import analyse, proven_analysis
from tui_tictactoe.engine.board import GameBoard, IllegalMove, other
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.options import board_geometry
from tui_tictactoe.record import FinishedRound, Record

symbols = st.sampled_from(["X", "O"])
sides = st.sampled_from(["human", "ai"])
# Keys as a record could hold them: on the board or off it (0, 10, negative), repeated.
any_keys = st.lists(st.integers(min_value=-1, max_value=11), max_size=14)
orders = st.permutations(range(1, 10))


def played(size: int, first_mover: str, keys: list[int]) -> list[GameBoard]:
    """The boards of a round as the game would play `keys`: the empty board, then one after
    each move, up to the first move it would refuse (off the board, taken, after the end)."""
    geometry = board_geometry(size)
    board, mover = GameBoard(geometry), first_mover
    boards = [board.copy()]
    for key in keys:
        if board.is_game_over() or not 1 <= key <= geometry.cells:
            break
        try:
            board.make_move(*geometry.cell_of_key(key), mover)
        except IllegalMove:
            break
        boards.append(board.copy())
        mover = other(mover)
    return boards


def first_mover(you: str, first: str) -> str:
    return you if first == "human" else other(you)


@settings(max_examples=300)
@given(any_keys, symbols, sides)
def test_stepping_through_a_round_shows_each_position_the_moves_make(keys, you, first) -> None:
    replay = Replay.of_round(3, you, first, keys)
    boards = played(3, first_mover(you, first), keys)
    assert replay.total == len(boards) - 1
    last = replay.last  # named: mypy would keep `replay.last` None past the steps below
    assert replay.at == 0 and replay.board == boards[0] and last is None
    for at in range(1, len(boards)):  # forward, one move at a time
        assert replay.step(1)
        assert replay.at == at and replay.board == boards[at]
        assert replay.last == replay.moves[at - 1]
        assert replay.board.game_board[replay.last.cell[0]][replay.last.cell[1]] == (
            replay.last.symbol
        )
    assert not replay.step(1)  # the last position: no further
    assert replay.at == replay.total and replay.board == boards[-1]
    for at in reversed(range(len(boards) - 1)):  # and back to the start
        assert replay.step(-1)
        assert replay.at == at and replay.board == boards[at]
    assert not replay.step(-1)
    assert replay.at == 0 and replay.board == boards[0]


@settings(max_examples=300)
@given(orders, symbols, sides)
def test_every_verdict_is_the_engines_analysis_of_the_position(order, you, first) -> None:
    replay = Replay.of_round(3, you, first, order)
    mover = first_mover(you, first)
    for at, move in enumerate(replay.moves):
        assert replay.go(at)
        board = replay.board
        expected = analyse(board, mover)
        assert replay.to_move == mover == move.symbol
        assert replay.analysis == expected  # the overlay of the position shown
        assert move.verdict == expected.verdict_at(move.cell)
        assert move.verdict is not None
        assert move.best == (move.cell in expected.best)
        mover = other(mover)
    assert replay.go_to_end()
    assert replay.analysis == analyse(replay.board, replay.to_move)
    assert replay.analysis.status != "in_progress"  # a whole order plays to the end
    assert replay.analysis.moves == ()


@settings(max_examples=300)
@given(any_keys, symbols, sides, st.lists(st.tuples(st.booleans(), st.integers(-30, 30))))
def test_a_go_or_step_outside_the_round_changes_nothing(keys, you, first, asked) -> None:
    replay = Replay.of_round(3, you, first, keys)
    for is_step, number in asked:
        before, board = replay.at, replay.board
        target = before + number if is_step else number
        moved = replay.step(number) if is_step else replay.go(number)
        assert moved == (0 <= target <= replay.total)
        if moved:
            assert replay.at == target
        else:
            assert replay.at == before and replay.board == board
    for bad in (1.0, "1", None, True):
        before = replay.at
        assert not replay.go(bad)  # type: ignore[arg-type]
        assert not replay.step(bad)  # type: ignore[arg-type]
        assert replay.at == before


def test_the_board_handed_out_is_a_copy() -> None:
    replay = Replay.of_round(3, "X", "human", (5, 1))
    replay.go_to_end()
    replay.board.make_move(2, 2, "X")
    assert replay.board == played(3, "X", [5, 1])[-1]


def test_a_round_is_read_up_to_its_first_move_the_game_would_refuse() -> None:
    win = (1, 4, 2, 5, 3)
    assert Replay.of_round(3, "X", "human", (*win, 9, 8)).total == 5  # moves after the win
    assert Replay.of_round(3, "X", "human", (1, 10, 2)).total == 1  # off the board
    assert Replay.of_round(3, "X", "human", (1, 1, 2)).total == 1  # a taken cell
    assert Replay.of_round(3, "X", "human", ()).total == 0
    assert Replay.of_round(3, "X", "human", ()).describe().startswith("The start: 0 moves.")


@pytest.mark.parametrize(
    ("size", "you", "first", "said"),
    [
        (7, "X", "human", "a 7x7 board is not one this game plays (3x3, 4x4, 5x5, 6x6)"),
        (3, "Z", "human", "the player's symbol must be X or O, not 'Z'"),
        (3, "X", "nobody", "who started must be one of human, ai, not 'nobody'"),
    ],
)
def test_a_round_that_cannot_be_replayed_is_refused_in_one_line(size, you, first, said) -> None:
    with pytest.raises(ValueError, match="^" + said.replace("(", r"\(").replace(")", r"\)")):
        Replay.of_round(size, you, first, (1, 2))


def test_the_move_line_says_who_played_what_and_how_good_it_was() -> None:
    replay = Replay.of_round(3, "X", "human", (1, 2, 5, 9, 7, 3, 4))  # O's edge reply loses
    assert replay.describe() == "The start: 7 moves. Right or Space steps on, Left back."
    replay.go(1)
    assert replay.describe() == "Move 1 of 7: you (X) played 1: draw (a best move)."
    replay.go(2)
    assert replay.describe() == "Move 2 of 7: the AI (O) played 2: loss in 6 (not a best move)."
    replay.go_to_end()
    assert replay.describe() == "Move 7 of 7: you (X) played 4: win in 1 (a best move)."


def test_a_big_round_replays_without_analysis() -> None:
    keys = (1, 6, 2, 7, 3, 8, 4)  # four in a row on 4x4: a row of three does not end it
    replay = Replay.of_round(4, "X", "human", keys)
    assert replay.total == 7 and replay.moves[-1].cell == (0, 3)
    assert all(move.verdict is None and not move.best for move in replay.moves)
    assert replay.analysis is None
    replay.go_to_end()
    assert replay.board == played(4, "X", list(keys))[-1]
    assert replay.board.winner() == "X"
    assert replay.describe() == "Move 7 of 7: you (X) played 4."


# -- real rounds -------------------------------------------------------------------------


def play_rounds(
    controller: GameController, rounds: int, rng: random.Random
) -> list[list[GameBoard]]:
    """`rounds` rounds, the human's moves at random, the AI's its own; the boards of each."""
    seen: list[list[GameBoard]] = []
    for _ in range(rounds):
        boards = [controller.board.copy()]
        while not controller.game_over:
            if controller.is_ai_turn:
                ai_moves(controller)  # as the app plays it: request, compute, apply
            else:
                controller.play_human_move(*rng.choice(controller.board.legal_moves()))
            boards.append(controller.board.copy())
        seen.append(boards)
        controller.new_round()
    return seen


@pytest.mark.parametrize(
    ("board", "difficulty"), [("3", "easy"), ("3", "hard"), ("4", "hard"), ("5", "easy")]
)
def test_real_rounds_kept_in_the_record_replay_as_they_were_played(board, difficulty) -> None:
    played_at = iter(datetime(2026, 11, 20, tzinfo=UTC) + timedelta(minutes=n) for n in range(99))
    rng = random.Random(20)
    seen: list[list[GameBoard]] = []
    with Record.open() as record:

        def keep(summary) -> None:
            fields = summary._asdict()
            # Rounds against the AI: who sat opposite and who won are the people's table's.
            assert fields.pop("opponent") == "ai"
            del fields["winner"], fields["opener"]
            assert record.save_round("p", FinishedRound(played_at=next(played_at), **fields))

        for you in ("X", "O"):
            controller = GameController(
                GameOptions(
                    symbol=you, first="ai", difficulty=difficulty, alternate=True, board=board
                ),
                rng=random.Random(7),
            )
            controller.on_round_end = keep
            seen += play_rounds(controller, 4, rng)
        kept = list(reversed(record.recent_rounds("p", 99)))
    assert len(kept) == len(seen) == 8
    for round_, boards in zip(kept, seen, strict=True):
        replay = Replay.of_round(round_.board_size, round_.symbol, round_.first, round_.moves)
        assert replay.total == len(boards) - 1 == len(round_.moves)
        for at, board_then in enumerate(boards):
            assert replay.go(at) and replay.board == board_then
        human = sum(move.symbol == round_.symbol for move in replay.moves)
        assert human in (replay.total // 2, (replay.total + 1) // 2)
        assert replay.board.outcome() is not None  # every round was played to its end


def test_a_5x5_round_replays_its_opening_with_the_stored_verdicts() -> None:
    """Up to two stones every move's verdict is stored: the replay shows them, and judges
    the first moves, without a search (fails before: no verdicts beyond 3x3). Past the
    opening nothing is searched: the verdicts stop."""
    keys = (13, 1, 7, 25, 19)
    replay = Replay.of_round(5, "X", "human", keys)
    boards = played(5, "X", list(keys))
    for at in range(3):
        replay.go(at)
        assert replay.analysis == analyse(boards[at], "X" if at % 2 == 0 else "O")
    assert all(move.verdict is not None for move in replay.moves[:3])
    assert replay.moves[0].best  # the centre: a best first move
    replay.go(5)
    assert replay.analysis is None and replay.moves[4].verdict is None


SIX = (15, 1, 22, 2, 29, 3, 8, 4, 36)  # X's diagonal 15-22-29-36 and 8; O's row runs out


def test_a_6x6_round_is_judged_position_by_position_with_the_proven_verdicts() -> None:
    """On 6x6 every position starts pending; judged (nearest the one shown first) and kept,
    each holds `proven_analysis` (what is proven, "unknown" elsewhere) and each move the
    verdict of the cell it took (fails before: a 6x6 replay had no verdicts at all)."""
    replay = Replay.of_round(6, "X", "human", SIX)
    assert replay.pending and replay.analysis is None
    assert all(move.verdict is None for move in replay.moves)
    replay.go(4)
    order = []
    while (at := replay.next_pending()) is not None:
        order.append(at)
        replay.keep(at, replay.judge(at))
    assert order[:3] == [4, 3, 5] and sorted(order) == list(range(10))
    assert not replay.pending
    boards = played(6, "X", list(SIX))
    for at, board in enumerate(boards):
        replay.go(at)
        assert replay.analysis == proven_analysis(board, "X" if at % 2 == 0 else "O")
    assert all(move.verdict is not None for move in replay.moves)
    assert replay.moves[0].verdict == Verdict("draw", 36) and replay.moves[0].best
    assert replay.moves[-2].verdict == Verdict("loss", 2)  # O's 4 leaves X's five open
    assert replay.moves[-1].verdict == Verdict("win", 1) and replay.moves[-1].best
    replay.go(2)
    assert replay.describe() == "Move 2 of 9: the AI (O) played 1: unknown."
    replay.go(8)
    assert replay.describe() == "Move 8 of 9: the AI (O) played 4: loss in 2 (not a best move)."
    replay.keep(0, replay.judge(1))  # kept already: a second answer changes nothing
    assert replay.moves[0].verdict == Verdict("draw", 36)
