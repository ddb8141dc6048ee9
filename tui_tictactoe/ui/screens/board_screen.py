"""`BoardScreen`: what every screen with a board to play on shares (the game, a room).

The grid fitted to the board's size, the check that the terminal holds it, the digit
keys 1-9 (bound from the command table, on 3x3 only), the keyboard cursor (a cell, or a
button in the row under the board) and the thread workers that run a request's
`compute()` live here once; `GameScreen` and `RoomScreen` add what differs (a
`GameController` or a hub, their words, their keys). The app asks the board screen
on top the same questions whichever it is (`status`, `ask_quit`, `confirm_quit`,
`plays_on`, `show_turn`, `stop_searching`), never which kind it is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Collection, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import events
from textual.errors import NoWidget
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button
from textual.worker import get_current_worker

from tui_tictactoe.controller.status import Status, digits_refused
from tui_tictactoe.options import BOARDS
from tui_tictactoe.ui.key_table import MENU, QUIT
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import GameCell, GameGrid, StatusLine
from tui_tictactoe.ui.widgets.key_bar import KeyBar
from tui_tictactoe.ui.widgets.too_small import (
    CHROME_ROWS,
    TooSmall,
    WayOn,
    compact,
    fits,
    needed_size,
)

if TYPE_CHECKING:
    from tui_tictactoe.controller import Request
    from tui_tictactoe.controller.teaching import AnalysisRequest
    from tui_tictactoe.engine.board import Cell
    from tui_tictactoe.engine.geometry import Geometry

MIN_SIZE = Size(60, 18)
"""Below this something would be cut: a message asks for a larger terminal. 60 columns
hold the whole score line (abandoned rounds and take-backs too) and the key bar in two
lines; 18 rows hold the title, the score, a board of 3-row cells, the status's two
lines, the buttons (a room: two lines of how to join) and the key bar."""

PLAY_WIDTH = 57
"""The narrowest the board's column gets (#play, #room-play in the CSS): the longest
score line and every status (two lines) fit in it."""


DIGITS = frozenset("123456789")


def middle(geometry: Geometry) -> Cell:
    return (geometry.size // 2,) * 2


def step(cursor: Cell, drow: int, dcol: int, size: int, controls: int = 0) -> Cell:
    """Move the cursor one place, stopping at the edges; with `controls` buttons under
    the board, row `size` is their row."""
    row = min(max(cursor[0] + drow, 0), size if controls else size - 1)
    last_col = controls - 1 if row == size else size - 1
    return row, min(max(cursor[1] + dcol, 0), last_col)


def digit_on_big_board(geometry: Geometry, key: str) -> Status | None:
    """What a digit key says where its binding is off (beyond 3x3: nine keys cannot name
    16 cells, though every cell shows its number); None for other keys."""
    if key in DIGITS and geometry.cells > 9:
        return digits_refused(geometry.size)
    return None


class BoardScreen(IgnoresStaleResize, Screen[None]):
    """A board, its cursor and status, and what the app asks of the screen it is on."""

    AUTO_FOCUS = None

    # How the board fits the terminal, the one place for it: the rows each cell needs at
    # least and the rows around the board then (`too_small.needed_size`), and whether the
    # buttons shrink to one row (`-compact`) to keep the cells whole. The game and a room
    # ask only that each cell shows its mark (2 rows, no top border): every board fits
    # 60x19 (6x6; the others 60x18), and the game's buttons shrink first.
    CELL_ROWS = 2
    CHROME_ROWS = CHROME_ROWS
    COMPACT_BUTTONS = False
    BUTTONS = 0
    """Buttons in the row under the board that the cursor reaches (the game's three)."""

    left = False
    """Left for good (a room after `q`, or after a refusal): the app looks past it."""

    game_menu = False
    """The menu over this screen lists the game's own commands (new round, hint, ...)."""

    class Replied(Message):
        """A thread worker's reply (the AI's move, a hint, a cell's score), for the model."""

        def __init__(self, reply: Any) -> None:
            super().__init__()
            self.reply = reply

    def __init__(self, geometry: Geometry, *, grid_id: str | None, status_id: str) -> None:
        super().__init__()
        self.geometry = geometry
        self.cursor: Cell = middle(geometry)
        self.grid = GameGrid(geometry, id=grid_id)
        self.status = StatusLine(id=status_id)
        self.too_small = TooSmall(id="too-small")

    # -- what each screen fills in ------------------------------------------------

    def play(self, key: int) -> Awaitable[None] | None:
        """Play cell `key`: the one path for Enter, Space, digits and clicks."""
        raise NotImplementedError

    def _show_cursor(self) -> None:
        raise NotImplementedError

    def _take(self, reply: Any) -> None:
        """A reply from a worker, for the screen's model to apply or drop as stale."""
        raise NotImplementedError

    def _allows(self, action: str) -> bool:
        """`check_action` for what the board's own rules leave open."""
        return True

    def _hears_digits(self) -> bool:
        """Does a digit on a big board say how to play here (not to a spectator)?"""
        return True

    def _size_checked(self) -> None:
        """The size classes were set: anything placed by the size follows."""

    def _resumed(self) -> None:
        """Back on top, its size checked."""

    # -- what the app asks ----------------------------------------------------------

    async def ask_quit(self) -> None:
        """`q`, Exit and the menu's Quit."""
        raise NotImplementedError

    async def confirm_quit(self) -> None:
        """`y` to the quit (or leave) question."""
        raise NotImplementedError

    def plays_on(self, event: events.InputEvent) -> bool:
        """Does this input, on this screen, leave the quit question unanswered (so it
        only answers no)? Every key but q and Ctrl+P (the menu, whose Quit says yes), and
        every click but one that says yes (`click_plays_on`)."""
        if isinstance(event, events.Key):
            return event.key not in (*QUIT.key_names, *MENU.key_names)
        if isinstance(event, events.MouseDown):
            return self.click_plays_on(event)
        return False

    def click_plays_on(self, event: events.MouseDown) -> bool:
        """A click anywhere (a cell too) answers no but one on Exit (the game's) or on a
        key in the key bar that says yes: a click on a key presses it."""
        try:
            widget, region = self.get_widget_at(event.screen_x, event.screen_y)
        except NoWidget:
            return True
        if isinstance(widget, KeyBar):
            key = widget.key_at(event.screen_x - region.x, event.screen_y - region.y)
            return key is None or self.plays_on(events.Key(key, None))
        return widget.id != "exit"

    async def decline_on_key(self, key: str) -> None:
        """A key arrived (an offer waiting is declined by any other key: a room's)."""

    def show_turn(self) -> None:
        """The quit question goes (the player plays on); the state of play stays."""
        self.status.clear_note()

    def stop_searching(self) -> None:
        """The app is quitting: a search in a thread must not hold it up."""

    # -- the board's size -------------------------------------------------------------

    def _fit_board(self, geometry: Geometry) -> None:
        """A grid of `geometry`, if the board's size changed. The new grid goes in before
        the old one is removed (removal finishes later); until then the old grid ignores
        boards of the wrong size (`show_board`), and ids never clash."""
        if geometry == self.geometry:
            return
        self.geometry = geometry
        self.cursor = middle(geometry)
        old, self.grid = self.grid, GameGrid(geometry)
        parent = old.parent
        assert isinstance(parent, Widget)
        parent.mount(self.grid, before=old)
        old.remove()
        # The digit keys come and go with 3x3 (bindings), and bigger boards need more rows.
        self._check_size(self.app.size)

    @classmethod
    def needs(cls, cells_per_side: int) -> Size:
        """The least terminal that holds a board of `cells_per_side` on this screen."""
        return needed_size(MIN_SIZE, cells_per_side, cls.CELL_ROWS, cls.CHROME_ROWS)

    @classmethod
    def board_needs(cls) -> dict[str, Size]:
        """What each board (`options.BOARDS`) needs on this screen, smallest first."""
        return {board: cls.needs(int(board)) for board in BOARDS}

    def needed_size(self) -> Size:
        return self.needs(self.geometry.size)

    def _too_small_actions(self) -> Collection[str]:
        """The screen's actions that still act while the board is hidden for want of room
        (the game's `n`, where a board fits: a new game on it)."""
        return ()

    def _way_on(self, size: Size) -> WayOn | None:
        """The keys the too-small message offers (None: it only asks for more room)."""
        return None

    def _check_size(self, size: Size) -> None:
        needed = self.needed_size()
        way_on = None if fits(size, needed) else self._way_on(size)  # start-up skips it
        self.set_class(self.too_small.check(size, needed, way_on), "-too-small")
        if self.COMPACT_BUTTONS:
            self.set_class(compact(size.height, self.geometry.size), "-compact")  # see the CSS
        self.set_class(size.height * 2.5 < PLAY_WIDTH, "-short")  # see the board's column
        self._size_checked()
        self.refresh_bindings()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(self.app.size)  # not event.size: it can be stale (IgnoresStaleResize)

    def on_screen_resume(self) -> None:
        self._check_size(self.app.size)
        self._resumed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key acts on a board hidden for want of room (no move unseen); the digits
        only on 3x3 (nine keys cannot name 16 cells), which keeps them out of the keys
        panel there."""
        if self.has_class("-too-small"):
            return action in self._too_small_actions()
        if action.startswith("play") and self.geometry.cells > 9:
            return False
        return self._allows(action)

    def on_key(self, event: events.Key) -> None:
        """A digit that reached the screen played nothing (off beyond 3x3): say how to play."""
        said = digit_on_big_board(self.geometry, event.key)
        if said is not None and not self.has_class("-too-small") and self._hears_digits():
            self.status.say(said)

    # -- the cursor and the keys that play ------------------------------------------------

    @property
    def cursor_on_controls(self) -> bool:
        return self.cursor[0] == self.geometry.size

    def action_navigate(self, drow: int, dcol: int) -> None:
        self.cursor = step(self.cursor, drow, dcol, self.geometry.size, self.BUTTONS)
        self._show_cursor()

    def action_play(self, key: int) -> Awaitable[None] | None:
        if key > self.geometry.cells:
            return None
        self.cursor = self.geometry.cell_of_key(key)
        return self.play(key)

    def click(self, row: int, col: int) -> Awaitable[None] | None:
        self.cursor = (row, col)
        return self.play(self.geometry.key(row, col))

    def on_button_pressed(self, event: Button.Pressed) -> Awaitable[None] | None:
        cell = event.button
        return self.click(cell.row, cell.col) if isinstance(cell, GameCell) else None

    # -- background jobs -------------------------------------------------------------------
    # Each runs a request's `compute()` off the UI thread and never touches the model or a
    # widget; a search cancelled because the position moved on posts nothing.

    def _run(self, group: str, request: Request | AnalysisRequest) -> None:
        """Run `request` in a thread worker of `group`: a new one cancels the one before."""
        work = partial(self._compute, request)
        self.run_worker(work, thread=True, exclusive=True, group=group, exit_on_error=False)

    def _compute(self, request: Request | AnalysisRequest) -> None:
        """In the thread: post each reply (`post_message` is thread-safe and never waits)."""
        replies = request.compute()
        for reply in replies if isinstance(replies, Iterator) else (replies,):
            if get_current_worker().is_cancelled or getattr(reply, "cancelled", False):
                return
            self.post_message(self.Replied(reply))

    def on_board_screen_replied(self, message: Replied) -> None:
        self._take(message.reply)
