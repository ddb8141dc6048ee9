"""The game's options on a command line, and argparse with bounded messages.

Shared by the command line (`tui-tictactoe [play] ...`) and `serve-ssh`, which reads a
client's exec request with the same options: what a client typed reaches the game only
as values these parsers accepted.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, MutableMapping
from typing import TYPE_CHECKING, NoReturn

from tui_tictactoe.options import CHOICES

if TYPE_CHECKING:
    from tui_tictactoe.engine.board import Symbol
    from tui_tictactoe.rooms.request import RoomRequest

PROG = "tui-tictactoe"

ECHO_LIMIT = 20  # characters of a user's value that an error message quotes
MESSAGE_LIMIT = 145  # characters of any argparse error message (its long words cut first):
# with the program, "error: " and ": see --help" a line stays within 190
WORD_LIMIT = 40  # characters of one word of an argparse error message


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted for an error message: repr (control characters escaped), and at
    most `limit` characters of it, the cut marked with an ellipsis."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 1]) + "…"


SEE_HELP = "see --help"
"""How every argparse error ends: the usage is not printed before it (it hid the error
under a dozen lines, and over SSH it was never shown), `--help` says the rest."""


class BoundedParser(argparse.ArgumentParser):
    """argparse with bounded, one-line error messages: "tui-tictactoe: error: argument
    --board: invalid choice: '9' (choose from 3, 4, 5, 6): see --help", and no usage
    before it, locally as over SSH (exit status 2, as argparse's).

    The options' own type functions already quote at most `ECHO_LIMIT` characters
    of a bad value; this catches argparse's other messages that echo what was
    typed (unrecognized arguments, an unknown command, `--opt=value` on a flag,
    ambiguous abbreviations), which would otherwise print a 5,000-character
    argument whole, or a raw newline or escape sequence.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_bounded(message)}: {SEE_HELP}\n")


def _bounded(message: str) -> str:
    # Non-printable characters (newlines, ESC...) are shown as escapes, long words
    # are cut, and so is the whole.
    message = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in message
    )
    message = re.sub(
        rf"\S{{{WORD_LIMIT + 1},}}", lambda match: match.group()[: WORD_LIMIT - 1] + "…", message
    )
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 1] + "…"
    return message


def _choice(option: str, *, fold_case: bool = False) -> Callable[[str], str]:
    """A `type=` for a choice from CHOICES[option]: quotes at most ECHO_LIMIT
    characters of a bad value (argparse's own `choices=` quotes all of it)."""
    allowed = CHOICES[option]

    def parse(text: str) -> str:
        value = text.upper() if fold_case else text
        if value not in allowed:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {echo(text)} (choose from {', '.join(allowed)})"
            )
        return value

    parse.__name__ = option  # argparse names the type in some messages
    return parse


def metavar(option: str) -> str:
    return "{" + ",".join(CHOICES[option]) + "}"


symbol = _choice("symbol", fold_case=True)

SEED_DIGITS = 40  # 2**128 has 39 digits: enough for any seed anyone types


def _seed(text: str) -> int:
    """`--seed`: a whole number in ASCII digits, optionally signed, at most SEED_DIGITS long."""
    if not re.fullmatch(rf"[+-]?[0-9]{{1,{SEED_DIGITS}}}", text):
        raise argparse.ArgumentTypeError(
            f"must be a whole number of at most {SEED_DIGITS} digits, not {echo(text)}"
        )
    return int(text)


STRATEGY_LIMIT = 1024  # characters of a --strategy value (a path and a class name)
MOVE_SECONDS_LIMIT = 3600.0  # --move-seconds at most: an hour


def _strategy(text: str) -> str:
    """`--strategy` on this machine's own command line: loaded later (`strategy_loading`)."""
    if not text or len(text) > STRATEGY_LIMIT or not text.isprintable():
        raise argparse.ArgumentTypeError(f"not FILE.py:CLASS, MODULE:CLASS or a name: {echo(text)}")
    return text


NOT_HOSTED = {"strategy": "runs Python code: only this machine's own command line names one"}
"""Play options every parser but the local command line's refuses, whatever their value
(`add_strategy_options`): they never reach a hosted game."""


def _no_strategy(text: str) -> str:
    """`--strategy` anywhere a server reads play options: refused, never loaded."""
    raise argparse.ArgumentTypeError(
        "runs Python code, so it is only for the command line of your own machine, "
        "never a hosted game's"
    )


