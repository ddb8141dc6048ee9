"""`PostgresHub`'s background work: the heartbeat, the listener and the re-reads.

`HubTasks` is a part the hub owns (`PostgresHub.tasks`), handed what it calls: the hub's
`beat`, `expire` and room reads, its `Readers` and its log. Every loop runs until `stop`,
and survives the database's absences (`_survive`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from functools import partial

from tui_tictactoe.rooms.postgres import rows as pg_rows
from tui_tictactoe.rooms.postgres.link import LISTEN_RETRY, UNREACHABLE, listen
from tui_tictactoe.rooms.postgres.readers import Readers
from tui_tictactoe.rooms.postgres.rows import Loaded
from tui_tictactoe.rooms.view import Refused


class HubTasks:
    """The loops `PostgresHub.start` runs (see there for what each keeps true)."""

    def __init__(
        self,
        readers: Readers,
        log: Callable[[str], None],
        *,
        beat: Callable[[], Awaitable[None]],
        expire: Callable[[], Awaitable[None]],
        read: Callable[[list[str]], Awaitable[dict[str, Loaded]]],
        heartbeat: float,
        reread: float,
        listen_url: str | None,
        channel: str,
    ) -> None:
        """`listen_url` None: no listener (the re-reads alone bring other hosts' moves)."""
        self.readers = readers
        self._log = log
        self._beat, self._expire, self._read = beat, expire, read
        self.heartbeat, self.reread = heartbeat, reread
        self.listen_url, self.channel = listen_url, channel
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False  # set by `stop`: every loop ends

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._keep_beating()))
        self._tasks.append(asyncio.create_task(self._keep_reading()))
        if self.listen_url is not None:
            self._tasks.append(asyncio.create_task(self._keep_listening(self.listen_url)))

    async def stop(self) -> None:
        """Every loop cancelled and awaited. Belt and braces: a cancel lost on the way (see
        `Readers.wait`) still ends each loop at its next turn, by the flag."""
        self._stopping = True
        while pending := [task for task in self._tasks if not task.done()]:
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=1.0)
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    def heard(self, payload: str) -> None:
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
            await self._survive("heartbeat", self._beat)

    async def _keep_listening(self, url: str) -> None:
        while not self._stopping:  # `listen` connects again after the database's failures
            await self._survive(
                "listening",
                lambda: listen(url, self.channel, self.heard, self.readers.all_due),
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
                await self._survive("sweep", self._expire)
            if codes_due:
                await self._survive("re-read", partial(self._read_again, codes_due))

    async def _read_again(self, codes_due: list[str]) -> None:
        self.readers.refresh(codes_due, await self._read(codes_due))
