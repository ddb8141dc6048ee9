"""A subscriber's mailbox that holds the newest `RoomView` only.

A hub writes every change into each mailbox of the room; a slow reader then finds
just the latest view (views are whole, so nothing is lost by skipping): memory per
subscriber stays one view, however far behind its reader is.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from tui_tictactoe.rooms.view import RoomView


class Mailbox:
    """The newest view for one `updates` reader, and whether its ticket is still held."""

    def __init__(self, token: str, view: RoomView) -> None:
        self.token = token
        self.gone = False  # the ticket left or was taken over: end after the newest view
        self.fresh = True  # a view the reader has not taken yet
        self._view = view
        self._signal = asyncio.Event()
        self._signal.set()

    def put(self, view: RoomView) -> None:
        self._view, self.fresh = view, True
        self._signal.set()

    def end(self) -> None:
        self.gone = True
        self._signal.set()

    async def views(self) -> AsyncIterator[RoomView]:
        """Each newest view once, until one says closed or the ticket is gone."""
        while True:
            await self._signal.wait()
            if not self.fresh:
                return  # woken by `end` with nothing new
            view, self.fresh = self._view, False
            if not self.gone:
                self._signal.clear()
            yield view
            if view.closed:
                return
