"""Hot seat in the app (Pilot): two people at one keyboard play whole rounds by keys and by
mouse; the teaching keys say why they do nothing; the new-game dialog switches to it and
greys out the AI's options; and a round between people leaves the AI standings alone."""

from __future__ import annotations

import asyncio
import time

from support import SIZE, board, note, press, settle, status

from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import HotSeatStanding, Record
from tui_tictactoe.ui.screens.new_game_screen import ChoiceRow, NewGameScreen
from tui_tictactoe.ui.widgets import Scoreboard


def scoreline(app) -> str:
    return str(app.game.query_one(Scoreboard).render())


def bar(app) -> str:
    return " ".join(app.game.key_bar.lines(SIZE[0]))


async def test_a_whole_round_by_keys(make_app) -> None:
    app = make_app(opponent="human", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert status(app) == "X to play."
        assert app.game.sub_title == "X vs O · two players"
        assert scoreline(app).startswith("X 0   O 0   Draws 0")
        await press(pilot, "5")
        assert status(app) == "X played 5. O to play."
        await press(pilot, "1")
        assert status(app) == "O played 1. X to play."
        assert app.game.query_one("#cell-0-0").has_class("-last-ai")  # the move to answer
        await press(pilot, "3", "7", "4", "2")  # X 5 3 4, O 1 7 2
        assert board(app) == "OOXXX.O.."
        await press(pilot, "6")  # X: the middle row
        assert board(app) == "OOXXXXO.."
        assert status(app) == "X wins! Press r for a new round."
        assert scoreline(app).startswith("X 1   O 0   Draws 0")
        assert not app.workers  # no AI was ever asked
        await press(pilot, "r")
        assert status(app) == "X to play." and board(app) == "........."
        assert "Round 2" in scoreline(app)


async def test_a_whole_round_by_mouse_to_a_draw(make_app) -> None:
    app = make_app(opponent="human", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # X 1 9 8 3 4 / O 5 2 7 6: no line for either.
        for key in (1, 5, 9, 2, 8, 7, 3, 6, 4):
            row, col = divmod(key - 1, 3)
            assert await pilot.click(f"#cell-{row}-{col}")
            await settle(pilot)
        assert board(app) == "XOXXOOOXX"
        assert status(app) == "It's a draw. Press r for a new round."
        assert scoreline(app).startswith("X 0   O 0   Draws 1")


async def test_the_teaching_keys_say_why_they_do_nothing(make_app) -> None:
    app = make_app(opponent="human", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        for key, said in (
            ("h", "No hints in a game between people."),
            ("a", "No analysis in a game between people."),
            ("i", "No AI info: there is no AI in a game between people."),
        ):
            await press(pilot, key)
            assert note(app) == said
            assert status(app) == "X played 5. O to play."
        assert not app.game.show_analysis and not app.game.show_info
        assert app.controller.teacher.hinted is None
        assert "Hint" not in bar(app) and "Analysis" not in bar(app) and "AI info" not in bar(app)
        assert "u Take back" in bar(app)


async def test_u_takes_back_one_move(make_app) -> None:
    app = make_app(opponent="human", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "1", "u")
        assert board(app) == "....X...."
        assert status(app) == "X played 5. O to play." and note(app) == "Took back O's 1."
        assert "Take-backs 1" in scoreline(app)
        await press(pilot, "9")  # O plays again, elsewhere
        assert board(app) == "....X...O"


async def test_the_dialog_switches_to_hot_seat_and_greys_out_the_ai_options(make_app) -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "a")  # the overlay on, against the AI
        assert app.game.show_analysis and "a Hide analysis" in bar(app)
        await press(pilot, "n")
        assert isinstance(app.screen, NewGameScreen)
        rows = {row.id: row for row in app.screen.query(ChoiceRow)}
        await press(pilot, *["down"] * 5, "right")  # Opponent: Person here
        assert rows["opponent"].value == "human"
        assert all(rows[name].disabled for name in ("symbol", "first", "difficulty"))
        assert not rows["board"].disabled
        await press(pilot, "enter")
        assert app.controller.between_people
        assert not app.game.show_analysis  # no overlay between people
        assert status(app) == "X to play." and "Analysis" not in bar(app)
        await press(pilot, "n")
        rows = {row.id: row for row in app.screen.query(ChoiceRow)}
        assert rows["symbol"].disabled and app.screen.focused is rows["alternate"]
        await press(pilot, "down", "down", "left")  # Opponent: AI again
        assert not any(row.disabled for row in rows.values())
        await press(pilot, "enter")
        assert not app.controller.between_people
        assert status(app) == "Your turn: you play X."
        assert "a Show analysis" in bar(app)


async def test_a_round_between_people_leaves_the_ai_standings_unchanged_and_is_kept_apart(
    make_app,
) -> None:
    player = current_identity().player
    with Record.open() as record:
        before = record.stats(player)
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "4", "2", "5", "3", "r")  # X wins
        await press(pilot, "5", "r")  # a round left: abandoned
        await press(pilot, "5")  # left by quitting
        assert app.controller.score.x == 1 and app.controller.score.abandoned == 1
        await app.action_quit()
        await settle(pilot)
    # The last round is saved while the app quits, in a thread of its own (it may outlast
    # the app's 0.1 s on a loaded machine): wait for it rather than read once.
    deadline = time.monotonic() + 10
    while True:
        with Record.open() as record:
            people = record.people.stats(player)
            kept = record.people.rounds(player, 10)
            assert record.stats(player) == before
            assert record.recent_rounds(player, 100) == []
        if len(kept) == 3 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    # Kept with the rounds between people, unrated: the win, then two left rounds.
    assert people.hot_seat["3x3"] == HotSeatStanding(x_wins=1, abandoned=2)
    assert people.rating is None and people.rated == 0
    assert len(kept) == 3
