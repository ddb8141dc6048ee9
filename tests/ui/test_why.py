"""`w`, "why can't I win?" on 6x6: the AI's pairs drawn on the board as letters, each letter
on exactly two empty cells, the pairing checked by `pairing.check`; gone once the position
changes. On 3x3 it only says that the overlay tells it all (tests/ui/test_command_table.py)."""

from __future__ import annotations

from support import make_app, press

from tui_tictactoe.controller.status import WHY_PAIRS
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.pairing import check

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
