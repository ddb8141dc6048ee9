"""A deny file of many networks (issue 35, finding 5): what a host loads from a public block
list, as large as `--deny`'s 1 MiB cap allows (35,724 networks), made from a seed.

Used by `realtime/ssh/test_serve_ssh_deny.py` and `benchmarks/bench_deny.py`.
"""

from __future__ import annotations

import ipaddress
import random
from pathlib import Path

NETWORKS = 35_724
"""Networks in the file of the finding (within the 1 MiB cap)."""


def network_lines(count: int = NETWORKS, seed: int = 35) -> list[str]:
    """`count` distinct networks, as a block list has them: mostly IPv4 /16 to /32 (none in
    127.0.0.0/8, where the tests' clients are), a quarter IPv6 /32 to /64 (none in
    2001:db8::/32)."""
    chosen = random.Random(seed)
    lines: set[str] = set()
    while len(lines) < count:
        if chosen.random() < 0.75:
            bits = chosen.choice((16, 20, 22, 24, 24, 24, 28, 32, 32, 32))
            number = chosen.randrange(1 << 24, 224 << 24)
            if number >> 24 == 127:
                continue
            network: ipaddress.IPv4Network | ipaddress.IPv6Network = ipaddress.IPv4Network(
                (number, bits), strict=False
            )
        else:
            bits = chosen.choice((32, 40, 48, 48, 56, 64))
            number = chosen.randrange(0x2000 << 112, 0x3FFF << 112)
            network = ipaddress.IPv6Network((number, bits), strict=False)
            if network.overlaps(ipaddress.IPv6Network("2001:db8::/32")):
                continue
        lines.add(str(network))
    return sorted(lines)


def write_deny_file(path: Path, count: int = NETWORKS, *extra: str) -> Path:
    """The file: `count` networks, then `extra` lines (the entries a test checks)."""
    text = "".join(f"{line}\n" for line in [*network_lines(count), *extra])
    assert len(text.encode()) <= 1024 * 1024, "within --deny's 1 MiB cap"
    path.write_text(text, encoding="utf-8")
    return path
