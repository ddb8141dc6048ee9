"""Pilot tests for the teaching aids: the analysis overlay, hints and the AI info panel."""

from __future__ import annotations

import threading

from support import SIZE, GatedSearch, ai_thinking, note, press, settle, status

from tui_tictactoe.engine.geometry import STANDARD
from tui_tictactoe.engine.search import shared_search
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.strategies import Decision, RandomStrategy
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.widgets import GameCell
from tui_tictactoe.ui.widgets.game_cell import verdict_place, verdict_text
from tui_tictactoe.ui.widgets.reasoning_panel import ReasoningPanel, describe, format_seconds


def cells(app: TicTacToeApp) -> dict[tuple[int, int], GameCell]:
    return {(cell.row, cell.col): cell for cell in app.query(GameCell)}


def shown_verdicts(app: TicTacToeApp) -> dict[tuple[int, int], str]:
    return {position: str(cell.border_subtitle) for position, cell in cells(app).items()}


def assert_overlay_matches_the_engine(app: TicTacToeApp) -> None:
    """Every empty cell shows the engine's verdict and best marks, in its border, not its label."""
    analysis = app.controller.teacher.analysis()
    expected = {move.cell: str(move.verdict) for move in analysis.moves}
    assert expected, "the overlay is only checked while the human is to move"
    for position, cell in cells(app).items():
        assert str(cell.border_subtitle) == expected.get(position, "")
        assert cell.has_class("-best") == (position in analysis.best)
        assert not any(word in str(cell.label) for word in ("win", "draw", "loss"))
        if position in expected:
            verdict = analysis.verdict_at(position)
            assert verdict is not None
            outcome = verdict.outcome
            assert cell.has_class(f"-{outcome}")


def info_text(app: TicTacToeApp) -> str:
    return str(app.query_one(ReasoningPanel).content)


# -- the analysis overlay -----------------------------------------------------


async def test_overlay_shows_the_verdict_of_every_empty_cell(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "a")
        assert_overlay_matches_the_engine(app)
        verdicts = shown_verdicts(app)
        assert verdicts[0, 2] == "win in 1"
        assert verdicts[2, 0] == "loss in 2"
        assert verdicts[1, 2] == "draw"
        assert cells(app)[0, 2].has_class("-best")
        assert not cells(app)[2, 0].has_class("-best")


async def test_overlay_follows_every_move_and_the_reset(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "a")
        assert set(shown_verdicts(app).values()) == {"draw"}  # the empty board
        for key in "159":
            if app.controller.game_over:
                break
            if app.controller.board.to_string()[int(key) - 1] != ".":
                continue
            await press(pilot, key)
            if not app.controller.game_over:
                assert_overlay_matches_the_engine(app)
        await press(pilot, "r")
        assert set(shown_verdicts(app).values()) == {"draw"}
        assert app.controller.board.to_string() == "........."


async def test_overlay_clears_when_the_round_ends_and_when_turned_off(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "a", "1", "2")
        assert any(shown_verdicts(app).values())
        await press(pilot, "3")  # wins
        assert not any(shown_verdicts(app).values())
        await press(pilot, "r")
        assert any(shown_verdicts(app).values())
        await press(pilot, "a")
        assert not any(shown_verdicts(app).values())
        assert not any(cell.has_class("-best") for cell in cells(app).values())


