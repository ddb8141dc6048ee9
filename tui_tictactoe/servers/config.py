"""`--config FILE`: every option of `serve-ssh` and `serve-web` from a TOML file, the command
line over it; `--print-config`: the settings in force, as a file `--config` reads back.

A key is an option's long name without its dashes (`max-sessions = 32`, `no-rooms = true`);
a value goes through the option's own checks, so a file can set nothing the command line
could not. The file is read with the standard library's `tomllib`, bounded in size first.
Imported only when a server command names one of the two options.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

CONFIG_LIMIT = 64 * 1024
"""Bytes of a configuration file, at most (a full one is ~1 KB)."""

NOT_SETTINGS = ("help", "config", "print-config")


class ConfigError(Exception):
    """A file that cannot be used: one line, said before anything starts."""


def add_config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="read these options from a TOML file (max-sessions = 32, no-rooms = true, ...); "
        "the command line wins over it",
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help="print the settings in force (from the file, the command line and the "
        "defaults) as a file --config reads, and exit",
    )


def settings(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The options a file may set, by key (the long option name without its dashes)."""
    found = {}
    for action in parser._actions:  # argparse has no public list of a parser's options
        longs = [name for name in action.option_strings if name.startswith("--")]
        if longs and longs[0][2:] not in NOT_SETTINGS:
            found[longs[0][2:]] = action
    return found


def _is_flag(action: argparse.Action) -> bool:
    return action.nargs == 0 and isinstance(action.const, bool)


def read_config(path: str, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """The file's settings as `parser` defaults (option dest -> value), each checked by the
    option's own type; ConfigError says what is wrong with which key."""
    data = _load(Path(path))
    known = settings(parser)
    defaults: dict[str, Any] = {}
    for key, value in data.items():
        action = known.get(key)
        if action is None:
            raise ConfigError(f"{path}: unknown setting {key[:40]!r}")
        defaults[action.dest] = _value(path, key, action, value)
    return defaults


def _load(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            raw = file.read(CONFIG_LIMIT + 1)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror or error})") from None
    if len(raw) > CONFIG_LIMIT:
        raise ConfigError(f"{path}: larger than {CONFIG_LIMIT // 1024} KiB")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not TOML: {error}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise ConfigError(f"{path}: nested too deep (arrays or tables in one another)") from None


def _value(path: str, key: str, action: argparse.Action, value: object) -> object:
    """`value` as the option would have it from the command line."""
    where = f"{path}: {key}"
    if _is_flag(action):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: must be true or false")
        return action.const if value else action.default
    if isinstance(value, bool | dict):
        raise ConfigError(f"{where}: must be a value as on the command line")
    if isinstance(value, list):
        if any(isinstance(each, list | dict) for each in value):
            raise ConfigError(f"{where}: must be a value as on the command line")
        text = ",".join(str(each) for each in value)  # --proxy-protocol-from's networks
    else:
        text = str(value)
    if "\x00" in text:  # TOML's "\u0000": no command line can hold one, nor can a socket's host
        raise ConfigError(f"{where}: holds a NUL character")
    if action.type is None:
        converted: object = text
    else:
        try:
            converted = action.type(text)  # type: ignore[operator]  # argparse's type= is any callable
        except (argparse.ArgumentTypeError, ValueError) as error:
            raise ConfigError(f"{where}: {error}") from None
    if action.choices is not None and converted not in action.choices:
        raise ConfigError(f"{where}: must be one of {', '.join(map(str, action.choices))}")
    return converted


def render_config(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """The settings in force, one `key = value` a line (an unset one as a comment), in the
    form `--config` reads back. A database URL's password is not shown."""
    from tui_tictactoe.servers.database import shown_url

    lines = []
    for key, action in settings(parser).items():
        value = getattr(args, action.dest, None)
        if _is_flag(action):
            lines.append(f"{key} = {str(value == action.const).lower()}")
        elif value is None or value == ():
            lines.append(f"# {key} = (not set)")
        else:
            if key.startswith("database") and key.endswith("url"):
                value = shown_url(str(value))
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return repr(value)
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], int | None)
    ):
        host, port = value  # --public-address
        host = f"[{host}]" if ":" in host else host
        return json.dumps(host if port is None else f"{host}:{port}")
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(str(each)) for each in value) + "]"
    return json.dumps(str(value))
