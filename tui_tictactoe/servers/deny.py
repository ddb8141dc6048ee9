"""`serve-ssh --deny FILE`: the server's deny list, read at start and again on SIGHUP.

The entries and their format are `record.deny_list`'s. The file is read whole, bounded in
size; a bad line is logged once per reading, with its number, and skipped; a file that
cannot be read at a reload leaves the list as it was (a typo in a reload never lets in
everyone denied). Entries shared through PostgreSQL (`admin deny` on any host) are merged
in by `shared`: they are indexed apart from the file's, so a new shared entry never builds
the file's index again. A client is checked where it is first known: its address on
arrival, its key and name once logged in (`ssh.server.Client`).

A reload reads, parses and indexes the file in a thread (`reload`): a file of 35,000
networks costs the event loop only the swap, not the seconds of parsing, and a look
costs the same with the index of either size (`benchmarks/bench_deny.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tui_tictactoe.record.deny_list import DenyEntry, DenyList
from tui_tictactoe.servers.ops.log_format import Event
from tui_tictactoe.servers.refusal_log import log_prefix

DENY_FILE_LIMIT = 1024 * 1024
"""Bytes of a deny file read at most (an entry is ~30-80 bytes: some 13,000-35,000 entries)."""
BAD_LINES_LOGGED = 20
"""Bad lines of one reading logged each (the rest counted in one line): a file of garbage
writes a bounded log."""
DENIED = "This server does not accept you"
"""What a denied client is told (and the words the metrics' `denied` reason is found by)."""


def denial(entry: DenyEntry) -> str:
    """The one line a denied client gets: the entry's reason (cleaned when read), if any."""
    return f"{DENIED}: {entry.reason}." if entry.reason else f"{DENIED}."


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


@dataclass(frozen=True)
class Reading:
    """One reading of the file: why it could not be read, or its index and its bad lines."""

    problem: str | None
    rules: DenyList
    bad_lines: tuple[tuple[int, str], ...] = ()


def read_file(path: Path) -> Reading:
    """Read, parse and index `path` (no I/O on the event loop: a reload runs it in a thread)."""
    try:
        with path.open("rb") as file:
            raw = file.read(DENY_FILE_LIMIT + 1)
    except OSError as error:
        problem = f"cannot read the deny list {str(path)!r}: {error.strerror or error}"
        return Reading(problem, DenyList())
    if len(raw) > DENY_FILE_LIMIT:
        return Reading(f"the deny list {str(path)!r} is larger than 1 MiB", DenyList())
    rules, problems = DenyList.from_text(raw.decode("utf-8", "replace"))
    return Reading(None, rules, tuple(problems))


class DenyGate:
    """The deny list in force: the file's entries and the shared ones."""

    def __init__(self, path: Path | None, log: Callable[[str], None]) -> None:
        self.path = path
        self.log = log
        self._file = DenyList()
        self._shared = DenyList()
        self._shared_entries: tuple[DenyEntry, ...] = ()
        self._reloading: asyncio.Task[None] | None = None
        self._again = False  # a SIGHUP came while a reload ran: read once more after it

    def load(self, announce: bool = True) -> str | None:
        """(Re)read the file now, on the caller's thread (at the start, before the server
        listens): its entries replace the file's old ones. Returns why it could not be read
        (the list then stays as it was), else None. `announce`: log the count (a reload's;
        at the start the server says nothing before it listens)."""
        if self.path is None:
            self._no_file(announce)
            return None
        return self._apply(read_file(self.path), announce)

    def reload(self) -> None:
        """SIGHUP: read the file again in a thread, then put it in force on the loop."""
        if self.path is None:
            self._no_file(True)
            return
        if self._reloading is not None and not self._reloading.done():
            self._again = True
            return
        self._reloading = asyncio.get_running_loop().create_task(self._reload(self.path))

    async def _reload(self, path: Path) -> None:
        while True:
            self._again = False
            old = [self._file]  # freed in the thread too: 35,000 entries' objects
            self._apply(await asyncio.to_thread(read_file, path), True)
            await asyncio.to_thread(old.clear)
            if not self._again:
                return

    @property
    def reloading(self) -> bool:
        """A reload is under way (its thread reading the file)."""
        return self._reloading is not None and not self._reloading.done()

    async def reloaded(self) -> None:
        """Wait for a reload under way (tests, the benchmark)."""
        while self._reloading is not None and not self._reloading.done():
            await asyncio.shield(self._reloading)

    def _no_file(self, announce: bool) -> None:
        if announce:
            self._said("deny.none", "no --deny FILE to read again (shared entries: each second)")

    def _apply(self, reading: Reading, announce: bool) -> str | None:
        if reading.problem is not None:
            if announce:  # a reload's; at the start the server refuses to start instead
                self._said(
                    "deny.unreadable",
                    f"{reading.problem}: the list in force is kept",
                    file=str(self.path),
                    reason=reading.problem,
                )
            return reading.problem
        problems = reading.bad_lines
        for number, why in problems[:BAD_LINES_LOGGED]:
            self._said(
                "deny.bad_line",
                f"{self.path}:{number}: {why} (line skipped)",
                file=str(self.path),
                line=number,
                reason=why,
            )
        if len(problems) > BAD_LINES_LOGGED:
            more = len(problems) - BAD_LINES_LOGGED
            self._said(
                "deny.bad_line",
                f"{self.path}: {more} more bad lines skipped",
                file=str(self.path),
                more=more,
            )
        self._file = reading.rules
        entries = len(reading.rules)
        if announce:
            self.log(
                Event(
                    "deny.loaded",
                    f"{log_prefix()}deny list {self.path}: {_count(entries, 'entry', 'entries')}"
                    + (
                        f", {_count(len(problems), 'bad line', 'bad lines')} skipped"
                        if problems
                        else ""
                    ),
                    file=str(self.path),
                    entries=entries,
                    bad_lines=len(problems),
                )
            )
        return None

    def shared(self, entries: list[DenyEntry]) -> None:
        """The entries every host on the database shares (read periodically; few)."""
        if tuple(entries) != self._shared_entries:
            self._shared_entries = tuple(entries)
            self._shared = DenyList(entries)

    def check(
        self, *, address: str | None = None, key: str | None = None, name: str | None = None
    ) -> str | None:
        """What a denied client is told, or None if nothing in force denies it (the
        file's entries first, then the shared ones)."""
        entry = self._file.match(address=address, key=key, name=name) or self._shared.match(
            address=address, key=key, name=name
        )
        return None if entry is None else denial(entry)

    def _said(self, event: str, text: str, **fields: object) -> None:
        self.log(Event(event, f"{log_prefix()}{text}", **fields))
