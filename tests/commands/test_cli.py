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
from tui_tictactoe.commands import play

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
    found = json.loads(result.stdout)
    # Each move's line of play and proof (the solved table's) ride along: checked here for
    # the one move that draws, in full by tests/commands/test_analyse_proof.py.
    assert found["moves"][2]["line"][:2] == [6, 4] and found["moves"][2]["proof"] == {
        "kind": "table"
    }
    found["moves"] = [
        {key: move[key] for key in ("row", "col", "outcome", "plies")} for move in found["moves"]
    ]
    assert found == {
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
    assert lines[-1].startswith("Best: cell 1 (row 1, col 1)")


@pytest.mark.parametrize(
    ("command", "board", "extra", "needle"),
    [
        ("module", "X.O/.X./.O", [], "9, 16, 25 or 36 cells"),
        ("script", "X.O.X.?.O", ["--json"], "bad character '?' at position 7"),
        ("module", "X.ß......", [], "bad character 'ß' at position 3"),
        ("script", "/////X////........", [], "misplaced '/' at position 1"),
        ("module", "XXX/...", [], "9, 16, 25 or 36 cells"),
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


def test_a_plain_play_line_imports_no_part_of_the_rooms() -> None:
    """Start-up budget: a game without a room option pays for none of the rooms' modules."""
    code = (
        "import sys\n"
        "from tui_tictactoe.cli import parse\n"
        "from tui_tictactoe.commands.play_arguments import room_request\n"
        "from tui_tictactoe.commands.play import room_hub\n"
        "args = parse(['--board', '4', '--opponent', 'human'])\n"
        "print(room_request(args, 4), room_hub(), sorted(m for m in sys.modules if '.rooms' in m))\n"
    )
    result = run([sys.executable, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "None None []"


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
    assert result.stderr.count("\n") == 1 and result.stderr.endswith(": see --help\n")


LONG = "9" * 5000


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["--seed", LONG],
            "argument --seed: must be a whole number of at most 40 digits, not '9999",
        ),
        (["--seed", "1e3"], "argument --seed: must be a whole number"),
        (["--seed", "1_000"], "argument --seed: must be a whole number"),
        (["--seed", "٣"], "argument --seed: must be a whole number"),  # not an ASCII digit
        (["--symbol", "ß" * 5000], "argument --symbol: invalid choice: 'ßßß"),
        (["--first", "x" * 5000], "argument --first: invalid choice: 'xxx"),
        (["--difficulty", "x" * 5000], "argument --difficulty: invalid choice: 'xxx"),
        (["play", "--difficulty", "x" * 5000], "argument --difficulty: invalid choice: 'xxx"),
        (["analyse", "X" * 9, "--to-move", "x" * 5000], "argument --to-move: invalid choice"),
        # argparse's own messages that quote what was typed.
        (["x" * 5000], "argument [COMMAND]: invalid choice: 'xxx"),
        (["play", "x" * 5000], "unrecognized arguments: xxx"),
        (
            ["--alternate=" + "x" * 5000],
            "argument --alternate/--no-alternate: ignored explicit argument",
        ),
        (["--s=" + "x" * 5000], "ambiguous option: --s=xxx"),
        (["play", "a\nb\x1b[2J"], "unrecognized arguments: a\\nb\\x1b[2J"),
    ],
)
def test_argparse_errors_are_one_short_line(args: list[str], needle: str) -> None:
    result = run(console_script(), *args)
    assert_one_line_error(result, needle)
    error_line = result.stderr.splitlines()[-1]
    assert error_line.startswith("tui-tictactoe")
    assert len(error_line) <= 190, error_line
    assert "\x1b" not in result.stderr
    assert result.stderr.count("\n") == 1  # no usage before it (issue 36)


@pytest.mark.parametrize("text", ["0", "7", "-7", "+7", "1" * 40])
def test_seed_accepts_whole_numbers(played: list[dict[str, object]], text: str) -> None:
    assert cli.main([f"--seed={text}"]) == 0
    assert played[-1]["seed"] == int(text)


def test_bad_values_are_quoted_short_in_process(
    played: list[dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        ["--seed", "1" * 41],
        ["--seed", "x" * 5000],
        ["--symbol", "x" * 5000],
        ["--first", "x" * 5000],
        ["--difficulty", "x" * 5000],
        ["x" * 5000],
        ["play", *["y" * 100] * 100],
    ]
    for args in cases:
        with pytest.raises(SystemExit) as exit_info:
            cli.main(args)
        assert exit_info.value.code == 2
        out, err = capsys.readouterr()
        assert out == ""
        (error_line,) = [line for line in err.splitlines() if "error:" in line]
        assert len(error_line) <= 190, error_line  # "tui-tictactoe: error: " + at most 160
        assert error_line.count("…") >= 1, error_line
    assert played == []


def test_choices_still_come_from_the_one_list(capsys: pytest.CaptureFixture[str]) -> None:
    from tui_tictactoe.controller.game_options import CHOICES

    help_text = cli.build_parser().format_help()
    for name in ("symbol", "first", "difficulty"):
        assert "{" + ",".join(CHOICES[name]) + "}" in help_text
        with pytest.raises(SystemExit):
            cli.main([f"--{name}", "nope"])
        assert f"(choose from {', '.join(CHOICES[name])})" in capsys.readouterr().err


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


def test_no_command_means_play_with_nothing_given(played: list[dict[str, object]]) -> None:
    """None is "not given": the player's saved settings, else the game's defaults, apply."""
    assert cli.main([]) == 0
    assert played == [
        {"symbol": None, "first": None, "difficulty": None, "seed": None, "alternate": None}
    ]


def test_options_before_and_after_play_both_count(played: list[dict[str, object]]) -> None:
    assert cli.main(["--seed", "7", "--symbol", "o", "play", "--difficulty", "easy"]) == 0
    assert cli.main(["play", "--first", "ai", "--alternate"]) == 0
    assert played == [
        {"symbol": "O", "first": None, "difficulty": "easy", "seed": 7, "alternate": None},
        {"symbol": None, "first": "ai", "difficulty": None, "seed": None, "alternate": True},
    ]


def test_no_alternate_turns_a_saved_alternate_off_for_the_run(
    played: list[dict[str, object]],
) -> None:
    """`--alternate` saved in the record must be undoable from the command line."""
    assert cli.main(["--no-alternate"]) == 0
    assert cli.main(["play", "--no-alternate"]) == 0
    assert cli.main(["--alternate", "play", "--no-alternate"]) == 0  # the last one wins
    assert [call["alternate"] for call in played] == [False, False, False]
    assert "--no-alternate" in cli.build_parser().format_help()


def test_no_alternate_takes_no_value() -> None:
    result = run(console_script(), "--no-alternate=" + "x" * 5000)
    assert_one_line_error(result, "argument --alternate/--no-alternate: ignored explicit argument")
    assert len(result.stderr.splitlines()[-1]) <= 190


# -- the terminal check (the real terminals are in test_cli_terminal.py) ----------


class FakeStream:
    def __init__(self, encoding: str | None) -> None:
        self.encoding = encoding


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[int]]:
    """A good terminal for `terminal_problem`, which each test then spoils one way."""
    state = {"ttys": {0, 1, 2}}
    monkeypatch.setattr(os, "isatty", lambda fd: fd in state["ttys"])
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    monkeypatch.setattr(sys, "__stderr__", FakeStream("utf-8"))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    return state


def test_a_good_terminal_has_no_problem(terminal: dict[str, set[int]]) -> None:
    assert cli.terminal_problem() is None


@pytest.mark.parametrize(
    ("ttys", "what"),
    [
        ({1, 2}, "standard input is not a terminal"),
        ({0, 2}, "standard output is not a terminal"),
        ({0, 1}, "standard error is not a terminal"),
        ({2}, "standard input and standard output are not terminals"),
        (set(), "standard input, standard output and standard error are not terminals"),
    ],
)
def test_every_standard_stream_must_be_a_terminal(
    terminal: dict[str, set[int]], ttys: set[int], what: str
) -> None:
    terminal["ttys"] = ttys
    assert cli.terminal_problem() == f"the game needs a terminal: {what} (over SSH use ssh -t)"


@pytest.mark.parametrize(
    ("term", "what"), [("dumb", "TERM is 'dumb'"), ("DUMB", "TERM is 'DUMB'"), ("", "TERM is ''")]
)
def test_a_dumb_or_missing_term_is_refused(
    terminal: dict[str, set[int]], monkeypatch: pytest.MonkeyPatch, term: str, what: str
) -> None:
    monkeypatch.setenv("TERM", term)
    problem = cli.terminal_problem()
    assert problem is not None
    assert problem.startswith(f"the game needs a full-screen terminal, but {what}: ")
    assert "tui-tictactoe --plain" in problem  # issue 36: the mode made for a dumb terminal
    monkeypatch.delenv("TERM")
    assert "TERM is not set" in (cli.terminal_problem() or "")


def test_another_textual_driver_needs_no_terminal(
    terminal: dict[str, set[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # textual-serve runs the app with pipes and TEXTUAL_DRIVER=...:WebDriver.
    terminal["ttys"] = set()
    monkeypatch.delenv("TERM")
    monkeypatch.setattr(sys, "__stderr__", FakeStream("ascii"))
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert cli.terminal_problem() is None


def test_windows_needs_no_term(
    terminal: dict[str, set[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TERM")
    monkeypatch.setattr(sys, "platform", "win32")
    assert cli.terminal_problem() is None


@pytest.mark.parametrize(
    ("encoding", "name"),
    [("ascii", "ascii"), ("ANSI_X3.4-1968", "ascii"), ("latin-1", "iso8859-1"), (None, "unknown")],
)
def test_a_stream_that_is_not_utf8_is_refused(
    terminal: dict[str, set[int]], monkeypatch: pytest.MonkeyPatch, encoding: str | None, name: str
) -> None:
    monkeypatch.setattr(sys, "__stderr__", FakeStream(encoding))
    problem = cli.terminal_problem() or ""
    assert problem.startswith(
        f"the game needs a UTF-8 terminal, but the output encoding is {name} "
    )
    assert "LANG=C.UTF-8" in problem
    monkeypatch.setenv("PYTHONIOENCODING", "ascii")
    assert "PYTHONIOENCODING is 'ascii': unset it" in (cli.terminal_problem() or "")


@pytest.mark.parametrize("encoding", ["utf-8", "UTF-8", "utf8", "U8"])
def test_utf8_in_any_spelling_is_fine(
    terminal: dict[str, set[int]], monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    monkeypatch.setattr(sys, "__stderr__", FakeStream(encoding))
    assert cli.terminal_problem() is None


def test_a_refusal_is_one_line_exit_2_and_imports_no_textual(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play, "terminal_problem", lambda: "the game needs a terminal: test")
    assert cli.main(["--seed", "3"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "tui-tictactoe: the game needs a terminal: test\n"
