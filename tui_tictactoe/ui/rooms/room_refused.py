"""Where a session lands when the hub refuses it a room, or its place in one ends.

A room screen left with its board and keys after a refusal ("Room ABCD is full", a
place lost, watching turned off) showed an empty board and keys that did nothing. This
screen says the reason and offers what can come next, as a list and as keys the key bar
names: watch the room instead (a would-be player who had a code), back to the lobby
(serve-ssh sessions with a hub), or quit. The room screen hands it the way to each
(`watch`, `RoomSetting.lobby`): it knows no room screen itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.status import LINK_LOST, watch_instead
from tui_tictactoe.rooms.view import Ticket
from tui_tictactoe.ui.rooms.room_keys import REFUSED_COMMANDS, acts, screen_bindings, screen_keys
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar

WATCH, LOBBY, QUIT = "watch", "lobby", "quit"


class RoomRefused(IgnoresStaleResize, Screen[None]):
    """The refusal, and the next steps: watch, the lobby, quit."""

    CSS_PATH = "room_refused.tcss"
    BINDINGS: ClassVar[list[BindingType]] = screen_bindings(REFUSED_COMMANDS)

    def __init__(
        self,
        code: str,
        reason: str,
        watch: Callable[[], Screen[None]] | None = None,
        lobby: Callable[[], Screen[None]] | None = None,
        over_lobby: bool = False,
    ) -> None:
        """`watch` makes the room screen that watches room `code` (None: not offered);
        `lobby` a new lobby (None: no lobby here), made unless one is under this screen
        (`over_lobby`: the room was entered from it)."""
        super().__init__()
        self.code = code
        self.reason = reason
        self.to_watch = watch
        self.to_lobby = lobby
        self.over_lobby = over_lobby
        self.states = {WATCH: watch is not None, LOBBY: lobby is not None}
        steps = [
            Option(f"Watch room {code}", id=WATCH) if self.states[WATCH] else None,
            Option("Back to the lobby", id=LOBBY) if self.states[LOBBY] else None,
            Option("Quit", id=QUIT),
        ]
        self.next = OptionList(*(step for step in steps if step), id="refused-next")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="refused"):
            yield Static(self.reason, id="refused-reason", markup=False)
            yield self.next
        yield KeyBar(screen_keys(REFUSED_COMMANDS, self.states), id="refused-keys")

    def on_mount(self) -> None:
        self.sub_title = f"Room {self.code}" if self.code else "Rooms"
        self.set_focus(self.next)
        self.next.highlighted = 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return acts(REFUSED_COMMANDS, action, self.states)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = event.option.id
        if chosen == WATCH:
            self.action_watch()
        elif chosen == LOBBY:
            self.action_lobby()
        elif chosen == QUIT:
            self.app.exit()

    def action_watch(self) -> None:
        if self.to_watch is not None:
            self.app.switch_screen(self.to_watch())

    def action_lobby(self) -> None:
        """The lobby under this screen if there is one (the room was entered from it),
        else a new one in this screen's place."""
        if self.over_lobby:
            self.dismiss()
        elif self.to_lobby is not None:
            self.app.switch_screen(self.to_lobby())


def show_refusal(
    room: Screen[None],
    entry: Ticket | RoomRequest,
    reason: str,
    watch: Callable[[], Screen[None]],
    lobby: Callable[[], Screen[None]] | None,
    over_lobby: bool,
) -> None:
    """The screen after `reason` ended `room` (entered as `entry`), in its place: `watch`
    (the room screen that watches its room) offered to a would-be player
    (`rooms.status.watch_instead`), `lobby` unless the link to the rooms is lost. Over
    `room` when it is the app's first screen: Textual never replaces that one, so it stays
    under, left (`TicTacToeApp.board` skips it)."""
    if isinstance(entry, Ticket):
        code, wanted = entry.code, entry.seat is not None
    else:
        code, wanted = entry.code, entry.kind == "join"
    offered = watch if watch_instead(code, wanted, reason) else None
    then = RoomRefused(code, reason, offered, lobby if reason != LINK_LOST else None, over_lobby)
    if room.app.screen_stack[0] is room:
        room.app.push_screen(then)
    else:
        room.app.switch_screen(then)
