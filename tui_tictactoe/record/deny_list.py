"""The deny list: the keys, addresses, networks and names a server turns away.

One entry a line, in the file `serve-ssh --deny FILE` reads and `tui-tictactoe admin deny`
appends to (and, with PostgreSQL, in the shared `denied` table every host reads):

    VALUE [until=WHEN] [# REASON]

VALUE is a key's fingerprint (`SHA256:` and 43 characters), an address or a network
(`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`; host bits set are a mistake, refused;
an IPv4-mapped one, `::ffff:203.0.113.7`, denies that IPv4 client too, and the other way
round), or `name:PATTERN`, a shell pattern (`*`, `?`, `[...]`; no spaces and no `#`: `?`
stands for one) matched without regard to case against the name as shown, NFKC-normalised
(fullwidth letters are the ASCII ones).
WHEN is an ISO date or time (`2026-12-31`, `2026-12-31T18:00`, `...Z`, `...+01:00`; no
zone is UTC): from then on the entry no longer applies, without a reload. REASON is told
to the client turned away ("This server does not accept you: REASON."), cleaned and cut.
`#` starts a comment anywhere; blank lines are allowed. A line that is none of these is
reported (`parse_lines`) and skipped.

One parser: `entry_for` (what `admin deny` writes) builds an entry only if its `line()`
reads back (`parse_entry`) as the same entry, and otherwise says why it cannot be written.

`DenyList` indexes the entries so that a look costs the same with 30 entries or 30,000:
networks in a table per prefix length (a dict from the network's bits to its entries, one
look per length in use), keys and literal names in dicts, name patterns grouped by their
first character and matched as one regular expression per group of `PATTERN_GROUP`. The
standard library's `ipaddress` and a dict suffice for the table: no radix tree package
is needed for at most 129 + 33 lengths.

In the record's package because the admin command (below the servers) writes entries and
the shared table keeps them; pure: the standard library's `ipaddress`, `fnmatch`, `re`,
`datetime`.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from tui_tictactoe.identity import displayable
from tui_tictactoe.record.names import name_key

LINE_LIMIT = 1024
"""Characters of a line read at all (a longer one is reported and skipped)."""
REASON_LIMIT = 120
"""Characters of a reason kept (the client is told it)."""
PATTERN_LIMIT = 256
PATTERN_GROUP = 200
"""Name patterns matched by one regular expression (a match is then looked at one by one)."""
NAME_PREFIX = "name:"
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
_WILD = frozenset("*?[")
_MAPPED = 0xFFFF << 32  # ::ffff:0:0/96, where IPv4 addresses are mapped into IPv6

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


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
            words.append(f"until={self.until.isoformat().replace('+00:00', 'Z')}")
        if self.reason:
            words.append(f"# {self.reason}")
        return " ".join(words)


def parse_when(text: str) -> datetime:
    """An ISO date or time as an aware time in UTC (UTC when no zone is given); ValueError
    if not one, or if it is not a time in UTC between the years 1 and 9999."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO date or time: {text[:40]!r}") from None
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"not a time between the years 1 and 9999 in UTC: {text[:40]!r}") from None


def _pattern(pattern: str) -> str:
    """A name pattern as it is kept (`name_key`'s form); ValueError if a line cannot hold it."""
    if not pattern or len(pattern) > PATTERN_LIMIT:
        raise ValueError(f"a name pattern has 1 to {PATTERN_LIMIT} characters")
    kept = name_key(pattern)
    if any(char == "#" or char.isspace() for char in pattern + kept):
        raise ValueError(
            "a name pattern has no spaces and no '#' (a '#' starts the reason; fullwidth "
            "ones too): a '?' stands for any one character"
        )
    if not kept or name_key(kept) != kept:
        raise ValueError(f"not a name pattern a line can hold: {pattern[:40]!r}")
    return kept


