"""Every built-in theme keeps the board readable in truecolor, 256 colours and 16 colours.

Textual hands its colours to Rich, which turns each into the nearest colour the
terminal has (`Color.downgrade`): in 256 colours (OpenSSH does not pass COLORTERM
on, tmux without the Tc flag) or 16. Two parts of the board that end up as the same
colour merge: with TERM=tmux-256color, solarized-light once drew the cell borders in
the background's colour. So, per theme and depth, the parts a player must tell apart
must still be different colours after the downgrade (in truecolor: visibly
different). The ansi-* themes are left out: they use the terminal's own palette
(default colours), which is the terminal's to keep readable.
"""

from __future__ import annotations

import pytest
from rich.color import ColorSystem
from support import SIZE, ScriptedStrategy, make_app, press
from textual.color import Color

from tui_tictactoe.engine import EMPTY
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.widgets import GameCell

DEPTHS: dict[str, ColorSystem | None] = {  # the app knows its depth from Rich's console
    "truecolor": None,
    "256 colours": ColorSystem.EIGHT_BIT,
    "16 colours": ColorSystem.STANDARD,
}
MIN_DISTANCE = 40
"""In truecolor, the least RGB distance that reads as a different colour on a terminal."""


def themes() -> list[str]:
    app = TicTacToeApp()
    return sorted(name for name in app.available_themes if not name.startswith("ansi"))


def distinct(a: Color, b: Color, depth: ColorSystem | None) -> bool:
    if depth is None:
        return sum((x - y) ** 2 for x, y in zip(a.rgb, b.rgb, strict=True)) ** 0.5 >= MIN_DISTANCE
    return a.rich_color.downgrade(depth).number != b.rich_color.downgrade(depth).number


def border(cell: GameCell) -> Color:
    """The border as drawn: its colour laid over the cell's background."""
    return cell.background_colors[1] + cell.styles.border_top[1]


def behind(cell: GameCell) -> Color:
    """What is around the cell (the grid's background): the border must stand out from it."""
    return cell.background_colors[0]


def mark(cell: GameCell) -> Color:
    color = cell.rich_style.color
    assert color is not None
    return Color.from_rich_color(color)


def background(cell: GameCell) -> Color:
    return cell.background_colors[1]


async def parts_of_the_board(theme: str, few_colours: bool) -> dict[str, dict[str, Color]]:
    """The colours of every part of the board that matters, mid-round and after a win."""
    app = make_app(strategy=ScriptedStrategy((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        app.set_class(few_colours, "-few-colours")  # what the app does in such a terminal
        await press(pilot, "1", "right")  # X top-left, O (the AI's last move) below it
        cells = list(app.game.grid.query(GameCell))
        x, cursor, plain, o = cells[0], cells[1], cells[8], cells[3]
        assert x.symbol == "X" and o.symbol == "O" and o.has_class("-last-ai")
        assert cursor.has_class("-cursor") and plain.symbol == EMPTY
        mid = {
            "behind": behind(plain),
            "border": border(plain),
            "cursor border": border(cursor),
            "last AI move border": border(o),
            "X": mark(x),
            "X cell": background(x),
            "O": mark(o),
            "O cell": background(o),
        }
        await press(pilot, "2", "3")  # X takes the top row
        winning = cells[1]
        assert winning.has_class("-winning")
        over = {"behind": behind(cells[8]), "winning border": border(winning)}
        return {"mid": mid, "over": over}


PAIRS = [
    ("mid", "border", "behind"),  # the cells do not merge into the background
    ("mid", "cursor border", "behind"),
    ("mid", "cursor border", "border"),  # the cursor stands out from the other cells
    ("mid", "last AI move border", "behind"),
    ("mid", "X", "X cell"),  # the marks show on their cells
    ("mid", "O", "O cell"),
    ("over", "winning border", "behind"),
]


@pytest.mark.parametrize("theme", themes())
async def test_the_board_stays_readable_at_every_colour_depth(theme: str) -> None:
    merged = []
    for depth, system in DEPTHS.items():
        parts = await parts_of_the_board(theme, few_colours=system is ColorSystem.STANDARD)
        merged += [
            f"{depth}: {a} and {b} ({parts[state][a].hex} vs {parts[state][b].hex})"
            for state, a, b in PAIRS
            if not distinct(parts[state][a], parts[state][b], system)
        ]
    assert not merged, f"{theme}: " + "; ".join(merged)
