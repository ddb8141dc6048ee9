"""The deny list's one parser (issue 35, findings 5 and 6): what `admin deny` writes is exactly
what the servers read back (a hypothesis round-trip), anything a line cannot hold is refused
with the reason, a bad time is one bad line (never an OverflowError), an IPv4-mapped entry and
an IPv4 client match both ways, and the index answers as a plain scan of the entries does.
"""

from __future__ import annotations

import fnmatch
import ipaddress
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_tictactoe.record import Record
from tui_tictactoe.record.deny_list import (
    NAME_PREFIX,
    DenyEntry,
    DenyList,
    entry_for,
    parse_entry,
    parse_lines,
)
from tui_tictactoe.record.names import name_key

KEY = "SHA256:" + "A" * 43
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_a_pattern_a_line_cannot_hold_is_refused_with_the_reason() -> None:
    for value in ("name:*#bot", "name:evil guy", "name:evil\tguy", "name:\uff45vil\uff03"):
        with pytest.raises(ValueError, match=r"no spaces and no '#'"):
            entry_for(value, reason="spam")
    # what the servers read of the old writer's line: the pattern cut at the '#'
    assert parse_entry("name:*#bot") == DenyEntry("name", "name:*", None, "bot")
    entry = entry_for("name:*bot", reason="bots")
    assert parse_entry(entry.line()) == entry
    assert DenyList([entry]).match(name="a-bot") == entry
    assert DenyList([entry]).match(name="anyone") is None


def test_a_time_out_of_range_is_a_bad_line_not_a_crash() -> None:
    text = "203.0.113.9 until=9999-12-31T23:00-05:00\n203.0.113.10 until=0001-01-01T00:00+01:00\n198.51.100.7\n"
    entries, problems = parse_lines(text)
    assert [entry.value for entry in entries] == ["198.51.100.7/32"]
    assert [number for number, _ in problems] == [1, 2]
    assert all("between the years 1 and 9999" in why for _, why in problems)
    with pytest.raises(ValueError):
        entry_for(
            "203.0.113.9", until=datetime(9999, 12, 31, 23, tzinfo=timezone(-timedelta(hours=5)))
        )


def test_ipv4_mapped_entries_and_clients_match_both_ways() -> None:
    mapped, plain = parse_entry("::ffff:127.0.0.2"), parse_entry("127.0.0.3")
    assert mapped is not None and plain is not None
    rules = DenyList([mapped, plain])
    assert rules.match(address="127.0.0.2") == mapped  # the IPv4 client, a mapped entry
    assert rules.match(address="::ffff:127.0.0.2") == mapped
    assert rules.match(address="::ffff:127.0.0.3") == plain  # a mapped client, an IPv4 entry
    assert rules.match(address="127.0.0.4") is None
    network = parse_entry("::ffff:10.0.0.0/104")
    assert network is not None and DenyList([network]).match(address="10.9.8.7") == network
    assert DenyList([network]).match(address="11.0.0.1") is None


# -- the writer and the parser: one ---------------------------------------------------------

_PATTERN_CHARS = st.characters(codec="utf-8", exclude_categories=["Cs"])
_VALUES = st.one_of(
    st.text(_PATTERN_CHARS, min_size=0, max_size=30).map(lambda text: NAME_PREFIX + text),
    st.text("abcXYZ*?[]!-#  \u3000\uff45\uff03", min_size=1, max_size=12).map(
        lambda text: NAME_PREFIX + text
    ),
    st.ip_addresses().map(str),
    st.builds(
        lambda address, bits: f"{address}/{bits}",
        st.ip_addresses(v=4),
        st.integers(0, 32),
    ),
    st.builds(
        lambda address, bits: str(ipaddress.ip_network(f"{address}/{bits}", strict=False)),
        st.ip_addresses(v=6),
        st.integers(0, 128),
    ),
    st.text("SHA256:abcdefgh+/ABC0123456789", min_size=40, max_size=52),
    st.text(max_size=20),
)
_UNTIL = st.one_of(
    st.none(),
    st.datetimes(
        timezones=st.sampled_from(
            [UTC, timezone(timedelta(hours=14)), timezone(-timedelta(hours=12, minutes=30))]
        )
    ),
)