def move_seconds(text: str) -> float:
    """`--move-seconds`: a number of seconds above 0, at most `MOVE_SECONDS_LIMIT`."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= MOVE_SECONDS_LIMIT:  # NaN fails this too
        raise argparse.ArgumentTypeError(
            f"must be seconds above 0 and at most {MOVE_SECONDS_LIMIT:g}, not {echo(text)}"
        )
    return value


def add_strategy_options(
    parser: argparse.ArgumentParser, defaults: bool, local: bool, move_default: float = 2.0
) -> None:
    """`--strategy` and `--move-seconds`. Only with `local` (the command line of the person
    at this machine, `cli`) is a strategy accepted; every other parser that reads play
    options (serve-ssh's exec requests, a hosted game's own start) refuses it, so no code a
    client names is ever loaded."""
    group = parser.add_argument_group("your own AI")
    if not local:
        group.add_argument(
            "--strategy", type=_no_strategy, default=argparse.SUPPRESS, help=argparse.SUPPRESS
        )
        return
    group.add_argument(
        "--strategy",
        type=_strategy,
        metavar="FILE.py:CLASS",
        default=None if defaults else argparse.SUPPRESS,
        help="play against your own MoveStrategy: FILE.py:CLASS, MODULE:CLASS or an installed "
        "one (tui-tictactoe grade --list); made with no arguments (docs/ai.md)",
    )
    group.add_argument(
        "--move-seconds",
        type=move_seconds,
        metavar="S",
        default=move_default if defaults else argparse.SUPPRESS,
        help=f"with --strategy: its time per move (default {move_default:g})",
    )


def add_play_options(
    parser: argparse.ArgumentParser, defaults: bool, *, local: bool = False
) -> None:
    """The game's options; `local` only for this machine's own command line (`cli`),
    which alone may name a strategy (`add_strategy_options`)."""

    # The `play` subcommand repeats the top-level options; SUPPRESS keeps its
    # defaults from overwriting values given before the word `play`. The game
    # options default to None, "not given": the player's saved settings apply,
    # then the game's defaults; a flag given wins for that run.
    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    group = parser.add_argument_group("game options")
    group.add_argument(
        "--symbol",
        type=symbol,
        metavar=metavar("symbol"),
        default=default(None),
        help="your symbol: X or O (default: your last choice, else X)",
    )
    group.add_argument(
        "--first",
        type=_choice("first"),
        metavar=metavar("first"),
        default=default(None),
        help="who moves first in the first round (default: your last choice, else human)",
    )
    group.add_argument(
        "--difficulty",
        type=_choice("difficulty"),
        metavar=metavar("difficulty"),
        default=default(None),
        help="easy looks 1 move ahead, medium 2, hard plays perfectly "
        "(default: your last choice, else hard)",
    )
    group.add_argument(
        "--board",
        type=_choice("board"),
        metavar=metavar("board"),
        default=default(None),
        help="board size: 3 (3x3, three in a row), 4 or 5 (4x4, 5x5, four in a row), 6 "
        "(6x6, five in a row; the AI searches a second, it cannot solve it) "
        "(default: your last choice, else 3)",
    )
    group.add_argument(
        "--opponent",
        type=_choice("opponent"),
        metavar=metavar("opponent"),
        default=default(None),
        help="who plays the other seat: ai, or human for two people taking turns at one "
        "keyboard (default: ai)",
    )
    group.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        default=default(None),
        help="seed the AI's random choice between equally good moves, for repeatable games",
    )
    group.add_argument(
        "--alternate",
        action=argparse.BooleanOptionalAction,
        default=default(None),
        help="alternate who starts each round, or not (default: your last choice, else not)",
    )
    group.add_argument(
        "--plain",
        action="store_true",
        default=default(False),
        help="play line by line on standard input and output: no full screen, no colours "
        "(for screen readers, any terminal, ssh without -t, scripts)",
    )
    group.add_argument(
        "--no-record",
        dest="record",
        action="store_false",
        default=default(True),
        help="play without reading or writing your record and settings",
    )
    add_strategy_options(parser, defaults, local)
    add_room_options(parser, defaults)


# -- rooms: `--room new`, `--join CODE [--seat TOKEN]`, `--watch CODE` ------------------
# Each value is checked as it is parsed: a code by `rooms.codes.normalise` (which reads at
# most 32 characters), a seat token as at most `TOKEN_LIMIT` URL-safe characters. Rooms are
# played over serve-ssh; a game with no hub to reach says how (`NO_HUB`) and exits with 2.

NO_HUB = "Rooms are played over serve-ssh: ssh -t -p 2222 HOST -- --room new"
SEAT_ENV = "TUI_TICTACTOE_ROOM_SEAT"
"""Set by serve-ssh for a game joined with `--seat`: the token, which is a secret, kept off
the game's command line (any local user's `ps` shows that; a process's environment only its
own user can read)."""
TOKEN_LIMIT = 32
"""A seat token is 16 letters and digits (`rooms.codes.new_token`); longer is not one. The
parser still takes "-" and "_" (older tokens had them)."""


def _code(text: str) -> str:
    from tui_tictactoe.rooms import codes  # only a line with a room option pays for it
    from tui_tictactoe.rooms.view import Refused

    try:
        return codes.normalise(text)
    except Refused as refusal:
        raise argparse.ArgumentTypeError(refusal.reason) from None


def _token(text: str) -> str:
    if not re.fullmatch(rf"[A-Za-z0-9_-]{{1,{TOKEN_LIMIT}}}", text):
        raise argparse.ArgumentTypeError(f"not a seat token: {echo(text)}")
    return text


def seat_from_environment(environ: MutableMapping[str, str] | None = None) -> str | None:
    """The seat token serve-ssh handed this game in `SEAT_ENV` (taken out of the
    environment, so that nothing the game starts inherits it); None without a valid one."""
    value = (os.environ if environ is None else environ).pop(SEAT_ENV, "")
    try:
        return _token(value) if value else None
    except argparse.ArgumentTypeError:
        return None


def _new(text: str) -> str:
    if text != "new":
        raise argparse.ArgumentTypeError(f"invalid choice: {echo(text)} (choose from new)")
    return text


def add_room_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """`--room`, `--join`, `--seat`, `--watch` (at most one of `--room`, `--join`, `--watch`)."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    group = parser.add_argument_group("rooms (over serve-ssh)")
    one = group.add_mutually_exclusive_group()
    one.add_argument(
        "--room", type=_new, metavar="new", default=default(None), help="open a new room"
    )
    one.add_argument(
        "--join",
        type=_code,
        metavar="CODE",
        default=default(None),
        help="take the free seat of room CODE (or your own seat back)",
    )
    one.add_argument(
        "--watch", type=_code, metavar="CODE", default=default(None), help="watch room CODE"
    )
    one.add_argument(
        "--match",
        action="store_const",
        const=True,
        default=default(None),
        help="play someone: wait for the next player on this board (--board)",
    )
    group.add_argument(
        "--public",
        action="store_const",
        const=True,
        default=default(None),
        help="with --room new: list the room in the lobby (default: private, its code "
        "shown only to the people in it)",
    )
    group.add_argument(
        "--seat",
        type=_token,
        metavar="TOKEN",
        default=default(None),
        help="with --join: the seat token a guest was shown, to get their seat back",
    )