def parse_value(value: str) -> tuple[str, str, Network | None]:
    """A VALUE's kind, its canonical text and its network; ValueError says what it is not."""
    if value.startswith(NAME_PREFIX):
        return "name", NAME_PREFIX + _pattern(value[len(NAME_PREFIX) :]), None
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
    """One line; None for a blank line or a comment, ValueError (only) for a bad one."""
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


def entry_for(value: str, until: datetime | None = None, reason: str = "") -> DenyEntry:
    """The entry `admin deny` writes: exactly what every server reads back from its line.
    ValueError says why `value`, `until` or `reason` cannot be written as a line."""
    kind, canonical, network = parse_value(value.strip())
    if until is not None:
        until = parse_when(until.isoformat())
    entry = DenyEntry(kind, canonical, until, displayable(reason, REASON_LIMIT, empty=""), network)
    line = entry.line()
    if len(line) > LINE_LIMIT or parse_entry(line) != entry:
        raise ValueError(
            f"the entry cannot be written as one line that reads back the same: {line[:60]!r}"
        )
    return entry


def parse_lines(text: str) -> tuple[list[DenyEntry], list[tuple[int, str]]]:
    """Every entry of a file's text, and each bad line's number and what is wrong with it."""
    problems: list[tuple[int, str]] = []
    entries = list(_entries_of(text, problems))
    return entries, problems


def _entries_of(text: str, problems: list[tuple[int, str]]) -> Iterator[DenyEntry]:
    """A file's entries one at a time (a big file is never a list of them as well); each
    bad line's number and what is wrong with it go to `problems`."""
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = parse_entry(line)
        except ValueError as error:
            problems.append((number, str(error)))
            continue
        if entry is not None:
            yield entry


def _forms(text: str) -> list[tuple[int, int]]:
    """An address as (version, integer): an IPv4 one also as IPv4-mapped IPv6, a mapped
    one also as IPv4, so that an entry of either form matches it. [] if not an address.
    Read by `socket.inet_pton` (a tenth of `ipaddress.ip_address`'s cost, at each arrival)."""
    bare = text.split("%", 1)[0]
    try:
        number = int.from_bytes(socket.inet_pton(socket.AF_INET, bare), "big")
    except OSError:
        try:
            number = int.from_bytes(socket.inet_pton(socket.AF_INET6, bare), "big")
        except OSError:
            return []
        if number >> 32 != 0xFFFF:
            return [(6, number)]
        number &= 0xFFFFFFFF
    return [(4, number), (6, _MAPPED | number)]


Row = tuple[str, str, "datetime | None", str]
"""An entry as the index keeps it: kind, value, until, reason. A tuple of strings, a time
and None is not tracked by the garbage collector, nor are the ints and strings of the
tables: 35,000 entries add no work to a collection, which would otherwise hold the GIL,
and so the event loop, for seconds while a reload builds the index in a thread."""
Positions = int | tuple[int, ...]
"""Where the entries of one key of a table stood (one, or several)."""


def _put(table: dict[object, Positions], key: object, position: int) -> None:
    held = table.get(key)
    table[key] = (
        position if held is None else (*((held,) if isinstance(held, int) else held), position)
    )


def _add(found: list[int], held: Positions | None) -> None:
    if held is None:
        return
    if isinstance(held, int):
        found.append(held)
    else:
        found += held