async def test_analysis_after_the_round_says_so_and_the_title_shows_it(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        await press(pilot, "a")
        assert note(app) == "Analysis on: it shows in the next round (press r)."
        assert status(app) == "You win with X! Press r for a new round."  # the result stays
        assert (app.game.sub_title or "").endswith("· analysis on")
        await press(pilot, "r")
        assert any(shown_verdicts(app).values())  # on in the new round
        await pilot.press("ctrl+p")
        await press(pilot, "a")
        assert not any(shown_verdicts(app).values())  # off again, from the menu
        assert not (app.game.sub_title or "").endswith("· analysis on")


async def test_the_5x5_opening_overlay_is_read_whole_without_a_search(make_app) -> None:
    """`a` on the empty 5x5 board: every verdict is stored, so the overlay is done after
    one worker round, its search held shut and never asked (fails before: it searched
    each cell, ~120 s, and waited here at the gate with 'analysing 0/25…')."""
    gate = threading.Event()  # never opened
    app = make_app(board="5", record=False)
    app.controller.teacher.analysis_search = lambda g: GatedSearch(shared_search(g), gate)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        for _ in range(100):  # one worker round; bounded by steps (a search would wait)
            if (app.game.sub_title or "").endswith("· analysis done"):
                break
            await pilot.pause(0.02)
        title = app.game.sub_title
        gate.set()  # (a held search would keep the app from quitting)
        assert title.endswith("· analysis done")
        assert_overlay_matches_the_engine(app)
        assert len([v for v in shown_verdicts(app).values() if v]) == 25


async def test_overlay_waits_while_the_ai_thinks() -> None:
    """The side to move is then the AI: its verdicts would only flash, so none are shown."""
    async with ai_thinking((0, 0), keys=("a", "5")) as (app, pilot, strategy):
        await pilot.pause()
        assert not any(shown_verdicts(app).values())
        strategy.gate.set()
        await settle(pilot)
        assert_overlay_matches_the_engine(app)


def test_verdicts_shorten_to_fit_narrow_cells() -> None:
    loss = Verdict("loss", 2)
    assert [verdict_text(loss, room) for room in (9, 8, 6, 2, 1, 0)] == [
        "loss in 2",
        "loss 2",
        "loss 2",
        "L2",
        "L",
        "",
    ]
    assert verdict_text(Verdict("draw", 5), 4) == "draw"
    assert verdict_text(Verdict("draw", 5), 3) == "D"


def test_a_verdict_moves_inside_the_cell_where_the_border_has_no_room_for_its_code() -> None:
    loss, draw = Verdict("loss", 12), Verdict("draw", 5)
    assert verdict_place(loss, 9, 7) == ("loss 12", "")
    assert verdict_place(loss, 3, 7) == ("L12", "")
    assert verdict_place(loss, 2, 7) == ("", "loss 12")  # never a lone "L" in the border
    assert verdict_place(loss, 2, 2) == ("", "L")
    assert verdict_place(draw, 1, 4) == ("D", "")
    assert verdict_place(draw, 0, 4) == ("", "draw")


# -- hints -------------------------------------------------------------------------


async def test_hint_marks_a_best_move_until_the_next_move(make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1), (2, 2)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "h")
        hinted = [position for position, cell in cells(app).items() if cell.has_class("-hint")]
        assert hinted == [(0, 2)]  # the only best move: it wins at once
        assert note(app) == "Hint: cell 3 is a best move."
        assert status(app) == "AI played 5. Your turn: you play X."
        await press(pilot, "6")  # ignore the hint: block instead
        assert not any(cell.has_class("-hint") for cell in cells(app).values())
        await press(pilot, "h")
        (hint,) = [pos for pos, cell in cells(app).items() if cell.has_class("-hint")]
        assert hint in app.controller.teacher.analysis().best


async def test_hint_waits_for_the_ai_and_is_refused_after_the_round(make_app, scripted) -> None:
    async with ai_thinking((0, 0)) as (app, pilot, strategy):
        await pilot.press("h")  # asked while the AI thinks: answered after its reply
        assert status(app) == "AI is thinking…"
        assert not any(cell.has_class("-hint") for cell in cells(app).values())
        strategy.gate.set()
        await settle(pilot)
        (hinted,) = [pos for pos, cell in cells(app).items() if cell.has_class("-hint")]
        assert hinted in app.controller.teacher.analysis().best
        assert note(app).startswith("Hint: cell ")

    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3", "h")
        assert note(app) == "No hint: the round is over."
        assert status(app) == "You win with X! Press r for a new round."
        await press(pilot, "r", "h")
        assert sum(cell.has_class("-hint") for cell in cells(app).values()) == 1


async def test_hints_are_repeatable_with_a_seed(make_app) -> None:
    async def hint_cell(seed: int) -> tuple[int, int]:
        app = make_app(seed=seed)
        async with app.run_test(size=SIZE) as pilot:
            await press(pilot, "h")
            return next(pos for pos, cell in cells(app).items() if cell.has_class("-hint"))

    assert await hint_cell(11) == await hint_cell(11)


# -- the AI info panel --------------------------------------------------------------


async def test_info_panel_toggles_and_shows_the_last_decision(make_app, steady) -> None:
    app = make_app(strategy=steady())
    async with app.run_test(size=SIZE) as pilot:
        # Mounted on the first toggle: start-up does not pay for a hidden panel.
        assert not app.game.query(ReasoningPanel)
        await press(pilot, "i")
        panel = app.query_one(ReasoningPanel)
        await pilot.pause()
        assert panel.display and panel.region.x >= app.query_one("#play").region.right
        assert info_text(app) == "The AI has not moved yet this round."
        await press(pilot, "1")
        decision = app.controller.minimax.last_decision
        row, col = decision.move
        assert app.controller.board.game_board[row][col] == "O"
        text = info_text(app)
        assert f"cell {STANDARD.key(row, col)}\nRow, column\n  {row + 1}, {col + 1}" in text
        assert str(decision.verdict) in text
        assert f"{decision.positions_searched:,} positions" in text
        assert "412 µs" in text
        assert f"{decision.plain_nodes:,} nodes" in text
        await press(pilot, "i")
        assert not panel.display
        await press(pilot, "i")  # shown again: the same panel, still up to date
        assert panel.display and app.query_one(ReasoningPanel) is panel
        assert f"cell {STANDARD.key(row, col)}\nRow, column\n  {row + 1}, {col + 1}" in info_text(
            app
        )


