"""`rooms.limits.RoomLimits` is the one declaration of the hubs' limits: `serve-ssh`'s
(and `serve-web`'s) options, their defaults, their help and `--print-config` are made from it, and what the
command line says reaches the server's settings whole. Both servers share one set of
capacity options. Nothing here names a limit: the fields are read from the dataclass."""

from __future__ import annotations

import argparse
from dataclasses import fields

import pytest

from tui_tictactoe.cli import build_parser
from tui_tictactoe.rooms.limits import DEFAULTS, Option, RoomLimits, options
from tui_tictactoe.servers.config import render_config
from tui_tictactoe.servers.room_service import room_limits
from tui_tictactoe.servers.ssh.main import settings_from

LIMITS = options()


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:  # argparse lists its subcommands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise AssertionError("no subcommands")


def _option(parser: argparse.ArgumentParser, dest: str) -> argparse.Action:
    return next(action for action in parser._actions if action.dest == dest)


def _other_value(option: Option, default: object) -> str:
    """A value the option takes that is not its default."""
    if option.kind == "seconds":
        return "1.5"
    return str(option.high if default != option.high else option.low)


def test_some_limits_are_options_and_every_option_is_a_field() -> None:
    assert LIMITS and set(LIMITS) <= {each.name for each in fields(RoomLimits)}


@pytest.mark.parametrize("name", LIMITS)
def test_a_limit_option_reads_its_default_and_help_from_the_field(name: str) -> None:
    default = LIMITS[name][1]
    action = _option(_subparser("serve-ssh"), name)
    assert action.option_strings == ["--" + name.replace("_", "-")]
    assert action.default == default == getattr(DEFAULTS, name)
    assert action.help is not None and "{" not in action.help
    if isinstance(default, float | int):
        assert f"default {default:g}" in action.help


@pytest.mark.parametrize("name", LIMITS)
def test_a_limit_given_reaches_the_server_settings(name: str) -> None:
    option, default = LIMITS[name]
    value = _other_value(option, default)
    args = build_parser().parse_args(["serve-ssh", "--" + name.replace("_", "-"), value])
    limits = settings_from(args).room_limits
    assert getattr(limits, name) == type(getattr(limits, name))(value)
    others = {each.name for each in fields(RoomLimits)} - {name, "max_rooms"}
    assert all(getattr(limits, other) == getattr(DEFAULTS, other) for other in others)


def test_print_config_shows_every_limit_option_at_its_default() -> None:
    parser = _subparser("serve-ssh")
    shown = render_config(parser.parse_args([]), parser).splitlines()
    for name, (_, default) in LIMITS.items():
        key = name.replace("_", "-")
        expected = f"# {key} = (not set)" if default is None else f"{key} = {default!r}"
        assert expected in shown


def test_both_servers_share_their_capacity_options() -> None:
    """The same names, defaults, types and bounds on serve-ssh and serve-web (only the
    help's words for who the clients are differ)."""
    ssh, web = _subparser("serve-ssh"), _subparser("serve-web")
    for dest in ("max_sessions", "max_per_address", "idle_timeout"):
        a, b = _option(ssh, dest), _option(web, dest)
        assert (a.option_strings, a.default, a.metavar) == (b.option_strings, b.default, b.metavar)
        assert a.type is not None and b.type is not None
        for text in ("0", "1", "10000", "10001", "600.5"):
            assert _accepts(a, text) == _accepts(b, text), (dest, text)


def _accepts(action: argparse.Action, text: str) -> object:
    try:
        return action.type(text)  # type: ignore[misc,operator]  # argparse's type= is any callable
    except (argparse.ArgumentTypeError, ValueError):
        return None


@pytest.mark.parametrize("name", LIMITS)
def test_serve_web_takes_every_limit_option_of_serve_ssh(name: str) -> None:
    """One declaration for both servers' rooms: serve-web's option is serve-ssh's (name,
    default, help), and what it is given reaches its hub's limits whole."""
    a, b = _option(_subparser("serve-ssh"), name), _option(_subparser("serve-web"), name)
    assert (a.option_strings, a.default, a.metavar, a.help) == (
        b.option_strings,
        b.default,
        b.metavar,
        b.help,
    )
    option, default = LIMITS[name]
    value = _other_value(option, default)
    args = build_parser().parse_args(["serve-web", "--" + name.replace("_", "-"), value])
    limits = room_limits(args)
    assert getattr(limits, name) == type(getattr(limits, name))(value)
    assert room_limits(build_parser().parse_args(["serve-web"])).max_rooms == 16  # --max-sessions
