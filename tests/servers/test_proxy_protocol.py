"""The PROXY protocol parser (`servers/proxy/protocol.py`): pure, so tested on bytes.

Headers are built here the way HAProxy builds them (its own output is tested through a real
HAProxy in test_serve_ssh_proxy.py). The properties: a valid header of either version, split
into any chunks and followed by the client's SSH bytes, is read to its last byte and never
past it, and names the address it was given; any bytes at all are either a header, an error
(`ProxyHeaderError`, nothing else) or a request for more, and the reader never asks beyond
the size bounds. The small spaces (v2's command and family bytes, every prefix and every
single-byte change of a v1 line) are checked exhaustively.
"""

from __future__ import annotations

import ipaddress
import socket
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_tictactoe.servers.proxy.listener import trusted
from tui_tictactoe.servers.proxy.protocol import (
    V1_LIMIT,
    V2_BODY_LIMIT,
    V2_FIXED,
    V2_SIGNATURE,
    ProxyHeader,
    ProxyHeaderError,
    step,
)

SSH = b"SSH-2.0-OpenSSH_9.2\r\n"


def v1(source: str, sport: int, dest: str = "10.0.0.11", dport: int = 2222) -> bytes:
    kind = "TCP6" if ":" in source else "TCP4"
    if kind == "TCP6" and ":" not in dest:
        dest = "::1"
    return f"PROXY {kind} {source} {dest} {sport} {dport}\r\n".encode()


def v2(
    source: str | None,
    sport: int = 0,
    *,
    command: int = 0x21,
    tlvs: bytes = b"",
    family: int | None = None,
) -> bytes:
    """What `send-proxy-v2` sends: PROXY (0x21) or LOCAL (0x20), TCP over IPv4 (0x11) or
    IPv6 (0x21), addresses, ports, then any TLVs."""
    if source is None:
        body, fam = b"", 0x00
    elif ":" in source:
        body = socket.inet_pton(socket.AF_INET6, source) + bytes(16) + struct.pack("!HH", sport, 22)
        fam = 0x21
    else:
        body = socket.inet_aton(source) + bytes(4) + struct.pack("!HH", sport, 22)
        fam = 0x11
    body += tlvs
    fam = fam if family is None else family
    return V2_SIGNATURE + bytes([command, fam]) + struct.pack("!H", len(body)) + body


def feed(stream: bytes, chunks: list[int] | None = None) -> tuple[ProxyHeader | None, int]:
    """Read `stream` as the listener does, a chunk of at most `step`'s answer at a time (the
    socket may return less: `chunks` says how much less). Returns the header and the bytes
    read; the header is None when the stream ended first."""
    data = b""
    sizes = iter(chunks or [])
    while True:
        wanted = step(data)
        if isinstance(wanted, ProxyHeader):
            return wanted, len(data)
        assert wanted >= 1
        got = max(1, min(wanted, next(sizes, wanted)))
        chunk = stream[len(data) : len(data) + got]
        if not chunk:
            return None, len(data)
        data += chunk


ipv4 = st.ip_addresses(v=4).map(str)
ipv6 = st.ip_addresses(v=6).map(str)
ports = st.integers(0, 65535)
chunking = st.lists(st.integers(1, 40), max_size=60)


@given(st.one_of(ipv4, ipv6), ports, chunking, st.binary(max_size=64))
def test_a_v1_line_is_read_to_its_end_and_never_past_it(
    source: str, port: int, chunks: list[int], after: bytes
) -> None:
    line = v1(source, port)
    header, read = feed(line + SSH + after, chunks)
    assert header == ProxyHeader(len(line), (str(ipaddress.ip_address(source)), port))
    assert read == len(line)


