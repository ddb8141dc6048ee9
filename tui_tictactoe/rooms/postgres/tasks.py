"""`PostgresHub`'s background work: the heartbeat, the listener and the re-reads.

A mixin of `hub.PostgresHub`, apart only to keep each module short: every loop runs
until the hub's `_stopping`, and survives the database's absences (`_survive`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

from tui_tictactoe.rooms.postgres import rows as pg_rows
from tui_tictactoe.rooms.postgres.link import LISTEN_RETRY, UNREACHABLE, listen
from tui_tictactoe.rooms.postgres.readers import Readers
from tui_tictactoe.rooms.postgres.rows import Loaded
from tui_tictactoe.rooms.view import Refused


class HubTasks:
    """The loops `PostgresHub.start` runs (see there for what each keeps true)."""

    _stopping: bool
    heartbeat: float
    reread: float
    listen_url: str
    channel: str
    readers: Readers
    _log: Callable[[str], None]

    async def beat(self) -> None:
        raise NotImplementedError

    async def expire(self) -> None:
        raise NotImplementedError

    async def _read(self, codes_read: list[str]) -> dict[str, Loaded]:
        raise NotImplementedError

    def _heard(self, payload: str) -> None:
        """A notification: `CODE GENERATION`, and the room's rows when they fit; for a
        reader here that is behind, the room as it carries it, else read again."""
        code, _, rest = payload.partition(" ")
        generation, _, body = rest.partition(" ")
        if generation.isdigit():
            at = int(generation)
            self.readers.note(code, at, lambda: pg_rows.from_note(code, at, body))

    async def _keep_beating(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.heartbeat)
            await self._survive("heartbeat", self.beat)

    async def _keep_listening(self) -> None:
        while not self._stopping:  # `listen` connects again after the database's failures
            await self._survive(
                "listening",
                lambda: listen(self.listen_url, self.channel, self._heard, self.readers.all_due),
            )
            await asyncio.sleep(LISTEN_RETRY)

    async def _survive(self, what: str, step: Callable[[], Awaitable[None]]) -> None:
        """One round of a background task: the database out of reach is tried again next
        time; anything else (a bug) is logged, and the task goes on all the same."""
        try:
            await step()
        except Refused as refused:
            self._reached(refused.reason != UNREACHABLE)
        except Exception as error:
            self._log(f"room hub: {what} failed: {type(error).__name__}")
        else:
            self._reached(True)

    def _reached(self, reached: bool) -> None:
        """The readers' screens say whether the database answers; the log, each change."""
        if self.readers.reachable(reached):
            self._log(f"room hub: the database {'is back' if reached else 'is out of reach'}")

    async def _keep_reading(self) -> None:
        """Rooms with readers read again: when a notification says so, and all of them
        every `reread` seconds (with the sweep), whatever was heard."""
        loop = asyncio.get_running_loop()
        next_full = loop.time() + self.reread
        while not self._stopping:
            await self.readers.wait(max(0.0, next_full - loop.time()))
            full = loop.time() >= next_full
            if full:
                next_full = loop.time() + self.reread
            codes_due = self.readers.take_due(everything=full)
            if full:
                await self._survive("sweep", self.expire)
            if codes_due:
                await self._survive("re-read", partial(self._read_again, codes_due))

    async def _read_again(self, codes_due: list[str]) -> None:
        self.readers.refresh(codes_due, await self._read(codes_due))
