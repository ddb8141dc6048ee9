"""`--plain` in a room (`--room new [--public]`, `--join CODE [--seat TOKEN]`, `--watch
CODE`): the room line by line, through the hub client the room screen uses.

One asyncio loop reads both the hub's views and the player's lines. Lines come from a
reader thread (a blocking `LineReader`, bounded as the plain game's) through a small
queue: the thread waits while the queue is full, so a client typing faster than the room
answers is held back at its own pipe, never buffered here without bound. Each view that
changes the board or the state of play prints the board and the state in the room
screen's own words (`rooms.status`), so the other player's moves appear as they come.
`v` reviews a round once it is over, as the plain game does (`text.review_lines`), in a
thread (`asyncio.to_thread`): the room's views and lines go on meanwhile, and leaving the
room stops it. No Textual: the rooms' model and wording are below the UI.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable
from typing import BinaryIO, TextIO

from tui_tictactoe.commands.plain.lines import LINE_LIMIT, TOO_LONG, LineReader, TooLong
from tui_tictactoe.commands.plain.text import (
    NO_MOVES,
    QUIT_YES,
    REVIEW_HELP,
    REVIEW_LATER,
    ascii_text,
    review_lines,
    reviewing_line,
)
from tui_tictactoe.commands.play_arguments import echo
from tui_tictactoe.controller.status import PLAYING_ON
from tui_tictactoe.engine.board import EMPTY, Symbol
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.options import board_geometry
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.request import RoomRequest, enter, room_address
from tui_tictactoe.rooms.status import (
    LEAVE_QUESTION,
    LINK_LOST,
    invite_lines,
    rematch_refused,
    room_state,
    room_title,
    score_line,
)
from tui_tictactoe.rooms.view import Person, Refused, Ticket

QUEUED_LINES = 8
"""Lines read ahead of the room's answers at most; the reader thread waits beyond."""

HELP = (
    "Type a cell's number (1 top-left, in reading order) to play there.",
    "r: a rematch, once the round is over (it starts when both players ask).",
    "d: offer a draw. u: ask to take back your move.",
    "y or n: answer the other player's offer.",
    "c: claim the round of a player who left, after half the wait for them.",
    REVIEW_HELP,
    "b: the board again. q: leave the room (in the middle of a round it asks once).",
    "?: this help.",
)


PLAYERS_WORDS: dict[str, Callable[[RoomHub, Ticket], Awaitable[None]]] = {
    "d": lambda hub, ticket: hub.offer(ticket, "draw"),
    "u": lambda hub, ticket: hub.offer(ticket, "take_back"),
    "y": lambda hub, ticket: hub.answer(ticket, True),
    "n": lambda hub, ticket: hub.answer(ticket, False),
    "c": lambda hub, ticket: hub.claim(ticket),
}
"""The offers, their answers and the claim, as the room screen's keys: one hub call each."""


def room_board(game: RoomGame) -> list[str]:
    """The room's board as the plain game prints its own: numbers for empty cells."""
    geometry = game.board.geometry
    width = len(str(geometry.cells))
    rows = []
    for row in range(geometry.size):
        cells = []
        for col in range(geometry.size):
            mark = game.board.game_board[row][col]
            cells.append(str(geometry.key(row, col)) if mark == EMPTY else mark)
        rows.append("  ".join(cell.rjust(width) for cell in cells))
    return rows


