"""A command's bad argument is answered by that command, not the top-level one, in one line.

argparse hands whatever a command's parser leaves over to the top-level parser, which
then printed the play options' usage for `stats --csv`: nothing about `stats`. Since
issue 36 no usage is printed before an error (it was a dozen lines above it): one line
that ends "see --help", locally as over SSH.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tui_tictactoe import cli

TOP_LEVEL_USAGE = "usage: tui-tictactoe [-h] [--version]"


def refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(args))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["stats", "--csv"], "--csv"),
        (["stats", "--json", "extra"], "extra"),
        (["stats", "--json=yes"], "--json"),
        (["analyse", "X.O.X...O", "--csv"], "--csv"),
        (["analyse", "X.O.X...O", "X"], "X"),
        (["play", "--csv"], "--csv"),
    ],
)
def test_a_commands_bad_argument_is_the_commands_one_line_error(
    capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    err = refusal(capsys, *args)
    (error_line,) = err.splitlines()
    assert error_line.startswith(f"tui-tictactoe {args[0]}: error: ")
    assert error in error_line and error_line.endswith(": see --help")


def test_a_top_level_bad_option_is_one_line_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 36: the README said "one-line errors", locally argparse printed the usage first."""
    for args in (["--csv"], ["--csv", "stats"], ["--board", "9"]):
        err = refusal(capsys, *args)
        assert TOP_LEVEL_USAGE not in err
        (line,) = err.splitlines()
        assert line.startswith("tui-tictactoe: error: ") and line.endswith(": see --help"), line
    assert refusal(capsys, "--csv") == (
        "tui-tictactoe: error: unrecognized arguments: --csv: see --help\n"
    )


def test_stats_csv_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui_tictactoe", "stats", "--csv"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "tui-tictactoe stats: error: unrecognized arguments: --csv: see --help\n"
