"""Waiting for a quick match: the place in the queue, how many wait, the AI meanwhile.

The screen holds the session's place (`RoomHub.queue_join`), then asks the hub how the queue
stands every `matching.POLL` seconds in a worker (the question is the place's heartbeat),
which runs whatever screen is on top. Once paired, the pair's room opens over this screen;
a player who was playing the AI meanwhile (`a`) first sees that game end, with the choice
to play the player found (Enter, or by itself near the decline window's end) or decline
(Esc: out of the queue, the partner back at its head). The worker asks on through the
window and the room's opening (`matching.OPENING_TIME` for the first move, as much for
the reply): a partner's decline, leave or stall brings this screen back, first in the
queue; the place gone is the game begun. Esc while
waiting leaves the queue (back to the lobby); the seconds waited count on the session's
clock (`RoomSetting.clock`, injected in tests), never a wall clock of its own.
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

from tui_tictactoe.controller.status import Status
from tui_tictactoe.record.people import START
from tui_tictactoe.rooms.matching import (
    DECLINE_WINDOW,
    HIGHEST_RATING,
    LOWEST_RATING,
    OPENING_TIME,
    POLL,
    Place,
    QueueState,
)
from tui_tictactoe.rooms.room import SIZES
from tui_tictactoe.rooms.view import Refused, Ticket
from tui_tictactoe.ui.rooms.room_keys import MATCH_COMMANDS, acts, screen_bindings, screen_keys
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.rooms.room_setting import RoomSetting
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint

FOUND = "A player was found: your game against the AI ends here."
IN_QUEUE = " · still in the queue"
"""The title's tail over a game against the AI played while waiting."""
MEANWHILE = "Still in the queue: a player found ends this game."
CHOOSE = "Enter plays them (so do {seconds} s of nothing); Esc declines: they wait again, first."
DECLINED = "The player found did not play: you are first again."
WAITING = "You play the next player who asks for this board. Esc leaves the queue."
TICK = 1.0
"""Seconds between redraws of the seconds waited."""
PAIRED_POLL = 1.0
"""Seconds between questions once paired (only a decline is news then: half the load)."""
PAIRED_FOR = DECLINE_WINDOW + 2 * OPENING_TIME + 10.0
"""Seconds a paired place is asked about at the most (the hub ends it sooner: the window
and the opening over)."""
CHOICE_TIME = DECLINE_WINDOW - 3.0
"""Seconds a player found during a game against the AI has to choose: then they play."""


def waiting_line(waiting: tuple[int, ...]) -> str:
    """How many wait on each board: "Waiting now: 3x3 1 · 4x4 0 · ..."."""
    boards = " · ".join(
        f"{size}x{size} {count}" for size, count in zip(SIZES, waiting, strict=True)
    )
    return f"Waiting now: {boards}"


