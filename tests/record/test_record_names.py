"""Names that cannot be borrowed (issue 35): the confusables skeleton, the names refused
outright, the marks others see, and who owns a name on both backends (`claim_name`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.identity import GUEST, NAME_LIMIT, displayable, marked, name_refusal
from tui_tictactoe.record import Record
from tui_tictactoe.record import schema as record_schema
from tui_tictactoe.record.moderation import NAMES_PER_KEY, Claim
from tui_tictactoe.record.names import mark_of, name_skeleton, unmarked
from tui_tictactoe.record.postgres import schema as pg_schema

ANN = "SHA256:" + "a" * 43
BOB = "SHA256:" + "b" * 43
LOOK_ALIKES = ("\u0430lice", "alic\u0435", "al\u0131ce", "ALICE", "\uff41\uff4c\uff49\uff43\uff45")
"""Cyrillic a (U+0430), Cyrillic e (U+0435), the dotless i (U+0131), capitals, fullwidth:
all `alice` to a reader."""


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_have_alices_skeleton(name: str) -> None:
    assert name_skeleton(name) == name_skeleton("alice")
    assert name_skeleton("bob") != name_skeleton("alice")


@settings(deadline=None, max_examples=200)
@given(st.text(alphabet="abcdeiopxy", min_size=1, max_size=20))
def test_latin_letters_swapped_for_cyrillic_twins_keep_the_skeleton(name: str) -> None:
    twins = str.maketrans("aceiopxy", "\u0430\u0441\u0435\u0456\u043e\u0440\u0445\u0443")
    assert name_skeleton(name.translate(twins)) == name_skeleton(name)


@pytest.mark.parametrize(
    "name",
    [
        "alice\u2800",  # the Braille blank
        "ali\u200bce",  # zero-width space (Cf)
        "\u202ealice",  # right-to-left override (Cf)
        "alice\u3164",  # Hangul filler
        "alice\u00a0",  # no-break space
        "al\x1b[31mice",  # an escape sequence
        "alice\ufe0f",  # a variation selector
    ],
)
def test_invisible_and_non_printing_characters_are_refused_in_one_line(name: str) -> None:
    said = name_refusal(name)
    assert said is not None and "\n" not in said and "invisible" in said
    assert displayable(name) != name  # and what is shown of it would hide them


@pytest.mark.parametrize("name", ["alice", "bob smith", "\u0430lice", "Zoë", "\u5c0f\u660e"])
def test_visible_names_are_not_refused(name: str) -> None:
    assert name_refusal(name) is None


def test_a_mark_follows_a_name_within_the_limit_and_comes_off_for_the_record() -> None:
    assert marked("alice", GUEST) == "alice (guest)"
    assert marked("guest", GUEST) == "guest"  # the mark itself is not said twice
    assert marked("alice", "") == "alice"
    long = marked("x" * 40, mark_of(ANN))
    assert long.endswith(f" ({mark_of(ANN)})") and len(long) <= NAME_LIMIT
    assert displayable(long) == long  # what the rooms' wire takes
    assert mark_of(ANN) == "SHA256:aaaaaaaa…"
    assert unmarked(marked("alice", mark_of(ANN)), ANN) == "alice"
    assert unmarked("alice (guest)", None) == "alice"


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=60), st.sampled_from([GUEST, mark_of(ANN)]))
def test_a_marked_name_is_displayable_within_the_limit_and_ends_in_its_mark(
    name: str, mark: str
) -> None:
    shown = marked(displayable(name), mark)
    assert displayable(shown) == shown  # the rooms' wire takes it as it is
    assert shown.endswith(f" ({mark})") or shown == mark
    assert unmarked(shown, None if mark == GUEST else ANN) != "" or shown == mark


def test_a_key_owns_three_names_and_no_fourth(backend: str) -> None:
    names = ["admin", "root", "moderator", "support", "help"]
    with Record.open() as record:
        claims = [record.moderation.claim_name(ANN, name) for name in names]
        assert claims[:NAMES_PER_KEY] == [Claim(ANN, True)] * NAMES_PER_KEY
        assert claims[NAMES_PER_KEY:] == [Claim(None, False, full=True)] * 2  # the key is told
        assert record.moderation.claim_name(ANN, "ROOT") == Claim(ANN, False)  # its own, used again
        assert record.moderation.claim_name(BOB, "support") == Claim(
            BOB, True
        )  # still free for others


def test_a_look_alike_a_guest_a_reserved_name_and_a_refused_new_name_own_nothing(
    backend: str,
) -> None:
    with Record.open() as record:
        assert record.moderation.claim_name(ANN, "alice") == Claim(ANN, True)
        for name in LOOK_ALIKES:
            assert record.moderation.claim_name(BOB, name) == Claim(
                ANN, False
            )  # ann's: bob is marked
        assert record.moderation.claim_name(None, "carol") == Claim(
            None, False
        )  # a guest owns nothing
        reserved = {name_skeleton("admin")}
        assert record.moderation.claim_name(BOB, "\u0430dmin", reserved) == Claim(None, False)
        assert record.moderation.claim_name(BOB, "dave", may_add=False) == Claim(None, False)
        assert record.moderation.name_owner("dave") is None
        assert record.moderation.claim_name(BOB, "dave") == Claim(BOB, True)
        assert record.moderation.name_owner("\u0430lice") == ANN


def test_a_name_unused_for_long_lapses_and_anyone_may_take_it(backend: str) -> None:
    with Record.open() as record:
        assert record.moderation.claim_name(ANN, "alice") == Claim(ANN, True)

        def age(conn: Any) -> bool:
            with record._writing(conn):
                record._query(conn, "UPDATE name_owners SET since = '2000-01-01T00:00:00Z'")
            return True

        assert record._run(age, False, "aged")
        assert record.moderation.claim_name(BOB, "alice") == Claim(BOB, True)


def test_an_older_records_owned_names_are_rekeyed_by_skeleton_and_kept(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = pg_schema if backend == "postgres" else record_schema
    with monkeypatch.context() as old:  # the schema before the skeleton
        old.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:-1])
        with Record.open() as first:

            def legacy(conn: Any) -> bool:  # keyed NFKC and case-folded; `since`: the claim
                with first._writing(conn):
                    for row in (
                        ("sam", ANN, "2000-01-01T00:00:00Z"),
                        ("sarn", BOB, "2001-01-01T00:00:00Z"),  # sam's skeleton, later
                        ("carol", BOB, "2000-01-01T00:00:00Z"),
                    ):
                        first._query(conn, "INSERT INTO name_owners VALUES (?, ?, ?)", row)
                return True

            assert first._run(legacy, False, "legacy rows")
    with Record.open() as record:  # upgraded
        assert [record.moderation.name_owner(name) for name in ("sam", "sarn", "carol")] == [
            ANN,
            ANN,
            BOB,
        ]
        assert record.moderation.claim_name(ANN, "sam") == Claim(ANN, False)  # used now: not lapsed
        assert record.moderation.claim_name(BOB, "Carol") == Claim(BOB, False)
