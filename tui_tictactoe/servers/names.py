"""Names a server lets no client borrow: the reserved ones, and how fast new ones are taken.

A reserved name (`--reserved-names`, else `DEFAULT_RESERVED`, and always the host's own
name) is refused at login, compared by its confusables skeleton (a Cyrillic a in admin is still `admin`). A
name a key takes for its own (`Moderation.claim_name`) is counted per address and in all over
an hour (`NewNames`): a client making keys by the dozen takes a few names, not all. The
count is the host's own, in memory: several hosts on one database each allow as many.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from tui_tictactoe.record.moderation import NAME_LAPSE_DAYS, NAMES_PER_KEY, Claim
from tui_tictactoe.record.names import name_skeleton

DEFAULT_RESERVED = (
    "admin",
    "administrator",
    "root",
    "moderator",
    "mod",
    "support",
    "staff",
    "sysop",
    "operator",
    "owner",
    "official",
    "system",
    "server",
    "host",
    "security",
    "help",
    "tui-tictactoe",
)
"""Names no client logs in under, unless the host names its own list."""
NEW_NAMES_PER_ADDRESS = 4
"""New names taken from one address within NEW_NAMES_WINDOW (a key owns 3 at most)."""
NEW_NAMES_IN_ALL = 60
"""New names taken on this host within NEW_NAMES_WINDOW, from every address together."""
NEW_NAMES_WINDOW = 3600.0
"""Seconds over which new names are counted."""


def reserved_skeletons(names: Iterable[str] | None, public_host: str | None) -> frozenset[str]:
    """The skeletons of the reserved names: `names` (None: `DEFAULT_RESERVED`), this
    machine's name and the host players type (`--public-address`), each also without its
    domain."""
    own = [socket.gethostname(), public_host or ""]
    listed = [
        *(DEFAULT_RESERVED if names is None else names),
        *own,
        *(n.split(".")[0] for n in own),
    ]
    return frozenset(skeleton for name in listed if (skeleton := name_skeleton(name)))


class Standing(NamedTuple):
    """A session's name as the record has it: the mark others see after it (`marked`:
    "guest", a fingerprint; empty if it is the player's or nobody's), and the line the
    player is told at login about it (`name_notice`; empty: nothing to tell)."""

    mark: str = ""
    notice: str = ""


def name_notice(name: str, claim: Claim, address_refusal: str | None) -> str:
    """The one line a keyed player is told at login when a free name could not become
    theirs, and why (another key may take it); empty otherwise. (Another key's name needs
    no line: the player's own title shows its mark.)"""
    if claim.owner is not None:
        return ""
    if claim.full:
        return (
            f"{name} stays nobody's: your key owns {NAMES_PER_KEY} names already "
            f"(one unused for {NAME_LAPSE_DAYS} days lapses)."
        )
    if address_refusal and not claim.new:
        return f"{name} stays nobody's for now: {address_refusal}."
    return ""


def reserved_refusal(name: str, reserved: frozenset[str]) -> str | None:
    """The one line a client logging in under a reserved name is told, or None."""
    if name_skeleton(name) in reserved:
        return "that name is reserved on this server: log in under another name"
    return None


class NewNames:
    """New names taken over the last NEW_NAMES_WINDOW seconds, per address and in all."""

    def __init__(self) -> None:
        self._at: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()

    def refusal(self, address: str) -> str | None:
        """Why `address` may take no new name now (the end of a sentence), or None."""
        now = time.monotonic()
        self._forget(now)
        if len(self._at.get(address, ())) >= NEW_NAMES_PER_ADDRESS:
            return f"your address has taken {NEW_NAMES_PER_ADDRESS} new names this hour"
        if len(self._all) >= NEW_NAMES_IN_ALL:
            return "this server has given out all the new names it gives in an hour"
        return None

    def took(self, address: str) -> None:
        now = time.monotonic()
        self._at.setdefault(address, deque()).append(now)
        self._all.append(now)

    def _forget(self, now: float) -> None:
        """Drop what is older than the window (and addresses with nothing left): the map
        holds at most NEW_NAMES_IN_ALL times."""
        since = now - NEW_NAMES_WINDOW
        while self._all and self._all[0] < since:
            self._all.popleft()
        for address in list(self._at):
            times = self._at[address]
            while times and times[0] < since:
                times.popleft()
            if not times:
                del self._at[address]
