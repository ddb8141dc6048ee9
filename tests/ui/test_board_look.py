"""How the board draws (issue 13, items 2-4): large marks sized to the cell, even cells,
styles on the mark only, and the key numbers 1-9 where players can find them.

The board is read from `GameCell.symbol`, never from drawn lines; the drawing is checked
against the pure function that chooses it (`mark_lines`).
"""

from __future__ import annotations

from collections import Counter

import pytest
from support import SIZE, SMALL, board, cell, press
from textual.content import Content
from textual.geometry import Size

from tui_tictactoe.engine.board import EMPTY
from tui_tictactoe.ui.screens.game_screen import MIN_SIZE
from tui_tictactoe.ui.widgets import GameCell
from tui_tictactoe.ui.widgets.game_cell import LETTER_STYLES
from tui_tictactoe.ui.widgets.game_grid import even_cells
from tui_tictactoe.ui.widgets.marks import (
    DESIGNS,
    LARGEST_DRAWN_BY_HAND,
    MARGIN,
    drawn_mark,
    mark_lines,
)

SIZES = [(MIN_SIZE.width, MIN_SIZE.height), SMALL, SIZE, (100, 30), (200, 60)]
BLOCKS = set(" █▀▄")
Design = tuple[str, ...]


def fits(design: Design, width: int, height: int) -> bool:
    return len(design) <= height and len(design[0]) + 2 * MARGIN <= width


def every_design(symbol: str, up_to: int = 40) -> list[Design]:
    """The hand-drawn designs, then those drawn to size, up to `up_to` lines tall."""
    drawn = (drawn_mark(symbol, lines) for lines in range(LARGEST_DRAWN_BY_HAND + 1, up_to + 1))
    return [*DESIGNS[symbol], *drawn]


# -- the glyphs, as a pure function of (symbol, width, height) --------------------------


def test_every_design_is_a_rectangle_of_block_characters() -> None:
    """Block elements render in any UTF-8 font; equal widths keep the lines aligned."""
    for symbol in DESIGNS:
        for design in every_design(symbol):
            assert len({len(line) for line in design}) == 1, design
            assert set("".join(design)) <= BLOCKS, design


def test_x_and_o_differ_in_shape_at_every_size() -> None:
    """Without colour or text style (NO_COLOR, 256 colours) the shape tells them apart."""
    x_designs, o_designs = every_design("X"), every_design("O")
    assert [len(d) for d in x_designs] == [len(d) for d in o_designs]
    for x, o in zip(x_designs, o_designs, strict=True):
        assert len(x[0]) == len(o[0])
        differ = sum(
            a != b for xl, ol in zip(x, o, strict=True) for a, b in zip(xl, ol, strict=True)
        )
        assert differ >= len(x[0]), (x, o)


Pixels = tuple[tuple[bool, ...], ...]


def pixels(design: Design) -> Pixels:
    """The design as pixels: each character is an upper and a lower one."""
    rows: list[tuple[bool, ...]] = []
    for line in design:
        rows.append(tuple(c in "█▀" for c in line))
        rows.append(tuple(c in "█▄" for c in line))
    return tuple(rows)


def mirror_images(picture: Pixels) -> list[Pixels]:
    """The picture flipped every way, each also in negative (ink and paper swapped)."""
    flips = [
        picture,
        picture[::-1],
        tuple(r[::-1] for r in picture),
        tuple(r[::-1] for r in picture[::-1]),
    ]
    return flips + [tuple(tuple(not p for p in row) for row in flip) for flip in flips]


