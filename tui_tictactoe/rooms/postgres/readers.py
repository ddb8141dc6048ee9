"""The `updates` readers one `PostgresHub` host serves, and which rooms it must read again.

Each reader has a newest-only `Mailbox` (as with `MemoryHub`) and the generation it was
last given; a view goes in only if it is newer, so a re-read that raced a change made
here can never put an older view over a newer one. After each view a reader whose
ticket no longer holds its place is ended (it left, its grace ran out, or a newer link
took the seat over, on whichever host). A room that is gone, or whose code now names
another room (its incarnation differs), ends its readers with their last view, closed.
While the database is out of reach each reader is given its last view again, marked
`unreachable`, and given it unmarked once the database answers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from tui_tictactoe.rooms.mailbox import Mailbox
from tui_tictactoe.rooms.postgres.rows import Loaded
from tui_tictactoe.rooms.view import RoomView, SeatName


@dataclass(eq=False)
class Reader:
    seat: SeatName | None
    token: str  # hashed
    box: Mailbox
    last: RoomView
    incarnation: int


class Readers:
    """This host's readers by room code, and the codes due to be read again."""

    def __init__(self) -> None:
        self._by_code: dict[str, list[Reader]] = {}
        self._due: set[str] = set()
        self._wake = asyncio.Event()
        self.reached = True  # the database, as the hub last found it

    def add(self, seat: SeatName | None, token: str, loaded: Loaded) -> Reader:
        """A new reader, given the room as read; the room is read again soon, as a change
        made on another host between that read and now was not heard for this reader."""
        view = loaded.room.view()
        reader = Reader(seat, token, Mailbox(token, view), view, loaded.incarnation)
        self._by_code.setdefault(view.code, []).append(reader)
        self._due.add(view.code)
        self._wake.set()
        return reader

    def remove(self, code: str, reader: Reader) -> None:
        readers = self._by_code.get(code, [])
        if reader in readers:
            readers.remove(reader)
        if not readers:
            self._by_code.pop(code, None)

    def deliver(self, loaded: Loaded) -> None:
        """The room as it now is, to each of its readers that is behind."""
        readers = self._by_code.get(loaded.room.code)
        if not readers:
            return
        view = loaded.room.view()
        for reader in list(readers):
            if reader.incarnation != loaded.incarnation:
                _close(reader)
            elif view.generation > reader.last.generation:
                reader.last = view
                reader.box.put(view)
                if not loaded.room.holds(reader.seat, reader.token):
                    reader.box.end()

    def refresh(self, codes: list[str], found: dict[str, Loaded]) -> None:
        """Rooms read again: each delivered; one no longer there closes its readers."""
        for code in codes:
            if code in found:
                self.deliver(found[code])
            else:
                for reader in list(self._by_code.get(code, [])):
                    _close(reader)

    def note(
        self, code: str, generation: int, carried: Callable[[], Loaded | None] = lambda: None
    ) -> None:
        """Another host says `code` is at `generation`: if a reader is behind, the room
        `carried()` (the notification's own copy), else read it again. A copy of
        another incarnation than a reader's is read again too: the notification may be
        older than the room the reader follows (a closed room's code taken again)."""
        readers = self._by_code.get(code, [])
        if not any(reader.last.generation < generation for reader in readers):
            return
        loaded = carried()
        if loaded is not None and all(r.incarnation == loaded.incarnation for r in readers):
            self.deliver(loaded)
        else:
            self._due.add(code)
            self._wake.set()

    def all_due(self) -> None:
        """Every room with readers is to be read (notifications may have been missed)."""
        self._due.update(self._by_code)
        self._wake.set()

    async def wait(self, timeout: float) -> None:
        """Until a room is due, or `timeout` seconds. Not `asyncio.wait_for`: on Python
        3.11 it loses a cancel that lands as the wait ends (the re-read task then ran on
        after shutdown cancelled it, and shutdown waited for it for ever)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._wake.wait()
        self._wake.clear()

    def take_due(self, everything: bool) -> list[str]:
        """The codes to read now (every code with readers if `everything`)."""
        due = set(self._by_code) if everything else self._due & set(self._by_code)
        self._due.clear()
        return sorted(due)

    def reachable(self, reached: bool) -> bool:
        """The database answered (True) or is out of reach (False): each reader whose
        last view says otherwise is given it again, saying so (`RoomView.unreachable`),
        at the same generation, so its screen can tell that nothing can land now.
        Whether that changed since the last call."""
        for readers in self._by_code.values():
            for reader in readers:
                if reader.last.unreachable == reached and not reader.last.closed:
                    reader.last = reader.last._replace(unreachable=not reached)
                    reader.box.put(reader.last)
        changed, self.reached = reached != self.reached, reached
        return changed

    def end_all(self) -> None:
        for readers in self._by_code.values():
            for reader in readers:
                reader.box.end()

    def __len__(self) -> int:
        return sum(len(readers) for readers in self._by_code.values())


def _close(reader: Reader) -> None:
    """The room is gone: the reader's last view, closed, then the end."""
    if reader.last.closed:
        return
    reader.last = reader.last._replace(closed=True, generation=reader.last.generation + 1)
    reader.box.put(reader.last)
    reader.box.end()
