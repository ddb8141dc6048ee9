"""`TicTacToeApp`: the Textual application around a `GameController`."""

from __future__ import annotations

import asyncio
import inspect
import os
import random
import signal
from collections.abc import Collection, Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import BindingType
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen

from tui_tictactoe.controller import GameController, GameOptions
from tui_tictactoe.controller.status import PLAYING_ON
from tui_tictactoe.engine.strategies import MoveStrategy
from tui_tictactoe.limits import MAX_COLUMNS, MAX_ROWS
from tui_tictactoe.ui.input_gate import InputGate, gated
from tui_tictactoe.ui.key_table import bindings
from tui_tictactoe.ui.record_link import RecordLink
from tui_tictactoe.ui.screens.board_screen import BoardScreen
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.terminal import DaemonThreads, HangUpWatch, exit_soon
from tui_tictactoe.ui.themes import register_themes
from tui_tictactoe.ui.turn_bell import TurnBell

if TYPE_CHECKING:
    from tui_tictactoe.rooms.request import RoomsEntry
    from tui_tictactoe.ui.screens.menu_screen import MenuItem

COLOUR_DEPTH_CLASSES = {
    "256": "-colours-256",
    "standard": "-few-colours",
    "windows": "-few-colours",
}
"""The app's class for a terminal of 256 colours, or 16 (or 8), by Rich's name for it: the
stylesheet draws the board there in colours that stay apart once Rich has rounded them to
the terminal's palette (tests/ui/test_theme_contrast.py). Truecolor needs none."""


FEW_COLOURS_CSS = Path(__file__).with_name("few_colours.tcss")
"""The board's colours in 16 colours (`TicTacToeApp.show_colour_depth`)."""


def colour_depth_class(color_system: str | None, *, headless: bool) -> str | None:
    """The class for a console's `color_system`; none when headless, so that tests and
    snapshots never depend on the TERM they run under."""
    return None if headless or color_system is None else COLOUR_DEPTH_CLASSES.get(color_system)


SIZE_CAP_NOTICE = (
    f"This game is drawn at most {MAX_COLUMNS} x {MAX_ROWS} cells: "
    "your window is larger, so part of it stays empty."
)
"""Told once to a hosted player at the cap: the servers clamp every size a client reports."""

HUNG_UP = 129
"""Exit status after the terminal went away: what a shell reports for death by SIGHUP."""