class PlainRoom:
    """One session's room on lines: `lines` in, `out` out, `hub` the rooms."""

    def __init__(
        self, hub: RoomHub, who: Person, request: RoomRequest, lines: LineReader, out: TextIO
    ) -> None:
        self.hub = hub
        self.who = who
        self.request = request
        self.lines = lines
        self.out = out
        self.game: RoomGame | None = None
        self.shown: tuple[str, ...] = ()
        self.asked = False  # the leave question is open
        self.reviewing: asyncio.Task[None] | None = None  # `v`'s review, in its thread
        self.stop_review = threading.Event()  # set: the review's search stops

    def say(self, *lines: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # an output gone: the end comes next
            for line in lines:
                self.out.write(ascii_text(line) + "\n")
            self.out.flush()

    async def run(self) -> int:
        """Enter the room, then follow it and the player's lines until `q`, the end of
        input or the end of the room; the exit status (1: refused or the link lost)."""
        try:
            ticket = await enter(self.hub, self.request, self.who)
        except Refused as refusal:
            self.say(refusal.reason)
            return 1
        except Exception:
            self.say(LINK_LOST)
            return 1
        self.game = RoomGame(ticket)
        queue: asyncio.Queue[str | TooLong | None] = asyncio.Queue(QUEUED_LINES)
        loop = asyncio.get_running_loop()
        threading.Thread(target=self._read, args=(loop, queue), daemon=True).start()
        follow = asyncio.create_task(self._follow())
        try:
            while not follow.done():
                getting = asyncio.ensure_future(queue.get())
                await asyncio.wait({getting, follow}, return_when=asyncio.FIRST_COMPLETED)
                if not getting.done():
                    getting.cancel()
                    break
                line = getting.result()
                if line is None or await self.command(line):
                    await self._leave()
                    return 0
        finally:
            follow.cancel()
            self._stop_reviewing()
        return 0 if follow.cancelled() or follow.result() else 1

    def _read(
        self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | TooLong | None]
    ) -> None:
        """In the thread: each line into the queue, waiting while it is full; None last."""
        while True:
            try:
                line = self.lines.read()
            except (OSError, ValueError):
                line = None
            try:
                asyncio.run_coroutine_threadsafe(queue.put(line), loop).result()
            except RuntimeError:  # the loop has closed: the session is over
                return
            if line is None:
                return

    async def _follow(self) -> bool:
        """Print the room as its views come; True if it ended quietly (closed, left)."""
        game = self.game
        assert game is not None
        try:
            async for view in self.hub.updates(game.ticket):
                if game.take(view):
                    self.show(first=len(self.shown) == 0)
        except Refused as refusal:
            self.say(refusal.reason)
            return False
        except Exception:
            self.say(LINK_LOST)
            return False
        last = game.view
        if last is None or not last.closed:
            self.say(f"You are no longer in room {game.ticket.code}.")
        return True

    def show(self, first: bool = False, again: bool = False) -> None:
        """The board and the state when either changed (or `again`); the code and how
        others get in with the first view."""
        game = self.game
        assert game is not None and game.view is not None
        state = room_state(game, time.time()).text  # the hub's clock, as the room screen's
        shown = (*room_board(game), state)
        if shown == self.shown and not again:
            return
        if first:
            self.say(room_title(game), *invite_lines(game, room_address(), not self.who.key))
        self.shown = shown
        self.say(*shown)
        if game.view.result is not None:
            self.say(score_line(game))

    async def command(self, line: str | TooLong) -> bool:
        """Do what `line` says; True to leave."""
        game = self.game
        assert game is not None
        if line == TOO_LONG:
            self.say(f"That line is too long (at most {LINE_LIMIT} bytes): nothing done.")
            return False
        word = line.lower()
        if self.asked:  # the line answers the question, and does nothing else
            self.asked = False
            if word in QUIT_YES:
                return True
            self.say(PLAYING_ON.text)
            return False
        if word in ("q", "quit"):
            if game.is_player and game.round_begun:  # as the room screen asks
                self.asked = True
                self.say(LEAVE_QUESTION.text)
                return False
            return True
        if word.isascii() and word.isdigit() and len(word) <= 3:
            request = game.move_request(int(word))
            if request is not None:  # the hub says why not (a spectator, a taken cell...)
                await self._ask(self.hub.move(*request))
        elif word == "r":
            said = rematch_refused(game)
            if said is not None:
                self.say(said.text)
            else:
                await self._ask(self.hub.rematch(game.ticket))
        elif word in PLAYERS_WORDS:  # the room screen's keys, the hub's refusals said
            await self._ask(PLAYERS_WORDS[word](self.hub, game.ticket))
        elif word == "v":
            self.review()
        elif word == "b" and game.view is not None:
            self.show(again=True)
        elif word in ("?", "help"):
            self.say(*HELP)
        elif word:
            self.say(f"Not a command: {echo(line)}. Type a cell number, or ? for help.")
        return False

    def review(self) -> None:
        """`v`: the review of the round once it is over (or the room closed), for players
        and spectators alike; mid-round it says when, as the room screen does."""
        game = self.game
        assert game is not None
        view = game.view
        if view is None or game.in_progress:
            self.say(REVIEW_LATER)
        elif not view.moves:
            self.say(NO_MOVES)
        elif self.reviewing is not None and not self.reviewing.done():
            self.say("The review is on its way.")
        else:
            geometry = board_geometry(view.size)
            if said := reviewing_line(geometry, len(view.moves)):
                self.say(said)
            self.stop_review = threading.Event()
            name = f"Room {view.code}, round {view.round}"
            self.reviewing = asyncio.create_task(
                self._review(geometry, view.first, view.moves, name, self.stop_review)
            )

    async def _review(
        self,
        geometry: Geometry,
        first: Symbol,
        keys: tuple[int, ...],
        name: str,
        stop: threading.Event,
    ) -> None:
        """The review found in a thread, then said whole (unless the room was left)."""
        try:
            lines = await asyncio.to_thread(review_lines, geometry, first, keys, name, stop.is_set)
            self.say(*lines)
        except SearchCancelled:  # the room was left: nobody to tell
            pass
        except ValueError as error:  # moves no game could have (`review.BadMoves`)
            self.say(f"No review: {error}.")

    def _stop_reviewing(self) -> None:
        """The review's task cancelled and its search told to stop (the thread ends at its
        next check, so that the loop's close does not wait for a whole 5x5 review)."""
        self.stop_review.set()
        if self.reviewing is not None:
            self.reviewing.cancel()

    async def _ask(self, call: Awaitable[None]) -> None:
        try:
            await call
        except Refused as refusal:
            self.say(refusal.reason)
        except Exception:
            self.say(LINK_LOST)

    async def _leave(self) -> None:
        if self.game is not None:
            with contextlib.suppress(Exception):
                await self.hub.leave(self.game.ticket)


def run_plain_room(
    hub: RoomHub,
    who: Person,
    request: RoomRequest,
    stdin: BinaryIO,
    stdout: TextIO,
) -> int:
    """The room on standard input and output, in an event loop of its own."""
    room = PlainRoom(hub, who, request, LineReader(stdin), stdout)
    return asyncio.run(room.run())