GAME_ONLY = ("opponent", "symbol", "difficulty", "seed", "alternate")
"""Options of a game on this terminal (against the AI, or hot seat): with a room option
they are refused, and any of them (or `--board`, `--first`) without one skips the
lobby (`plays_the_ai`)."""


def room_request(args: argparse.Namespace, size: int = 3) -> RoomRequest | None:
    """The room the options ask for; None without a room option. `--seat` without
    `--join`, `--board` or `--first` without `--room new`, and an option of games
    against the AI with a room option are errors (ValueError with a one-line reason).
    `--match`: a quick match on `--board`. `--first human` (the default): the creator, who sits in X, starts; `--first ai`:
    the friend, in O, starts."""
    room, join, watch = (getattr(args, name, None) for name in ("room", "join", "watch"))
    match = bool(getattr(args, "match", None))
    token = getattr(args, "seat", None)
    public = bool(getattr(args, "public", None))
    _check_with_room(args, room, join)
    if room is None and join is None and watch is None and not match:
        return None  # the plain game: start-up pays for no part of the rooms
    given = [name for name in GAME_ONLY if getattr(args, name, None) is not None]
    if given:
        raise ValueError(f"--{given[0]} is not for rooms (a room takes --board and --first)")
    _check_board_and_first(args, room, match)
    from tui_tictactoe.rooms.request import RoomRequest

    if match:
        return RoomRequest("match", size=size)
    if room is not None:
        first: Symbol = "O" if getattr(args, "first", None) == "ai" else "X"
        return RoomRequest("new", size=size, first=first, public=public)
    if join is not None:
        return RoomRequest("join", join, token or "")
    return RoomRequest("watch", watch or "")


def _check_with_room(args: argparse.Namespace, room: object, join: object) -> None:
    """`--seat` and `--public` go with one room option only: ValueError with the reason."""
    if getattr(args, "seat", None) is not None and join is None:
        raise ValueError("--seat goes with --join CODE")
    if getattr(args, "public", None) and room is None:
        raise ValueError("--public goes with --room new")


def _check_board_and_first(args: argparse.Namespace, room: object, match: bool) -> None:
    """`--board` goes with `--room new` or `--match`, `--first` with `--room new` only."""
    first = getattr(args, "first", None)
    if match and first:
        raise ValueError("--first goes with --room new (a quick match's X is the lower rating)")
    if room is None and not match and (getattr(args, "board", None) or first):
        raise ValueError("--board and --first go with --room new (the creator chooses)")


def plays_the_ai(args: argparse.Namespace) -> bool:
    """A game option but no room option: straight to the game (against the AI, or hot
    seat), as before rooms (serve-ssh shows the lobby only to a session without one)."""
    return any(getattr(args, name, None) is not None for name in (*GAME_ONLY, "board", "first"))
