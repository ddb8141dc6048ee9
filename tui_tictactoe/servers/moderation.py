"""The server's side of `tui-tictactoe admin`: the record is the channel, looked at every BEAT s.

Each look (in a thread: the record is blocking I/O) publishes this host and its live
sessions when they changed, or every HEARTBEAT s in any case (`admin list` shows hosts seen
within FRESH s, so a host killed outright drops out of the list by itself); takes the orders
left for this host (end a session or a room, drain) and carries them out; reads the shared
deny entries (`admin deny` on any host sharing the database) into the deny list, and the
names an admin set; and writes every admin action since the last look to this server's log.
One way for one host (the SQLite record in the data directory, which `admin` opens too) and
for many (the PostgreSQL database they share): no socket or signal of its own to secure.
An order waits at most a BEAT; the record being out of reach costs this only its looks.
The server keeps one connection to the SQLite record for its life: another one opened and
closed in the same process could take the write-ahead log from under it (SQLite's locks are
the process's), so nothing else in the server's process opens the record.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from typing import Protocol

from tui_tictactoe.record import Record
from tui_tictactoe.record.deny_list import DenyEntry, parse_entry
from tui_tictactoe.record.moderation import (
    AdminAction,
    Claim,
    LiveHost,
    LiveSession,
    Order,
    now_text,
)
from tui_tictactoe.servers.deny import DenyGate
from tui_tictactoe.servers.games.command import printable
from tui_tictactoe.servers.ops.log_format import Event, quoted
from tui_tictactoe.servers.refusal_log import log_prefix

BEAT = 1.0
"""Seconds between looks at the record."""
HEARTBEAT = 10.0
"""Seconds between publications of an unchanged list of sessions."""
FRESH = 30.0
"""Seconds a host's last publication counts as live (`admin list`)."""
MESSAGE_LIMIT = 200


class Moderated(Protocol):
    """What the link needs of the server (`ssh.server.SshServer`)."""

    deny: DenyGate
    renamed: dict[str, str]  # key -> the name an admin gave it

    def log(self, line: str) -> None: ...

    def live_sessions(self, host: str) -> list[LiveSession]: ...

    def end_sessions(self, target: str, message: str) -> int: ...

    def begin_drain(self) -> None: ...