@given(
    st.one_of(ipv4, ipv6),
    ports,
    st.binary(max_size=V2_BODY_LIMIT - 36),
    chunking,
    st.binary(max_size=64),
)
def test_a_v2_header_is_read_to_its_end_and_never_past_it(
    source: str, port: int, tlvs: bytes, chunks: list[int], after: bytes
) -> None:
    header_bytes = v2(source, port, tlvs=tlvs)
    header, read = feed(header_bytes + SSH + after, chunks)
    assert header == ProxyHeader(len(header_bytes), (str(ipaddress.ip_address(source)), port))
    assert read == len(header_bytes)


@given(st.binary(max_size=400), chunking)
def test_any_bytes_are_a_header_an_error_or_a_wait_within_the_bounds(
    stream: bytes, chunks: list[int]
) -> None:
    try:
        header, read = feed(stream, chunks)
    except ProxyHeaderError:
        return
    assert read <= max(V1_LIMIT, V2_FIXED + V2_BODY_LIMIT)
    if header is not None:
        assert header.length == read


@given(st.sampled_from([b"PROXY ", V2_SIGNATURE]), st.binary(max_size=400), chunking)
def test_bytes_after_a_right_start_are_bounded_too(
    start: bytes, rest: bytes, chunks: list[int]
) -> None:
    try:
        _, read = feed(start + rest, chunks)
    except ProxyHeaderError:
        return
    limit = V1_LIMIT if start == b"PROXY " else V2_FIXED + V2_BODY_LIMIT
    assert read <= limit


def test_the_shortest_headers_are_not_overread() -> None:
    assert feed(b"PROXY UNKNOWN\r\n" + SSH) == (ProxyHeader(15, None), 15)
    assert feed(v2(None, command=0x20) + SSH) == (ProxyHeader(16, None), 16)


def test_health_checks_and_unknown_families_keep_the_balancers_address() -> None:
    unknown = b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n"
    assert feed(unknown + SSH) == (ProxyHeader(len(unknown), None), len(unknown))
    local = v2("192.0.2.1", 5, command=0x20)  # LOCAL: the addresses are ignored
    assert feed(local + SSH)[0] == ProxyHeader(len(local), None)
    unspec = v2("192.0.2.1", 5, family=0x00)
    assert feed(unspec + SSH)[0] == ProxyHeader(len(unspec), None)


def test_every_v2_command_and_family_byte() -> None:
    """Exhaustive: version 2 with LOCAL or PROXY only; under PROXY, TCP over IPv4 or IPv6
    (or an unspecified family: the peer's address); UDP and AF_UNIX are refused."""
    for command in range(256):
        for family in range(256):
            stream = v2("192.0.2.1", 7, command=command, family=family, tlvs=bytes(24)) + SSH
            try:
                header, _ = feed(stream)
            except ProxyHeaderError:
                header = None
            if command == 0x20 or (command == 0x21 and family >> 4 == 0):
                assert header is not None and header.source is None, (command, family)
            elif command == 0x21 and family == 0x11:
                assert header is not None and header.source == ("192.0.2.1", 7)
            elif command == 0x21 and family == 0x21:  # IPv6: the first 16 bytes, read as IPv6
                assert header is not None and header.source is not None
            else:
                assert header is None, (command, family)


def test_v2_lengths_beyond_the_cap_or_short_of_the_addresses_are_refused() -> None:
    head = V2_SIGNATURE + bytes([0x21, 0x11])
    with pytest.raises(ProxyHeaderError):
        step(head + struct.pack("!H", V2_BODY_LIMIT + 1))
    assert step(head + struct.pack("!H", V2_BODY_LIMIT)) == V2_BODY_LIMIT
    with pytest.raises(ProxyHeaderError):
        feed(head + struct.pack("!H", 11) + bytes(11))
    with pytest.raises(ProxyHeaderError):
        feed(V2_SIGNATURE + bytes([0x21, 0x21]) + struct.pack("!H", 35) + bytes(35))


