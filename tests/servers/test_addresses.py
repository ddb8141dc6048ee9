"""`addresses.counting_key`: what every per-address rule counts a client by.

The rules themselves are checked with real clients over real SSH (`test_serve_ssh_proxy.py`:
sessions and wrong room codes from one IPv6 /64); here, the key alone, and the caps'
counting (`Admission`, serve-web's `Capacity`) by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tui_tictactoe.addresses import counting_key
from tui_tictactoe.servers.admission import Admission
from tui_tictactoe.servers.web.guard import Capacity


def test_ipv4_is_counted_as_it_is() -> None:
    assert counting_key("203.0.113.7") == "203.0.113.7"
    assert counting_key("203.0.113.7", 128) == "203.0.113.7"


def test_ipv6_is_counted_by_its_64_unless_told_otherwise() -> None:
    one = {counting_key(f"2001:db8:0:1::{n:x}") for n in range(1, 9)}
    assert one == {"2001:db8:0:1::/64"}
    assert counting_key("2001:db8:0:2::1") == "2001:db8:0:2::/64"
    assert counting_key("2001:db8:0:1:ffff:ffff:ffff:ffff", 48) == "2001:db8::/48"
    assert counting_key("2001:DB8:0:1::5", 128) == "2001:db8:0:1::5"


def test_mapped_zoned_and_other_forms() -> None:
    assert counting_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert counting_key("fe80::1%eth0") == "fe80::/64"
    assert counting_key("?") == "?"
    assert counting_key("x" * 500) == "x" * 64


def test_a_key_is_its_own_key() -> None:
    for address in ("2001:db8:0:1::5", "203.0.113.7", "::1", "?"):
        key = counting_key(address)
        assert counting_key(key) == key
    assert counting_key(counting_key("2001:db8:0:1::5"), 48) == "2001:db8::/48"
    assert counting_key(counting_key("2001:db8:0:1::5", 48)) == "2001:db8::/48"  # never finer


def test_a_prefix_out_of_range_is_refused() -> None:
    for bits in (0, 31, 129):
        with pytest.raises(ValueError, match="32-128"):
            counting_key("::1", bits)


@dataclass(eq=False)
class Caller:
    address: str

    def progress(self) -> tuple[int, float]:
        return 0, 0.0


def test_the_caps_count_one_64_as_one_address() -> None:
    admission: Admission[Caller] = Admission(16, 4, 64)
    callers = [Caller(f"2001:db8:0:1::{n}") for n in range(1, 9)]
    refused = [admission.admit(caller) for caller in callers]
    assert refused[:4] == [None] * 4
    assert all("too many games from your address (4 at once)" in str(why) for why in refused[4:])
    assert admission.admit(Caller("2001:db8:0:2::1")) is None
    for caller in callers[:4]:
        admission.release(caller)
    assert not admission.per_address.get("2001:db8:0:1::/64")
    each: Admission[Caller] = Admission(16, 4, 64, ipv6_prefix=128)
    assert [each.admit(caller) for caller in callers[:5]] == [None] * 5
    web = Capacity(16, 4)
    assert [web.admit(caller.address) for caller in callers[:4]] == [None] * 4
    assert web.admit(callers[4].address) is not None
    web.release(callers[0].address)
    assert web.admit(callers[5].address) is None