async def test_info_panel_updates_after_each_ai_move_and_new_game(make_app, steady) -> None:
    app = make_app(strategy=steady())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "i", "1")
        first = info_text(app)
        free = app.controller.board.to_string().index(".")
        await press(pilot, str(free + 1))
        assert info_text(app) != first
        await press(pilot, "n")
        await pilot.click("#start")
        await pilot.pause()
        assert app.controller.minimax is not None


async def test_info_panel_for_an_ai_without_reasoning(make_app) -> None:
    app = make_app(strategy=RandomStrategy())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "i", "5")
        assert info_text(app) == "This AI does not report how it chose its moves."


def test_info_panel_wording() -> None:
    assert format_seconds(0.000_000_4) == "0 µs"
    assert format_seconds(0.000_412) == "412 µs"
    assert format_seconds(0.0123) == "12.3 ms"
    assert format_seconds(2.5) == "2.50 s"
    memo = Decision((1, 1), Verdict("draw", 8), 0, 1e-6, 59_705, None)
    rows = dict(describe(memo, STANDARD))
    assert rows["Searched"] == "0 (memo table)"
    assert rows["Played"] == "cell 5"
    assert rows["Row, column"] == "2, 2"
    assert rows["Plain minimax"] == "59,705 nodes"
    assert rows["Looks ahead"] == "to the end"
    shallow = Decision((0, 0), Verdict("win", 1), 7, 1e-6, 82, 2)
    rows = dict(describe(shallow, STANDARD))
    assert rows["Looks ahead"] == "2 plies"
    assert rows["Searched"] == "7 positions"
    assert rows["Plain, same depth"] == "82 nodes"  # not the whole game tree
    one = dict(describe(Decision((0, 0), Verdict("win", 1), 1, 1e-6, 1, 1), STANDARD))
    assert (one["Looks ahead"], one["Searched"], one["Plain, same depth"]) == (
        "1 ply",
        "1 position",
        "1 node",
    )


async def test_the_key_bar_says_whether_analysis_is_on(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        bar = app.game.key_bar
        assert "a Show analysis" in " ".join(bar.lines(SIZE[0]))
        await press(pilot, "a")
        assert "a Hide analysis" in " ".join(bar.lines(SIZE[0]))
        await press(pilot, "a")
        assert "a Show analysis" in " ".join(bar.lines(SIZE[0]))


async def test_the_info_panel_forgets_a_move_taken_back_or_left_behind(make_app, steady) -> None:
    """After `u`, `r` or a new game the panel shows the decision behind the AI move now
    on the board, or none: never a move that is no longer there."""
    app = make_app(strategy=steady())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "i", "5")
        first = app.controller.last_ai_move
        assert f"cell {STANDARD.key(*first)}\n" in info_text(app)
        free = app.controller.board.to_string().index(".") + 1
        await press(pilot, str(free))
        second = app.controller.last_ai_move
        assert f"cell {STANDARD.key(*second)}\n" in info_text(app)
        await press(pilot, "u")  # back to the AI's first move: its decision again
        assert app.controller.last_ai_move == first
        assert f"cell {STANDARD.key(*first)}\n" in info_text(app)
        await press(pilot, "u")  # nothing of the AI's left
        assert info_text(app) == "The AI has not moved yet this round."
        await press(pilot, "5", "r")
        assert info_text(app) == "The AI has not moved yet this round."
        await press(pilot, "5", "n", "enter")
        assert info_text(app) == "The AI has not moved yet this round."


def test_a_win_along_a_line_of_fours_shows_no_count_it_has_not_proven() -> None:
    """6x6: a line of fours may not be the shortest win, so no cell says "win 7" or "W7"."""
    verdict = Verdict("win", 7, shortest=False)
    assert str(verdict) == "win"
    assert [verdict_text(verdict, room) for room in (1, 3, 9)] == ["W", "win", "win"]


def test_the_panel_says_what_proves_a_pairing_move_and_shows_the_line() -> None:
    """6x6 (issue 37): a move by a pairing searched nothing and looks no further than its
    pairs; every decision's line is shown, cut with "…" to one panel line."""
    from tui_tictactoe.engine.geometry import geometry

    pairs = ((0, 1), (2, 3))
    decision = Decision((2, 2), Verdict("draw", 34), 0, 1e-4, None, None, "pairing", pairs, (14,))
    rows = dict(describe(decision, geometry(6, 5)))
    assert rows["Searched"] == "0 (pairing kept)" and rows["Looks ahead"] == "not needed"
    assert rows["Proof"] == "2 pairs" and rows["Line"] == "15"
    long = decision._replace(line=tuple(range(9)), proof=None)
    assert dict(describe(long, STANDARD))["Line"] == "1, 2, 3, 4…"  # "Line: " on its line
