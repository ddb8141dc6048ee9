"""Take back (`u`): the human's last move and the AI's reply are undone, and the round is marked."""

from __future__ import annotations

from controller_tools import ai_moves
from support import SIZE, ai_thinking, board, note, press, settle, status

from tui_tictactoe.controller import GameController, GameOptions
from tui_tictactoe.controller.rounds import RoundSummary
from tui_tictactoe.controller.status import take_back_status
from tui_tictactoe.record import Record
from tui_tictactoe.ui.widgets import Scoreboard

# -- the controller ------------------------------------------------------------------


def test_take_back_undoes_the_human_move_and_the_ai_reply(scripted) -> None:
    game = GameController(strategy=scripted((0, 0)))
    game.play_human_move(1, 1)
    ai_moves(game)
    before = game.generation
    result = game.take_back()
    assert result.undone == ((0, 0), (1, 1))  # newest first
    assert game.board.moves == ()
    assert game.is_human_turn and game.took_back
    assert game.score.take_backs == 1
    assert game.generation > before  # any reply still on its way is now stale
    assert take_back_status(game, result).text == "Took back your 5 and the AI's 1."


def test_take_back_while_the_ai_thinks_undoes_only_the_human_move(scripted) -> None:
    game = GameController(strategy=scripted((0, 0)))
    game.play_human_move(1, 1)
    request = game.ai_request()
    assert request is not None
    assert game.take_back().undone == ((1, 1),)
    assert not game.apply(request.compute())  # the stale reply is dropped
    assert game.board.moves == () and game.is_human_turn


def test_take_back_keeps_the_ai_opening_move(scripted) -> None:
    game = GameController(GameOptions(first="ai"), strategy=scripted((0, 0), (2, 2)))
    ai_moves(game)
    assert game.take_back().refused == "nothing"  # only the AI has moved
    game.play_human_move(1, 1)
    ai_moves(game)
    assert game.take_back().undone == ((2, 2), (1, 1))
    assert [game.board.geometry.key(*cell) for cell in game.board.moves] == [1]


def test_take_back_is_refused_before_a_move_and_after_the_round(scripted) -> None:
    game = GameController(strategy=scripted((1, 0), (1, 1)))
    result = game.take_back()
    assert result.refused == "nothing"
    assert take_back_status(game, result).text.startswith("Nothing to take back")
    assert take_back_status(game, result).tone == "refused"
    for row, col in ((0, 0), (0, 1), (0, 2)):
        game.play_human_move(row, col)
        if not game.game_over:
            ai_moves(game)
    assert game.game_over
    result = game.take_back()
    assert result.refused == "over"
    assert "round is over" in take_back_status(game, result).text
    assert game.score.human == 1 and game.score.take_backs == 0


def test_a_round_with_a_take_back_is_reported_so(scripted) -> None:
    ended: list[RoundSummary] = []
    game = GameController(strategy=scripted((1, 0), (1, 1)))
    game.on_round_end = ended.append
    game.play_human_move(2, 2)
    ai_moves(game)
    game.take_back()
    game.take_back()  # a second take-back in the same round counts the round once
    assert game.score.take_backs == 1
    for row, col in ((0, 0), (0, 1), (0, 2)):
        game.play_human_move(row, col)
        if not game.game_over:
            ai_moves(game)
    (summary,) = ended
    assert summary.result == "win" and summary.took_back
    assert summary.moves == (1, 4, 2, 5, 3)
    game.new_round()
    assert not game.took_back  # a new round starts unmarked


# -- the app -------------------------------------------------------------------------


async def test_u_takes_back_and_the_score_shows_it(make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        assert board(app) == "O...X...."
        await press(pilot, "u")
        assert board(app) == "........."
        assert note(app) == "Took back your 5 and the AI's 1."
        assert status(app) == "Your turn: you play X."
        scoreboard = app.query_one(Scoreboard)
        assert "Take-backs 1" in str(scoreboard.render())
        await press(pilot, "3")  # play goes on from the position before
        assert board(app) == "O.X......"


async def test_u_while_the_ai_thinks_drops_its_reply(scripted) -> None:
    async with ai_thinking((0, 0), keys=("5",)) as (app, pilot, strategy):
        await pilot.press("u")
        assert board(app) == "........."
        assert note(app) == "Took back your 5." and status(app) == "Your turn: you play X."
        strategy.gate.set()
        await settle(pilot)
        assert board(app) == "........."  # the stale O never lands
        assert app.controller.is_human_turn
        await press(pilot, "1")
        assert app.controller.board.moves[0] == (0, 0)


async def test_u_is_refused_with_a_reason(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "u")
        assert note(app) == "Nothing to take back: you have not moved this round."
        await press(pilot, "1", "2", "3", "u")
        assert note(app) == "Nothing to take back: the round is over."
        assert status(app) == "You win with X! Press r for a new round."  # the result stays
        assert app.controller.score.human == 1


async def test_a_round_with_a_take_back_is_recorded_as_such(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "9", "u", "1", "2", "3")
        assert app.controller.score.human == 1
        await settle(pilot)
        player = app.record_link.player
    with Record.open() as record:
        (kept,) = record.recent_rounds(player)
    assert kept.result == "win" and kept.took_back
    assert kept.moves == (1, 4, 2, 5, 3)
