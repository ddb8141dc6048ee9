"""Hot seat (`--opponent human`) without a UI: two people at one keyboard, both seats
`HumanPlayer`s. Turns, results and the score over any sequence of moves (hypothesis),
take-backs of one move, the status line's wording, what a round tells the record, and
the option on every path in (the table, the command line, serve-ssh, saved settings)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.cli import build_parser, parse
from tui_tictactoe.controller import GameController, GameOptions, MoveRefused, Score
from tui_tictactoe.controller.rounds import RoundSummary
from tui_tictactoe.controller.status import (
    game_title,
    hint_status,
    move_refused,
    take_back_status,
    turn_status,
)
from tui_tictactoe.engine.players import AIPlayer, HumanPlayer
from tui_tictactoe.record.validation import settings_to_store, valid_settings
from tui_tictactoe.servers.games.command import parse_play_options, play_args


def people(**options: object) -> GameController:
    return GameController(GameOptions(opponent="human", **options), rng=random.Random(0))  # type: ignore[arg-type]


def play_keys(controller: GameController, *keys: int) -> None:
    """Play cells by their keys (1 = top-left), each accepted."""
    for key in keys:
        controller.play_human_move(*controller.board.geometry.cell_of_key(key))


X_WINS = (1, 4, 2, 5, 3)  # X takes the top row
O_WINS = (1, 4, 2, 5, 9, 6)  # O takes the middle row
DRAW = (1, 5, 9, 2, 8, 7, 3, 6, 4)  # X 1 9 8 3 4 / O 5 2 7 6: no line for either


# -- seats and turns ---------------------------------------------------------------------


def test_both_seats_are_people_and_x_starts_whatever_the_ai_options_say() -> None:
    for symbol in ("X", "O"):
        for first in ("human", "ai"):
            controller = people(symbol=symbol, first=first)
            assert controller.between_people and controller.ai is None
            assert isinstance(controller.seats["X"], HumanPlayer)
            assert isinstance(controller.seats["O"], HumanPlayer)
            assert controller.current_player.symbol == "X"
            assert controller.is_human_turn and not controller.is_ai_turn
            assert controller.ai_request() is None
            assert controller.strategy is None and controller.minimax is None


def test_the_ai_game_keeps_one_person_and_one_ai() -> None:
    controller = GameController(rng=random.Random(0))
    assert not controller.between_people
    assert controller.seats["X"] is controller.human
    assert isinstance(controller.seats["O"], AIPlayer) and controller.seats["O"] is controller.ai


@settings(max_examples=300, deadline=None)
@given(
    size=st.sampled_from(["3", "4"]),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30),
)
def test_any_moves_alternate_seats_and_end_in_the_result_the_board_says(
    size: str, picks: list[int]
) -> None:
    controller = people(board=size)
    mover = "X"
    for pick in picks:
        if controller.game_over:
            break
        assert controller.current_player.symbol == mover and controller.is_human_turn
        empty = controller.board.get_empty_cells()
        controller.play_human_move(*empty[pick % len(empty)])  # MoveRefused if refused
        assert controller.ai_request() is None
        mover = "O" if mover == "X" else "X"
    marks = [controller.board.game_board[r][c] for r, c in controller.board.moves]
    assert marks == ["X", "O"] * (len(marks) // 2) + ["X"] * (len(marks) % 2)
    outcome = controller.outcome
    score = controller.score
    if outcome is None:
        assert score == Score() and turn_status(controller).text.endswith(f"{mover} to play.")
        return
    text = turn_status(controller).text
    if outcome.winner is None:
        assert score == Score(draws=1) and text.startswith("It's a draw.")
    else:
        assert score == Score(x=1) if outcome.winner == "X" else score == Score(o=1)
        assert text.startswith(f"{outcome.winner} wins!")
        assert turn_status(controller).tone == "win"  # a person won: never a loss here


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["x", "o", "draw", "left"]), max_size=8), st.booleans())
def test_the_score_counts_each_seats_wins_over_rounds(rounds: list[str], alternate: bool) -> None:
    controller = people(alternate=alternate)
    # "x": the opener's line, "o": the other seat's (the same keys, whoever opens).
    script = {"x": X_WINS, "o": O_WINS, "draw": DRAW, "left": (5,)}
    openers = []
    for outcome in rounds:
        openers.append(controller.current_player.symbol)
        play_keys(controller, *script[outcome])
        controller.new_round()
    expected_openers = [("X", "O")[i % 2] if alternate else "X" for i in range(len(rounds))]
    assert openers == expected_openers
    # A round opened by O plays the same keys with the seats swapped: its winner swaps too.
    wins = {"X": 0, "O": 0}
    for opener, outcome in zip(openers, rounds, strict=True):
        if outcome in ("x", "o"):
            first_wins = outcome == "x"  # the script's line belongs to the opener
            winner = opener if first_wins else ("O" if opener == "X" else "X")
            wins[winner] += 1
    assert (controller.score.x, controller.score.o) == (wins["X"], wins["O"])
    assert controller.score.draws == rounds.count("draw")
    assert controller.score.abandoned == rounds.count("left")
    assert (controller.score.human, controller.score.ai) == (0, 0)


def test_a_move_on_a_taken_cell_or_after_the_round_is_refused() -> None:
    controller = people()
    play_keys(controller, 5)
    with pytest.raises(MoveRefused) as taken:
        controller.play_human_move(1, 1)
    assert str(taken.value) == "Cell 5 is already taken by X."
    play_keys(controller, 1, 2, 4, 8)  # X 5 2 8: the middle column
    assert controller.game_over
    with pytest.raises(MoveRefused) as over:
        controller.play_human_move(2, 2)
    assert move_refused(over.value).text == "No move: the round is over."


# -- take-backs: one move ----------------------------------------------------------------


def test_u_takes_back_one_move_and_its_seat_plays_again() -> None:
    controller = people()
    assert controller.take_back().refused == "nothing"
    play_keys(controller, 5, 1)
    result = controller.take_back()
    mover = controller.current_player.symbol  # named: mypy would keep the first symbol below
    assert result.undone == ((0, 0),) and mover == "O"
    assert take_back_status(controller, result).text == "Took back O's 1."
    result = controller.take_back()
    assert result.undone == ((1, 1),) and controller.current_player.symbol == "X"
    assert take_back_status(controller, result).text == "Took back X's 5."
    assert not controller.board.moves
    nothing = controller.take_back()
    assert take_back_status(controller, nothing).text == (
        "Nothing to take back: no move yet this round."
    )
    assert controller.score.take_backs == 1  # the round is marked once
    play_keys(controller, *X_WINS)
    assert take_back_status(controller, controller.take_back()).text == (
        "Nothing to take back: the round is over."
    )


# -- the status line ---------------------------------------------------------------------


def test_the_status_names_whose_turn_it_is_and_the_last_move() -> None:
    controller = people()
    assert turn_status(controller).text == "X to play."
    play_keys(controller, 5)
    assert turn_status(controller).text == "X played 5. O to play."
    play_keys(controller, 1)
    assert turn_status(controller).text == "O played 1. X to play."
    assert controller.last_answered == (0, 0)  # the board marks the move to answer
    assert controller.last_ai_move is None


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        (X_WINS, "X wins! Press r for a new round."),
        (O_WINS, "O wins! Press r for a new round."),
        (DRAW, "It's a draw. Press r for a new round."),
    ],
)
def test_the_status_says_the_result(keys: tuple[int, ...], said: str) -> None:
    controller = people()
    play_keys(controller, *keys)
    assert turn_status(controller).text == said


def test_no_hint_and_no_analysis_between_people() -> None:
    controller = people()
    assert controller.teacher.hint() is None and controller.teacher.hint_request() is None
    assert hint_status(controller, None).text == "No hints in a game between people."
    big = people(board="4")
    assert big.teacher.hint_request() is None and big.teacher.analysis_request() is None


def test_the_title_says_who_plays() -> None:
    assert game_title(people(), analysis=False) == "X vs O · two players"
    hosted = people()
    hosted.player_name = "ann"
    assert game_title(hosted, analysis=False) == "ann · X vs O · two players"


# -- what a round tells the record ---------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "result", "winner"),
    [
        (X_WINS, "win", "X"),
        (O_WINS, "loss", "O"),
        (DRAW, "draw", None),
        ((5, 1), "abandoned", None),
    ],
)
def test_a_round_between_people_says_so_and_who_won(
    keys: tuple[int, ...], result: str, winner: str | None
) -> None:
    controller = people(symbol="O")  # the symbol is the AI game's: X's result is kept
    ended: list[RoundSummary] = []
    controller.on_round_end = ended.append
    play_keys(controller, *keys)
    controller.new_round()
    (summary,) = ended
    assert summary.opponent == "human" and summary.winner == winner
    assert (summary.symbol, summary.first, summary.opener) == ("X", "human", "X")
    assert summary.result == result and summary.moves == keys


def test_a_round_against_the_ai_says_the_ai_was_the_opponent() -> None:
    controller = GameController(rng=random.Random(0))
    ended: list[RoundSummary] = []
    controller.on_round_end = ended.append
    play_keys(controller, 5)
    controller.new_round()
    (summary,) = ended
    assert (summary.opponent, summary.result, summary.winner) == ("ai", "abandoned", None)


# -- the option, on every path in ----------------------------------------------------------


def test_the_option_is_checked_against_the_one_table() -> None:
    assert GameOptions(opponent="human").validated().opponent == "human"
    with pytest.raises(ValueError, match="opponent must be one of ai, human"):
        GameOptions(opponent="robot").validated()  # type: ignore[arg-type]
    assert GameOptions().opponent == "ai"


@pytest.mark.parametrize("words", [["--opponent", "human"], ["play", "--opponent", "human"]])
def test_the_command_line_takes_the_opponent(words: list[str]) -> None:
    assert parse(words).opponent == "human"
    assert build_parser().parse_args(words).opponent == "human"
    assert parse([]).opponent is None  # not given: saved settings, else the AI


def test_a_bad_opponent_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as end:
        parse(["--opponent", "robot"])
    assert end.value.code == 2
    assert "invalid choice: 'robot' (choose from ai, human)" in capsys.readouterr().err


def test_serve_ssh_passes_the_opponent_to_the_game() -> None:
    options = parse_play_options("--opponent human --board 4")
    argv = play_args(options)
    assert argv[0] == "play" and argv[argv.index("--opponent") + 1] == "human"
    assert "--opponent" not in play_args(parse_play_options(""))


def test_the_record_reads_the_opponent_setting_against_the_table() -> None:
    assert valid_settings({"opponent": "human"}) == {"opponent": "human"}
    assert valid_settings({"opponent": "robot"}) == {}
    assert settings_to_store({"opponent": "ai"}) == {"opponent": "ai"}