def centre(picture: Pixels) -> set[bool]:
    """The pixels at the very middle (two rows, and two columns if the width is even)."""
    height, width = len(picture), len(picture[0])
    rows = {(height - 1) // 2, height // 2}
    cols = {(width - 1) // 2, width // 2}
    return {picture[r][c] for r in rows for c in cols}


def test_x_and_o_are_more_than_mirror_images_of_each_other() -> None:
    """At every size that draws a large mark, X is not O flipped, turned or in negative
    (at 60x20 the two-line X and O once were), their glyphs differ (not the same strokes
    rearranged), and X crosses in the middle where O has its hole. None of it is colour."""
    for x, o in zip(every_design("X"), every_design("O"), strict=True):
        assert pixels(x) not in mirror_images(pixels(o)), (x, o)
        glyphs_x, glyphs_o = (
            Counter("".join(x).replace(" ", "")),
            Counter("".join(o).replace(" ", "")),
        )
        assert glyphs_x != glyphs_o, (x, o)
        assert centre(pixels(x)) == {True} and centre(pixels(o)) == {False}, (x, o)


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_the_largest_design_that_fits_is_chosen(symbol: str) -> None:
    for width in range(0, 80):
        for height in range(0, 30):
            lines = mark_lines(symbol, width, height)
            fitting = [d for d in every_design(symbol, height) if fits(d, width, height)]
            if fitting:
                assert lines == max(fitting, key=len)
            else:
                assert lines == (symbol,)  # a small cell: the letter


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_the_mark_grows_with_the_cell(symbol: str) -> None:
    heights = [len(mark_lines(symbol, 2 * h + 4, h)) for h in range(1, 21)]
    assert heights == sorted(heights)
    # The letter, every hand-drawn design, then a mark drawn to the cell's height.
    hand_drawn = {len(d) for d in DESIGNS[symbol]}
    assert set(heights) == {1} | hand_drawn | set(range(LARGEST_DRAWN_BY_HAND + 1, 21))


def test_an_empty_cell_draws_no_mark() -> None:
    assert mark_lines(EMPTY, 80, 40) == ()


# -- even cells ---------------------------------------------------------------------


@pytest.mark.parametrize("width", range(5, 130, 7))
@pytest.mark.parametrize("height", range(3, 60, 5))
def test_even_cells_are_as_large_as_fits(width: int, height: int) -> None:
    """At most two columns or rows are left over (for the margins), never a third cell's worth."""
    cell_size = even_cells(Size(width, height), 3, 1)
    assert 0 <= width - (cell_size.width * 3 + 2) < 3
    assert 0 <= height - cell_size.height * 3 < 3


# -- in the app ---------------------------------------------------------------------


def cells(app) -> list[GameCell]:
    found: list[GameCell] = app.game.grid.cells
    return found


def drawn(game_cell: GameCell) -> str:
    size = game_cell.content_size
    return "\n".join(mark_lines(game_cell.symbol, size.width, size.height))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_cells_are_even_and_marks_follow_their_size(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await press(pilot, "5")
        assert board(app).count("X") == 1 and board(app).count("O") == 1
        assert len({c.outer_size for c in cells(app)}) == 1, [c.outer_size for c in cells(app)]
        marked = [c for c in cells(app) if c.symbol != EMPTY]
        for game_cell in marked:
            assert str(game_cell.label) == drawn(game_cell)
        big = len(drawn(marked[0]).splitlines()) > 1
        if size in (SIZE, (200, 60)):
            assert big, f"a letter at {size}"


async def test_the_mark_redraws_when_the_terminal_grows_and_shrinks(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        centre = cell(app, 1, 1)
        heights = []
        for size in [*SIZES, SIZE]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert centre.symbol == "X"
            assert str(centre.label) == drawn(centre)
            heights.append(len(str(centre.label).splitlines()))
        assert heights[:-1] == sorted(heights[:-1]) and heights[-1] == heights[2]
        assert heights[0] == 1 < heights[-2]


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_a_large_cell_gets_a_large_mark(make_app, size) -> None:
    """The mark keeps up with the cell instead of stopping at the largest drawn by hand:
    it fills the cell's height (but for a line of slack) as far as its width allows."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await press(pilot, "5")
        for game_cell in (c for c in cells(app) if c.symbol != EMPTY):
            room = game_cell.content_size
            lines = str(game_cell.label).splitlines()
            assert len(lines) >= room.height - 1, (room, len(lines))
            assert len(lines[0]) + 2 * MARGIN <= room.width


async def test_the_board_grows_past_60_columns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        grid = app.game.grid
        assert grid.outer_size.width > 100
        assert cell(app, 0, 0).outer_size.width > 30


async def test_a_letter_is_styled_on_the_letter_only(make_app) -> None:
    """Where the cell is small: bold X, bold italic underlined O, and no style on the
    cell itself (which would reach the blank lines around the letter)."""
    app = make_app(symbol="O", first="ai")
    async with app.run_test(size=(MIN_SIZE.width, MIN_SIZE.height)) as pilot:
        await press(pilot, "1")
        for game_cell in cells(app):
            assert not game_cell.styles.text_style.underline
            if game_cell.symbol != EMPTY:
                label = game_cell.label
                assert isinstance(label, Content) and str(label) == game_cell.symbol
                assert [span.style for span in label.spans] == [LETTER_STYLES[game_cell.symbol]]


async def test_large_marks_carry_no_text_style(make_app, scripted) -> None:
    """The shape tells X from O; the winning line keeps its highlight (a class)."""
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3")
        for game_cell in cells(app):
            assert not game_cell.styles.text_style.underline
            assert isinstance(game_cell.label, Content) and not game_cell.label.spans
        winners = [c for c in cells(app) if c.has_class("-winning")]
        assert [c.symbol for c in winners] == ["X", "X", "X"]
        assert all(len(str(c.label).splitlines()) > 1 for c in winners)


async def test_empty_cells_show_their_key_number(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        geometry = app.controller.board.geometry
        for game_cell in cells(app):
            assert str(game_cell.label) == str(geometry.key(game_cell.row, game_cell.col))
            assert game_cell.has_class("-empty")
        await press(pilot, "5")
        for game_cell in cells(app):
            assert game_cell.has_class("-empty") == (game_cell.symbol == EMPTY)
            if game_cell.symbol != EMPTY:
                assert str(game_cell.key) not in str(game_cell.label)


async def test_overlays_keep_working_over_large_marks(make_app, scripted) -> None:
    """Analysis, hint, cursor and the AI's last move are classes and borders: the marks
    stay drawn as they are."""
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "a", "h")
        ai = app.controller.last_ai_move
        assert ai is not None and cell(app, *ai).has_class("-last-ai")
        assert cell(app, 0, 0).has_class("-cursor")
        for game_cell in cells(app):
            if game_cell.symbol != EMPTY:
                assert str(game_cell.label) == drawn(game_cell)
                assert str(game_cell.border_subtitle) == ""
            else:
                assert str(game_cell.border_subtitle) != ""
        assert sum(c.has_class("-hint") for c in cells(app)) == 1


# -- the keys 1-9 (the key bar lists them: test_fit.py) ---------------------------------


@pytest.mark.parametrize("size", [MIN_SIZE, SMALL, SIZE], ids=["minimum", "60x20", "80x24"])
async def test_key_1_plays_at_every_size(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await press(pilot, "1")
        assert cell(app, 0, 0).symbol == "X"
