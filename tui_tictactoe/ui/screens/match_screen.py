"""Waiting for a quick match: the place in the queue, how many wait, the AI meanwhile.

The screen holds the session's place (`hub.queue_join`), then asks the hub how the queue
stands every `matching.POLL` seconds in a worker (the question is the place's heartbeat),
which runs whatever screen is on top: a game against the AI started meanwhile (`a`) is
ended when a player is found, with a note that says so, and the pair's room replaces
this screen. Esc leaves the queue (back to the lobby); the seconds waited count on the
session's clock (`RoomSetting.clock`, injected in tests), never a wall clock of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ...controller.status import Status
from ...record.people import START
from ...rooms.matching import HIGHEST_RATING, LOWEST_RATING, POLL, Place, QueueState
from ...rooms.room import SIZES
from ...rooms.view import Refused, Ticket
from ..room_keys import MATCH_COMMANDS, acts, screen_bindings, screen_keys
from ..widgets import TitleBar
from ..widgets.key_bar import KeyBar, KeyHint
from .room_screen import RoomScreen
from .room_setting import RoomSetting

FOUND = "A player was found: your game against the AI ends here."
TICK = 1.0
"""Seconds between redraws of the seconds waited."""


def waiting_line(waiting: tuple[int, ...]) -> str:
    """How many wait on each board: "Waiting now: 3x3 1 · 4x4 0 · ..."."""
    boards = " · ".join(
        f"{size}x{size} {count}" for size, count in zip(SIZES, waiting, strict=True)
    )
    return f"Waiting now: {boards}"


class MatchScreen(Screen[None]):
    """A place in a board's queue until a player is found."""

    CSS_PATH = "match_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = screen_bindings(MATCH_COMMANDS)

    class Stood(Message):
        """The queue now, from the worker."""

        def __init__(self, state: QueueState) -> None:
            super().__init__()
            self.state = state

    class Refusal(Message):
        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def __init__(
        self,
        setting: RoomSetting,
        play_ai: Callable[[], Screen[None]],
        size: int,
        poll: float = POLL,
    ) -> None:
        super().__init__()
        self.setting = setting
        self.play_ai = play_ai
        self.board_size = size
        self.poll = poll
        self.place: Place | None = None
        self.started = setting.clock()
        self.playing_ai = False
        self.paired = False
        self.done = False  # left the queue, or paired: nothing more happens here
        self.title_line = Static(
            f"Waiting for a player on {size}x{size}", id="match-title", markup=False
        )
        self.counts = Static(waiting_line((0,) * len(SIZES)), id="match-counts", markup=False)
        self.seconds = Static("", id="match-seconds", markup=False)
        self.note = Static(
            "You play the next player who asks for this board. Esc leaves the queue.",
            id="match-note",
            markup=False,
        )
        self.key_bar = KeyBar(self._keys(), id="match-keys")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="match"):
            yield self.title_line
            yield self.seconds
            yield self.counts
            yield self.note
        yield self.key_bar

    def on_mount(self) -> None:
        self.sub_title = "quick match"
        self._show_seconds()
        self.set_interval(TICK, self._show_seconds)
        self.run_worker(self._wait(), group="queue", exclusive=True, exit_on_error=False)
        self.app.post_message(RoomScreen.Ready())

    def _states(self) -> dict[str, bool]:
        return {"waiting": self.place is not None and not self.done}

    def _keys(self) -> tuple[KeyHint, ...]:
        return screen_keys(MATCH_COMMANDS, self._states())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return acts(MATCH_COMMANDS, action, self._states())

    # -- the hub, in a worker -------------------------------------------------------

    async def _wait(self) -> None:
        """Take a place, then ask how the queue stands until paired (or refused)."""
        hub = self.setting.hub
        try:
            rating = await self._rating()
            self.place = await hub.queue_join(self.setting.who, self.board_size, rating)
            self.key_bar.hints = self._keys()
            while not self.done:
                state = await hub.queue_poll(self.place)
                self.post_message(self.Stood(state))
                if state.ticket is not None:
                    return
                await asyncio.sleep(self.poll)
        except Refused as refusal:
            self.post_message(self.Refusal(refusal.reason))
        except Exception:
            self.post_message(self.Refusal("The rooms' server is gone: try again later."))

    async def _rating(self) -> int:
        """This player's rating from the record, in a thread (a failure: the start's)."""
        read = self.setting.rating
        if read is None:
            return START
        try:
            rating = await asyncio.to_thread(read)
        except Exception:
            return START
        return min(max(rating, LOWEST_RATING), HIGHEST_RATING)

    def on_match_screen_stood(self, message: Stood) -> None:
        self.counts.update(waiting_line(message.state.waiting))
        if message.state.ticket is not None and not self.done:
            self._found(message.state.ticket)

    def on_match_screen_refusal(self, message: Refusal) -> None:
        self.done = True
        self.note.update(message.reason)
        self.key_bar.hints = self._keys()

    def _found(self, ticket: Ticket) -> None:
        """Paired: a game against the AI ends (said so), the room takes this screen's place."""
        self.done = True
        while self.app.screen is not self:
            self.app.pop_screen()
        self.paired = True
        room = RoomScreen(self.setting, ticket)
        self._replace_with(room)
        if self.playing_ai:  # said in the room's note line, where the player looks
            room.call_after_refresh(room.status.say, Status(FOUND, "hint"))

    def _replace_with(self, screen: Screen[None]) -> None:
        """`screen` in this one's place; over it when this is the app's first screen
        (Textual never replaces that one: it stays under, done)."""
        if self.app.screen_stack[0] is self:
            self.app.push_screen(screen)
        else:
            self.app.switch_screen(screen)

    def on_screen_resume(self) -> None:
        """Back here, under everything, after the pair's room was left: the lobby."""
        if self.paired and self.app.screen is self:  # not the AI game's pop, before the room
            self._to_lobby()

    def _to_lobby(self) -> None:
        if self.setting.lobby is not None:
            self._replace_with(self.setting.lobby())
        else:
            self.app.exit()

    def _show_seconds(self) -> None:
        waited = max(0, int(self.setting.clock() - self.started))
        self.seconds.update(f"Waited {waited} s")

    # -- keys -----------------------------------------------------------------------

    def action_play_ai(self) -> None:
        self.playing_ai = True
        self.app.push_screen(self.play_ai())

    async def action_leave_queue(self) -> None:
        """Out of the queue, back to the lobby (a new one if this was the first screen)."""
        self.done = True
        self.workers.cancel_group(self, "queue")
        if self.place is not None:
            with contextlib.suppress(Exception):
                await self.setting.hub.queue_leave(self.place)
        if self.app.screen_stack[0] is not self:
            self.dismiss()  # back to the lobby it came from
        else:
            self._to_lobby()
