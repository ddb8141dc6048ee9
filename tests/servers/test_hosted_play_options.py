"""Every play option of the parser reaches a game `serve-ssh` hosts (`play_args`), or is on
`NOT_PASSED`, which says where it goes instead. Nothing here names an option: the
options come from `options_parser`, the values to try from the options' own tables."""

from __future__ import annotations

import argparse
import random

import pytest

from tui_tictactoe import cli
from tui_tictactoe.commands.play_arguments import NOT_HOSTED, add_play_options
from tui_tictactoe.options import CHOICES
from tui_tictactoe.rooms import codes
from tui_tictactoe.servers.games import command
from tui_tictactoe.servers.games.command import (
    NOT_PASSED,
    OptionsError,
    options_parser,
    play_args,
    secret_environment,
)

CANDIDATES: tuple[str, ...] = (
    *(value for values in CHOICES.values() for value in values),
    "new",
    codes.new_code(random.Random(1)),
    "12345",
)
"""Values to try on an option that takes one: every choice of `options.CHOICES`, "new",
a room code and a number; the first its type accepts is used."""


def _given(action: argparse.Action) -> list[list[str]]:
    """Command lines that give `action` a value other than its "not given" default."""
    longs = [name for name in action.option_strings if name.startswith("--")]
    if action.nargs == 0:  # a flag, or both forms of a --x / --no-x pair
        return [[name] for name in longs]
    for value in CANDIDATES:
        try:
            if action.type is not None:
                action.type(value)  # type: ignore[operator]  # argparse's type= is any callable
        except (argparse.ArgumentTypeError, ValueError):
            continue
        return [[longs[0], value]]
    raise AssertionError(f"no value in CANDIDATES fits {longs[0]}: add one of its values")


def _options() -> list[argparse.Action]:
    return [
        action
        for action in options_parser()._actions  # argparse lists them nowhere public
        if action.option_strings and action.dest != "help"
    ]


ACTIONS = _options()


@pytest.mark.parametrize("action", ACTIONS, ids=[action.option_strings[0] for action in ACTIONS])
def test_every_play_option_reaches_a_hosted_game(action: argparse.Action) -> None:
    if action.dest in NOT_HOSTED:  # refused whatever its value: nothing to pass on
        for value in ("my_ai.py:Mine", "minimax"):
            with pytest.raises(OptionsError, match="only for the command line of your own"):
                options_parser().parse_args([action.option_strings[0], value])
        return
    for words in _given(action):
        options = options_parser().parse_args(words)
        argv = play_args(options)
        if action.dest in NOT_PASSED:
            assert words[-1] not in argv[1:]
            assert getattr(options, action.dest) in secret_environment(options).values()
            continue
        game = cli.build_parser().parse_args(argv)  # the game's own command line
        assert getattr(game, action.dest) == getattr(options, action.dest), (words, argv)


def test_nothing_given_passes_nothing() -> None:
    assert play_args(options_parser().parse_args([])) == ["play"]


def test_what_is_not_passed_is_an_option_of_the_parser() -> None:
    assert set(NOT_PASSED) <= {action.dest for action in ACTIONS}


def test_a_new_play_option_reaches_hosted_games_unwritten(monkeypatch: pytest.MonkeyPatch) -> None:
    """An option added to the play options, and nowhere else, is on the game's command line."""
    add = add_play_options  # what `command` calls, patched there below

    def with_one_more(parser: argparse.ArgumentParser, defaults: bool) -> None:
        add(parser, defaults)
        parser.add_argument("--brand-new", metavar="N", default=None)
        parser.add_argument("--brand-new-flag", action="store_true")

    monkeypatch.setattr(command, "add_play_options", with_one_more)
    options = options_parser().parse_args(["--brand-new", "7", "--brand-new-flag"])
    argv = play_args(options)
    assert argv[argv.index("--brand-new") + 1] == "7" and "--brand-new-flag" in argv
    assert options_parser().parse_args(argv[1:]) == options