class ModerationLink:
    """One server's looks at the record, from its start to its stop."""

    def __init__(
        self, server: Moderated, port: int, database_url: str | None, deny_file: str | None
    ) -> None:
        self.server = server
        self.host = f"{socket.gethostname()}:{port}"
        self.database_url = database_url
        self.deny_file = deny_file
        self.started_at = now_text()
        self.record: Record | None = None
        self._task: asyncio.Task[None] | None = None
        self._published: tuple[LiveSession, ...] | None = None
        self._published_at = 0.0
        self._denied: tuple[str, ...] = ()
        self._last_action = -1
        self._notice: str | None = None
        self._using = asyncio.Lock()  # one thread at a time on the record's connection

    async def start(self) -> None:
        self.record = await asyncio.to_thread(self._open)
        if not self.record.available and self.database_url is None:
            self.server.log(
                Event(
                    "admin.unavailable",
                    f"{log_prefix()}no record ({self.record.take_notice()}): "
                    "tui-tictactoe admin cannot reach this server",
                )
            )
            return
        last = await asyncio.to_thread(self.record.moderation.actions_after, -1)
        self._last_action = last[0].id if last else 0
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _open(self) -> Record:
        return Record.open_url(self.database_url) if self.database_url else Record.open()

    async def _run(self) -> None:
        failed: str | None = None
        while True:
            try:
                await self.look()
                failed = None
            except Exception as error:  # a look fails, not the server: the next one tries again
                if type(error).__name__ != failed:  # said once until it changes
                    failed = type(error).__name__
                    self.server.log(
                        Event(
                            "admin.record_failed", f"{log_prefix()}admin: a look failed ({failed})"
                        )
                    )
            await asyncio.sleep(BEAT)

    async def look(self) -> None:
        """One look: publish, take the orders, read the shared lists, log the actions."""
        sessions = tuple(self.server.live_sessions(self.host))
        now = time.monotonic()
        due = sessions != self._published or now - self._published_at >= HEARTBEAT
        publish = sessions if due else None
        async with self._using:
            exchanged = await asyncio.to_thread(self._exchange, publish)
        orders, denied, names, actions, notice = exchanged
        if publish is not None and notice is None:
            self._published, self._published_at = publish, now
        for action in actions:  # who asked, and why, before what it does
            self._last_action = max(self._last_action, action.id)
            self._log_action(action)
        for order in orders:
            self._carry_out(order)
        if denied != self._denied:
            self._denied = denied
            self.server.deny.shared(_entries(denied))
        self.server.renamed = names
        if notice != self._notice and notice is not None:  # said once until it changes
            self.server.log(Event("admin.record_failed", f"{log_prefix()}admin: {notice}"))
        self._notice = notice

    def _exchange(
        self, sessions: tuple[LiveSession, ...] | None
    ) -> tuple[list[Order], tuple[str, ...], dict[str, str], list[AdminAction], str | None]:
        record = self.record
        assert record is not None
        if sessions is not None:
            machine = self.host.rpartition(":")[0]
            here = LiveHost(
                self.host, machine, os.getpid(), self.deny_file, self.started_at, now_text()
            )
            record.moderation.publish(here, sessions)
        orders = record.moderation.take_orders(self.host)
        denied = tuple(record.moderation.denied_entries())
        names = record.moderation.admin_names()
        actions = record.moderation.actions_after(self._last_action)
        return orders, denied, names, actions, record.take_notice()

    async def claim(
        self, player: str | None, name: str, reserved: frozenset[str], may_add: bool
    ) -> Claim:
        """`Moderation.claim_name` for a session starting: who owns its name (None: nobody,
        also with no record to ask)."""
        record = self.record
        if record is None or self._task is None:
            return Claim(None, False)
        async with self._using:
            return await asyncio.to_thread(
                record.moderation.claim_name, player, name, reserved, may_add
            )

    def _carry_out(self, order: Order) -> None:
        message = printable(order.message, MESSAGE_LIMIT) or "the host ended this session"
        if order.action == "drain":
            self.server.begin_drain()
            ended, done = 0, "drain begun"
        else:
            ended = self.server.end_sessions(order.target, message)
            done = f"{ended} sessions ended, told {message!r}"
        self.server.log(
            Event(
                "admin.order",
                f"{log_prefix()}admin order {order.id}: {order.action} "
                f"{printable(order.target, 40) or 'this server'}: {done}",
                order=order.id,
                action=order.action,
                target=printable(order.target, 40),
                sessions=ended,
            )
        )

    def _log_action(self, action: AdminAction) -> None:
        shown = {field: printable(str(value), 120) for field, value in action._asdict().items()}
        self.server.log(
            Event(
                "admin.action",
                f"{log_prefix()}admin {quoted(shown['by_user'])}: {shown['action']} {shown['target']}"
                f" because {quoted(shown['reason'])}: {shown['outcome']}",
                **shown,
            )
        )

    async def stop(self) -> None:
        """No more looks; the host and its sessions leave the live list."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        record = self.record
        if record is not None:
            async with self._using:  # after any claim under way
                if self._task is not None:
                    await asyncio.to_thread(record.moderation.forget_host, self.host)
                await asyncio.to_thread(record.close)


def _entries(lines: tuple[str, ...]) -> list[DenyEntry]:
    """The shared entries (written checked by `admin deny`; one that is not is skipped)."""
    entries = []
    for line in lines:
        with contextlib.suppress(ValueError):
            entry = parse_entry(line)
            if entry is not None:
                entries.append(entry)
    return entries
