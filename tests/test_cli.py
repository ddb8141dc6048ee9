"""The command line as users run it: real subprocesses, exit codes, stderr, no UI import.

`python -m tui_tictactoe` and the installed `tui-tictactoe` console script are
both exercised. The verdicts themselves are checked exhaustively, in-process, in
`test_analyse.py`; here it is about the process boundary.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tui_tictactoe import __version__, cli

TIMEOUT = 60


def console_script() -> list[str]:
    """The installed `tui-tictactoe` command: next to this interpreter first, then on PATH."""
    name = "tui-tictactoe.exe" if os.name == "nt" else "tui-tictactoe"
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which("tui-tictactoe")
    if found is None:
        pytest.fail("the tui-tictactoe command is not installed: run `pip install -e .`")
    return [found]


MODULE = [sys.executable, "-m", "tui_tictactoe"]


def run(command: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CI": "true"}
    env.pop("PYTHONWARNINGS", None)
    return subprocess.run(
        [*command, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
        check=False,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(error_lines) == 1, result.stderr
    for needle in needles:
        assert needle in error_lines[0]


# -- analyse ----------------------------------------------------------------------


@pytest.mark.parametrize("command", ["module", "script"])
def test_analyse_json_from_a_real_process(command: str) -> None:
    result = run(
        MODULE if command == "module" else console_script(), "analyse", "X.O/.X./..O", "--json"
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == {
        "board": "X.O.X...O",
        "to_move": "X",
        "status": "in_progress",
        "moves": [
            {"row": 0, "col": 1, "outcome": "loss", "plies": 2},
            {"row": 1, "col": 0, "outcome": "loss", "plies": 2},
            {"row": 1, "col": 2, "outcome": "draw", "plies": 5},
            {"row": 2, "col": 0, "outcome": "loss", "plies": 2},
            {"row": 2, "col": 1, "outcome": "loss", "plies": 2},
        ],
        "best": [[1, 2]],
    }


def test_analyse_text_and_to_move_from_a_real_process() -> None:
    result = run(console_script(), "analyse", ".........", "--to-move", "o")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [". . .", ". . .", ". . ."]
    assert "O to move." in lines
    assert sum(line.endswith("best") for line in lines) == 9  # every opening move draws
    assert lines[-1].startswith("Best: 1 (row 0, col 0)")


@pytest.mark.parametrize(
    ("command", "board", "extra", "needle"),
    [
        ("module", "X.O/.X./.O", [], "9 cells"),
        ("script", "X.O.X.?.O", ["--json"], "bad cell"),
        ("module", "XXX/...", [], "9 cells"),
        ("script", "XXXX.O.O.", [], "impossible counts"),
        ("module", "XXX/OOO/...", ["--json"], "both X and O"),
        ("script", "XXX/OO./OO.", [], "after it won"),
        ("module", "XX./OO./X..", ["--to-move", "X"], "O moves"),
    ],
)
def test_invalid_board_exits_2_with_one_line_on_stderr(
    command: str, board: str, extra: list[str], needle: str
) -> None:
    result = run(MODULE if command == "module" else console_script(), "analyse", board, *extra)
    assert_one_line_error(result, needle)
    assert result.stderr.count("\n") == 1  # the whole of stderr is that one line


def test_analyse_bad_to_move_is_an_argparse_error() -> None:
    assert_one_line_error(run(MODULE, "analyse", ".........", "--to-move", "Z"), "--to-move")


def test_analyse_does_not_import_textual() -> None:
    # -X importtime lists every module the process imports, on stderr.
    result = run(
        [sys.executable, "-X", "importtime", "-m", "tui_tictactoe"], "analyse", "X.O/.X./..O"
    )
    assert result.returncode == 0
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()]
    assert "tui_tictactoe.engine.analysis" in imported  # the listing is really there
    assert not [name for name in imported if name.split(".")[0] in ("textual", "rich")]


def test_analyse_in_a_child_leaves_textual_out_of_sys_modules() -> None:
    code = (
        "import sys\n"
        "from tui_tictactoe.cli import main\n"
        "code = main(['analyse', '.........', '--json'])\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    result = run([sys.executable, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 []"


# -- play options -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--symbol", "Z"], "--symbol"),
        (["--first", "nobody"], "--first"),
        (["--difficulty", "insane"], "--difficulty"),
        (["--seed", "abc"], "--seed"),
        (["play", "--symbol", "Z"], "--symbol"),
        (["play", "--difficulty", "insane"], "--difficulty"),
        (["--no-such-flag"], "unrecognized arguments"),
    ],
)
def test_bad_play_options_are_argparse_errors(args: list[str], needle: str) -> None:
    result = run(console_script(), *args)
    assert_one_line_error(result, needle)
    assert result.stderr.startswith("usage: tui-tictactoe")


def test_help_works_and_does_not_start_the_ui() -> None:
    for command in (console_script(), MODULE):
        result = run(command, "--help")
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("usage: tui-tictactoe")
        for word in ("--symbol", "--first", "--difficulty", "--seed", "analyse", "play"):
            assert word in result.stdout
    result = run(MODULE, "analyse", "--help")
    assert result.returncode == 0
    assert "--to-move" in result.stdout and "--json" in result.stdout


def test_version() -> None:
    for command in (console_script(), MODULE):
        result = run(command, "--version")
        assert result.returncode == 0
        assert result.stdout.strip() == f"tui-tictactoe {__version__}"


# -- the parser in-process: options reach the app ---------------------------------


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Replace the UI: record the options `main` would start it with."""
    calls: list[dict[str, object]] = []

    def fake_run_play(args: object) -> int:
        calls.append(
            {
                key: getattr(args, key)
                for key in ("symbol", "first", "difficulty", "seed", "alternate")
            }
        )
        return 0

    monkeypatch.setattr(cli, "run_play", fake_run_play)
    return calls


def test_no_command_means_play_with_the_defaults(played: list[dict[str, object]]) -> None:
    assert cli.main([]) == 0
    assert played == [
        {"symbol": "X", "first": "human", "difficulty": "hard", "seed": None, "alternate": False}
    ]


def test_options_before_and_after_play_both_count(played: list[dict[str, object]]) -> None:
    assert cli.main(["--seed", "7", "--symbol", "o", "play", "--difficulty", "easy"]) == 0
    assert cli.main(["play", "--first", "ai", "--alternate"]) == 0
    assert played == [
        {"symbol": "O", "first": "human", "difficulty": "easy", "seed": 7, "alternate": False},
        {"symbol": "X", "first": "ai", "difficulty": "hard", "seed": None, "alternate": True},
    ]
