"""How the board looks in a real terminal (issue 13, items 2, 3 and 10).

The installed command runs in a pty and its screen is drawn by pyte with text styles and
colours kept (`Terminal(styles=True)`), so these tests see what a player sees: large
marks, even cells, underlines only where a terminal would draw them, and in 256 colours
borders that stand out from their cells. Pilot and the SVG snapshots cannot show the
underline of blank lines that a real terminal draws, nor Rich's rounding to 256 colours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from colour_tools import FAINT, distance
from pty_terminal import HORIZONTALS, START_TIMEOUT, STEP_TIMEOUT, Board, Box, Cell, Terminal
from pyte.graphics import FG_BG_256

from tui_tictactoe.ui.screens.game_screen import MIN_SIZE
from tui_tictactoe.ui.widgets.marks import LARGEST_DRAWN_BY_HAND

Size = tuple[int, int]  # columns, rows


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    started: list[Terminal] = []

    def start(size: Size, *args: str, env: dict[str, str] | None = None) -> Terminal:
        cols, rows = size
        term = Terminal(*args, rows=rows, cols=cols, styles=True, env=env)
        started.append(term)
        term.wait_until("the empty board", lambda: term.visible_board() is not None, START_TIMEOUT)
        return term

    yield start
    for term in started:
        term.close()


def play_centre(term: Terminal) -> Board:
    """Play 5 and wait for the AI's reply; the board then shown."""
    term.send("5")

    def replied() -> bool:
        board = term.visible_board()
        return board is not None and board[1, 1] == "X" and list(board.values()).count("O") == 1

    term.wait_until("X in the centre and the AI's reply", replied, STEP_TIMEOUT)
    term.settle(quiet=0.1)
    board = term.visible_board()
    assert board is not None, term.text
    return board


def mark_rows(term: Terminal, cell: tuple[int, int]) -> list[str]:
    return [row for row in term.inside(cell) if row.strip()]


def box_sizes(term: Terminal) -> set[tuple[int, int]]:
    """(width, height) of every cell's interior."""
    return {
        (right - left + 1, bottom - top + 1) for top, bottom, left, right in term.cells.values()
    }


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_large_marks_and_no_underline_off_the_mark(terminal, size: Size) -> None:
    term = terminal(size, "--seed", "5")
    board = play_centre(term)
    for cell, mark in board.items():
        if mark:
            assert len(mark_rows(term, cell)) >= 3, f"no large {mark} in {cell}:\n{term.text}"
            if size == (200, 60):  # past the hand-drawn sizes: the mark grows with the cell
                top, bottom, _, _ = term.cells[cell]
                tall = len(mark_rows(term, cell))
                assert LARGEST_DRAWN_BY_HAND < tall >= bottom - top, f"{mark}: {tall} lines"
    # No character of a cell's interior is underlined: large marks need no style, and a
    # blank line under a mark must never carry one (the "striped O" of issue 13).
    buffer = term.screen.buffer
    for cell, (top, bottom, left, right) in term.cells.items():
        for y in range(top, bottom + 1):
            underlined = [x for x in range(left, right + 1) if buffer[y][x].underscore]
            assert not underlined, f"cell {cell}, line {y}, columns {underlined}:\n{term.text}"


def test_a_small_cell_underlines_its_letter_o_and_nothing_else(terminal) -> None:
    """At the minimum size the mark is a letter: O keeps its underline, on the letter only."""
    term = terminal(
        (MIN_SIZE.width, MIN_SIZE.height), "--seed", "5", "--symbol", "O", "--first", "ai"
    )
    term.wait_until(
        "the AI's opening X",
        lambda: (board := term.visible_board()) is not None and "X" in board.values(),
        STEP_TIMEOUT,
    )
    board = play_centre_as_o(term, board_before=term.visible_board())
    buffer = term.screen.buffer
    underlined = []
    for cell, (top, bottom, left, right) in term.cells.items():
        for y in range(top, bottom + 1):
            for x in range(left, right + 1):
                if buffer[y][x].underscore:
                    underlined.append((cell, buffer[y][x].data))
    # Seen at all (so the emulator reports underlines), and only on the letters O.
    assert underlined == [(cell, "O") for cell, mark in board.items() if mark == "O"], term.text


def play_centre_as_o(term: Terminal, board_before: Board | None) -> Board:
    assert board_before is not None
    free = next(cell for cell in [(1, 1), (0, 0)] if not board_before[cell])
    term.send(str(free[0] * 3 + free[1] + 1))
    term.wait_until(
        f"O at {free}",
        lambda: (board := term.visible_board()) is not None and board[free] == "O",
        STEP_TIMEOUT,
    )
    term.settle(quiet=0.1)
    board = term.visible_board()
    assert board is not None, term.text
    return board


@pytest.mark.parametrize(
    "size", [(80, 24), (60, 20), (100, 30), (200, 60)], ids=["80x24", "60x20", "100x30", "200x60"]
)
def test_the_nine_cells_are_the_same_size(terminal, size: Size) -> None:
    term = terminal(size, "--seed", "5")
    play_centre(term)
    assert len(box_sizes(term)) == 1, f"{sorted(term.cells.items())}\n{term.text}"


def test_cells_stay_even_after_resizes(terminal) -> None:
    term = terminal((80, 24), "--seed", "5")
    play_centre(term)
    for cols, rows in [(200, 60), (100, 30), (60, 20), (80, 24)]:
        before = dict(term.cells)
        term.resize(rows, cols)

        def laid_out_again(before: dict[Cell, Box] = before) -> bool:
            board = term.visible_board()
            return board is not None and term.cells != before and board[1, 1] == "X"

        term.wait_until(f"the board laid out again at {cols}x{rows}", laid_out_again, STEP_TIMEOUT)
        term.settle(quiet=0.1)
        assert term.visible_board() is not None, term.text
        assert len(box_sizes(term)) == 1, f"at {cols}x{rows}:\n{term.text}"


@pytest.mark.parametrize("theme", ["solarized-light", "catppuccin-frappe"])
def test_cell_borders_stand_out_in_256_colours(terminal, theme: str) -> None:
    """Issue 13 item 10: without truecolor (no COLORTERM, as over SSH or in tmux) Rich rounds
    the theme's colours to 256, and borders merged with their cells: catppuccin-frappe drew
    #585858 on #5f5f5f. solarized-light is the theme the issue names. The terminal here is
    xterm-256color without COLORTERM; pyte reads back the colour of each cell's top border
    and of the cell inside it, which must differ by at least the contrast test's distance
    for a quiet line (`FAINT`, tests/ui/test_theme_contrast.py)."""
    term = terminal((80, 24), "--seed", "5", env={"TEXTUAL_THEME": theme})
    play_centre(term)
    buffer = term.screen.buffer
    seen = {}
    for cell, (top, _, left, right) in term.cells.items():
        line, ground = buffer[top - 1][(left + right) // 2], buffer[top][left]
        assert line.data in HORIZONTALS, f"{cell}: {line}"
        assert {line.fg, ground.bg} <= set(FG_BG_256), f"{cell}: not 256 colours: {line}, {ground}"
        seen[cell] = (line.fg, ground.bg, distance(rgb(line.fg), rgb(ground.bg)))
    faint = {cell: each for cell, each in seen.items() if each[2] < FAINT}
    assert not faint, f"{theme}: borders (colour, cell's colour, distance) {faint}\n{term.text}"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """pyte's colour ("5f5f5f": 256-colour entries come as the colour they stand for)."""
    red, green, blue = bytes.fromhex(hex_colour)
    return red, green, blue
