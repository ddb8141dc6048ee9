"""Room codes: four letters a person reads off one screen and types on another.

The alphabet leaves out the letters that are read as others or as digits: I and L
(1), O and Q (0). That leaves 22 letters, so 22**4 = 234,256 codes, drawn at random
from `secrets` (never sequential): with wrong codes rate-limited per address
(`wrong_codes`), guessing a live room is impractical. `normalise` reads what people
type (any case, spaces or hyphens between letters) and refuses anything else with
a sentence for the status line; it never looks past `MAX_INPUT` characters.
"""

from __future__ import annotations

import secrets
import string
from typing import Protocol

from tui_tictactoe.rooms.view import Refused

ALPHABET = "ABCDEFGHJKMNPRSTUVWXYZ"
"""The letters of a code: A-Z without I, L, O and Q."""
LOOK_ALIKES = "ILOQ"
LENGTH = 4
MAX_INPUT = 32
"""Longer input is refused unread: a code is four letters and a few separators."""
_SEPARATORS = " \t-"


class Chooser(Protocol):
    """Where randomness comes from: `secrets.SystemRandom()`, or a seeded
    `random.Random` in tests (both have these two methods)."""

    def choice(self, seq: str) -> str: ...

    def getrandbits(self, k: int) -> int: ...


def new_code(rng: Chooser | None = None) -> str:
    """A random code (the caller checks it is not in use)."""
    chooser = rng if rng is not None else secrets.SystemRandom()
    return "".join(chooser.choice(ALPHABET) for _ in range(LENGTH))


TOKEN_ALPHABET = string.ascii_letters + string.digits
TOKEN_LENGTH = 16
"""A seat token: 16 letters and digits, about 95 bits. No "-" or "_" (base64's): a token
that began with "-" was read as an option after `--seat`, and its guest could not
come back."""


def new_token(rng: Chooser | None = None) -> str:
    """A secret seat token (both hubs deal them from their `rng` alike)."""
    chooser = rng if rng is not None else secrets.SystemRandom()
    return "".join(chooser.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def normalise(text: str) -> str:
    """The code `text` names, upper case; `Refused` with the reason if it names none."""
    if not isinstance(text, str) or len(text) > MAX_INPUT:
        raise Refused("A room code is four letters, like ABCD: that is too long.")
    letters = "".join(char for char in text if char not in _SEPARATORS)
    if not letters:
        raise Refused("Type the room's four-letter code, like ABCD.")
    for char in letters:
        _check_letter(char)
    code = letters.upper()
    if len(code) != LENGTH:
        raise Refused(f"A room code is four letters, like ABCD, not {len(code)}.")
    return code


def _check_letter(char: str) -> None:
    """Refuse one typed character that cannot be part of a code."""
    if not ("a" <= char <= "z" or "A" <= char <= "Z"):
        shown = f"'{char}'" if char.isascii() and char.isprintable() else "a sign"
        raise Refused(f"A room code has letters only, like ABCD: {shown} is not one.")
    if char.upper() in LOOK_ALIKES:
        raise Refused("Room codes never use I, L, O or Q (they look like 1 and 0): check the code.")
