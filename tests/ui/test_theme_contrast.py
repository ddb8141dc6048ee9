"""Every built-in theme keeps the board readable in truecolor, 256 colours and 16 colours.

Textual hands its colours to Rich, which turns each into the nearest colour the
terminal has (`rich.color.Color.downgrade`): 256 colours over OpenSSH (it does not
pass COLORTERM on) or in tmux without the Tc flag, 16 in older terminals. Two parts
of the board that must be told apart can end up as the same colour, or as two
colours no one can tell apart: with TERM=tmux-256color, catppuccin-frappe drew its
cell borders #585858 on #5f5f5f, so the cells merged.

So the test reads the colours as drawn (the cell's rendered line, through the app's
own line filters), rounds them the way Rich does for each colour depth, looks up
what the terminal shows for the resulting palette entry, and requires a perceptual
distance (CIEDE2000, below) between every pair a player must tell apart.

The app tells the stylesheet its colour depth with a class (`COLOUR_DEPTH_CLASSES`,
set only in a real terminal; 16 colours also add a stylesheet of their own): here
`show_colour_depth` sets each depth in turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import pytest
from colour_tools import FAINT, RGB, delta_e, distance
from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from rich.color_triplet import ColorTriplet
from support import SIZE, ScriptedStrategy, make_app, press
from textual.geometry import Region

from tui_tictactoe.ui.app import TicTacToeApp, colour_depth_class
from tui_tictactoe.ui.widgets import GameCell

# -- what a person can see ------------------------------------------------------------


STRONG = 15.0
"""Least CIEDE2000 distance for what a player looks for at a glance: a mark on its
cell, the cursor, the hint, the winning line and the AI's last move, each against
the cell it is drawn on and against a plain border. 10 is commonly taken as the
point where two colours stop looking like one; 15 leaves room for a thin stroke."""

# -- the terminal's palettes ------------------------------------------------------------

VGA: tuple[RGB, ...] = (
    *((0, 0, 0), (170, 0, 0), (0, 170, 0), (170, 85, 0)),
    *((0, 0, 170), (170, 0, 170), (0, 170, 170), (170, 170, 170)),
    *((85, 85, 85), (255, 85, 85), (85, 255, 85), (255, 255, 85)),
    *((85, 85, 255), (255, 85, 255), (85, 255, 255), (255, 255, 255)),
)
"""The 16 colours as Rich assumes them (its STANDARD_PALETTE, the VGA colours): the
palette it picks the nearest entry from. The terminal shows its own palette for that
entry, hence also `XTERM`."""

XTERM: tuple[RGB, ...] = (
    *((0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0)),
    *((0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229)),
    *((127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0)),
    *((92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)),
)
"""xterm's default 16 colours, the palette most terminals start from."""


class Depth(NamedTuple):
    system: ColorSystem | None  # None: truecolor, drawn as is
    palette: tuple[RGB, ...] = ()  # what the terminal shows for a 16-colour entry
    rich_name: str = "truecolor"  # `Console.color_system` in such a terminal


DEPTHS = {
    "truecolor": Depth(None),
    "256 colours": Depth(ColorSystem.EIGHT_BIT, rich_name="256"),
    "16 colours (VGA)": Depth(ColorSystem.STANDARD, VGA, "standard"),
    "16 colours (xterm)": Depth(ColorSystem.STANDARD, XTERM, "standard"),
}


def as_rgb(triplet: ColorTriplet) -> RGB:
    """Rich's colour triplet as the plain (red, green, blue) the distances take."""
    return (triplet.red, triplet.green, triplet.blue)


def shown(rgb: RGB, depth: Depth) -> RGB:
    """The colour the terminal shows for `rgb`, after Rich rounded it to `depth`."""
    if depth.system is None:
        return rgb
    colour = RichColor.from_rgb(*rgb).downgrade(depth.system)
    assert colour.number is not None
    if colour.type is ColorType.STANDARD:
        return depth.palette[colour.number]
    return as_rgb(colour.get_truecolor())  # the 256-colour cube and greys: the same everywhere