@SETTINGS
@given(value=_VALUES, until=_UNTIL, reason=st.text(max_size=200))
def test_what_admin_deny_writes_is_what_the_servers_read(
    value: str, until: datetime | None, reason: str
) -> None:
    try:
        entry = entry_for(value, until, reason)
    except ValueError as error:
        assert str(error) and "\n" not in str(error)  # refused, with the reason in one line
        return
    line = entry.line()
    assert "\n" not in line and len(line.splitlines()) == 1
    assert parse_entry(line) == entry
    assert parse_lines(line + "\n") == ([entry], [])
    if until is not None:
        assert entry.until == until  # the same instant, to the microsecond
    if entry.kind == "name":  # the pattern typed is the pattern applied
        typed = name_key(value[len(NAME_PREFIX) :])
        assert entry.value == NAME_PREFIX + typed


@SETTINGS
@given(pattern=st.text("abcXY*?[]!-09_.", min_size=1, max_size=16))
def test_a_pattern_without_spaces_or_hash_is_always_written(pattern: str) -> None:
    entry = entry_for(NAME_PREFIX + pattern, reason="why")
    assert parse_entry(entry.line()) == entry


# -- the index answers as a scan -----------------------------------------------------------


def _scan(
    entries: list[DenyEntry], address: str | None, name: str | None, now: datetime
) -> DenyEntry | None:
    """The first entry in force that denies, by looking at every one (the old way, with the
    mapped forms both ways)."""
    forms: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    if address is not None:
        parsed = ipaddress.ip_address(address)
        if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        forms = [parsed]
        if isinstance(parsed, ipaddress.IPv4Address):
            forms.append(ipaddress.IPv6Address("::ffff:" + str(parsed)))
    for entry in entries:
        if not entry.applies(now):
            continue
        if entry.network is not None and any(
            form.version == entry.network.version and form in entry.network for form in forms
        ):
            return entry
        if (
            entry.kind == "name"
            and name is not None
            and fnmatch.fnmatchcase(name_key(name), entry.value[len(NAME_PREFIX) :])
        ):
            return entry
    return None


_NETWORK_LINES = st.one_of(
    st.builds(
        lambda a, b: str(ipaddress.ip_network(f"{a}/{b}", strict=False)),
        st.ip_addresses(v=4),
        st.integers(8, 32),
    ),
    st.builds(
        lambda a, b: str(ipaddress.ip_network(f"{a}/{b}", strict=False)),
        st.sampled_from(["::ffff:10.1.2.3", "2001:db8::1", "2001:db8:1::"]),
        st.integers(90, 128),
    ),
    st.sampled_from(["10.0.0.0/8", "10.1.0.0/16", "::ffff:10.1.2.0/120", "2001:db8::/32", "::/0"]),
)
_NAME_LINES = st.text("abc*?[]", min_size=1, max_size=5).map(lambda text: NAME_PREFIX + text)
_EXPIRY = st.sampled_from(["", " until=2000-01-01", " until=2999-01-01"])


@SETTINGS
@given(
    lines=st.lists(st.tuples(st.one_of(_NETWORK_LINES, _NAME_LINES), _EXPIRY), max_size=30),
    addresses=st.lists(
        st.one_of(
            st.sampled_from(["10.1.2.3", "::ffff:10.1.2.3", "2001:db8::1", "10.9.9.9"]),
            st.ip_addresses().map(str),
        ),
        max_size=5,
    ),
    names=st.lists(st.text("abcAB", max_size=5), max_size=5),
)
def test_the_index_answers_as_a_scan(
    lines: list[tuple[str, str]], addresses: list[str], names: list[str]
) -> None:
    entries = [entry for value, until in lines if (entry := parse_entry(value + until))]
    rules = DenyList(entries)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    for address in addresses:
        assert rules.match(address=address, now=now) == _scan(entries, address, None, now)
    for name in names:
        assert rules.match(name=name, now=now) == _scan(entries, None, name, now)


def test_the_record_keeps_only_lines_that_read_back_as_themselves(tmp_path: Path) -> None:
    record = Record.open(tmp_path / "record.sqlite3")
    try:
        for line in ("name:*#bot", "name:evil guy", "127.0.0.2", "garbage"):
            assert not record.moderation.add_denied(line), line
        assert record.moderation.add_denied(entry_for("127.0.0.2", reason="why").line())
        assert record.moderation.denied_entries() == ["127.0.0.2/32 # why"]
    finally:
        record.close()
