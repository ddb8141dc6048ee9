"""Wrong room codes counted per client address, so codes cannot be guessed in bulk.

At most `limit` unknown codes per address in any `window` seconds (5 a minute by
default); past that, every join or watch from the address is refused (right codes
too, or the limit would still tell a guesser which codes are live) until the oldest
counted one is `window` seconds old. Memory is bounded: `limit` times per address and
at most `max_addresses` addresses (the longest-known forgotten first).

Per address alone, a guesser with many addresses had the limit once for each: 48 IPv6 /64s
(one /48, what one customer is routinely given) made 240 guesses in 44 s, never refused. So
wrong codes are also bounded per /48 (`NETWORK_LIMIT` a window, for an IPv6 address) and on
the whole host (`GLOBAL_LIMIT` a window, from every address together: the key `ALL`); past
either, every join or watch from the network (or from anyone) waits as above. The host-wide
bound is a trade: a flood of wrong codes holds everyone's joins by code back for up to a
window (rooms in play, the lobby's list and new rooms go on), in exchange for at most
`GLOBAL_LIMIT` guesses a minute however many addresses a guesser has (at 30 a minute and 16
live rooms of 234,256 codes: one found in ~8 hours, not 44 minutes).

The same counter limits the names an address puts before strangers in the lobby
(`room.LOBBY_NAMES` a minute), with its own refusal (and no wider bounds).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

from tui_tictactoe.addresses import counting_key
from tui_tictactoe.rooms.refusals import too_many_wrong_codes
from tui_tictactoe.rooms.view import Refused

NETWORK_PREFIX = 48
"""The IPv6 network wrong codes are also counted by (the usual size of one customer's)."""
NETWORK_LIMIT = 15
"""Wrong codes a window from one IPv6 /48 (three addresses' worth)."""
GLOBAL_LIMIT = 30
"""Wrong codes a window from every address together (six addresses' worth)."""
ALL = "*"
"""The key the host-wide count is kept under (no client's address is written so)."""


def wider_keys(
    address: str, network_limit: int | None, global_limit: int | None
) -> list[tuple[str, int]]:
    """The keys an address's wrong code is also counted under, each with its limit: its /48
    (an IPv6 network; an IPv4 address has none), and `ALL`."""
    keys: list[tuple[str, int]] = []
    if network_limit is not None:
        network = counting_key(address, NETWORK_PREFIX)
        if network != address and "/" in network:
            keys.append((network, network_limit))
    if global_limit is not None:
        keys.append((ALL, global_limit))
    return keys


class WrongCodes:
    """The wrong codes each address typed lately, on the hub's clock."""

    def __init__(
        self,
        clock: Callable[[], float],
        limit: int = 5,
        window: float = 60.0,
        max_addresses: int = 10_000,
        refusal: Callable[[int], str] = too_many_wrong_codes,
        network_limit: int | None = None,
        global_limit: int | None = None,
    ) -> None:
        """`network_limit`, `global_limit`: the wider bounds (None: none, as for names)."""
        if limit < 1 or window <= 0 or max_addresses < 1:
            raise ValueError("limit, window and max_addresses must be positive")
        if any(each is not None and each < 1 for each in (network_limit, global_limit)):
            raise ValueError("the wider limits must be positive")
        self.network_limit, self.global_limit = network_limit, global_limit
        self._clock = clock
        self.limit = limit
        self.window = window
        self._max_addresses = max_addresses
        self._refusal = refusal
        self._times: dict[str, deque[float]] = {}

    def check(self, address: str) -> None:
        """Refused while `address` has used up its wrong codes."""
        wait = self.wait(address)
        if wait > 0:
            raise Refused(self._refusal(wait))

    def _keys(self, address: str) -> list[tuple[str, int]]:
        return [(address, self.limit), *wider_keys(address, self.network_limit, self.global_limit)]

    def wait(self, address: str) -> int:
        """Whole seconds until `address` may try again (0: now): the longest wait of its
        own count, its network's and the host's."""
        now = self._clock()
        waits = [0]
        for key, limit in self._keys(address):
            times = self._times.get(key)
            if times is not None and len(times) >= limit:
                waits.append(max(0, math.ceil(times[0] + self.window - now)))
        return max(waits)

    def count(self, address: str) -> None:
        """One more wrong code from `address` (and its network, and the host)."""
        now = self._clock()
        for key, limit in self._keys(address):
            times = self._times.pop(key, None)
            if times is None:
                times = deque(maxlen=limit)
                while len(self._times) >= self._max_addresses:
                    del self._times[next(iter(self._times))]
            times.append(now)
            self._times[key] = times  # re-inserted: the newest at the end

    def __len__(self) -> int:
        """How many addresses (and networks, and the host's key) are remembered."""
        return len(self._times)
