"""Room codes (`rooms.codes`) and the wrong-code limit per address (`rooms.wrong_codes`)."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.rooms import codes
from tui_tictactoe.rooms.view import Refused
from tui_tictactoe.rooms.wrong_codes import WrongCodes


def refusal(text: object) -> str:
    with pytest.raises(Refused) as caught:
        codes.normalise(text)  # type: ignore[arg-type]
    return caught.value.reason


def test_the_alphabet_has_no_look_alikes() -> None:
    assert "".join(sorted(set(codes.ALPHABET))) == codes.ALPHABET
    assert set(codes.ALPHABET) == set(string.ascii_uppercase) - set("ILOQ")
    assert len(codes.ALPHABET) ** codes.LENGTH == 234_256


def test_new_codes_are_four_letters_of_the_alphabet_and_seeded_ones_repeat() -> None:
    first = [codes.new_code(random.Random(7)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    for code in (codes.new_code() for _ in range(200)):
        assert len(code) == 4 and set(code) <= set(codes.ALPHABET)


def test_new_codes_are_random_not_sequential() -> None:
    drawn = [codes.new_code() for _ in range(200)]
    # 200 draws from 234,256 codes: a handful of repeats at most, never a run.
    assert len(set(drawn)) >= 195
    assert drawn != sorted(drawn)


@pytest.mark.parametrize("letter", string.ascii_letters)
def test_every_letter_in_either_case(letter: str) -> None:
    typed = letter * 4
    if letter.upper() in codes.ALPHABET:
        assert codes.normalise(typed) == letter.upper() * 4
    else:
        assert "never use I, L, O or Q" in refusal(typed)


@pytest.mark.parametrize(
    "typed", ["abcd", "ABCD", "aBcD", " ab cd ", "AB-CD", "\tabcd\t", "a b c d", "a-b-c-d"]
)
def test_what_people_type_is_read(typed: str) -> None:
    assert codes.normalise(typed) == "ABCD"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "Type the room's four-letter code, like ABCD."),
        ("  - ", "Type the room's four-letter code, like ABCD."),
        ("ABC", "A room code is four letters, like ABCD, not 3."),
        ("ABCDE", "A room code is four letters, like ABCD, not 5."),
        ("AB1D", "A room code has letters only, like ABCD: '1' is not one."),
        ("AB_D", "A room code has letters only, like ABCD: '_' is not one."),
        ("ABÇD", "A room code has letters only, like ABCD: a sign is not one."),
        ("AB\x1b[31m", "A room code has letters only, like ABCD: a sign is not one."),
        ("AB\u202eD", "A room code has letters only, like ABCD: a sign is not one."),
        ("ABOD", "Room codes never use I, L, O or Q (they look like 1 and 0): check the code."),
        ("A" * 33, "A room code is four letters, like ABCD: that is too long."),
        (" " * 33, "A room code is four letters, like ABCD: that is too long."),
        (None, "A room code is four letters, like ABCD: that is too long."),
    ],
)
def test_anything_else_is_refused_with_the_reason(typed: object, reason: str) -> None:
    assert refusal(typed) == reason


@given(st.text(max_size=40))
def test_any_text_gives_a_code_or_a_clean_sentence(text: str) -> None:
    try:
        code = codes.normalise(text)
    except Refused as refused:
        assert refused.reason.isascii() and refused.reason.isprintable()
        assert len(refused.reason) <= 80
    else:
        assert len(code) == 4 and set(code) <= set(codes.ALPHABET)


@given(st.text(alphabet=codes.ALPHABET, min_size=4, max_size=4), st.randoms())
def test_every_code_reads_back_however_it_is_typed(code: str, rng: random.Random) -> None:
    typed = "".join(rng.choice([c, c.lower()]) + rng.choice(["", " ", "-"]) for c in code)
    assert codes.normalise(code) == code
    assert codes.normalise(typed) == code


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_five_wrong_codes_a_minute_then_wait() -> None:
    clock = Clock()
    limit = WrongCodes(clock)
    for _ in range(4):
        limit.count("10.0.0.1")
        clock.now += 1
        limit.check("10.0.0.1")
    limit.count("10.0.0.1")  # the fifth, at 1004
    with pytest.raises(Refused, match=r"^Too many wrong codes: wait 56 s\.$"):
        limit.check("10.0.0.1")
    limit.check("10.0.0.2")  # another address is not held up
    clock.now = 1059.5
    with pytest.raises(Refused, match="wait 1 s"):
        limit.check("10.0.0.1")
    clock.now = 1060  # the first is a minute old: one more try
    limit.check("10.0.0.1")
    limit.count("10.0.0.1")
    with pytest.raises(Refused, match="wait 1 s"):
        limit.check("10.0.0.1")


def test_memory_is_bounded_per_address_and_in_addresses() -> None:
    clock = Clock()
    limit = WrongCodes(clock, limit=3, window=60, max_addresses=100)
    for n in range(1000):
        limit.count(f"a{n}")
        limit.count("steady")  # counted often: stays remembered
    assert len(limit) == 100
    assert limit.wait("steady") == 60
    assert limit.wait("a0") == 0  # forgotten


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        WrongCodes(Clock(), limit=0)


@settings(deadline=None)  # 317 ms on a loaded machine (a first parse imports the cli)
@given(st.integers(0, 2**32))
def test_every_seat_token_can_be_typed_after_seat(seed: int) -> None:
    """A guest types `--join ABCD --seat TOKEN`: a token that began with "-" was read as an
    option by the parser ("expected one argument"), and the guest never got their seat back
    (1 token in 64; a CI run hit it). Tokens are letters and digits only."""
    from tui_tictactoe.cli import parse
    from tui_tictactoe.commands.play_arguments import room_request

    token = codes.new_token(random.Random(seed))
    assert len(token) == codes.TOKEN_LENGTH and token.isascii() and token.isalnum()
    request = room_request(parse(["--join", "ABCD", "--seat", token]))
    assert request is not None and request.token == token


def test_seat_tokens_are_random_not_sequential() -> None:
    tokens = {codes.new_token() for _ in range(1000)}
    assert len(tokens) == 1000
    assert set("".join(tokens)) == set(string.ascii_letters + string.digits)