class TicTacToeApp(App[None]):
    """Tic-Tac-Toe against a minimax AI.

    `options` is the game to start (None: the defaults); the options named in `given`
    were set in this run (flags) and beat the player's saved settings, the others yield
    to them. `seed` makes the AI's choice between equally good moves repeatable;
    `strategy` replaces the AI's brain (tests inject slow, failing or scripted
    ones) and is kept across new games; `record` False plays without reading or
    writing the record (`--no-record`).
    """

    CSS_PATH = "tictactoe.tcss"
    TITLE = "Tic-Tac-Toe"
    # The game has no text worth selecting, and Textual 8.2.8's selection code raised
    # AttributeError on two quick clicks on a notification or the keys panel.
    ALLOW_SELECT = False
    # Ctrl+P opens the game's own menu (see screens/menu_screen.py), not Textual's palette.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")
    """From the command table (`ui/key_table.py`): the keys that work on every screen."""

    def __init__(
        self,
        options: GameOptions | None = None,
        *,
        given: Collection[str] = (),
        seed: int | None = None,
        strategy: MoveStrategy | None = None,
        record: bool = True,
        rooms: RoomsEntry | None = None,
    ) -> None:
        """With `rooms` (rooms over serve-ssh: the hub, who this session is there) the app
        starts where it asked (a new room, a join, a watch, a quick match) or in the lobby."""
        super().__init__()
        register_themes(self)
        self.rooms = rooms
        # Built here so bad options fail before the terminal is taken over.
        self.controller = GameController(options, random.Random(seed), strategy)
        options = self.controller.options
        self.record_link = RecordLink(
            self,
            self.controller,
            {name: getattr(options, name) for name in given},
            use_options=lambda options: self.game.use_saved_options(options),
            enabled=record,
            turn_bell=TurnBell(self.bell),
        )
        self._typed_ahead: list[events.InputEvent] | None = []
        self._told_size_cap = False
        self._name_notice = self.record_link.identity.notice  # told once (`_tell_the_name`)
        self._window_title: str | None = None  # the title this app set (None: the terminal's own)
        self._hung_up = False
        self._swallow_mouse_up = False  # a click answered the quit question no

    input_gate: InputGate
    """Bounds the input every driver reads (`ui/input_gate.py`): made per app, in
    `get_driver_class`, which Textual's constructor calls."""

    def get_driver_class(self) -> type[Driver]:
        """Textual's pick (the terminal's, or serve-web's from TEXTUAL_DRIVER), gated: a
        flood of input is dropped as it is read. Headless tests use their own driver."""
        self.input_gate = InputGate()
        return gated(super().get_driver_class(), self.input_gate)

    def get_default_screen(self) -> Screen[Any]:
        # The colour depth's class is set here, before the first styling (the driver,
        # and so `is_headless`, exist by now): set in on_mount it would restyle every
        # widget once more before the first frame.
        self.show_colour_depth(
            colour_depth_class(self.console.color_system, headless=self.is_headless)
        )
        screen: Screen[None]
        if self.rooms is not None:
            from tui_tictactoe.ui.rooms.rooms_start import first_screen, room_setting

            link = self.record_link
            setting = room_setting(
                self.rooms,
                link.identity,
                link.match_ended,
                link.rating,
                signals=self,
                seats=self,
            )
            board_size = int(self.controller.options.board)
            screen = first_screen(setting, self.rooms.request, self._game_screen, board_size)
        else:
            screen = GameScreen(self.controller, self.record_link)
        # Textual reads a screen's CSS_PATH when it is pushed, never the first screen's.
        for path in screen.css_path:
            self.stylesheet.read(path)
        return screen

    def _game_screen(self) -> GameScreen:
        return GameScreen(self.controller, self.record_link)

    def show_colour_depth(self, depth_class: str | None) -> None:
        """Style the board for a colour depth (`COLOUR_DEPTH_CLASSES`; None: truecolor).

        16 colours take a stylesheet of their own, read only then: parsing it would cost
        every other terminal start-up time.
        """
        if depth_class == "-few-colours":
            self.stylesheet.read(FEW_COLOURS_CSS)
        for each in set(COLOUR_DEPTH_CLASSES.values()):
            self.set_class(each == depth_class, each)

    @property
    def game(self) -> GameScreen:
        """The game screen, wherever it is in the screen stack."""
        # The first screen, or (with a room hub) pushed over the lobby.
        return next(screen for screen in self.screen_stack if isinstance(screen, GameScreen))

    def on_load(self) -> None:
        asyncio.get_running_loop().set_default_executor(DaemonThreads())

    def on_mount(self) -> None:
        """A hosted game hears the server's drain (SIGUSR1: "restarts after your round");
        every game watches for the terminal going away, with no timer, so an idle game wakes
        for nothing (`HangUpWatch`), and SIGHUP is the other sign of it."""
        if self.record_link.hosted and not self.is_headless:
            from tui_tictactoe.ui.server_restart import ServerRestart  # serve-ssh's drain (SIGUSR1)

            ServerRestart(self, self.controller, lambda: self.board).install()
        if not self.is_headless and os.isatty(0):
            loop = asyncio.get_running_loop()
            HangUpWatch(0, self._hang_up).start(loop)
            if signal.getsignal(signal.SIGHUP) is signal.SIG_DFL:
                # SIGHUP's default kills the process on the spot: the round in
                # progress would never be saved. Ignored SIGHUP stays ignored.
                loop.add_signal_handler(signal.SIGHUP, self._hang_up)

    def _hang_up(self) -> None:
        if self._hung_up:  # SIGHUP and the watch both tell it
            return
        self._hung_up = True
        self.exit(return_code=HUNG_UP)
        exit_soon(HUNG_UP, grace=0.3)

    def exit(self, result: None = None, return_code: int = 0, message: Any | None = None) -> None:
        """Every way out (q/y, Ctrl+Q, the menu, the terminal gone) leaves the round: one
        in progress is saved as abandoned, like a new round mid-round, within 0.1 s."""
        self.record_link.leave(hung_up=self._hung_up)
        self.controller.stop_thinking()  # a long search (5x5) must not hold up the exit
        board = self.board
        if board is not None:
            board.stop_searching()  # nor a spectator's overlay
        driver = None if self.is_headless else self.input_gate.driver
        if self._window_title is not None and driver is not None:
            driver.write("\x1b[23;2t")  # the terminal's own title back
            self._window_title = None
        super().exit(result, return_code, message)

    # -- input at the edges of the app's life ------------------------------------

    def post_message(self, message: Message) -> bool:
        """Ctrl+Q quits the moment it arrives, not after the input queued before it.

        The terminal's input reaches the app through here, as it is read; handling it
        waits its turn in the queue. Behind a burst of help toggles, dialogs and resizes
        on a loaded machine that turn came seconds later; quitting now drops that backlog
        unread (`on_event`), as a player who pressed Ctrl+Q wants.
        """
        if (
            isinstance(message, events.Key)
            and message.key == "ctrl+q"
            and self._typed_ahead is None  # before the first frame keys are held in order
            and self.return_code is None
        ):
            self.exit()
        return super().post_message(message)

    async def on_event(self, event: events.Event) -> None:
        """Hold input until the game is on screen, and drop it (and resizes) once the app
        is quitting.

        A key typed before the first frame (on a slow link, or typed ahead of the
        command) reached the game screen's bindings before it had mounted; one typed
        after `q` could open a screen while the app was closing. Held keys are replayed
        in order when the game screen is ready, as if typed just after it appeared.
        """
        if self.return_code is not None and isinstance(event, events.InputEvent | events.Resize):
            return  # quitting: nothing left to lay out or answer
        if isinstance(event, events.InputEvent) and not event.is_forwarded:
            if self._typed_ahead is not None:
                self._typed_ahead.append(event)
                return
            if self._declines_quit(event):
                return  # it answered no, and does nothing else
            board = self.board
            if isinstance(event, events.Key) and board is not None:
                await board.decline_on_key(event.key)  # an offer waiting: any other key says no
        await super().on_event(event)

    def _declines_quit(self, event: events.InputEvent) -> bool:
        """Does this input answer the quit question no (and so do nothing else)?

        While the question stands every key or click on the board but a "yes" (q, y,
        Exit) or Ctrl+P (the menu, whose Quit says yes) only answers it: a digit plays
        nothing, `n` opens no dialog, `r` abandons nothing. A click's release goes too,
        else Textual would make a click of it.
        """
        if self._swallow_mouse_up and isinstance(event, events.MouseUp):
            self._swallow_mouse_up = False
            return True
        board = self.board
        if board is None or not board.status.asking or not self._plays_on(board, event):
            return False
        board.show_turn()
        board.status.say(PLAYING_ON)
        self._swallow_mouse_up = isinstance(event, events.MouseDown)
        return True

    def on_resize(self, event: events.Resize) -> None:
        # Called before Textual's own handler has updated `self.size`: use the event's.
        self._tell_if_at_size_cap(event.size)

    def _tell_if_at_size_cap(self, size: Size | None = None) -> None:
        """A hosted game at the size cap (`limits`) may be smaller than the player's
        window, which would look like a bug: say why, once."""
        width, height = size or self.size
        if self._told_size_cap or not self.record_link.hosted:
            return
        if width >= MAX_COLUMNS or height >= MAX_ROWS:
            self._told_size_cap = True
            self.notify(SIZE_CAP_NOTICE, title="Window size", markup=False)

    def _tell_the_name(self) -> None:
        """The server's line on the player's name (not theirs to keep, and why), once."""
        notice, self._name_notice = self._name_notice, ""
        if notice:
            self.notify(notice, title="Name", severity="warning", timeout=15, markup=False)

    @property
    def board(self) -> BoardScreen | None:
        """The board being played (the game, a room), wherever it is in the stack: q, y
        and the quit question go to it. Not a room left after a refusal, which stays as
        the first screen under the next."""
        boards = [s for s in self.screen_stack if isinstance(s, BoardScreen) and not s.left]
        return boards[-1] if boards else None

    def ring_for_turn(self, turn: Hashable) -> bool:
        """Ring the terminal's bell once for `turn` (`TurnBell`): when it becomes the player's
        turn in a room (`RoomScreen` calls it with the room's code, round and move count),
        or when a quick match is found (call it with e.g. `("match", code)`). The same
        `turn` again rings nothing; nor does anything with the bell turned off in the
        new-game dialog. True if it rang."""
        return self.record_link.turn_bell.ring_for(turn)

    def keep_seat(self, code: str, token: str) -> None:
        """A guest's seat for the page to keep (`SeatKeeper`): under serve-web, a meta
        message its server reads and hands the tab (`rooms.request.SEAT_META`), which
        keeps it in its session storage; a terminal keeps nothing (the token is on screen).
        Through the web driver's public `write_meta` (Textual has no call for it)."""
        from tui_tictactoe.rooms.request import SEAT_META  # only a session with rooms calls

        driver = None if self.is_headless else self.input_gate.driver
        write_meta = getattr(driver, "write_meta", None) if self.is_web else None
        if write_meta is not None:
            write_meta({"type": SEAT_META, "code": code, "token": token})

    def set_window_title(self, title: str) -> None:
        """The terminal window's title (OSC 2), written when it changes: a player waiting
        in another window reads "Your turn · Room ABCD". Textual has no call for it, so it
        goes through the driver's public `write` (the gated driver makes itself known to
        `input_gate`); the first title pushes the terminal's own, `exit` pops it back
        (XTWINOPS 22/23; a terminal without them keeps ours). Nothing when headless."""
        driver = None if self.is_headless else self.input_gate.driver
        if driver is None or title == self._window_title:
            return
        shown = "".join(char for char in title if char.isprintable())
        push = "\x1b[22;2t" if self._window_title is None else ""
        self._window_title = title
        driver.write(f"{push}\x1b]2;{shown}\x07")

    @property
    def quit_asked(self) -> bool:
        """The quit question is up (in the board's status line): q, y, Exit or the menu's
        Quit answers it; any other key or click on the board plays on."""
        board = self.board
        return board is not None and board.status.asking

    def _plays_on(self, board: BoardScreen, event: events.InputEvent) -> bool:
        """Does this key or click, on the board, leave the quit question unanswered?
        Keys on other screens (the menu, the help) do not: the question waits there."""
        return self.screen is board and board.plays_on(event)

    async def on_game_screen_ready(self) -> None:
        self.call_after_refresh(self.record_link.start)  # the record: off the first frame's path
        await self.on_room_screen_ready()

    async def on_room_screen_ready(self) -> None:
        """A room or the lobby is on screen (the record waits for a game against the AI,
        but for the player's bell setting)."""
        self.call_after_refresh(self.record_link.load_bell)
        self._tell_if_at_size_cap()
        self._tell_the_name()
        held, self._typed_ahead = self._typed_ahead or [], None
        for event in held:
            await self.on_event(event)

    # -- screens over the game ------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("ask_quit", "confirm_quit") and self._typing():
            return False  # `q` and `y` are letters in a text box (the lobby's room code)
        return action != "confirm_quit" or self.quit_asked  # `y` is only an answer

    def _typing(self) -> bool:
        from textual.widgets import Input

        return isinstance(self.focused, Input)

    def _menu_open(self) -> bool:
        """Is a menu anywhere in the stack (not only on top)? Then Ctrl+P opens no other."""
        from tui_tictactoe.ui.screens.menu_screen import MenuScreen

        return any(isinstance(screen, MenuScreen) for screen in self.screen_stack)

    def menu_items(self, screen: Screen[Any]) -> list[MenuItem]:
        """The menu's commands over `screen`, from the command table: the game's own over
        the game, and help, the theme, the keys and quitting everywhere. Nothing that
        writes files (Textual's "Screenshot" would write into the server's home on every
        use) or blows a cell up to the whole screen ("Maximize")."""
        from tui_tictactoe.ui.screens.menu_screen import command_items

        over_game = isinstance(screen, BoardScreen) and screen.game_menu
        return command_items(self, screen, over_game=over_game)

    def action_open_menu(self) -> None:
        from tui_tictactoe.ui.screens.menu_screen import MenuScreen

        if not self._menu_open():
            self.push_screen(MenuScreen(self.menu_items(self.screen)), self._run_menu_item)

    async def _run_menu_item(self, item: MenuItem | None) -> None:
        if item is not None and self.return_code is None:
            result = item.run()
            if inspect.isawaitable(result):  # Textual's own actions may be coroutines
                await result

    def search_themes(self) -> None:
        """Textual's "change theme" action lands here: the game's own theme menu."""
        from tui_tictactoe.ui.screens.menu_screen import ThemeMenu

        if not self._menu_open():
            themes = sorted(self.available_themes)
            theme_menu = ThemeMenu(themes, self.theme, self._set_theme)
            self.push_screen(theme_menu, lambda _: self.record_link.theme_chosen())

    def _set_theme(self, name: str) -> None:
        self.theme = name

    async def action_ask_quit(self) -> None:
        """`q`, Exit and the menu's Quit: quit at once, but in the middle of a round ask
        first, once (Ctrl+Q never asks). In a room it leaves the room, asking a player
        mid-round the same way."""
        board = self.board
        if board is None:  # the lobby
            self.exit()
        else:
            await board.ask_quit()

    async def action_confirm_quit(self) -> None:
        board = self.board
        if board is None:
            self.exit()
        else:
            await board.confirm_quit()

    def action_toggle_keys_panel(self) -> None:
        """The menu's Keys: show every key, or hide them when they are shown."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_open_stats(self) -> None:
        """`s`: the player's record (imported on first use, like the help)."""
        from tui_tictactoe.ui.screens.stats_screen import StatsScreen

        if not any(isinstance(screen, StatsScreen) for screen in self.screen_stack):
            self.push_screen(StatsScreen(self.record_link))

    def action_help(self) -> None:
        """Open the help, or close it when it is already open."""
        # Imported and built on first use, then kept: start-up should not pay for it,
        # and a player toggling it in a burst should not pay for it each time.
        from tui_tictactoe.ui.screens.help_screen import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        elif not any(isinstance(screen, HelpScreen) for screen in self.screen_stack):
            if not self.is_screen_installed("help"):
                self.install_screen(HelpScreen(), "help")
            self.push_screen("help")
