"""Wrong room codes counted per client address in PostgreSQL, so the limit holds across hosts.

`MemoryHub` counts wrong codes in its own memory (`wrong_codes.WrongCodes`); with several
`serve-ssh` hosts that would give a guesser the limit once per host. `PostgresHub` counts
them here instead, in `room_wrong_codes` (a row per wrong code: the address and the time,
on the hub's clock, the database's `now()` unless a test injects one). The rule is
`WrongCodes`': at most `limit` unknown codes from an address in any `window` seconds; past
that every join or watch from it is refused, right codes too, until the oldest of its
newest `limit` is `window` seconds old.

Bounded: each wrong code counted also deletes every row older than `window` (no row older
than that changes any answer), so the table holds about a window's wrong codes. The check
and the count are transactions of their own, so two hosts racing may each count one more
than `limit`; the next try from that address is refused all the same.

The wider bounds of `wrong_codes` (per IPv6 /48, and on every host together) are rows too:
a wrong code from an IPv6 address writes one under its /64, one under its /48 and one under
`ALL` ("*"), and the check reads the newest of each; no schema step (the `address` column
holds any key). With two hosts on one database the host-wide bound is for all of them.

The names an address puts before strangers in the lobby are limited the same way, as
rows of another `kind` ("lobby"; wrong codes and wrong seat tokens are "code").
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

from tui_tictactoe.rooms.postgres.link import Link
from tui_tictactoe.rooms.postgres.rows import MICROSECONDS
from tui_tictactoe.rooms.refusals import NoRoom as NoRoom
from tui_tictactoe.rooms.refusals import no_room as room_refusal
from tui_tictactoe.rooms.refusals import too_many_wrong_codes
from tui_tictactoe.rooms.view import Refused
from tui_tictactoe.rooms.wrong_codes import wider_keys

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")
Now = Callable[["psycopg.AsyncConnection"], Awaitable[float]]

_NEWEST = """
SELECT count(*), (extract(epoch FROM min(at)) * 1000000)::bigint FROM (
    SELECT at FROM room_wrong_codes
    WHERE kind = %(kind)s AND address = %(address)s AND at > to_timestamp(%(since)s)
    ORDER BY at DESC LIMIT %(limit)s
) AS newest
"""


def no_room(typed: str) -> Callable[[], NoReturn]:
    """What `PostgresHub._change` calls when there is no room `typed`."""

    def missing() -> NoReturn:
        raise room_refusal(typed)

    return missing


class SharedWrongCodes:
    """The wrong codes of every host's clients, in the database the hosts share."""

    def __init__(
        self,
        link: Link,
        now: Now,
        limit: int = 5,
        window: float = 60.0,
        kind: str = "code",
        refusal: Callable[[int], str] = too_many_wrong_codes,
        network_limit: int | None = None,
        global_limit: int | None = None,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit and window must be positive")
        self.network_limit, self.global_limit = network_limit, global_limit
        self.kind, self._refusal = kind, refusal
        self._link = link
        self._now = now
        self.limit = limit
        self.window = window

    async def check(self, address: str) -> None:
        """Refused while `address` has used up its wrong codes (on any host)."""
        wait = await self.wait(address)
        if wait > 0:
            raise Refused(self._refusal(wait))

    async def wait(self, address: str) -> int:
        """Whole seconds until `address` may try again (0: now)."""
        waits = [0]
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            since = now - self.window
            for key, limit in self._keys(address):
                cursor = await conn.execute(
                    _NEWEST, {"kind": self.kind, "address": key, "since": since, "limit": limit}
                )
                row = await cursor.fetchone()
                if row is not None and row[0] >= limit:
                    oldest = int(row[1]) / MICROSECONDS
                    waits.append(max(0, math.ceil(oldest + self.window - now)))
        return max(waits)

    def _keys(self, address: str) -> list[tuple[str, int]]:
        """The address's own key and the wider ones (`wrong_codes.wider_keys`)."""
        return [(address, self.limit), *wider_keys(address, self.network_limit, self.global_limit)]

    async def count(self, address: str) -> None:
        """One more wrong code from `address` (its network's, the hosts'); the rows past
        the window go."""
        async with self._link.transaction() as conn:
            now = await self._now(conn)
            for key, _ in self._keys(address):
                await conn.execute(
                    "INSERT INTO room_wrong_codes (address, at, kind)"
                    " VALUES (%s, to_timestamp(%s), %s)",
                    (key, now, self.kind),
                )
            await conn.execute(
                "DELETE FROM room_wrong_codes WHERE kind = %s AND at <= to_timestamp(%s)",
                (self.kind, now - self.window),
            )

    async def counted(self, address: str, call: Awaitable[T]) -> T:
        """`call`'s answer; a `NoRoom` it raises is counted against `address` first."""
        try:
            return await call
        except NoRoom:
            await self.count(address)
            raise
