"""`proxy.forwarded`: who a request through a trusted reverse proxy comes from.

The rules alone (the server behind a real HAProxy is `tests/realtime/web/test_serve_web_proxy.py`):
the right-most hop outside the trusted networks is the client; what a client writes to
the left of it, or sends from anywhere but a trusted peer, is never read; the reading is
bounded in hops.
"""

from __future__ import annotations

import ipaddress
import time

from hypothesis import given
from hypothesis import strategies as st

from tui_tictactoe.servers.proxy.forwarded import (
    MAX_HOPS,
    client_address,
    forwarded_hops,
    trusted,
    x_forwarded_for_hops,
)

PROXY = (ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("fd00::/64"))


def client(peer: str, *lines: str) -> str:
    return client_address(peer, PROXY, x_forwarded_for_hops(list(lines)))


def test_a_peer_outside_the_trusted_networks_is_itself_whatever_it_sends() -> None:
    assert client("203.0.113.9", "198.51.100.1") == "203.0.113.9"
    assert client("10.0.1.5", "198.51.100.1") == "10.0.1.5"  # next to the proxy, not it
    assert client_address("203.0.113.9", (), ["198.51.100.1"]) == "203.0.113.9"


def test_the_right_most_hop_outside_the_proxies_is_the_client() -> None:
    assert client("10.0.0.1", "203.0.113.7") == "203.0.113.7"
    # a client's own header, then the address the proxy saw: the proxy's wins
    assert client("10.0.0.1", "198.51.100.66, 203.0.113.7") == "203.0.113.7"
    # two proxies of ours: the first one's hop is passed over
    assert client("10.0.0.1", "198.51.100.66, 203.0.113.7, 10.0.0.2") == "203.0.113.7"
    # several header lines are one list, in order (HAProxy adds a line of its own)
    assert client("10.0.0.1", "198.51.100.66", "203.0.113.7") == "203.0.113.7"
    assert client("fd00::1", "2001:db8::5") == "2001:db8::5"
    assert client("::ffff:10.0.0.1", "203.0.113.7") == "203.0.113.7"


def test_ports_brackets_and_quotes_are_read_past() -> None:
    assert client("10.0.0.1", "203.0.113.7:4711") == "203.0.113.7"
    assert client("10.0.0.1", '"[2001:db8::5]:4711"') == "2001:db8::5"
    assert client("10.0.0.1", "::ffff:203.0.113.7") == "203.0.113.7"


def test_a_trusted_peer_that_names_nobody_is_itself() -> None:
    assert client("10.0.0.1") == "10.0.0.1"  # no header: the proxy's own health check
    assert client("10.0.0.1", "") == "10.0.0.1"
    assert client("10.0.0.1", "unknown") == "10.0.0.1"
    # a hop that is no address stops the reading: nothing left of it is believed
    assert client("10.0.0.1", "203.0.113.7, _hidden, 10.0.0.2") == "10.0.0.2"
    assert client("10.0.0.1", "10.0.0.3, 10.0.0.2") == "10.0.0.3"  # every hop a proxy's


def test_the_forwarded_header_s_for_is_read_the_same_way() -> None:
    """As aiohttp's `BaseRequest.forwarded` hands them: a mapping per element."""
    elements = [{"for": "198.51.100.66"}, {"for": "[2001:db8::5]:4711", "proto": "https"}]
    assert client_address("10.0.0.1", PROXY, forwarded_hops(elements)) == "2001:db8::5"
    assert client_address("10.0.0.1", PROXY, forwarded_hops([{"by": "x"}])) == "10.0.0.1"
    assert client_address("198.51.100.1", PROXY, forwarded_hops(elements)) == "198.51.100.1"


def test_the_hops_read_are_bounded() -> None:
    """aiohttp bounds a header (8 KiB) and their number (128); of what is left, MAX_HOPS hops
    from the right are looked at, as fast whatever the client wrote to their left."""
    huge = ", ".join(["10.0.0.9"] * 100_000)
    started = time.perf_counter()
    hops = x_forwarded_for_hops([huge, huge])
    elapsed = time.perf_counter() - started
    assert len(hops) == MAX_HOPS
    assert len(x_forwarded_for_hops(["198.51.100.1"] * 1000)) == MAX_HOPS
    assert len(forwarded_hops([{"for": "10.0.0.9"}] * 1000)) == MAX_HOPS
    # a chain longer than the bound, every hop a proxy's: a proxy's own address, never a
    # client's choice (the left-most read was written by a proxy of ours)
    assert client("10.0.0.1", "198.51.100.66, " + huge) == "10.0.0.9"
    # and the whole line is not split: the time is that of the few hops read (compared
    # with splitting the line whole, in this run)
    started = time.perf_counter()
    huge.split(",")
    assert elapsed < 10 * (time.perf_counter() - started) + 0.01


@given(
    spoofed=st.lists(st.ip_addresses().map(str), max_size=5),
    real=st.ip_addresses(v=4).filter(lambda a: a not in PROXY[0]).map(str),
    chain=st.lists(st.integers(1, 254).map(lambda n: f"10.0.0.{n}"), max_size=3),
)
def test_nothing_a_client_writes_changes_who_it_is(
    spoofed: list[str], real: str, chain: list[str]
) -> None:
    """Whatever a client puts in its header, the proxies of ours append the address they saw:
    the client is that address."""
    line = ", ".join([*spoofed, real, *chain])
    assert client("10.0.0.1", line) == real
    assert trusted("10.0.0.1", PROXY) and not trusted(real, PROXY)
