"""The game's start-up reads a plain play line with the play options alone (`cli.parse`);
whatever the line, the answer must be the whole parser's: the same options, or the same
message and exit status."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe import cli

WORDS = [
    "--symbol", "X", "O", "x", "--first", "human", "ai", "--difficulty", "easy", "hard",
    "--board", "3", "4", "5", "7", "--seed", "1", "-3", "abc", "--alternate", "--no-alternate",
    "--no-record", "--opponent", "--opp=human", "robot", "--version", "--vers", "--sym", "--diff=hard", "--he", "-h", "--help",
    "play", "stats", "analyse", "analyze", "serve-ssh", "serve-web", "--json", "X.O.X...O",
    "--port", "2222", "foo", "", "--", "-",
]  # fmt: skip


def outcome(read: Callable[[list[str]], object], words: list[str]) -> tuple[object, ...]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = read(words)
        except SystemExit as end:
            return ("exit", end.code, out.getvalue(), err.getvalue())
    return ("args", sorted(vars(args).items(), key=str))


def whole(words: list[str]) -> object:
    return cli.build_parser().parse_args(words)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_the_quick_parse_answers_as_the_whole_parser(words: list[str]) -> None:
    assert outcome(cli.parse, words) == outcome(whole, words)


def test_every_command_of_the_whole_parser_is_known_to_the_quick_one() -> None:
    usage = cli.build_parser().format_help()
    for name in cli.COMMANDS:
        assert name in usage
    # And a plain play line does not build the whole parser at all.
    built: list[bool] = []
    real = cli.build_parser
    try:

        def build_parser() -> cli.WholeParser:
            built.append(True)
            return real()

        cli.build_parser = build_parser
        assert cli.parse(["--symbol", "O", "--board", "4"]).board == "4"
        assert not built
        cli.parse(["stats"])
        assert built
    finally:
        cli.build_parser = real
