"""The deny list: the keys, addresses, networks and names a server turns away.

One entry a line, in the file `serve-ssh --deny FILE` reads and `tui-tictactoe admin deny`
appends to (and, with PostgreSQL, in the shared `denied` table every host reads):

    VALUE [until=WHEN] [# REASON]

VALUE is a key's fingerprint (`SHA256:` and 43 characters), an address or a network
(`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`; host bits set are a mistake, refused),
or `name:PATTERN`, a shell pattern (`*`, `?`, `[...]`; no spaces: `?` stands for one) matched
without regard to case against the name as shown, NFKC-normalised (fullwidth
letters are the ASCII ones).
WHEN is an ISO date or time (`2026-12-31`, `2026-12-31T18:00`, `...Z`, `...+01:00`; no
zone is UTC): from then on the entry no longer applies, without a reload. REASON is told
to the client turned away ("This server does not accept you: REASON."), cleaned and cut.
`#` starts a comment anywhere; blank lines are allowed. A line that is none of these is
reported (`parse_lines`) and skipped.

In the record's package because the admin command (below the servers) writes entries and
the shared table keeps them; pure: the standard library's `ipaddress`, `fnmatch`, `datetime`.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from tui_tictactoe.identity import displayable
from tui_tictactoe.record.names import name_key

LINE_LIMIT = 1024
"""Characters of a line read at all (a longer one is reported and skipped)."""
REASON_LIMIT = 120
"""Characters of a reason kept (the client is told it)."""
PATTERN_LIMIT = 256
NAME_PREFIX = "name:"
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class DenyEntry:
    """One entry: what it denies (`kind` key, network or name), until when, and why."""

    kind: str
    value: str
    until: datetime | None = None
    reason: str = ""
    network: Network | None = field(default=None, compare=False)

    def applies(self, now: datetime) -> bool:
        return self.until is None or now < self.until

    def line(self) -> str:
        """The entry as a line of the file (`parse_entry` reads it back)."""
        words = [self.value]
        if self.until is not None:
            words.append(f"until={self.until.strftime('%Y-%m-%dT%H:%M:%SZ')}")
        if self.reason:
            words.append(f"# {self.reason}")
        return " ".join(words)


def parse_when(text: str) -> datetime:
    """An ISO date or time as an aware time (UTC when no zone is given); ValueError if not."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO date or time: {text[:40]!r}") from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def parse_value(value: str) -> tuple[str, str, Network | None]:
    """A VALUE's kind, its canonical text and its network; ValueError says what it is not."""
    if value.startswith(NAME_PREFIX):
        pattern = value[len(NAME_PREFIX) :]
        if not pattern or len(pattern) > PATTERN_LIMIT:
            raise ValueError(f"a name pattern has 1 to {PATTERN_LIMIT} characters")
        return "name", NAME_PREFIX + name_key(pattern), None
    if value.upper().startswith("SHA256:"):
        if not _FINGERPRINT.fullmatch(value):
            raise ValueError("a key is SHA256: and 43 characters (ssh-keygen -lf KEY)")
        return "key", value, None
    try:
        network = ipaddress.ip_network(value, strict=True)
    except ValueError as error:
        if "/" in value or value[:1].isdigit() or ":" in value:
            raise ValueError(f"not an address or network: {value[:45]!r} ({error})") from None
        raise ValueError(f"not a key, address, network or name:PATTERN: {value[:45]!r}") from None
    return "network", str(network), network


def parse_entry(text: str) -> DenyEntry | None:
    """One line; None for a blank line or a comment, ValueError for a bad one."""
    if len(text) > LINE_LIMIT:
        raise ValueError(f"longer than {LINE_LIMIT} characters")
    body, _, comment = text.partition("#")
    words = body.split()
    if not words:
        return None
    kind, value, network = parse_value(words[0])
    until = None
    for word in words[1:]:
        if not word.startswith("until=") or until is not None:
            raise ValueError(f"expected until=WHEN or # REASON, not {word[:40]!r}")
        until = parse_when(word[len("until=") :])
    reason = displayable(comment, REASON_LIMIT, empty="")
    return DenyEntry(kind, value, until, reason, network)


def parse_lines(text: str) -> tuple[list[DenyEntry], list[tuple[int, str]]]:
    """Every entry of a file's text, and each bad line's number and what is wrong with it."""
    entries, problems = [], []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = parse_entry(line)
        except ValueError as error:
            problems.append((number, str(error)))
            continue
        if entry is not None:
            entries.append(entry)
    return entries, problems


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class DenyList:
    """Entries, checked at each look against the time then (an expired one stops applying)."""

    def __init__(self, entries: list[DenyEntry] | tuple[DenyEntry, ...] = ()) -> None:
        self.entries = tuple(entries)
        self._keys: dict[str, list[DenyEntry]] = {}
        for entry in self.entries:
            if entry.kind == "key":
                self._keys.setdefault(entry.value, []).append(entry)
        self._networks = [entry for entry in self.entries if entry.network is not None]
        self._names = [entry for entry in self.entries if entry.kind == "name"]

    def match(
        self,
        *,
        address: str | None = None,
        key: str | None = None,
        name: str | None = None,
        now: datetime | None = None,
    ) -> DenyEntry | None:
        """The first entry in force that denies this address, key or name, or None."""
        now = now or datetime.now(UTC)
        found: list[DenyEntry] = []
        if key is not None:
            found += self._keys.get(key, [])
        parsed = _address(address) if address is not None else None
        if parsed is not None:
            found += [
                entry
                for entry in self._networks
                if entry.network is not None
                and entry.network.version == parsed.version
                and parsed in entry.network
            ]
        if name is not None and self._names:
            shown = name_key(name)
            found += [
                entry
                for entry in self._names
                if fnmatch.fnmatchcase(shown, entry.value[len(NAME_PREFIX) :])
            ]
        return next((entry for entry in found if entry.applies(now)), None)
