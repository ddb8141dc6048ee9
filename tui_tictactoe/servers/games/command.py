"""What a hosted session runs: the game's own command line, built from checked play options.

A client's exec request is read with the same argparse options as
`tui-tictactoe play` and turned back into a canonical argument list, so nothing
the client typed reaches the game's process except values argparse accepted,
and no shell ever sees it.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, NoReturn

from tui_tictactoe.commands.play_arguments import (
    PROG,
    SEAT_ENV,
    BoundedParser,
    add_play_options,
    room_request,
)
from tui_tictactoe.identity import NAME_LIMIT, displayable  # one rule for names, wherever shown
from tui_tictactoe.rooms.request import PLAYER_ADDRESS_ENV

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

CHILD_MODULE = "tui_tictactoe.servers.games.child"
CHILD_COMMAND = (sys.executable, "-m", CHILD_MODULE)  # a game as a fresh interpreter
COMMAND_BYTES = 1024  # an exec request's command line, at most (the longest real one is ~80)
COMMAND_WORDS = 32  # ... and its words: argparse's time grows with the square of their number

# Environment variables of the server that must not reach a game: the game's
# terminal is the client's, not the server's, and Textual's own settings
# (TEXTUAL_DRIVER would skip the terminal check) are not the client's to inherit.
_NOT_INHERITED = ("TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "TMUX", "STY")
# What a client may set through SSH env requests (OpenSSH: SendEnv / SetEnv).
CLIENT_ENVIRONMENT = ("COLORTERM", "NO_COLOR")


class OptionsError(Exception):
    """The exec request's command line is not valid play options."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _OptionsParser(BoundedParser):
    """The play options' parser, reporting instead of printing and exiting.

    `BoundedParser.error` bounds the message first; only its one-line error goes back to
    the client (not the usage), and `--help` comes back as text.
    """

    def print_usage(self, file: SupportsWrite[str] | None = None) -> None:
        """No usage before an error: the client gets one line."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        self._printed = getattr(self, "_printed", "") + message

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        text = getattr(self, "_printed", "") + (message or "")
        raise OptionsError(status, text)


def options_parser() -> argparse.ArgumentParser:
    parser = _OptionsParser(
        prog=PROG,
        description="Over SSH, the command line is the game's options: "
        "ssh -t -p PORT HOST -- --difficulty easy --symbol O",
    )
    add_play_options(parser, defaults=True)
    return parser


def parse_play_options(command: str | None) -> argparse.Namespace:
    """The play options in an exec request's command line (None for a shell request).

    Raises OptionsError: status 2 with argparse's one-line error, or status 0 with
    the help text for `--help`. A leading `tui-tictactoe` and/or `play` is allowed,
    since that is what people type after `ssh -t host` out of habit.
    """
    words = command_words(command)
    if words[:1] == [PROG]:
        words = words[1:]
    if words[:1] == ["play"]:
        words = words[1:]
    options = options_parser().parse_args(words)
    try:  # the rooms' rules between options (`--seat` with `--join`, ...), said here too
        room_request(options, int(options.board or 3))
    except ValueError as error:
        raise OptionsError(2, f"{PROG}: error: {error}\n") from None
    return options


def parse_stats_options(command: str | None) -> argparse.Namespace | None:
    """`stats [--json]` (after an optional `tui-tictactoe`): the player's own record, which
    needs no pty; None for any other command line (play options). Only `--json`: over SSH
    a player reads their own record and nobody else's. Raises OptionsError like
    `parse_play_options` (the line capped first, `--help` as text)."""
    words = command_words(command)
    if words[:1] == [PROG]:
        words = words[1:]
    if words[:1] != ["stats"]:
        return None
    parser = _OptionsParser(
        prog=f"{PROG} stats",
        description="Over SSH: your own record (the key you log in with), no pty needed: "
        "ssh -p PORT HOST -- stats --json",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(words[1:])


def command_words(command: str | None) -> list[str]:
    """The words of an exec request's command line, checked for size before anything reads it.

    The size is capped first, so that shlex and argparse only ever see a short line:
    argparse took 25 s over the ~250 KB one request can carry, with the server's
    event loop, and every other player's game, waiting. Raises OptionsError (status 2).
    """
    command = command or ""
    if len(command) > COMMAND_BYTES or len(command.encode()) > COMMAND_BYTES:
        raise OptionsError(
            2,
            f"{PROG}: error: the command line is too long "
            f"({len(command.encode()):,} bytes; at most {COMMAND_BYTES:,})\n",
        )
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise OptionsError(2, f"{PROG}: error: cannot read the command line: {error}\n") from None
    if len(words) > COMMAND_WORDS:
        raise OptionsError(
            2, f"{PROG}: error: too many words ({len(words)}; at most {COMMAND_WORDS})\n"
        )
    return words


NOT_PASSED = {"seat": "a secret: in the environment instead (`secret_environment`)"}
"""Play options a hosted game never gets on its command line (argv is every local user's
to read, `ps`), each with where it goes instead; every other option of `options_parser`
reaches the game (`play_args`)."""


def play_args(options: argparse.Namespace) -> list[str]:
    """The game's `commands.play.main` arguments: `play` and the options the client gave,
    canonical, made from the parser's own options (`options_parser`), so a new play
    option reaches hosted games with nothing written here.

    Only the options the client gave (their value is not the parser's "not given"
    default): the others come from the player's saved settings. Each value was checked
    as it was parsed (a code normalised, a token's characters) and goes back as its
    option's text; none of `NOT_PASSED` does."""
    argv = ["play"]
    for action in _passed_actions():
        value = getattr(options, action.dest, action.default)
        if value == action.default:
            continue
        if isinstance(action, argparse.BooleanOptionalAction):
            argv.append(_long(action) if value else "--no-" + _long(action)[2:])
        elif action.nargs == 0:  # a flag: store_true, store_false, store_const
            argv.append(_long(action))
        else:
            argv += [_long(action), str(value)]
    return argv


def _passed_actions() -> list[argparse.Action]:
    """The options a hosted game gets: the parser's, but help and `NOT_PASSED`."""
    return [
        action
        for action in options_parser()._actions  # argparse lists its options nowhere public
        if action.option_strings and action.dest not in ("help", *NOT_PASSED)
    ]


def _long(action: argparse.Action) -> str:
    return next(name for name in action.option_strings if name.startswith("--"))


def secret_environment(options: argparse.Namespace) -> dict[str, str]:
    """What of the client's options the game gets in its environment, not its argv: the
    seat token (`commands.play` reads it back)."""
    seat = getattr(options, "seat", None)
    return {SEAT_ENV: seat} if seat else {}


def printable(text: str, limit: int = NAME_LIMIT) -> str:
    """`text` with escape sequences, control and invisible characters dropped, cut to
    `limit` (ending in "…"); "" if nothing is left.

    User names come from the client: one with escape sequences would otherwise
    reach the game's screen and the server's log as commands to the terminal.
    """
    return displayable(text, limit, empty="")


def common_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """What every game's environment starts from (and the fork server's): the server's,
    minus terminal and Textual settings, with a UTF-8 locale."""
    env = {
        key: value
        for key, value in (os.environ if base is None else base).items()
        if key not in _NOT_INHERITED
        and not key.startswith(
            ("TEXTUAL", "LC_", "TUI_TICTACTOE_PLAYER", "TUI_TICTACTOE_ROOM", "SSH_")
        )
    }
    env["LANG"] = "C.UTF-8"  # the game needs UTF-8 output; the client's locale may not exist here
    return env


def game_environment(
    term: str,
    client: Mapping[str, str],
    player: str | None,
    player_name: str,
    base: Mapping[str, str] | None = None,
    rooms: Mapping[str, str] | None = None,
    address: str = "",
) -> dict[str, str]:
    """The game process's environment: `common_environment`, plus the client's TERM (and
    COLORTERM / NO_COLOR if sent), who plays and from which address (wrong room codes
    are limited per address), and the server's `rooms` (the hub's socket, the address
    for a friend; none: no rooms)."""
    env = common_environment(base)
    env["TERM"] = term
    for key in CLIENT_ENVIRONMENT:
        value = client.get(key)
        if value is not None and value.isprintable() and len(value) <= 64:
            env[key] = value
    env["TUI_TICTACTOE_PLAYER"] = player or ""
    env["TUI_TICTACTOE_PLAYER_NAME"] = printable(player_name)
    env[PLAYER_ADDRESS_ENV] = address
    env.update(rooms or {})
    return env
