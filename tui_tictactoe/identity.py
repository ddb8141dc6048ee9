"""Who is playing: the local user, or the player a server names in the environment.

`serve-ssh` names the client's key (or a guest, for a client without one); `serve-web`
makes every browser visitor a guest, since a web page proves nobody's identity.

Beside the record (not in the UI) because the game and `tui-tictactoe stats`
must agree on whose record it is, and at the bottom of the package because the
record, the UI, the CLI and the servers all show names: `displayable` is the one
place a name a client chose is made fit to show.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from typing import NamedTuple

PLAYER_ENV = "TUI_TICTACTOE_PLAYER"
"""Set by the servers: the SSH client's key fingerprint, or empty for a guest."""
PLAYER_NAME_ENV = "TUI_TICTACTOE_PLAYER_NAME"
"""Set by the servers: the name the SSH client logged in with, or "guest"."""
PLAYER_MARK_ENV = "TUI_TICTACTOE_PLAYER_MARK"
"""Set by serve-ssh: what follows the player's name where others see it ("guest", the start
of the key's fingerprint) when another key owns that name; empty otherwise."""
NAME_NOTICE_ENV = "TUI_TICTACTOE_NAME_NOTICE"
"""Set by serve-ssh: one line the player is told as the game starts when the name is not
theirs to keep (their key or address has taken all the new names it may)."""
NOTICE_LIMIT = 200
"""Characters of that line shown at most."""
GUEST = "guest"
NAME_LIMIT = 32
"""Characters, and terminal columns, of a name that are shown: the rest becomes "…"."""
NO_NAME = "(no name)"
"""Shown for a name with nothing visible in it."""


# -- names as text -----------------------------------------------------------------

# Whole escape sequences, so that their parameters ("[31m", "]8;;http://...") do not
# stay behind as text: CSI (ESC [ or 0x9B), then OSC, DCS, SOS, PM and APC (ESC ] P X
# ^ _ or their one-byte forms) up to BEL / ST or the end, then any other ESC sequence.
_ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# Printable to `str.isprintable` but drawn as nothing (Unicode's default-ignorable code
# points that are not format characters, and the Braille blank): fillers, variation
# selectors, invisible marks.
_INVISIBLE = re.compile(
    r"[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
    r"\U0001d159\U000e0000-\U000e0fff]"
)


def displayable(text: str, limit: int = NAME_LIMIT, empty: str = NO_NAME) -> str:
    """`text` as it may be shown: every name a client chose goes through here first.

    Escape sequences are removed whole; then control, format (bidirectional overrides
    and isolates, zero-width characters), separator other than the space, surrogate,
    private and unassigned characters, and invisible fillers. Surrounding spaces go.
    Nothing left gives `empty` (itself clean). What is longer than `limit` characters
    or terminal columns is cut and ends in "…". Idempotent. This makes a name safe to write to a
    terminal or a log, not to read as markup: widgets still take it as `Content`/`Text`.
    """
    kept = "".join(char for char in _ESCAPE_SEQUENCE.sub("", text) if char.isprintable())
    kept = _INVISIBLE.sub("", kept).strip() or empty
    if len(kept) > limit or _columns(kept) > limit:
        cut, width = [], 0
        for char in kept[: limit - 1]:
            width += _columns(char)
            if width > limit - 1:
                break
            cut.append(char)
        kept = "".join(cut).rstrip() + "…"
    return kept


def name_refusal(name: str) -> str | None:
    """Why `name` (as a client chose it) cannot be a player's name, in one line, or None.
    Refused: control, format (Cf: zero-width, bidirectional), separator other than the
    space, private, unassigned and invisible characters (fillers, the Braille blank), any
    of which lets a name pass for another (`alice` and `alice⠀`)."""
    for char in name:
        if char != " " and (
            unicodedata.category(char)[0] in "CZ" or _INVISIBLE.fullmatch(char) is not None
        ):
            return (
                f"a name cannot hold invisible or non-printing characters (U+{ord(char):04X}):"
                " log in under another name"
            )
    return None


def marked(name: str, mark: str) -> str:
    """A displayable `name` as others see it: followed by its `mark` in brackets (cut to
    leave room for it, within NAME_LIMIT), unless it has none or is the mark itself."""
    if not mark or name == mark:
        return name
    room = max(1, NAME_LIMIT - _columns(mark) - 3)
    return f"{displayable(name, room)} ({mark})"


_PLAIN_NAME = re.compile(r"[\w.@+'-]+")
"""One word of letters, digits and the few marks user names have: a name the frame around
it (`·`, `(X)`, `vs`, `…`, a sentence's words) cannot be mistaken for."""
_QUOTES = re.compile('["\u201c\u201d]')


def set_apart(name: str) -> str:
    """A displayable `name` as it stands among our own words (a room's title, a status):
    bare if it is one plain word, else in quotes (its own quotes made ' ), so that no
    name can imitate the frame around it: `bob (O) · 5 watching` shows as
    `“bob (O) · 5 watching” (X)`, never as a seat and a count of its own."""
    if _PLAIN_NAME.fullmatch(name):
        return name
    return f"\u201c{_QUOTES.sub(chr(39), name)}\u201d"


def _columns(text: str) -> int:
    """Terminal columns: two for wide characters, none for combining marks."""
    return sum(
        2
        if unicodedata.east_asian_width(char) in "WF"
        else 0
        if unicodedata.category(char) in ("Mn", "Me")
        else 1
        for char in text
    )


class Identity(NamedTuple):
    player: str | None  # the record's key; None: a guest, whose rounds are not kept
    name: str  # what the player is called on screen
    hosted: bool  # playing through serve-ssh
    mark: str = ""  # follows the name where others see it (`PLAYER_MARK_ENV`)
    notice: str = ""  # what the player is told about the name at start (`NAME_NOTICE_ENV`)

    @property
    def shown(self) -> str:
        """The name as other players see it (rooms, the lobby): with its mark, if any."""
        return marked(self.name, self.mark)


def current_identity(environ: Mapping[str, str] | None = None) -> Identity:
    """The player of this process: serve-ssh's player if it set one, else the local user."""
    env = os.environ if environ is None else environ
    if PLAYER_ENV in env:
        player = env[PLAYER_ENV] or None
        fallback = GUEST if player is None else player
        # A name with nothing to show is no name: the player is shown by its key instead.
        name = displayable(env.get(PLAYER_NAME_ENV, ""), empty="") or displayable(fallback)
        mark = displayable(env.get(PLAYER_MARK_ENV, ""), limit=NAME_LIMIT // 2, empty="")
        notice = displayable(env.get(NAME_NOTICE_ENV, ""), limit=NOTICE_LIMIT, empty="")
        return Identity(player, name, True, mark, notice)
    try:
        import getpass

        user = getpass.getuser()
    except Exception:  # no user name anywhere (a container without passwd entry)
        user = ""
    return Identity(user or "player", displayable(user or "player"), False)


def guest_environment() -> dict[str, str]:
    """What a server sets for a player it cannot identify: rounds played are not kept."""
    return {PLAYER_ENV: "", PLAYER_NAME_ENV: GUEST}