class _Networks:
    """Networks by prefix length: {length: {the network's top `length` bits: positions}}."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.table: dict[int, dict[object, Positions]] = {}
        self.shifts: list[tuple[int, dict[object, Positions]]] = []

    def add(self, position: int, network: Network) -> None:
        shift = self.bits - network.prefixlen
        by_bits = self.table.setdefault(network.prefixlen, {})
        _put(by_bits, int(network.network_address) >> shift, position)

    def done(self) -> None:
        self.shifts = [(self.bits - length, by_bits) for length, by_bits in self.table.items()]

    def find(self, number: int, found: list[int]) -> None:
        for shift, by_bits in self.shifts:
            _add(found, by_bits.get(number >> shift))


class _Patterns:
    """Name patterns with `*?[`, grouped by a literal first character ('' for a wildcard),
    each group matched a `PATTERN_GROUP` at a time by one regular expression."""

    def __init__(self) -> None:
        self.by_first: dict[str, list[tuple[int, str]]] = {}
        self.groups: dict[str, list[tuple[re.Pattern[str], list[tuple[int, str]]]]] = {}

    def add(self, position: int, pattern: str) -> None:
        first = "" if pattern[0] in _WILD else pattern[0]
        self.by_first.setdefault(first, []).append((position, pattern))

    def done(self) -> None:
        for first, members in self.by_first.items():
            chunks = [
                members[start : start + PATTERN_GROUP]
                for start in range(0, len(members), PATTERN_GROUP)
            ]
            self.groups[first] = [
                (re.compile("|".join(fnmatch.translate(p) for _, p in chunk)), chunk)
                for chunk in chunks
            ]

    def find(self, shown: str, found: list[int]) -> None:
        for first in {shown[:1], ""}:
            for together, chunk in self.groups.get(first, ()):
                if together.match(shown):
                    found += [p for p, pattern in chunk if fnmatch.fnmatchcase(shown, pattern)]


class DenyList:
    """Entries, indexed, checked at each look against the time then (an expired one stops
    applying). Building the index costs a pass over the entries: the server builds it off
    its event loop (`servers.deny`), from the file's text (`from_text`)."""

    def __init__(self, entries: Iterable[DenyEntry] = ()) -> None:
        self._rows: list[Row] = []
        self._keys: dict[object, Positions] = {}
        self._names: dict[object, Positions] = {}
        self._patterns = _Patterns()
        self._networks = {4: _Networks(32), 6: _Networks(128)}
        for entry in entries:
            self._add(entry)
        self._done()

    @classmethod
    def from_text(cls, text: str) -> tuple[DenyList, list[tuple[int, str]]]:
        """A file's entries, indexed, and its bad lines (as `parse_lines`), without keeping
        an object per entry on the way."""
        rules, problems = cls(), list[tuple[int, str]]()
        for entry in _entries_of(text, problems):
            rules._add(entry)
        rules._done()
        return rules, problems

    def _add(self, entry: DenyEntry) -> None:
        position = len(self._rows)
        self._rows.append((entry.kind, entry.value, entry.until, entry.reason))
        if entry.network is not None:
            self._networks[entry.network.version].add(position, entry.network)
        elif entry.kind == "key":
            _put(self._keys, entry.value, position)
        elif entry.kind == "name":
            pattern = entry.value[len(NAME_PREFIX) :]
            if _WILD.isdisjoint(pattern):
                _put(self._names, pattern, position)
            else:
                self._patterns.add(position, pattern)

    def _done(self) -> None:
        for networks in self._networks.values():
            networks.done()
        self._patterns.done()

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def entries(self) -> tuple[DenyEntry, ...]:
        """Every entry, in the file's order (made again from the rows)."""
        return tuple(self._entry(position) for position in range(len(self._rows)))

    def _entry(self, position: int) -> DenyEntry:
        kind, value, until, reason = self._rows[position]
        network = ipaddress.ip_network(value) if kind == "network" else None
        return DenyEntry(kind, value, until, reason, network)

    def match(
        self,
        *,
        address: str | None = None,
        key: str | None = None,
        name: str | None = None,
        now: datetime | None = None,
    ) -> DenyEntry | None:
        """The first entry (in the file's order) in force that denies this address, key or
        name, or None."""
        now = now or datetime.now(UTC)
        found: list[int] = []
        if key is not None:
            _add(found, self._keys.get(key))
        if address is not None:
            for version, number in _forms(address):
                self._networks[version].find(number, found)
        if name is not None and (self._names or self._patterns.by_first):
            shown = name_key(name)
            _add(found, self._names.get(shown))
            self._patterns.find(shown, found)
        for position in sorted(found):
            until = self._rows[position][2]
            if until is None or now < until:
                return self._entry(position)
        return None