def test_every_prefix_of_a_header_asks_for_more() -> None:
    for header in (v1("192.0.2.1", 1234), v1("2001:db8::7", 65535), v2("192.0.2.1", 9)):
        for end in range(len(header)):
            wanted = step(header[:end])
            assert isinstance(wanted, int) and 1 <= wanted <= len(header) - end


def test_every_single_byte_change_of_a_v1_line() -> None:
    """Exhaustive over positions and byte values: a changed line is refused, or it is still a
    well-formed line (a digit for a digit) and reads as what it now says, never past its end."""
    line = v1("192.0.2.1", 1234)
    for position in range(len(line)):
        for value in range(256):
            changed = line[:position] + bytes([value]) + line[position + 1 :]
            try:
                header, read = feed(changed + SSH)
            except ProxyHeaderError:
                continue
            assert header is not None and read <= len(changed)
            fields = changed[6:-2].split(b" ")
            assert header.source == (fields[1].decode(), int(fields[3])), changed


@pytest.mark.parametrize(
    "line",
    [
        b"PROXY TCP4 192.0.2.1 10.0.0.1 1234 22\n",  # no CR
        b"PROXY TCP4 192.0.2.1 10.0.0.1 1234 22\r\r\n",
        b"PROXY  TCP4 192.0.2.1 10.0.0.1 1234 22\r\n",  # two spaces
        b"PROXY TCP4 192.0.2.1 10.0.0.1 1234 22 \r\n",
        b"PROXY TCP4 192.0.2.1 10.0.0.1 1234\r\n",
        b"PROXY TCP4 2001:db8::1 ::1 1234 22\r\n",  # IPv6 under TCP4
        b"PROXY TCP6 192.0.2.1 10.0.0.1 1234 22\r\n",  # IPv4 under TCP6
        b"PROXY TCP6 fe80::1%eth0 ::1 1234 22\r\n",  # a scope: not an address on the wire
        b"PROXY TCP4 192.0.2.01 10.0.0.1 1234 22\r\n",  # a leading zero
        b"PROXY TCP4 192.0.2.1 10.0.0.1 01234 22\r\n",
        b"PROXY TCP4 192.0.2.1 10.0.0.1 65536 22\r\n",
        b"PROXY TCP4 192.0.2.1 10.0.0.1 -1 22\r\n",
        b"PROXY TCP4 192.0.2.1 10.0.0.1 +1 22\r\n",
        "PROXY TCP4 192.0.2.1 10.0.0.1 \uff11\uff12 22\r\n".encode(),  # full-width digits
        b"PROXY UDP4 192.0.2.1 10.0.0.1 1234 22\r\n",
        b"PROXY UNKNOWNX\r\n",
        b"proxy TCP4 192.0.2.1 10.0.0.1 1234 22\r\n",
        b"SSH-2.0-OpenSSH_9.2\r\n",  # no header at all
        b"PROXY TCP4 " + b"1" * 200 + b"\r\n",  # longer than 107 bytes
    ],
)
def test_malformed_v1_lines_are_refused(line: bytes) -> None:
    with pytest.raises(ProxyHeaderError):
        feed(line + SSH)


def test_a_v1_line_of_exactly_107_bytes_is_read_and_108_refused() -> None:
    head = b"PROXY UNKNOWN "
    longest = head + b"x" * (V1_LIMIT - len(head) - 2) + b"\r\n"
    assert feed(longest + SSH)[0] == ProxyHeader(V1_LIMIT, None)
    with pytest.raises(ProxyHeaderError):
        feed(head + b"x" * (V1_LIMIT - len(head) - 1) + b"\r\n")


def test_trusted_networks_include_ipv4_peers_on_a_dual_stack_socket() -> None:
    balancers = (ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("2001:db8::/64"))
    assert trusted("10.0.0.5", balancers)
    assert trusted("::ffff:10.0.0.5", balancers)
    assert trusted("2001:db8::9", balancers)
    assert not trusted("10.0.1.5", balancers)
    assert not trusted("127.0.0.1", balancers)
    assert not trusted("?", balancers)
