"""`serve-ssh --deny FILE`: the server's deny list, read at start and again on SIGHUP.

The entries and their format are `record.deny_list`'s. The file is read whole, bounded in
size; a bad line is logged once per reading, with its number, and skipped; a file that
cannot be read at a reload leaves the list as it was (a typo in a reload never lets in
everyone denied). Entries shared through PostgreSQL (`admin deny` on any host) are merged
in by `shared`. A client is checked where it is first known: its address on arrival, its
key and name once logged in (`ssh_server.Client`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tui_tictactoe.record.deny_list import DenyEntry, DenyList, parse_lines
from tui_tictactoe.servers.ops.log_format import Event
from tui_tictactoe.servers.refusal_log import log_prefix

DENY_FILE_LIMIT = 1024 * 1024
"""Bytes of a deny file read at most (an entry is ~80 bytes: some 13,000 entries)."""
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


class DenyGate:
    """The deny list in force: the file's entries and the shared ones."""

    def __init__(self, path: Path | None, log: Callable[[str], None]) -> None:
        self.path = path
        self.log = log
        self._file = DenyList()
        self._shared: tuple[DenyEntry, ...] = ()
        self._all = DenyList()

    def load(self, announce: bool = True) -> str | None:
        """(Re)read the file: its entries replace the file's old ones. Returns why it could
        not be read (the list then stays as it was), else None. `announce`: log the count
        (a reload's; at the start the server says nothing before it listens)."""
        if self.path is None:
            if announce:
                self._said(
                    "deny.none", "no --deny FILE to read again (shared entries: each second)"
                )
            return None
        try:
            with self.path.open("rb") as file:
                raw = file.read(DENY_FILE_LIMIT + 1)
        except OSError as error:
            problem = f"cannot read the deny list {str(self.path)!r}: {error.strerror or error}"
        else:
            problem = f"the deny list {str(self.path)!r} is larger than 1 MiB"
            if len(raw) <= DENY_FILE_LIMIT:
                self._read(raw.decode("utf-8", "replace"), announce)
                return None
        if announce:  # a reload's; at the start the server refuses to start instead
            self._said("deny.unreadable", f"{problem}: the list in force is kept")
        return problem

    def _read(self, text: str, announce: bool) -> None:
        entries, problems = parse_lines(text)
        for number, why in problems[:BAD_LINES_LOGGED]:
            self._said("deny.bad_line", f"{self.path}:{number}: {why} (line skipped)")
        if len(problems) > BAD_LINES_LOGGED:
            more = len(problems) - BAD_LINES_LOGGED
            self._said("deny.bad_line", f"{self.path}: {more} more bad lines skipped")
        self._file = DenyList(entries)
        self._merge()
        if announce:
            self.log(
                Event(
                    "deny.loaded",
                    f"{log_prefix()}deny list {self.path}: {_count(len(entries), 'entry', 'entries')}"
                    + (
                        f", {_count(len(problems), 'bad line', 'bad lines')} skipped"
                        if problems
                        else ""
                    ),
                    entries=len(entries),
                    bad_lines=len(problems),
                )
            )

    def shared(self, entries: list[DenyEntry]) -> None:
        """The entries every host on the database shares (read periodically)."""
        if tuple(entries) != self._shared:
            self._shared = tuple(entries)
            self._merge()

    def _merge(self) -> None:
        self._all = DenyList([*self._file.entries, *self._shared])

    def check(
        self, *, address: str | None = None, key: str | None = None, name: str | None = None
    ) -> str | None:
        """What a denied client is told, or None if nothing in force denies it."""
        entry = self._all.match(address=address, key=key, name=name)
        return None if entry is None else denial(entry)

    def _said(self, event: str, text: str) -> None:
        self.log(Event(event, f"{log_prefix()}{text}"))