class MatchScreen(Screen[None]):
    """A place in a board's queue until a player is found (and through the decline window)."""

    CSS_PATH = "match_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = screen_bindings(MATCH_COMMANDS)

    class Held(Message):
        """The place is taken (the key bar offers the AI)."""

    class Stood(Message):
        """The queue now, from the worker."""

        def __init__(self, state: QueueState) -> None:
            super().__init__()
            self.state = state

    class Declined(Message):
        """The pair was declined by the other player: waiting again (or paired anew)."""

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
        self.done = False  # left the queue, refused, or paired: no more waiting here
        self.deciding: Ticket | None = None  # found during the AI game: play or decline
        self.paired = False  # the pair's room is (or was) over this screen
        self.title_line = Static(
            f"Waiting for a player on {size}x{size}", id="match-title", markup=False
        )
        self.counts = Static(waiting_line((0,) * len(SIZES)), id="match-counts", markup=False)
        self.seconds = Static("", id="match-seconds", markup=False)
        self.note = Static(WAITING, id="match-note", markup=False)
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
        self._start_waiting()
        self.app.post_message(RoomScreen.Ready())

    def _start_waiting(self) -> None:
        self.run_worker(self._wait(), group="queue", exclusive=True, exit_on_error=False)

    def _states(self) -> dict[str, bool]:
        deciding = self.deciding is not None
        return {
            "waiting": self.place is not None and not self.done,
            "deciding": deciding,
            "not_deciding": not deciding,
        }

    def _keys(self) -> tuple[KeyHint, ...]:
        return screen_keys(MATCH_COMMANDS, self._states())

    def _show_keys(self) -> None:
        self.key_bar.hints = self._keys()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return True  # leaves the queue, or declines: one key, two meanings
        return acts(MATCH_COMMANDS, action, self._states())

    # -- the hub, in a worker -------------------------------------------------------

    async def _wait(self) -> None:
        """Take a place (once), then ask how the queue stands until paired, and on
        through the decline window: a different answer then is the partner's decline."""
        hub = self.setting.hub
        ticket: Ticket | None = None
        try:
            if self.place is None:
                rating = await self._rating()
                self.place = await hub.queue_join(self.setting.who, self.board_size, rating)
                self.post_message(self.Held())
            loop = asyncio.get_running_loop()
            window_end = loop.time() + 3600.0
            while loop.time() < window_end:
                state = await hub.queue_poll(self.place)
                if ticket is None:
                    self.post_message(self.Stood(state))
                    if state.ticket is not None:
                        ticket, window_end = state.ticket, loop.time() + PAIRED_FOR
                elif state.ticket != ticket:
                    self.post_message(self.Declined(state))
                    return
                await asyncio.sleep(self.poll if ticket is None else PAIRED_POLL)
        except Refused as refusal:
            if ticket is None:  # once paired, a place gone is the window's end: nothing to say
                self.post_message(self.Refusal(refusal.reason))
        except Exception:
            if ticket is None:
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

    def on_match_screen_held(self) -> None:
        self._show_keys()

    def on_match_screen_stood(self, message: Stood) -> None:
        self.counts.update(waiting_line(message.state.waiting))
        if message.state.ticket is not None and not self.done:
            self._found(message.state.ticket)

    def on_match_screen_declined(self, message: Declined) -> None:
        """The other player declined: their room goes, this screen is back, first in line."""
        self._back_to_self()
        self.paired, self.done, self.deciding = False, False, None
        self.title_line.update(f"Waiting for a player on {self.board_size}x{self.board_size}")
        self.note.update(DECLINED)
        self.counts.update(waiting_line(message.state.waiting))
        self._show_keys()
        if message.state.ticket is not None:
            self._found(message.state.ticket)
        self._start_waiting()

    def on_match_screen_refusal(self, message: Refusal) -> None:
        self.done = True
        self.note.update(message.reason)
        self._show_keys()

    def _found(self, ticket: Ticket) -> None:
        """Paired: the room opens, or, over a game against the AI, that game ends here
        and the player chooses (playing them by itself after `CHOICE_TIME`). The bell rings
        for it as for the room's first turn (its name), so X, who starts, hears it once."""
        self.done = True
        if self.setting.signals is not None:
            self.setting.signals.ring_for_turn((ticket.code, 1, 0))
        if not self.playing_ai or self.app.screen is self:
            self._enter(ticket)
            return
        self._back_to_self()
        self.deciding = ticket
        self.title_line.update(f"A player was found on {self.board_size}x{self.board_size}")
        self.note.update(f"{FOUND} {CHOOSE.format(seconds=round(CHOICE_TIME))}")
        self._show_keys()
        self.set_timer(CHOICE_TIME, self.action_enter_match)

    def _enter(self, ticket: Ticket) -> None:
        """The pair's room, over this screen (back here when it is left: the lobby)."""
        self.deciding, self.paired = None, True
        self._show_keys()
        room = RoomScreen(self.setting, ticket)
        self.app.push_screen(room)
        if self.playing_ai:  # said in the room's note line too, where the player looks
            room.call_after_refresh(room.status.say, Status(FOUND, "hint"))

    def _back_to_self(self) -> None:
        while self.app.screen is not self:
            self.app.pop_screen()

    def on_screen_resume(self) -> None:
        """Back here, under everything, after the pair's room was left: the lobby."""
        if self.paired and self.app.screen is self:  # not the AI game's pop, before the room
            self.paired = False
            self._to_lobby()

    def _to_lobby(self) -> None:
        """Back to the lobby this screen came from; a new one over it when it is the app's
        first screen (Textual never replaces that one); the end without a lobby."""
        if self.app.screen_stack[0] is not self:
            self.dismiss()
        elif self.setting.lobby is not None:
            self.app.push_screen(self.setting.lobby())
        else:
            self.app.exit()

    def _show_seconds(self) -> None:
        if self.done:
            return  # paired, left or refused: the count stops where the waiting did
        waited = max(0, int(self.setting.clock() - self.started))
        self.seconds.update(f"Waited {waited} s")

    # -- keys -----------------------------------------------------------------------

    def action_play_ai(self) -> None:
        """The AI meanwhile: its title says the player is still in the queue, and its note
        that a match found ends the game (it came without warning)."""
        self.playing_ai = True
        game = self.play_ai()
        if isinstance(game, GameScreen):
            game.title_tail = IN_QUEUE
            game.say_when_shown(Status(MEANWHILE, "hint"))
        self.app.push_screen(game)

    def action_enter_match(self) -> None:
        if self.deciding is not None and self.app.screen is self:
            self._enter(self.deciding)

    async def action_escape(self) -> None:
        """Decline the player found, or leave the queue: back to the lobby either way
        (a decline refused, the game having begun: into the room)."""
        hub, place, ticket = self.setting.hub, self.place, self.deciding
        self.workers.cancel_group(self, "queue")
        self.done = True
        if ticket is not None and place is not None:
            try:
                await hub.queue_decline(place)
            except Refused as refusal:
                self.note.update(refusal.reason)
                self._enter(ticket)
                return
            except Exception:
                pass  # the link is gone: the window's end frees the seat
        elif place is not None:
            with contextlib.suppress(Exception):
                await hub.queue_leave(place)
        self._to_lobby()
