"""Who may wait to log in and who may play: the caps of `serve-ssh`, counted in one place.

A connection is "waiting" from its arrival until it is admitted to a game or closes:
logging in, or being told why it is refused. Waiting ones are capped apart from the
games, per address and in all, so connections that never log in cannot hold the
games' slots.

When all the waiting places are taken, a newcomer takes the place of the oldest of the
least advanced (`Candidate.progress`): connections that never say a word go first, then
those that said only their version, and those that are logging in only when there is
nobody else. Holding places then takes a flood of new connections, faster than a real
client logs in, rather than a few idle sockets.

Pure counting, no I/O: the server does the telling and the closing.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from tui_tictactoe.addresses import DEFAULT_IPV6_PREFIX, counting_key


class Candidate(Protocol):
    """A connection as the caps see it."""

    address: str

    def progress(self) -> tuple[int, float]:
        """How far logging in has come, least first (ties: the oldest first)."""
        ...


C = TypeVar("C", bound=Candidate)


class Admission(Generic[C]):
    """The counts behind the caps: waiting and admitted, per address and in all. An
    address is counted by `key` (`addresses.counting_key`: an IPv6 client by its network
    of `ipv6_prefix` bits)."""

    def __init__(
        self,
        max_sessions: int,
        max_per_address: int,
        max_waiting: int,
        ipv6_prefix: int = DEFAULT_IPV6_PREFIX,
    ) -> None:
        self.key: Callable[[str], str] = functools.partial(counting_key, ipv6_prefix=ipv6_prefix)
        self.max_sessions = max_sessions
        self.max_per_address = max_per_address
        self.max_waiting = max_waiting
        self.waiting: Counter[str] = Counter()  # per address: connected, not admitted
        self.queue: dict[C, None] = {}  # those, oldest first
        self.admitted: set[C] = set()
        self.per_address: Counter[str] = Counter()  # per address: admitted

    def arrive(self, client: C) -> tuple[str | None, C | None]:
        """Count a new connection as waiting. Returns why it is refused (the message it
        gets), or None; and the waiting connection it displaced, if any (to be refused)."""
        if self.waiting[self.key(client.address)] >= self.max_per_address:
            return (
                f"too many connections from your address are logging in "
                f"({self.max_per_address} at once): try again in a moment"
            ), None
        evicted = None
        if len(self.queue) >= self.max_waiting:
            evicted = min(self.queue, key=lambda waiting: waiting.progress())
            self._stop_waiting(evicted)
        self.waiting[self.key(client.address)] += 1
        self.queue[client] = None
        return None, evicted

    def admit(self, client: C) -> str | None:
        """A logged-in connection gets a game's slot, or why not (it then stays counted as
        waiting until it closes)."""
        if len(self.admitted) >= self.max_sessions:
            return f"the server is full ({self.max_sessions} games at once): try again later"
        if self.per_address[self.key(client.address)] >= self.max_per_address:
            return (
                f"too many games from your address ({self.max_per_address} at once): "
                "finish one first"
            )
        self._stop_waiting(client)
        self.admitted.add(client)
        self.per_address[self.key(client.address)] += 1
        return None

    def release(self, client: C) -> None:
        """The connection has closed: whatever it held is free."""
        self._stop_waiting(client)
        if client in self.admitted:
            self.admitted.discard(client)
            _uncount(self.per_address, self.key(client.address))

    def _stop_waiting(self, client: C) -> None:
        if client in self.queue:
            del self.queue[client]
            _uncount(self.waiting, self.key(client.address))


def _uncount(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if not counter[key]:
        del counter[key]