# -- CIEDE2000 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # from Sharma, Wu and Dalal's test data (2005)
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 2.5, 0), (73, 25, -18), 27.1492),
        ((50, -1, 2), (50, 0, 0), 2.3669),
        ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_delta_e_matches_the_published_test_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert delta_e(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_rounding_to_256_colours_merges_what_truecolor_keeps_apart() -> None:
    """The rounding is what the test is about: frappe's border and cell, once apart, merge."""
    border, cell = (0x58, 0x5B, 0x70), (0x41, 0x45, 0x59)
    assert distance(border, cell) > FAINT
    assert distance(shown(border, DEPTHS["256 colours"]), shown(cell, DEPTHS["256 colours"])) < 3


# -- the board as drawn -------------------------------------------------------------------


class Ink(NamedTuple):
    """One character cell as drawn: its colour and its background."""

    fg: RGB
    bg: RGB


def drawn_row(app: TicTacToeApp, cell: GameCell, y: int) -> Iterator[tuple[str, Ink | None]]:
    """Row `y` of `cell` (0: its top border) as the terminal gets it, segment by segment:
    the text and its ink (None for blanks that set no colour)."""
    (strip,) = cell.render_lines(Region(0, y, cell.region.width, 1))
    segments = list(strip)
    for line_filter in app.get_line_filters():
        segments = line_filter.apply(segments, app.screen.styles.background)
    for segment in segments:
        style = segment.style
        assert style is not None and style.bgcolor is not None
        bg = style.bgcolor.get_truecolor(app.ansi_theme, foreground=False)
        fg = None if style.color is None else style.color.get_truecolor(app.ansi_theme)
        yield segment.text, None if fg is None else Ink(as_rgb(fg), as_rgb(bg))


def border(app: TicTacToeApp, cell: GameCell) -> Ink:
    """The top border's line (its first segment: the corner and the line beside it)."""
    text, ink = next(drawn_row(app, cell, 0))
    assert text.strip() and ink is not None, f"no border drawn on {cell.id}"
    return ink


def mark(app: TicTacToeApp, cell: GameCell) -> Ink:
    """The first character of the mark on the cell's middle row."""
    middle = cell.region.height // 2
    for text, ink in list(drawn_row(app, cell, middle))[1:-1]:  # inside the side borders
        if text.strip() and ink is not None:
            return ink
    raise AssertionError(f"no mark drawn on {cell.id}")


def ground(app: TicTacToeApp, cell: GameCell) -> RGB:
    """The cell's own background, inside its border."""
    (strip,) = cell.render_lines(Region(0, 1, cell.region.width, 1))
    style = list(strip)[1].style
    assert style is not None and style.bgcolor is not None
    return as_rgb(style.bgcolor.get_truecolor(app.ansi_theme, foreground=False))


class Pair(NamedTuple):
    what: str
    a: RGB
    b: RGB
    least: float


def board_pairs(app: TicTacToeApp, cells: list[GameCell], over: bool) -> list[Pair]:
    """Every pair of colours a player must tell apart, in the board as it is now."""
    plain = cells[8]  # key 9: empty, and neither cursor, hint nor winning
    assert plain.symbol == " " and plain.classes <= {"cell", "-empty", "-style-default"}
    plain_border = border(app, plain)
    if over:
        winning = next(c for c in cells if c.has_class("-winning") and not c.has_class("-cursor"))
        x_on_win = next(c for c in cells if c.has_class("-winning") and c.symbol == "X")
        return [
            Pair("plain border on its cell", *plain_border, FAINT),
            Pair("winning border on its cell", *border(app, winning), STRONG),
            Pair(
                "winning border vs plain border", border(app, winning).fg, plain_border.fg, STRONG
            ),
            Pair("winning cell vs plain cell", ground(app, winning), ground(app, plain), FAINT),
            Pair("X on a winning cell", *mark(app, x_on_win), STRONG),
        ]
    x, cursor, o = cells[0], cells[1], cells[3]
    hint = next(c for c in cells if c.has_class("-hint") and not c.has_class("-cursor"))
    return [
        Pair("plain border on its cell", *plain_border, FAINT),
        Pair("cursor border on its cell", *border(app, cursor), STRONG),
        Pair("cursor border vs plain border", border(app, cursor).fg, plain_border.fg, STRONG),
        Pair("last AI move's border on its cell", *border(app, o), STRONG),
        Pair("last AI move's border vs plain border", border(app, o).fg, plain_border.fg, STRONG),
        Pair("last AI move's border vs cursor", border(app, o).fg, border(app, cursor).fg, FAINT),
        Pair("hint border on its cell", *border(app, hint), STRONG),
        Pair("hint border vs plain border", border(app, hint).fg, plain_border.fg, STRONG),
        Pair("hint border vs cursor", border(app, hint).fg, border(app, cursor).fg, FAINT),
        Pair("X on its cell", *mark(app, x), STRONG),
        Pair("O on its cell", *mark(app, o), STRONG),
        Pair("X vs O", mark(app, x).fg, mark(app, o).fg, FAINT),
    ]


def themes() -> list[str]:
    """Every built-in theme but ansi-dark and ansi-light, which draw in the terminal's own
    default colours and palette: whatever they are, the terminal's to keep readable."""
    return sorted(name for name in TicTacToeApp().available_themes if not name.startswith("ansi"))


async def measure(theme: str) -> dict[str, list[Pair]]:
    """The pairs of `theme` at every depth, mid-round (X at 1, the AI's O at 4, the cursor
    on 2, a hint shown) and after X wins the top row."""
    app = make_app(strategy=ScriptedStrategy((1, 0), (1, 1)))
    found: dict[str, list[Pair]] = {name: [] for name in DEPTHS}
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        cells = list(app.game.grid.cells)
        for over, keys in ((False, ("1", "right", "h")), (True, ("2", "3"))):
            await press(pilot, *keys)
            assert app.game.grid.has_class("-over") == over
            for name, depth in DEPTHS.items():
                app.show_colour_depth(colour_depth_class(depth.rich_name, headless=False))
                await pilot.pause()
                found[name] += board_pairs(app, cells, over)
    return found


def contrasts(found: dict[str, list[Pair]]) -> Iterator[tuple[float, str, Pair]]:
    """(distance as shown, depth, pair) for every pair at every depth."""
    for name, pairs in found.items():
        for pair in pairs:
            yield distance(shown(pair.a, DEPTHS[name]), shown(pair.b, DEPTHS[name])), name, pair


@pytest.mark.parametrize("theme", themes())
async def test_the_board_stays_readable_at_every_colour_depth(theme: str) -> None:
    too_close = [
        f"{name}: {pair.what}: {seen:.1f} < {pair.least} "
        f"(#{bytes(pair.a).hex()} vs #{bytes(pair.b).hex()} in truecolor)"
        for seen, name, pair in contrasts(await measure(theme))
        if seen < pair.least
    ]
    assert not too_close, f"{theme}:\n" + "\n".join(too_close)


def test_the_depth_class_comes_from_the_terminal_but_never_when_headless() -> None:
    """Snapshots and Pilot tests must not depend on the TERM they run under."""
    assert colour_depth_class("truecolor", headless=False) is None
    assert colour_depth_class("256", headless=False) == "-colours-256"
    assert colour_depth_class("standard", headless=False) == "-few-colours"
    assert colour_depth_class("windows", headless=False) == "-few-colours"
    assert colour_depth_class(None, headless=False) is None  # no colour at all
    assert all(colour_depth_class(name, headless=True) is None for name in ("256", "standard"))
