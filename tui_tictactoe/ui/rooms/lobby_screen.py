"""The lobby: what a serve-ssh player sees who connected without a room option.

Play the AI (the usual game), play someone (the quick match's queue), open a new
room (private: only its code brings people in) or a public one, join one by its code, or enter a public room from the list
(`RoomHub.rooms()`, read again every few seconds): Enter on a room with a free seat joins
it, on a full one watches. Private rooms are never listed. A code is typed
into a bounded box that takes letters, spaces and hyphens only, read by
`rooms.codes.normalise`; a refusal (the code's or the hub's) shows under it. A room
is entered here, so a refusal stays in the lobby; the room screen gets the ticket.
After a code the hub refused, the box takes no other for `CODE_PAUSE` seconds: a guess
from the box costs what a new session with `--join CODE` does, not less.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui_tictactoe.identity import displayable, set_apart
from tui_tictactoe.rooms import codes
from tui_tictactoe.rooms.view import Refused, RoomSummary, Ticket
from tui_tictactoe.ui.rooms.room_keys import (
    LOBBY_COMMANDS,
    lobby_states,
    screen_bindings,
    screen_keys,
)
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.rooms.room_setting import RoomSetting
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar

REFRESH = 3.0
"""Seconds between readings of the live rooms."""
CODE_PAUSE = 1.0
"""Seconds the code box takes no code after one the hub refused: about a new session's cost
(`ssh HOST --join CODE` to its first frame, 0.6 s in benchmarks/README.md, and a login), so
that a session kept open in the lobby guesses no faster than a session per guess."""

PLAY_AI, MATCH, NEW_ROOM, NEW_PUBLIC, JOIN_ROOM = (
    "play-ai",
    "play-someone",
    "new-room",
    "new-public",
    "join-room",
)


def room_entry(summary: RoomSummary) -> Text:
    """A public room as the list shows it; names as text, made displayable and set apart."""
    players = " vs ".join(set_apart(displayable(name)) for name in summary.players) or "no players"
    watching = f" · {summary.watchers} watching" if summary.watchers else ""
    seat = "a seat free" if summary.free else "full: watch"
    code = displayable(summary.code, limit=8)
    return Text(f"{code} · {players} · {summary.size}x{summary.size} · {seat}{watching}")


class LobbyScreen(IgnoresStaleResize, Screen[None]):
    """Play the AI, a new room, a room by its code, or a room to watch."""

    CSS_PATH = "lobby_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = screen_bindings(LOBBY_COMMANDS)

    def __init__(
        self, setting: RoomSetting, play_ai: Callable[[], Screen[None]], size: int
    ) -> None:
        """`play_ai` makes the game against the AI; `size` is a new room's board."""
        super().__init__()
        self.setting = setting
        self.play_ai = play_ai
        self.board_size = size
        self.code_after = 0.0  # time.monotonic() from which the box takes a code again
        self.menu = OptionList(
            Option("Play the AI", id=PLAY_AI),
            Option("New room (private)", id=NEW_ROOM),
            Option("New public room", id=NEW_PUBLIC),
            Option("Join a room", id=JOIN_ROOM),
            Option("Play someone (quick match)", id=MATCH),
            id="lobby-menu",
        )
        self.code = Input(
            placeholder="Join a room: its code, like ABCD",
            max_length=codes.MAX_INPUT,
            restrict=r"[A-Za-z \-]*",
            id="lobby-code",
        )
        self.note = Static("", id="lobby-note", markup=False)
        self.rooms = OptionList(id="lobby-rooms")
        self.rooms.border_title = "Public rooms"  # in its border: a line for the menu's 4th
        self.live: tuple[RoomSummary, ...] | None = None  # None: not read yet
        self.key_bar = KeyBar(screen_keys(LOBBY_COMMANDS, lobby_states("menu")), id="lobby-keys")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="lobby"):
            yield self.menu
            yield self.code
            yield self.note
            yield self.rooms
        yield self.key_bar

    async def on_mount(self) -> None:
        self.sub_title = "lobby"
        self.set_focus(self.menu)
        self.menu.highlighted = 0
        await self.read_rooms()
        self.set_interval(REFRESH, self.read_rooms)
        self.app.post_message(RoomScreen.Ready())

    async def on_screen_resume(self) -> None:
        """Back from a room: the focus on the list it was entered from (the menu for a
        code typed: in the code box the next `q` would be a letter, not quitting)."""
        if self.focused is not self.rooms:
            self.set_focus(self.menu)
        await self.read_rooms()

    def on_descendant_focus(self) -> None:
        """The key bar says what the keys do where the focus is (a letter types in the box)."""
        focused = self.focused
        focus = "code" if focused is self.code else "rooms" if focused is self.rooms else "menu"
        self.key_bar.hints = screen_keys(LOBBY_COMMANDS, lobby_states(focus))

    async def read_rooms(self) -> None:
        """The live rooms from the hub, shown if they changed (a broken link: kept)."""
        try:
            live = tuple(await self.setting.hub.rooms())
        except Exception:
            return
        if live == self.live:
            return
        was = self.rooms.highlighted_option
        self.live = live
        self.rooms.set_options(Option(room_entry(room), id=room.code) for room in live)
        if not live:
            self.rooms.add_option(Option(Text("No public rooms."), disabled=True))
            return
        codes_now = [room.code for room in live]
        # The highlight stays on the room it was on (else the first): a list that
        # changes under the cursor must not make Enter enter another room.
        kept = was.id if was is not None and was.id in codes_now else codes_now[0]
        self.rooms.highlighted = codes_now.index(kept)

    def action_focus_menu(self) -> None:
        self.set_focus(self.menu)

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = event.option.id
        if chosen == PLAY_AI:
            self.app.push_screen(self.play_ai())  # for good: q there quits
        elif chosen == MATCH:
            from tui_tictactoe.ui.rooms.match_screen import MatchScreen

            self.app.push_screen(MatchScreen(self.setting, self.play_ai, self.board_size))
        elif chosen in (NEW_ROOM, NEW_PUBLIC):
            await self._enter(self._create(public=chosen == NEW_PUBLIC))
        elif chosen == JOIN_ROOM:
            self.set_focus(self.code)  # the code box, right under the menu
        elif chosen is not None:
            listed = next((room for room in self.live or () if room.code == chosen), None)
            free = listed is not None and listed.free
            await self._enter(self._join(chosen) if free else self._watch(chosen))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        wait = self.code_after - time.monotonic()
        if wait > 0:  # the hub is not asked: the pause costs the guesser, not the hub
            self.note.update(f"One code at a time: wait {math.ceil(wait)} s.")
            return
        try:
            code = codes.normalise(event.value)
        except Refused as refusal:
            self.note.update(refusal.reason)
            return
        if not await self._enter(self._join(code)):
            self.code_after = time.monotonic() + CODE_PAUSE

    async def _create(self, public: bool) -> Ticket:
        return await self.setting.hub.create(self.setting.who, self.board_size, "X", public)

    async def _join(self, code: str) -> Ticket:
        return await self.setting.hub.join(code, self.setting.who)

    async def _watch(self, code: str) -> Ticket:
        return await self.setting.hub.watch(code, self.setting.who)

    async def _enter(self, asking: object) -> bool:
        """Await the hub's ticket, then open the room over the lobby; a refusal stays here
        (False)."""
        try:
            ticket = await asking  # type: ignore[misc]  # a coroutine giving a Ticket
        except Refused as refusal:
            self.note.update(refusal.reason)
            return False
        except Exception:
            self.note.update("The rooms' server is gone: try again later.")
            return False
        self.note.update("")
        self.code.value = ""
        self.app.push_screen(RoomScreen(self.setting, ticket))
        return True
