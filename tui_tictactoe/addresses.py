"""A client's address as every per-address rule counts it: IPv4 alone, IPv6 by its network.

One IPv6 host is routinely given a whole /64 (SLAAC, privacy addresses, a /64 per
customer), so counting full IPv6 addresses gave one person 2^64 of them: 8 addresses of
one /64 had 8 games under `--max-per-address 4`. Every per-address rule (the caps on
sessions and on connections logging in, the rooms' wrong codes, what is counted per
address in the rooms) counts `counting_key(address)`, a network for IPv6 (`/64` unless
the host says otherwise: `serve-ssh --ipv6-prefix`).

At the bottom of the package, with no imports of ours, so that the servers, the rooms and
the UI can all count by it.
"""

from __future__ import annotations

import ipaddress

DEFAULT_IPV6_PREFIX = 64
"""What one IPv6 client is counted by unless the host says otherwise."""
IPV6_PREFIXES = range(32, 129)
"""Allowed prefix lengths: 128 counts each address, 32 a whole provider's allocation."""
KEY_LIMIT = 64
"""Characters of a key that is not an IP address (a name, "?"): what a key can cost."""


def counting_key(address: str, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The key `address` is counted by: an IPv4 address as it is, an IPv6 one as its
    network of `ipv6_prefix` bits ("2001:db8:1:2::/64"; the address itself at 128), an
    IPv4-mapped IPv6 address as the IPv4 one. A zone ("%eth0") is dropped. Anything that
    is not an address (a Unix socket's peer, "?") is its own key, cut to `KEY_LIMIT`.
    Idempotent: a key given back is the same key, so a layer above may count by it again.
    """
    if ipv6_prefix not in IPV6_PREFIXES:
        raise ValueError(f"an IPv6 prefix length is {IPV6_PREFIXES[0]}-{IPV6_PREFIXES[-1]}")
    text = address.strip()[:KEY_LIMIT]
    bare, _, prefix = text.partition("/")
    try:
        parsed = ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return text
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    bits = min(ipv6_prefix, int(prefix)) if prefix.isdigit() else ipv6_prefix
    if bits == 128:
        return str(parsed)
    return str(ipaddress.IPv6Network((parsed, bits), strict=False))
