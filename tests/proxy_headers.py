"""PROXY protocol headers (v1 text, v2 binary) built by hand: for the parser's tests and
serve-ssh's behind a balancer."""

from __future__ import annotations

import socket
import struct

from tui_tictactoe.servers.proxy.protocol import (
    V2_SIGNATURE,
)


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
