"""The status line's wording, as pure functions of the game: no app, no Pilot.

The first line is the state of play (`turn_status`), the second a passing note; the big
board's analysis counts its cells in the title (`game_title`).
"""

from __future__ import annotations

from support import played, refusal

from tui_tictactoe.controller import (
    AIReply,
    GameController,
    GameOptions,
    analysis_status,
    game_title,
    hint_status,
    refused,
    turn_status,
)
from tui_tictactoe.controller.rounds import TakeBack
from tui_tictactoe.controller.status import (
    NOTE_WIDTH,
    digits_refused,
    move_refused,
    take_back_status,
)
from tui_tictactoe.controller.teaching import AnalysisFound
from tui_tictactoe.engine.analysis import Analysis

WON = ([(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1)])


def test_your_turn_names_your_symbol() -> None:
    assert turn_status(GameController()) == ("Your turn: you play X.", "turn")
    assert turn_status(GameController(GameOptions(symbol="O"))) == (
        "Your turn: you play O.",
        "turn",
    )


def test_the_ais_turn_says_it_is_thinking() -> None:
    assert turn_status(GameController(GameOptions(first="ai"))) == ("AI is thinking…", "thinking")


def test_each_ending_has_its_words_and_tone() -> None:
    assert turn_status(played(*WON)) == ("You win with X! Press r for a new round.", "win")
    loss = played([(0, 0), (0, 1), (2, 2)], [(1, 0), (1, 1), (1, 2)])
    assert turn_status(loss) == ("The AI wins with O. Press r for a new round.", "loss")
    draw = played([(1, 1), (0, 1), (1, 0), (2, 2), (0, 2)], [(0, 0), (2, 1), (1, 2), (2, 0)])
    assert turn_status(draw) == ("It's a draw. Press r for a new round.", "draw")


def test_an_ai_failure_is_an_error_with_its_reason() -> None:
    controller = GameController(GameOptions(first="ai"))
    controller.apply(AIReply(controller.generation, None, "RuntimeError: oops"))
    assert turn_status(controller) == (
        "The AI failed: press r for a new round. (RuntimeError: oops)",
        "error",
    )
    # What to do comes first: under a note the state is cut to one line.
    assert len(turn_status(controller).text.partition(" (")[0]) <= NOTE_WIDTH


def test_hint_names_the_cell_by_its_key() -> None:
    controller = GameController()
    assert hint_status(controller, (2, 0)) == ("Hint: cell 7 is a best move.", "hint")
    assert hint_status(controller, (0, 0)).text == "Hint: cell 1 is a best move."


def test_a_6x6_hint_never_calls_its_cell_best() -> None:
    """6x6 is not solved: the hint's cell keeps a draw at best, so it is no "best move"."""
    controller = GameController(GameOptions(board="6"))
    assert hint_status(controller, (2, 2)) == (
        "Hint: cell 15; no move is proven better.",
        "hint",
    )


def test_no_hint_says_why() -> None:
    over = played(*WON)
    assert hint_status(over, None) == refused("No hint: the round is over.")
    thinking = GameController(GameOptions(first="ai"))
    assert hint_status(thinking, None) == refused("No hint now: it is the AI's turn.")
    failed = GameController(GameOptions(first="ai"))
    failed.apply(AIReply(failed.generation, None, "RuntimeError: oops"))
    assert hint_status(failed, None) == refused("No hint: the AI failed.")


def test_a_note_after_the_round_does_not_repeat_what_the_result_says() -> None:
    """The result stays on the first line and says to press r: the note under it only
    says why nothing happened, in the same words for a move and a hint."""
    over = played(*WON)
    assert move_refused(refusal(over, 2, 2)) == refused("No move: the round is over.")
    assert "Press r" in turn_status(over).text
    taken = played([(1, 1)], [(0, 0)])
    assert move_refused(refusal(taken, 0, 0)) == refused("Cell 1 is already taken by O.")


def test_a_take_back_note_leaves_the_turn_to_the_state() -> None:
    game = played([(1, 1), (2, 2)], [(0, 0), (0, 2)])
    result = game.take_back()
    assert take_back_status(game, result) == ("Took back your 9 and the AI's 3.", "turn")
    assert turn_status(game).text == "AI played 1. Your turn: you play X."
    over = take_back_status(played(*WON), TakeBack((), "over"))
    assert over == refused("Nothing to take back: the round is over.")


def test_a_digit_on_a_big_board_says_how_to_play_there() -> None:
    assert digits_refused(4) == refused("On 4x4 use the arrows and Enter: digits play 3x3 only.")
    assert digits_refused(5).text.startswith("On 5x5 use the arrows and Enter")


def test_the_ais_move_is_named_by_its_key_until_the_human_moves() -> None:
    controller = played([(1, 1)], [(2, 0)])
    assert turn_status(controller) == ("AI played 7. Your turn: you play X.", "turn")
    assert controller.last_ai_move == (2, 0)
    ai_first = GameController(GameOptions(first="ai"))
    assert controller.apply(AIReply(controller.generation, (0, 0))) is False
    assert ai_first.apply(AIReply(ai_first.generation, (0, 2)))
    assert turn_status(ai_first).text == "AI played 3. Your turn: you play X."
    controller.new_round()
    assert controller.last_ai_move is None
    assert turn_status(controller).text == "Your turn: you play X."


def test_the_ais_move_on_a_big_board_is_named_by_its_number() -> None:
    """Issue 21: on 4x4 the status said only the analysis' progress, never the AI's move."""
    game = played([(1, 1)], [(3, 2)], board="4")
    assert turn_status(game) == ("AI played 15. Your turn: you play X.", "turn")
    five = played([(0, 0)], [(4, 4)], board="5")
    assert turn_status(five).text == "AI played 25. Your turn: you play X."


def test_the_title_says_when_analysis_is_on() -> None:
    game = GameController(GameOptions(symbol="O", difficulty="easy"))
    assert game_title(game, analysis=False) == "you O vs AI X · easy"
    assert game_title(game, analysis=True) == "you O vs AI X · easy · analysis on"


def test_the_title_counts_the_big_boards_analysis_and_says_when_it_is_done() -> None:
    """The progress has a place of its own: the status line keeps the state of play."""
    game = GameController(GameOptions(board="4"))
    analysis = Analysis("." * 16, "X", "in_progress", ())
    assert game_title(game, True, AnalysisFound(analysis, 3, 16)).endswith("· analysing 3/16…")
    assert game_title(game, True, AnalysisFound(analysis, 16, 16)).endswith("· analysis done")
    assert game_title(game, False, AnalysisFound(analysis, 3, 16)) == "you X vs AI O · hard"


def test_switching_analysis_says_why_nothing_shows_yet() -> None:
    assert analysis_status(GameController(), True) is None  # the board shows it at once
    thinking = GameController(GameOptions(first="ai"))
    assert analysis_status(thinking, True) == ("Analysis on: it shows on your turn.", "hint")
    over = played(*WON)
    assert analysis_status(over, True) == (
        "Analysis on: it shows in the next round (press r).",
        "hint",
    )
    assert analysis_status(over, False) == ("Analysis off.", "hint")
