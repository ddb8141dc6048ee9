"""The status line's wording, as pure functions of the game: no app, no Pilot."""

from __future__ import annotations

from support import played

from tui_tictactoe.controller import (
    AIReply,
    GameController,
    analysis_status,
    game_title,
    hint_status,
    refused,
    turn_status,
)

WON = ([(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1)])


def test_your_turn_names_your_symbol() -> None:
    assert turn_status(GameController()) == ("Your turn: you play X.", "turn")
    assert turn_status(GameController("O")) == ("Your turn: you play O.", "turn")


def test_the_ais_turn_says_it_is_thinking() -> None:
    assert turn_status(GameController(first="ai")) == ("AI is thinking…", "thinking")


def test_each_ending_has_its_words_and_tone() -> None:
    assert turn_status(played(*WON)) == ("You win with X! Press r for a new round.", "win")
    loss = played([(0, 0), (0, 1), (2, 2)], [(1, 0), (1, 1), (1, 2)])
    assert turn_status(loss) == ("The AI wins with O. Press r for a new round.", "loss")
    draw = played([(1, 1), (0, 1), (1, 0), (2, 2), (0, 2)], [(0, 0), (2, 1), (1, 2), (2, 0)])
    assert turn_status(draw) == ("It's a draw. Press r for a new round.", "draw")


def test_an_ai_failure_is_an_error_with_its_reason() -> None:
    controller = GameController(first="ai")
    controller.apply(AIReply(controller.generation, None, "RuntimeError: oops"))
    assert turn_status(controller) == (
        "The AI failed (RuntimeError: oops). Press r for a new round.",
        "error",
    )


def test_hint_names_the_cell_by_its_key() -> None:
    controller = GameController()
    assert hint_status(controller, (2, 0)) == ("Hint: cell 7 is a best move.", "hint")
    assert hint_status(controller, (0, 0)).text == "Hint: cell 1 is a best move."


def test_no_hint_says_why() -> None:
    over = played(*WON)
    assert hint_status(over, None) == refused("The round is over: press r for a new round.")
    thinking = GameController(first="ai")
    assert hint_status(thinking, None) == refused("No hint now: it is the AI's turn.")


def test_a_refusal_after_the_round_uses_the_same_words_as_the_hint() -> None:
    over = played(*WON)
    ok, message = over.play_human_move(2, 2)
    assert not ok
    assert refused(message) == hint_status(over, None)


def test_the_ais_move_is_named_by_its_key_until_the_human_moves() -> None:
    controller = played([(1, 1)], [(2, 0)])
    assert turn_status(controller) == ("AI played 7. Your turn: you play X.", "turn")
    assert controller.last_ai_move == (2, 0)
    ai_first = GameController(first="ai")
    assert controller.apply(AIReply(controller.generation, (0, 0))) is False
    assert ai_first.apply(AIReply(ai_first.generation, (0, 2)))
    assert turn_status(ai_first).text == "AI played 3. Your turn: you play X."
    controller.new_round()
    assert controller.last_ai_move is None
    assert turn_status(controller).text == "Your turn: you play X."


def test_the_title_says_when_analysis_is_on() -> None:
    game = GameController("O", difficulty="easy")
    assert game_title(game, analysis=False) == "you O vs AI X · easy"
    assert game_title(game, analysis=True) == "you O vs AI X · easy · analysis on"


def test_switching_analysis_says_why_nothing_shows_yet() -> None:
    assert analysis_status(GameController(), True) is None  # the board shows it at once
    thinking = GameController(first="ai")
    assert analysis_status(thinking, True) == ("Analysis on: it shows on your turn.", "hint")
    over = played(*WON)
    assert analysis_status(over, True) == (
        "Analysis on: it shows in the next round (press r).",
        "hint",
    )
    assert analysis_status(over, False) == ("Analysis off.", "hint")
