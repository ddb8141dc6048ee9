"""`servers.names`: how many new names a host gives out, and the line a key is told when a
free name cannot become its own (the real sessions: realtime/ssh/test_serve_ssh_names.py)."""

from __future__ import annotations

from tui_tictactoe.record.moderation import NAMES_PER_KEY, Claim
from tui_tictactoe.servers.names import (
    NEW_NAMES_IN_ALL,
    NEW_NAMES_PER_ADDRESS,
    NewNames,
    name_notice,
)


def test_an_address_then_the_host_run_out_of_new_names_and_say_which() -> None:
    counted = NewNames()
    for _ in range(NEW_NAMES_PER_ADDRESS):
        assert counted.refusal("10.0.0.1") is None
        counted.took("10.0.0.1")
    assert counted.refusal("10.0.0.1") == (
        f"your address has taken {NEW_NAMES_PER_ADDRESS} new names this hour"
    )
    assert counted.refusal("10.0.0.2") is None  # another address may
    for n in range(NEW_NAMES_IN_ALL - NEW_NAMES_PER_ADDRESS):
        counted.took(f"10.0.1.{n}")
    assert counted.refusal("10.0.0.2") == (
        "this server has given out all the new names it gives in an hour"
    )


def test_a_key_is_told_only_when_a_free_name_could_not_become_its_own() -> None:
    full = name_notice("bob", Claim(None, False, full=True), None)
    assert full.startswith(f"bob stays nobody's: your key owns {NAMES_PER_KEY} names already")
    assert name_notice("bob", Claim(None, False), "your address has taken 4 new names") == (
        "bob stays nobody's for now: your address has taken 4 new names."
    )
    assert name_notice("bob", Claim("SHA256:me", True), None) == ""  # just taken
    assert name_notice("bob", Claim("SHA256:me", False), "a refusal") == ""  # its own
    assert name_notice("bob", Claim("SHA256:other", False), "a refusal") == ""  # marked
    assert name_notice("bob", Claim(None, False), None) == ""  # nothing to tell
