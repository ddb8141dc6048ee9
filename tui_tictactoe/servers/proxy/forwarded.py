"""`serve-web --forwarded-from`: a visitor's address from a trusted reverse proxy's header.

Behind a reverse proxy every request comes from the proxy's address, so the per-address
cap (`--max-per-address`) and the log would see one visitor. With `--forwarded-from
NETWORKS` a request whose peer is in those networks (the proxy's) is read for the client
the proxy names: `X-Forwarded-For` (nginx `$proxy_add_x_forwarded_for`, HAProxy `option
forwardfor`), or the RFC 7239 `Forwarded` header's `for=` (`--forwarded-header forwarded`;
read by aiohttp's `aiohttp.web.BaseRequest.forwarded`). Only the header the host names is read: a proxy
appends to one of them and passes the other through as the client sent it.

A proxy appends the address it was connected from to what the client sent, so only the
right of the list is true: the hops are read from the right, every hop in the trusted
networks (a proxy in front of the proxy) is passed over, and the first one that is not is
the client. A client can write what it likes to the left of that, and none of it is read.
A request from any other peer is its peer, whatever headers it sends. The read is bounded:
aiohttp bounds each header (8 KiB) and their number (128), and at most MAX_HOPS hops are
looked at, from the right. A trusted peer that names no usable hop (no header: the proxy's
own health check; a hop that is not an address: a misconfigured proxy) is its own address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

HEADERS = ("x-forwarded-for", "forwarded")
"""What `--forwarded-header` may name: the header the proxy writes."""
MAX_HOPS = 32
"""Hops looked at, from the right: far more proxies than any chain has."""


def trusted(address: str | None, networks: Sequence[Network]) -> bool:
    """`address` is in one of `networks` (an IPv4-mapped IPv6 peer as its IPv4 address)."""
    parsed = _address(address) if address else None
    if parsed is None:
        return False
    return any(parsed.version == net.version and parsed in net for net in networks)


def x_forwarded_for_hops(lines: Sequence[str]) -> list[str]:
    """The right-most MAX_HOPS hops of every `X-Forwarded-For` line, in order (each line is
    a comma-separated list; several lines are one list, in the order they came)."""
    hops: list[str] = []
    for line in reversed(lines):
        if len(hops) >= MAX_HOPS:
            break
        parts = line.rsplit(",", MAX_HOPS - len(hops))  # the cut-off left part is not read
        hops[:0] = parts[-(MAX_HOPS - len(hops)) :]
    return [hop.strip() for hop in hops]


def forwarded_hops(elements: Sequence[Mapping[str, str]]) -> list[str]:
    """The `for=` of the right-most MAX_HOPS elements of RFC 7239 `Forwarded` headers (as
    aiohttp's `aiohttp.web.BaseRequest.forwarded` parses them: a mapping per element); an element with
    no `for=` is an empty hop (not an address: it stops the reading there)."""
    return [element.get("for", "") for element in elements[-MAX_HOPS:]]


def client_address(peer: str, networks: Sequence[Network], hops: Iterable[str]) -> str:
    """The client of a request from `peer` whose proxy header named `hops` (left to right):
    the right-most hop outside `networks`; `peer` itself if it is not trusted, or if the
    hops name no address before (or instead of) one outside."""
    if not trusted(peer, networks):
        return peer
    client = peer
    for hop in reversed(list(hops)[-MAX_HOPS:]):
        parsed = _address(_bare(hop))
        if parsed is None:
            return client  # "unknown", "_hidden", garbage: nothing further left is believed
        client = str(parsed)
        if not trusted(client, networks):
            return client
    return client  # every hop a proxy's: the left-most read (written by a trusted proxy)


def _bare(hop: str) -> str:
    """A hop without its port: `[2001:db8::1]:4711`, `192.0.2.1:80` (RFC 7239, some
    proxies' X-Forwarded-For), or already bare."""
    hop = hop.strip().strip('"')
    if hop.startswith("["):
        return hop[1:].partition("]")[0]
    if hop.count(":") == 1:
        return hop.partition(":")[0]
    return hop


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return parsed.ipv4_mapped
        if parsed.scope_id is not None:
            return ipaddress.ip_address(text.partition("%")[0])
    return parsed
