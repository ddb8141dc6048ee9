"""`w`, "why can't I win?" on 6x6: the AI's pairs drawn on the board as letters, each letter
on exactly two empty cells, the pairing checked by `pairing.check`; gone once the position
changes. On 3x3 it only says that the overlay tells it all (tests/ui/test_command_table.py).
The key bar offers it on 6x6 against the AI, mid-round, in `s Stats`'s room (issue 37)."""

from __future__ import annotations

import pytest
from support import SIZE, make_app, press

from tui_tictactoe.controller.status import WHY_PAIRS
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.pairing import check
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.screens.stats_screen import StatsScreen
from tui_tictactoe.ui.widgets.key_bar import game_keys

G6 = geometry(6, 5)


async def test_w_draws_the_ais_pairs_as_letters_and_they_hold() -> None:
    app = make_app(board="6", record=False, seed=3)
    async with app.run_test(size=(80, 26)) as pilot:
        await press(pilot, "enter")  # X at the cursor; the AI (O) answers by its pairing
        assert app.controller.board.to_string().count(".") == 34
        await press(pilot, "w")
        note = app.game.status.note
        assert note is not None and note.text == WHY_PAIRS
        letters: dict[str, list[int]] = {}
        for cell in app.game.grid.cells:
            if cell.pair_letter:
                assert cell.symbol == " "
                letters.setdefault(cell.pair_letter, []).append(G6.index(cell.row, cell.col))
        assert letters and all(len(cells) == 2 for cells in letters.values())
        pairs = tuple(tuple(sorted(cells)) for cells in letters.values())
        o, x = app.controller.board.masks_for("O")
        assert check(G6, o, x, pairs) is None  # type: ignore[arg-type]
        await press(pilot, "right", "enter")  # a move: the pairs were about the position before
        assert not any(cell.pair_letter for cell in app.game.grid.cells)


def pair_letters(app: TicTacToeApp) -> set[str]:
    return {cell.pair_letter for cell in app.game.grid.cells if cell.pair_letter}


@pytest.mark.parametrize("size", [SIZE, (60, 19)], ids=["80x24", "60x19"])
async def test_the_6x6_key_bar_against_the_ai_offers_w_and_a_click_on_it_draws_the_pairs(
    size: tuple[int, int],
) -> None:
    """6x6's own sizes (60x19 its least, compact cells): `w Why` in the two lines of the bar,
    `s Stats` gone from it to keep them two, and `s` still opens the stats."""
    app = make_app(board="6", record=False, seed=3)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "enter")  # X at the cursor; the AI (O) answers by its pairing
        game = app.game
        assert not game.has_class("-too-small")
        lines = game.key_bar.lines(size[0])
        assert len(lines) == 2 and all(len(line) <= size[0] for line in lines)
        shown = " ".join(lines)
        assert "w Why" in shown and "s Stats" not in shown and shown.endswith("q Quit")
        (y, x), *_ = [(y, line.find("w Why")) for y, line in enumerate(lines) if "w Why" in line]
        assert not pair_letters(app)
        await pilot.click("#keys", offset=(x + 2, y))
        await pilot.pause()
        note = game.status.note
        assert note is not None and note.text == WHY_PAIRS and pair_letters(app)
        await press(pilot, "s")
        assert isinstance(app.screen, StatsScreen)


BARS_AGAINST_THE_AI = {
    "3": "↑↓←→ Move  1-9 Play  r Reset  n New game  u Take back  h Hint  a Show analysis  "
    "i AI info  s Stats  ? Help  ^p Menu  q Quit",
    "4": "↑↓←→ Move  Enter Play  r Reset  n New game  u Take back  h Hint  a Show analysis  "
    "i AI info  s Stats  ? Help  ^p Menu  q Quit",
}
BARS_AGAINST_THE_AI["5"] = BARS_AGAINST_THE_AI["4"]


@pytest.mark.parametrize("board", sorted(BARS_AGAINST_THE_AI))
async def test_the_key_bar_of_3x3_to_5x5_keeps_s_and_has_no_w(board: str) -> None:
    app = make_app(board=board, record=False)
    async with app.run_test(size=(160, 24)) as pilot:
        await press(pilot, "enter" if board != "3" else "5")
        assert app.game.key_bar.lines(160) == [BARS_AGAINST_THE_AI[board]]


async def test_between_people_the_6x6_bar_keeps_s_and_w_only_says_why_not() -> None:
    """`w` teaches with the AI: between people it does nothing, so the bar does not offer it."""
    app = make_app(board="6", opponent="human", record=False)
    async with app.run_test(size=(160, 24)) as pilot:
        await press(pilot, "enter")
        (line,) = app.game.key_bar.lines(160)
        assert "s Stats" in line and "w Why" not in line
        await press(pilot, "w")
        note = app.game.status.note
        assert note is not None and note.text.startswith("No why now") and not pair_letters(app)


def test_once_the_round_is_over_w_leaves_the_bar_to_s() -> None:
    """Over, `w` has no position to prove ("not your turn"): `v` and `s` are in the bar."""
    keys = [hint.keys for hint in game_keys(6, False, over=True)]
    assert "w" not in keys and "s" in keys and "v" in keys
    assert [hint.keys for hint in game_keys(6, False)].count("s") == 0
