"""The PROXY protocol header (HAProxy's spec, v1 text and v2 binary), read without trusting it.

Behind a TCP load balancer every connection comes from the balancer; with `send-proxy` or
`send-proxy-v2` the balancer first sends one header naming the client's address. This module
is the pure part: `step` looks at the bytes read so far and says how many more may be read
(never past the header's end, so the SSH bytes after it stay in the socket for asyncssh), or
returns the header, or raises `ProxyHeaderError`. Sizes are bounded before anything is parsed:
a v1 line is at most 107 bytes, a v2 header at most 16 + `V2_BODY_LIMIT`. Whether a peer may
send a header at all (only the balancer's network) is the listener's business
(`proxy.listener`).
"""

from __future__ import annotations

import ipaddress
import struct
from dataclasses import dataclass

V1_PREFIX = b"PROXY "
V1_LIMIT = 107  # the spec's longest v1 line, CRLF included
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V2_FIXED = 16  # signature, version and command, family and transport, length
V2_BODY_LIMIT = 256  # addresses (at most 216 for AF_UNIX) and a few TLVs: more is refused
_V2_ADDRESS_SIZES = {0x11: 12, 0x21: 36}  # TCP over IPv4, over IPv6: addresses and ports
_DIGITS = frozenset(b"0123456789")
_ADDRESS_BYTES = {b"TCP4": _DIGITS | set(b"."), b"TCP6": _DIGITS | set(b".:abcdefABCDEF")}


class ProxyHeaderError(ValueError):
    """A header that is not one: the connection is dropped. The message is the server's own
    wording, never bytes from the peer."""


@dataclass(frozen=True)
class ProxyHeader:
    """What a header says: the client's address and port, or None for a connection of the
    balancer's own (`PROXY UNKNOWN`, v2 LOCAL: health checks), which keeps the peer's."""

    length: int  # bytes the header took
    source: tuple[str, int] | None


def step(data: bytes) -> ProxyHeader | int:
    """The header in `data` (all the bytes read so far), or how many more bytes may be read
    (at least 1) without reading past its end. Raises `ProxyHeaderError` as soon as `data`
    cannot be the start of a header."""
    if not data:
        return 12  # the shortest header of either version is longer (v1: 15 bytes)
    if data[:12] == V2_SIGNATURE[: len(data)]:
        if len(data) < V2_FIXED:
            return V2_FIXED - len(data)
        total = V2_FIXED + _v2_length(data)
        if len(data) < total:
            return total - len(data)
        return _parse_v2(data[:total])
    if data[:6] != V1_PREFIX[: len(data)]:
        raise ProxyHeaderError("not a PROXY protocol header")
    end = data.find(b"\n")
    if end >= 0:
        if end != len(data) - 1 or not data.endswith(b"\r\n"):
            raise ProxyHeaderError("a PROXY v1 line with a stray line feed")
        return _parse_v1(data)
    if len(data) >= V1_LIMIT:
        raise ProxyHeaderError(f"a PROXY v1 line longer than {V1_LIMIT} bytes")
    return 1 if data.endswith(b"\r") else min(2, V1_LIMIT - len(data))


def _v2_length(data: bytes) -> int:
    if data[12] >> 4 != 2:
        raise ProxyHeaderError("a PROXY v2 header of another version")
    if data[12] & 0x0F > 1:
        raise ProxyHeaderError("a PROXY v2 header with an unknown command")
    length = int.from_bytes(data[14:16], "big")
    if length > V2_BODY_LIMIT:
        raise ProxyHeaderError(f"a PROXY v2 header longer than {V2_FIXED + V2_BODY_LIMIT} bytes")
    return length


def _parse_v2(header: bytes) -> ProxyHeader:
    """A whole v2 header (`_v2_length` checked the fixed part). LOCAL, and PROXY with an
    unspecified family, keep the peer's address; TLVs after the addresses are skipped."""
    length = len(header)
    if header[12] & 0x0F == 0 or header[13] >> 4 == 0:
        return ProxyHeader(length, None)
    size = _V2_ADDRESS_SIZES.get(header[13])
    if size is None:
        raise ProxyHeaderError("a PROXY v2 header for something other than TCP over IP")
    body = header[V2_FIXED:]
    if len(body) < size:
        raise ProxyHeaderError("a PROXY v2 header too short for its addresses")
    half = (size - 4) // 2
    source = ipaddress.ip_address(body[:half])
    (port,) = struct.unpack("!H", body[size - 4 : size - 2])
    return ProxyHeader(length, (str(source), port))


def _parse_v1(line: bytes) -> ProxyHeader:
    """`PROXY TCP4|TCP6 SRC DST SPORT DPORT\\r\\n`, single spaces, addresses of the named
    family and decimal ports without leading zeros; or `PROXY UNKNOWN` and anything."""
    fields = line[len(V1_PREFIX) : -2].split(b" ")
    if fields[0] == b"UNKNOWN":
        return ProxyHeader(len(line), None)
    if len(fields) != 5 or fields[0] not in (b"TCP4", b"TCP6"):
        raise ProxyHeaderError("a PROXY v1 line that is not TCP4, TCP6 or UNKNOWN")
    kind = ipaddress.IPv4Address if fields[0] == b"TCP4" else ipaddress.IPv6Address
    if not all(set(field) <= _ADDRESS_BYTES[fields[0]] for field in fields[1:3]):
        raise ProxyHeaderError("a PROXY v1 line with a bad address")
    try:
        source, _ = (kind(field.decode("ascii")) for field in fields[1:3])
    except (UnicodeDecodeError, ValueError):
        raise ProxyHeaderError("a PROXY v1 line with a bad address") from None
    sport, _ = (_port(field) for field in fields[3:5])
    return ProxyHeader(len(line), (str(source), sport))


def _port(field: bytes) -> int:
    if not field or not set(field) <= _DIGITS or len(field) > 5 or field[:1] == b"0" != field:
        raise ProxyHeaderError("a PROXY v1 line with a bad port")
    port = int(field)
    if port > 65535:
        raise ProxyHeaderError("a PROXY v1 line with a bad port")
    return port
