"""A room: two people and their spectators on one board, as the hub says it is.

The screen owns its state (a `rooms.game.RoomGame`, the cursor, the overlay switch).
A worker enters the room (create, join or watch, unless the lobby already has a
ticket), then reads the hub's updates and posts each `RoomView` to the screen as a
message; the screen takes it if it is newer and redraws. A key that plays only sends
`RoomHub.move` with the view's generation: the board changes when the hub's next view arrives,
never before, so every screen shows the hub's one board. Its words: `rooms.status`.

A spectator's overlay on 4x4 and 5x5 is found as the game finds its own: the `RoomGame`
hands out an `AnalysisRequest`, a thread worker posts each cell's score back (`Scored`),
and the `RoomGame` keeps it or drops it as stale; a view that moves the board on, `a`
off and leaving each stop the search.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from tui_tictactoe.controller.status import Status, refused
from tui_tictactoe.controller.teaching import CellScores
from tui_tictactoe.engine.board import Cell
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.keeping import RoundKeeper
from tui_tictactoe.rooms.request import RoomRequest, enter
from tui_tictactoe.rooms.status import (
    LEAVE_QUESTION,
    LINK_LOST,
    NO_HINT,
    analysis_refused,
    analysis_switched,
    explorer_refused,
    invite_lines,
    rematch_refused,
    room_state,
    room_title,
    score_line,
)
from tui_tictactoe.rooms.view import Refused, RoomView, Ticket
from tui_tictactoe.ui.rooms.room_choices import (
    LISTED,
    NO_WATCHING,
    PRIVATE,
    WATCHERS_ONLY,
    WATCHING_ON,
    PendingNote,
    ended_reason,
    key_states,
)
from tui_tictactoe.ui.rooms.room_keys import room_bindings, room_keys
from tui_tictactoe.ui.rooms.room_refused import show_refusal
from tui_tictactoe.ui.rooms.room_setting import RoomSetting
from tui_tictactoe.ui.screens.board_screen import BoardScreen
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint

TICK = 1.0
"""Seconds between redraws of the state: "waiting 42 s" counts down."""

ANSWER_KEYS = ("y", "n")


class RoomScreen(BoardScreen):
    """A room's board, its people and how to bring others in; its choices about who gets
    in (`p`, `w`) and the offers between the players (`d`, `u`, `y`/`n`, `c`)."""

    CSS_PATH = "room_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = room_bindings()

    show_analysis: reactive[bool] = reactive(False, init=False)

    class Entered(Message):
        def __init__(self, ticket: Ticket) -> None:
            super().__init__()
            self.ticket = ticket

    class Updated(Message):
        """The hub's room now (a whole view)."""

        def __init__(self, view: RoomView) -> None:
            super().__init__()
            self.view = view

    class Ended(Message):
        """The updates stopped: the room closed, this ticket lost its place, or a refusal."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    class Ready(Message):
        """On screen: keys typed ahead of the first frame may act now (the app's)."""

    def __init__(self, setting: RoomSetting, entry: Ticket | RoomRequest) -> None:
        """`entry`: a ticket the lobby already holds, or what to ask the hub for."""
        # The size is known when creating; a join learns it from the first view.
        new = isinstance(entry, RoomRequest) and entry.kind == "new"
        geometry = board_geometry(entry.size if new else 3)  # type: ignore[union-attr]
        super().__init__(geometry, grid_id=None, status_id="room-status")
        self.setting = setting
        self.hub = setting.hub
        self.clock = setting.clock
        self.entry = entry
        ticket = entry if isinstance(entry, Ticket) else Ticket(entry.code, None)
        self.game = RoomGame(ticket)
        self.keeper = RoundKeeper()
        self.entered = isinstance(entry, Ticket)
        self.left = False
        self.ended: RoomScreen.Ended | None = None  # came with another screen on top
        self.score = Static(id="room-score", markup=False)
        self.invite = Static(id="room-invite", markup=False)
        self.key_bar = KeyBar(self._keys(), id="room-keys")
        self.pending = PendingNote(self.status)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="room-play"):
            yield self.score
            yield self.grid
            yield self.status
            yield self.invite
        yield self.key_bar
        yield self.too_small

    def on_mount(self) -> None:
        self._keep_seat()
        self._show()
        self.run_worker(self._follow(), group="room", exclusive=True, exit_on_error=False)
        self.set_interval(TICK, self._show_state)
        self.app.post_message(self.Ready())

    # -- the hub, in a worker -------------------------------------------------

    async def _follow(self) -> None:
        """Enter the room if need be, then post every view until the updates end."""
        ticket = self.game.ticket
        entered: Ticket | None = None
        try:
            if not isinstance(self.entry, Ticket):
                ticket = entered = await enter(self.hub, self.entry, self.setting.who)
                self.post_message(self.Entered(ticket))
            async for view in self.hub.updates(ticket):
                self.post_message(self.Updated(view))
        except Refused as refusal:
            self.post_message(self.Ended(refusal.reason))
            return
        except Exception:  # a hub's link (a socket) broke: say so, never crash the game
            self.post_message(self.Ended(LINK_LOST))
            return
        finally:
            if self.left and entered is not None and not self.entered:
                # `q` came before the screen heard it had entered: leave the place taken.
                with contextlib.suppress(Exception):
                    await self.hub.leave(entered)
        self.post_message(self.Ended(""))

    def on_room_screen_entered(self, message: Entered) -> None:
        search = self.game.analysis_search  # the overlay's engine (a test's gate) stays
        self.game = RoomGame(message.ticket)
        self.game.analysis_search = search
        self.entered = True
        self._keep_seat()
        self._show()

    def on_room_screen_updated(self, message: Updated) -> None:
        if self.game.take(message.view):
            self._fit_board(board_geometry(message.view.size))
            self._show()
            match = self.keeper.ended(message.view) if self.game.is_player else None
            if match is not None and self.setting.keep is not None:
                self.setting.keep(match)  # both players' sessions: the record keeps it once
            self._ring_if_my_turn(message.view)
        self.pending.seen(self.game.view)

    def _ring_if_my_turn(self, view: RoomView) -> None:
        """The bell, once a turn: a turn is the room, its round and the moves made. Not
        while the other seat is free: the round waits for a person, not for this one. The
        window's title says it too, for a player whose terminal is behind another window."""
        seated = all(seat.person is not None for seat in view.seats)
        mine = seated and self.game.my_turn
        signals = self.setting.signals
        if signals is not None:
            if mine:
                signals.ring_for_turn((view.code, view.round, len(view.moves)))
            signals.set_window_title(
                f"Your turn · Room {view.code}" if mine else f"Room {view.code}"
            )

    def on_room_screen_ended(self, message: Ended) -> None:
        """A refusal, or a place lost: a screen that says why and offers what next, in
        this one's place (a room that closed says so on its board)."""
        view = self.game.view
        if self.left or (not message.reason and view is not None and view.closed):
            return
        if self.app.screen is not self:  # the help over the room: once it is back
            self.ended = message
            return
        reason = message.reason or ended_reason(self.game)
        self.left = True
        self._keep_seat()
        self.stop_searching()
        watch = partial(RoomScreen, self.setting, RoomRequest("watch", self.game.ticket.code))
        show_refusal(self, self.entry, reason, watch, self.setting.lobby, self._over_lobby)

    # -- keys ---------------------------------------------------------------

    async def action_select(self) -> None:
        await self.play(self.geometry.key(*self.cursor))

    async def play(self, key: int) -> None:
        """Ask the hub to play cell `key`: the one path for Enter, Space, digits and clicks.
        Nothing changes here: the hub's next view shows the move, or its refusal is said.

        The cursor, moved to `key` by a digit or a click, is drawn once the hub has answered,
        in the frame that shows the move (or the refusal): drawn before, it cost the mover a
        frame of its own, a quarter of a move's drawing (benchmarks/bench_rooms.py)."""
        self.status.clear_note()
        request = self.game.move_request(key)
        if request is not None and self.entered:
            await self._ask(self.hub.move(*request))
        self._show_cursor()

    async def action_rematch(self) -> None:
        said = rematch_refused(self.game)
        if said is not None:
            self.status.say(said)
            return
        await self._ask(self.hub.rematch(self.game.ticket))

    async def action_toggle_public(self) -> None:
        """List the room in the lobby, or make it private again (its opener's)."""
        view = self.game.view
        if view is None or not self.entered:
            return
        public = not view.public
        if await self._ask(self.hub.set_public(self.game.ticket, public)):
            self._say_once_shown(LISTED if public else PRIVATE, lambda v: v.public == public)

    async def action_toggle_watching(self) -> None:
        """Let spectators in, or send them away (either player's)."""
        view = self.game.view
        if view is None or not self.entered:
            return
        if not self.game.is_player:
            self.status.say(Status(WATCHERS_ONLY, "refused"))
            return
        watching = not view.watching
        if await self._ask(self.hub.set_watching(self.game.ticket, watching)):
            note = WATCHING_ON if watching else NO_WATCHING
            self._say_once_shown(note, lambda v: v.watching == watching)

    def _say_once_shown(self, note: Status, shown: Callable[[RoomView], bool]) -> None:
        self.pending.say(note, shown, self.game.view)

    # -- offers between the players (the hub decides: `room.Room.make_offer`, `answer`) --

    async def action_offer_draw(self) -> None:
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.offer(self.game.ticket, "draw"))

    async def action_offer_take_back(self) -> None:
        """Ask to take back the last move (refused, with the reason, unless it was ours)."""
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.offer(self.game.ticket, "take_back"))

    async def action_claim(self) -> None:
        """Claim the round of an opponent who left (the hub says how long to wait, if)."""
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.claim(self.game.ticket))

    async def action_answer_offer(self, yes: bool) -> None:
        if self.entered and self.game.offer_to_me:
            await self._ask(self.hub.answer(self.game.ticket, yes))

    async def decline_on_key(self, key: str) -> None:
        """Any key but `y` and `n` declines an offer waiting for this player (then does
        what it does): the app calls this with every key before it acts."""
        if key not in ANSWER_KEYS and self.game.offer_to_me and not self.status.asking:
            await self.action_answer_offer(False)

    def action_hint(self) -> None:
        self.status.say(NO_HINT)

    def action_explore(self) -> None:
        """`t`: the search explorer on the room's position, for a spectator, or for a
        player once the round is over (never mid-round: no engine's help in play)."""
        from tui_tictactoe.ui.explorer_view import NOTHING_TO_EXPLORE, room_position
        from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen

        said = explorer_refused(self.game, self.setting.who)
        if said is not None:
            self.status.say(said)
            return
        position = room_position(self.game)
        if position is None:
            self.status.say(refused(NOTHING_TO_EXPLORE))
        else:
            self.app.push_screen(ExplorerScreen(position))

    def action_review(self) -> None:
        """`v`: the round's review once it is over, for players and spectators alike
        (`ui/screens/review_screen.py`); mid-round it says when."""
        from tui_tictactoe.ui.screens.review_screen import NO_MOVES, REVIEW_LATER, review_of_room

        screen = review_of_room(self.game)
        if screen is None:
            over = self.game.view is not None and not self.game.in_progress
            self.status.say(refused(NO_MOVES if over else REVIEW_LATER))
        else:
            self.app.push_screen(screen)

    def action_toggle_analysis(self) -> None:
        said = analysis_refused(self.game, self.setting.who)
        if said is not None:
            self.status.say(said)
            return
        self.show_analysis = not self.show_analysis

    def watch_show_analysis(self, show: bool) -> None:
        self._show()
        self.status.say(analysis_switched(show))

    # -- the big board's overlay, in a thread ----------------------------------

    def _show_analysis(self) -> None:
        """3x3 at once; on the big boards start the search for the position now (unless
        under way), or stop it when the overlay is off; then draw what is found."""
        game = self.game
        if self.show_analysis and analysis_refused(game, self.setting.who) is not None:
            self.show_analysis = False  # fair play: a new round with this spectator seated
            return  # (`watch_show_analysis` draws the board again, the overlay off)
        if not self.show_analysis:
            game.stop_analysis()  # no search for an overlay no one sees
        elif game.analysis_ready:
            self.grid.show_analysis(game.analysis())
            return
        else:
            request = game.analysis_request()  # None: under way for this position
            if request is not None:
                self._run("analysis", request)  # a new search cancels the one before
        self._draw_analysis()

    def _take(self, reply: CellScores) -> None:
        """One empty cell's score for the overlay, from its thread (`BoardScreen._run`)."""
        if self.game.apply(reply):  # a late reply (stale, or off) changes nothing
            self._draw_analysis()

    def _draw_analysis(self) -> None:
        """The big board's overlay as far as found, and the title counting its cells (the
        status line keeps the state of play)."""
        found = self.game.analysis_found if self.show_analysis else None
        self.grid.show_analysis(found.analysis if found is not None else None)
        self.sub_title = room_title(self.game, found)

    async def _ask(self, call: object) -> bool:
        """Await a hub call; a refusal (or a broken link) is said under the state (False)."""
        try:
            await call  # type: ignore[misc]  # a coroutine of the hub
            return True
        except Refused as refusal:
            self.status.say(refused(refusal.reason))
        except Exception:
            self.status.say(refused(LINK_LOST))
        return False

    # -- leaving (q, y: the app hands them here) --------------------------------

    @property
    def asks_before_leaving(self) -> bool:
        """A player mid-round is asked once: a stray `q` must not abandon a game in play."""
        return self.game.is_player and self.game.round_begun and self.entered

    async def ask_leave(self) -> None:
        if self.asks_before_leaving and not self.status.asking:
            self.status.say(LEAVE_QUESTION)
            return
        await self.leave()

    async def ask_quit(self) -> None:
        await self.ask_leave()

    async def confirm_quit(self) -> None:
        await self.leave()

    async def leave(self) -> None:
        """Leave the room for good (the others are told by the hub), then go back to the
        lobby, or end the app when the room was its first screen."""
        if self.left:
            return
        self.left = True
        self._keep_seat()
        self.workers.cancel_group(self, "room")
        self.stop_searching()
        if self.entered:
            with contextlib.suppress(Exception):  # gone already, or the link is: leave anyway
                await self.hub.leave(self.game.ticket)
        if self._over_lobby:
            self.dismiss()
        else:
            self.app.exit()

    @property
    def _over_lobby(self) -> bool:
        """A screen under this one to go back to: the lobby, not a room left (`show_refusal`)."""
        return any(
            screen is not self and not (isinstance(screen, RoomScreen) and screen.left)
            for screen in self.app.screen_stack
        )

    def _keep_seat(self) -> None:
        """A guest's seat, kept where a reload finds it (`SeatKeeper`), or forgotten once
        the room is left: a player's ticket has a token, a spectator's does not."""
        seats = self.setting.seats
        if seats is None:
            return
        ticket = self.game.ticket
        if self.left or ticket.seat is None or not ticket.token:
            seats.keep_seat("", "")
        else:
            seats.keep_seat(ticket.code, ticket.token)

    def stop_searching(self) -> None:
        """Leaving the room (or the app): the overlay's search stops, its thread ends."""
        self.game.stop_analysis()
        self.workers.cancel_group(self, "analysis")

    # -- showing --------------------------------------------------------------

    def _keys(self) -> tuple[KeyHint, ...]:
        offered = self.game.analysis_offered if self.game.view is not None else False
        analysis = self.show_analysis if offered else None
        player = self.game.is_player and self.game.view is not None  # none that play before
        choices = key_states(self.game, self.clock())
        over = self.game.view is not None and not self.game.in_progress
        return room_keys(self.geometry.size, analysis, player, choices, over)

    def _show(self) -> None:
        game = self.game
        last = game.last_move
        markers = {"-last": self.geometry.cell_of_key(last.cell) if last else None}
        markers["-cursor"] = self._cursor_cell()
        self.grid.show_board(game.board, markers)
        show_text(self.score, score_line(game))
        show_text(
            self.invite, "\n".join(invite_lines(game, self.setting.address, self.setting.guest))
        )
        self.key_bar.hints = self._keys()
        self.sub_title = room_title(game)
        self._show_analysis()
        self._show_state()
        self.status.clear_note(keep_question=game.in_progress)

    def _show_state(self) -> None:
        """The state of play (every `TICK`: the clocks count down), and the key bar when
        time changed what it offers (`c` once a claim may be made)."""
        self.status.show(room_state(self.game, self.clock()))
        keys = self._keys()
        if keys != self.key_bar.hints:
            self.key_bar.hints = keys

    def _show_cursor(self) -> None:
        self.grid.show_marker("-cursor", self._cursor_cell())

    def _cursor_cell(self) -> Cell | None:
        """Players only: a spectator's keys play nothing, so no cell is under a cursor."""
        player = self.game.is_player or not self.entered
        return self.cursor if player else None

    # -- terminal size ------------------------------------------------------

    def _allows(self, action: str) -> bool:
        """y and n only answer an offer (else `y` answers the app's question)."""
        return action != "answer_offer" or self.game.offer_to_me

    def _hears_digits(self) -> bool:
        return self.game.is_player  # a spectator's digits play nothing anyway

    def _resumed(self) -> None:
        """An end that came with another screen on top is shown now."""
        if self.ended is not None:
            self.on_room_screen_ended(self.ended)


def show_text(static: Static, text: str) -> None:
    """Update `static` only when its text changed, and lay the screen out again only when
    its line count did: a whole layout on every view of a room was most of a frame's CPU
    with 8 rooms on 2 cores (benchmarks/bench_rooms.py)."""
    old = str(static.content)
    if text != old:
        static.update(text, layout=text.count("\n") != old.count("\n"))
