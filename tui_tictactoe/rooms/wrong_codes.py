"""Wrong room codes counted per client address, so codes cannot be guessed in bulk.

At most `limit` unknown codes per address in any `window` seconds (5 a minute by
default); past that, every join or watch from the address is refused (right codes
too, or the limit would still tell a guesser which codes are live) until the oldest
counted one is `window` seconds old. Memory is bounded: `limit` times per address and
at most `max_addresses` addresses (the longest-known forgotten first).

The same counter limits the names an address puts before strangers in the lobby
(`room.LOBBY_NAMES` a minute), with its own refusal.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

from tui_tictactoe.rooms.refusals import too_many_wrong_codes
from tui_tictactoe.rooms.view import Refused


class WrongCodes:
    """The wrong codes each address typed lately, on the hub's clock."""

    def __init__(
        self,
        clock: Callable[[], float],
        limit: int = 5,
        window: float = 60.0,
        max_addresses: int = 10_000,
        refusal: Callable[[int], str] = too_many_wrong_codes,
    ) -> None:
        if limit < 1 or window <= 0 or max_addresses < 1:
            raise ValueError("limit, window and max_addresses must be positive")
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

    def wait(self, address: str) -> int:
        """Whole seconds until `address` may try again (0: now)."""
        times = self._times.get(address)
        if times is None or len(times) < self.limit:
            return 0
        left = times[0] + self.window - self._clock()
        return max(0, math.ceil(left))

    def count(self, address: str) -> None:
        """One more wrong code from `address`."""
        times = self._times.pop(address, None)
        if times is None:
            times = deque(maxlen=self.limit)
            while len(self._times) >= self._max_addresses:
                del self._times[next(iter(self._times))]
        times.append(self._clock())
        self._times[address] = times  # re-inserted: the newest at the end

    def __len__(self) -> int:
        """How many addresses are remembered."""
        return len(self._times)
