"""A command's bad argument is answered with that command's usage, not the top-level one.

argparse hands whatever a command's parser leaves over to the top-level parser, which
then printed the play options' usage for `stats --csv`: nothing about `stats`.
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
    ("args", "usage", "error"),
    [
        (["stats", "--csv"], "usage: tui-tictactoe stats [-h] [--json]", "--csv"),
        (["stats", "--json", "extra"], "usage: tui-tictactoe stats [-h] [--json]", "extra"),
        (["stats", "--json=yes"], "usage: tui-tictactoe stats [-h] [--json]", "--json"),
        (["analyse", "X.O.X...O", "--csv"], "usage: tui-tictactoe analyse [-h]", "--csv"),
        (["analyse", "X.O.X...O", "X"], "usage: tui-tictactoe analyse [-h]", "X"),
        (["play", "--csv"], "usage: tui-tictactoe play [-h]", "--csv"),
    ],
)
def test_a_commands_bad_argument_shows_the_commands_usage(
    capsys: pytest.CaptureFixture[str], args: list[str], usage: str, error: str
) -> None:
    err = refusal(capsys, *args)
    assert err.startswith(usage), err
    assert TOP_LEVEL_USAGE not in err
    (error_line,) = [line for line in err.splitlines() if "error:" in line]
    assert error_line.startswith(f"tui-tictactoe {args[0]}: error: ")
    assert error in error_line


def test_a_top_level_bad_option_still_shows_the_top_level_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for args in (["--csv"], ["--csv", "stats"]):
        err = refusal(capsys, *args)
        assert err.startswith(TOP_LEVEL_USAGE), err
        assert err.splitlines()[-1] == "tui-tictactoe: error: unrecognized arguments: --csv"


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
    assert done.stderr == (
        "usage: tui-tictactoe stats [-h] [--json] [--player KEY_OR_NAME]\n"
        "tui-tictactoe stats: error: unrecognized arguments: --csv\n"
    )
