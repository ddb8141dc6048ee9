"""What a `serve-web` tab asks of the rooms, and the seat a guest's tab keeps.

The page's address says where a tab goes first, as serve-ssh's command line does:
nothing, the game against the AI at once (as before rooms); `?lobby`, the lobby;
`?room=new` (with `board=N`, `public=1`), `?join=CODE`, `?watch=CODE`, `?match` (with
`board=N`). The page's script copies these to its websocket's address; they are read
here as the same play options serve-ssh reads (`games.command.parse_play_options`), so
the same checks hold and the game gets the same canonical command line.

A browser guest has no key: their seat comes back by its token, which the page keeps in
its session storage, never in an address or a command line. The game says which seat it
holds in a meta message (`rooms.request.SEAT_META`), which the server checks and hands
the tab as `["seat", {"code": CODE, "token": TOKEN}]`; on a reload the page asks for
`?join=CODE&seat=1` and sends `["seat", TOKEN]` as its first message, which the game
gets in its environment (`commands.play_arguments.SEAT_ENV`), read by its shell from a
line on its input (`READ_SECRETS`), so no command line ever holds it.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from typing import NamedTuple

from tui_tictactoe.commands.play_arguments import SEAT_ENV, TOKEN_LIMIT
from tui_tictactoe.rooms.request import PLAYER_ADDRESS_ENV, SEAT_META
from tui_tictactoe.servers.games.command import OptionsError, parse_play_options, play_args
from tui_tictactoe.servers.ops.events import session_kind
from tui_tictactoe.servers.web.guard import Refusal

CLOSE_BAD_ADDRESS = 4400
"""The close code of a tab whose address asks for what this server cannot do (a bad room
code, a board that does not exist, rooms on a server without them)."""
VALUE_LIMIT = 40
"""Characters of a parameter's value read (a code is at most 32, a board 1)."""
REASON_LIMIT = 100
"""Characters of argparse's reason a refused tab reads (a close frame holds 123 bytes)."""
SEAT_WAIT = 5.0
"""Seconds the server waits for a reloaded tab's token (`?seat=1`) before starting its
game without it (the page sends it the moment its socket opens)."""
_TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_LIMIT}}}")
_CODE = re.compile(r"[A-Z0-9]{1,32}")
READ_SECRETS = (
    f"IFS=' ' read -r {PLAYER_ADDRESS_ENV} {SEAT_ENV} || exit 1; "
    f"export {PLAYER_ADDRESS_ENV} {SEAT_ENV}; "
)
"""What a room game's shell runs first: the player's address and seat token, from the one
line the server writes to the game's input before anything else (`secrets_line`)."""


class GameStart(NamedTuple):
    """What a tab's game starts with: its play arguments, whether it reaches the rooms'
    hub, whether a seat token is to come from the page first, and its kind for the metrics
    (`ops.events.SESSION_KINDS`)."""

    args: tuple[str, ...] = ("play",)
    rooms: bool = False
    token_follows: bool = False
    kind: str = "ai"


AI_GAME = GameStart()


def game_start(query: Mapping[str, str], rooms: bool) -> GameStart | Refusal:
    """The game the page's parameters ask for, or why not (a one-line refusal, closed
    with CLOSE_BAD_ADDRESS). No room parameter: the game against the AI."""
    words: list[str] = []
    for name in ("room", "join", "watch"):
        if name in query:
            words += [f"--{name}", _value(query[name])]
    if "match" in query:
        words.append("--match")
    if not words and "lobby" not in query:
        return AI_GAME  # (`board` and `public` go with a room)
    if "board" in query:
        words += ["--board", _value(query["board"])]
    if "public" in query:
        words.append("--public")
    if not rooms:
        return _refused("this server has no rooms: open the page without ?… to play the AI")
    try:
        options = parse_play_options(shlex.join(words))
    except OptionsError as error:
        return _refused(f"the page's address: {_in_page_words(error.message)}")
    follows = "seat" in query and options.join is not None
    return GameStart(tuple(play_args(options)), True, follows, session_kind(options, True))


def _value(text: str) -> str:
    """A parameter's value, cut to VALUE_LIMIT, what UTF-8 cannot hold (a lone surrogate
    from a percent-escape) made "?": argparse then says what is wrong with it."""
    return text[:VALUE_LIMIT].encode("utf-8", "replace").decode("utf-8")


def _in_page_words(message: str) -> str:
    """argparse's one line, in the page's words (`join`, not `--join`), cut on a word's
    edge to REASON_LIMIT characters."""
    lines = message.strip().splitlines()
    reason = lines[-1] if lines else "not understood"
    reason = reason.removeprefix("tui-tictactoe: error: ").removesuffix(": see --help")
    reason = reason.replace("argument ", "")
    for name in ("room", "join", "watch", "match", "board", "public", "first", "seat"):
        reason = reason.replace(f"--{name}", name)
    if len(reason) > REASON_LIMIT:
        reason = reason[:REASON_LIMIT].rsplit(" ", 1)[0] + "…"
    return reason


def _refused(reason: str) -> Refusal:
    return Refusal(400, reason, CLOSE_BAD_ADDRESS)


def seat_token(text: object) -> str:
    """The token in a page's first message (`["seat", TOKEN]`), or "" for anything else."""
    if not isinstance(text, str) or len(text) > 2 * TOKEN_LIMIT + 16:
        return ""
    try:
        message = json.loads(text)
    except ValueError:
        return ""
    if (
        isinstance(message, list)
        and len(message) == 2
        and message[0] == "seat"
        and isinstance(message[1], str)
        and _TOKEN.fullmatch(message[1])
    ):
        return message[1]
    return ""


def secrets_line(address: str, token: str) -> bytes:
    """The line the game's shell reads (`READ_SECRETS`): the address as the per-address
    rules count it, and the token ("" for none); neither holds a space or a newline."""
    shown = "".join(char for char in address if char.isprintable() and not char.isspace())
    return f"{shown[:64] or '?'} {token if _TOKEN.fullmatch(token) else ''}\n".encode()


def seat_message(meta: Mapping[str, object]) -> str | None:
    """What the tab is told of a game's `SEAT_META` message (`["seat", {code, token}]`,
    both "" when the seat is left), or None for one that is not well formed."""
    if meta.get("type") != SEAT_META:
        return None
    code, token = meta.get("code"), meta.get("token")
    if code == "" and token == "":
        return json.dumps(["seat", {"code": "", "token": ""}])
    if not (isinstance(code, str) and _CODE.fullmatch(code)):
        return None
    if not (isinstance(token, str) and _TOKEN.fullmatch(token)):
        return None
    return json.dumps(["seat", {"code": code, "token": token}])
