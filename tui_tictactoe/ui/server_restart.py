"""A hosted game told that its server is draining: it says so, and ends after the round.

`serve-ssh` drains on SIGUSR1 (docs/hosting.md, "Draining a host") and passes the word
on as SIGUSR1 to each game's process group, again every few seconds until the game has
gone (a game still starting ignores it: `servers.games.child` and the fork server set it
ignored from the start, so that a signal never kills a game). One-way and free of
Textual on the server's side: the game shows a notification, then quits on its own once
nothing has been in play for RESULT_SECONDS: no round begun (a room's, or against the AI),
no round still being saved, and the last round's result seen. Its message tells the player how to carry on (a room's code to join again).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui_tictactoe.rooms.request import rooms_kept

if TYPE_CHECKING:
    from textual.app import App

    from tui_tictactoe.controller import GameController
    from tui_tictactoe.ui.rooms.room_screen import RoomScreen

NOTICE = "This server restarts after your round."
CHECK = 0.5  # seconds between checks that nothing is in play
NOTICE_SECONDS = 10.0  # the toast then goes: it covers part of the status line
RESULT_SECONDS = 3.0
"""Seconds the game stays once nothing is in play: a round that has just ended shows its
result before the game goes (it went within CHECK, often before the last frame was drawn)."""


def goodbye(code: str | None, kept: bool) -> str:
    """What the player reads once the game has ended: with rooms that outlive the server
    (`kept`), how to go on in room `code`; else that the room ended with it."""
    if code and kept:
        return (
            f"This server restarted after your round: connect again with --join {code} "
            "(through any host) to go on in the room."
        )
    if code:
        return (
            f"This server restarted after your round: room {code} ended with it. "
            "Connect again to play."
        )
    return "This server restarted after your round: connect again to play."


class ServerRestart:
    """Installs the SIGUSR1 handler of a hosted game and ends the game when it may."""

    def __init__(
        self,
        app: App[Any],
        controller: GameController,
        board: Callable[[], object],
    ) -> None:
        """`board`: the board screen played or watched now, if any (`TicTacToeApp.board`)."""
        self.app = app
        self.controller = controller
        self.board = board
        self.told = False
        self._idle_since: float | None = None  # nothing in play since (the loop's clock)

    def room_screen(self) -> RoomScreen | None:
        """The room played or watched now, if the board on screen is a room's."""
        from tui_tictactoe.ui.rooms.room_screen import RoomScreen

        board = self.board()
        return board if isinstance(board, RoomScreen) else None

    def install(self) -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.tell)

    def tell(self) -> None:
        if self.told or self.app.return_code is not None:
            return
        self.told = True
        self.app.notify(NOTICE, title="Server", severity="warning", timeout=NOTICE_SECONDS)
        self.app.set_interval(CHECK, self.end_if_idle)
        self.end_if_idle()

    def end_if_idle(self) -> None:
        app = self.app
        if app.return_code is not None or self.in_play():
            self._idle_since = None
            return
        now = asyncio.get_running_loop().time()
        if self._idle_since is None:
            self._idle_since = now
        if now - self._idle_since < RESULT_SECONDS:
            return  # the result (or whatever is on screen) stays a moment
        room = self.room_screen()
        code = room.game.ticket.code if room is not None and room.game.is_player else None
        app.exit(message=goodbye(code, rooms_kept()))

    def in_play(self) -> bool:
        """A round begun here (or its saving) keeps the game: it ends after it."""
        app = self.app
        if any(w.group == "record" and w.is_running for w in app.workers):
            return True
        room = self.room_screen()
        if room is not None:  # a spectator too watches the round to its end
            return room.game.round_begun
        return self.controller.in_progress  # the lobby's is never in progress
