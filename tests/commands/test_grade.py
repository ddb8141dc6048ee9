"""`tui-tictactoe grade` and `--strategy`: a learner's MoveStrategy graded by the exact solver,
and played against.

The strategies are real files in `strategies/` (loaded by path, as a learner names theirs):
a perfect one, the first empty cell, a slow winner, one that raises, one that hangs, one
that plays a taken cell. The exhaustive counts are checked against an independent walk over
9-character strings (`reference.py`), which knows nothing of the engine. The hang and the
games run in real subprocesses: a hung strategy's thread cannot be stopped, so it must die
with its process, and the process must still end.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from plain_tools import PROMPT, on_pipe
from pty_terminal import command
from reference import EMPTY_BOARD, empties, has_line, move_value, opponent, play
from support import SIZE, board, make_app, press, status

from tui_tictactoe.cli import main, parse
from tui_tictactoe.commands import play as play_command
from tui_tictactoe.servers.games.command import OptionsError, parse_play_options

HERE = Path(__file__).parent / "strategies"
PERFECT = f"{HERE / 'perfect.py'}:Perfect"
FIRST_EMPTY = f"{HERE / 'first_empty.py'}:FirstEmpty"
FAULTY = HERE / "faulty.py"
TIMEOUT = 120
SEATS = (("X", "X"), ("X", "O"), ("O", "O"), ("O", "X"))


def grade_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["grade", *args, "--json"])
    out, err = capsys.readouterr()
    assert err == ""
    return code, json.loads(out)


def finding(report: dict[str, Any], name: str) -> dict[str, Any]:
    value = report[name]
    assert isinstance(value, dict)
    return value


def first_of(report: dict[str, Any], name: str) -> dict[str, Any]:
    first = finding(report, name)["first"]
    assert isinstance(first, dict)
    return first


def fault(report: dict[str, Any], kind: str) -> dict[str, Any]:
    faults = finding(report, "faults")
    value = faults[kind]
    assert isinstance(value, dict)
    return value


def walk(choose: Callable[[str, str], int]) -> dict[str, int]:
    """Games, wins, draws and losses of a strategy (`choose(board, symbol)` -> index)
    against every opponent sequence, in the four seats: the reference's own count."""
    tally = {"games": 0, "wins": 0, "draws": 0, "losses": 0}

    def go(board: str, mover: str, mine: str) -> None:
        if has_line(board, mine):
            tally["games"] += 1
            tally["wins"] += 1
        elif has_line(board, opponent(mine)):
            tally["games"] += 1
            tally["losses"] += 1
        elif not empties(board):
            tally["games"] += 1
            tally["draws"] += 1
        else:
            moves = [choose(board, mover)] if mover == mine else empties(board)
            for cell in moves:
                go(play(board, cell, mover), opponent(mover), mine)

    for first, mine in SEATS:
        go(EMPTY_BOARD, first, mine)
    return tally


def test_a_perfect_strategy_never_loses_nor_throws_a_win_away(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = grade_json(capsys, PERFECT)
    assert code == 0
    assert report["mode"] == "exhaustive" and report["board"] == 3
    assert finding(report, "losses")["count"] == 0
    assert finding(report, "thrown_draws")["count"] == 0
    assert finding(report, "slow_wins")["count"] == 0
    assert report["passed"] is True
    assert {kind: fault(report, kind)["count"] for kind in finding(report, "faults")} == {
        "illegal": 0,
        "raised": 0,
        "timeout": 0,
        "hung": 0,
    }
    assert report["wins"] + report["draws"] == report["games"]
    assert isinstance(report["games"], int) and report["games"] > 1000
    costs = finding(report, "costs")
    strategy = costs["strategy"]
    assert isinstance(strategy, dict) and isinstance(strategy["nodes_per_move"], float)
    plain = costs["plain_minimax"]
    assert isinstance(plain, dict) and plain["nodes_per_move"] is not None
    engine = costs["engine"]
    assert isinstance(engine, dict) and engine["seconds_per_move"] is not None


def test_the_first_empty_cell_loses_and_its_first_losing_line_is_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = grade_json(capsys, FIRST_EMPTY)
    assert code == 1 and report["passed"] is False
    expected = walk(lambda board, mover: empties(board)[0])
    assert {key: report[key] for key in ("games", "wins", "draws")} == {
        key: expected[key] for key in ("games", "wins", "draws")
    }
    assert finding(report, "losses")["count"] == expected["losses"] > 0
    loss = first_of(report, "losses")
    # The depth-first order's first loss: X first, the strategy X; replayed, O has a line.
    assert loss["moves"] == [1, 2, 3, 5, 4, 7, 6, 8] and loss["strategy"] == "X"
    board, mover = EMPTY_BOARD, "X"
    for cell in loss["moves"]:
        if mover == "X":
            assert cell - 1 == empties(board)[0], "the strategy's moves are the first empty cells"
        board, mover = play(board, cell - 1, mover), opponent(mover)
    assert has_line(board, "O") and board == loss["board"]
    assert finding(report, "thrown_draws")["count"] > 0
    thrown = first_of(report, "thrown_draws")
    assert thrown["before"].startswith("win") and thrown["after"] == "draw"


def test_the_text_report_names_the_first_loss_as_a_line_and_a_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["grade", FIRST_EMPTY]) == 1
    out = capsys.readouterr().out
    assert "after X 1, O 2, X 3, O 5, X 4, O 7, X 6, O 8: O won" in out
    assert "    XOX\n    XOX\n    OO.\n" in out
    assert out.rstrip().endswith("FAILED: a loss or a fault.")


def test_a_slow_winner_is_caught_where_a_faster_win_was_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = grade_json(capsys, f"{FAULTY}:WinsSlowly")
    assert code == 0, "a slow win is no loss"
    assert finding(report, "losses")["count"] == 0
    assert finding(report, "slow_wins")["count"] > 0
    slow = first_of(report, "slow_wins")
    mine = slow["strategy"]
    assert isinstance(mine, str) and isinstance(slow["board"], str)
    played = slow["played"]
    assert isinstance(played, int)
    chosen = move_value(slow["board"], played - 1, mine)
    best = slow["best"]
    assert isinstance(best, list)
    fastest = move_value(slow["board"], best[0] - 1, mine)
    assert chosen[0] == fastest[0] == "win" and chosen[1] > fastest[1]


def test_a_strategy_that_raises_is_reported_as_a_fault_not_a_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = grade_json(capsys, f"{FAULTY}:Raises")
    assert code == 1
    raised = fault(report, "raised")
    assert raised["count"] == report["games"] == 1 + 9 + 1 + 9  # each seat's first own move
    first = raised["first"]
    assert isinstance(first, dict)
    assert "raised RuntimeError: my search has a bug" in str(first["message"])


def test_a_taken_cell_is_an_illegal_move_said_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = grade_json(capsys, f"{FAULTY}:PlaysTaken")
    assert code == 1
    illegal = fault(report, "illegal")
    assert isinstance(illegal["count"], int) and illegal["count"] > 0
    first = illegal["first"]
    assert isinstance(first, dict)
    assert first["moves"] == [1, 2]
    assert "returned (0, 0) (cell 1), already taken by X" in str(first["message"])


def test_a_hanging_strategy_is_abandoned_and_the_process_still_ends() -> None:
    """It never polls `cancelled`: its thread runs on, so grading stops at the first move
    over the limit and the process exits with the report."""
    done = subprocess.run(
        [*command(), "grade", f"{FAULTY}:Hangs", "--move-seconds", "0.3", "--json"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert fault(report, "timeout")["count"] == 1
    assert "ignores cancelled()" in str(report["stopped"])
    assert report["games"] == 1


def test_grade_refuses_what_it_cannot_load_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for spec, words in (
        (f"{FAULTY}:NeedsArguments", "with no arguments"),
        (f"{FAULTY}:NotAStrategy", "is not a MoveStrategy subclass"),
        (f"{FAULTY}:Missing", "has no Missing"),
        ("no_such_file.py:X", "no file"),
        ("no-such-strategy", "no strategy"),
    ):
        assert main(["grade", spec]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and words in err, err
    with pytest.raises(SystemExit) as leaving:
        main(["grade", PERFECT, "--board", "6"])
    assert leaving.value.code == 2
    assert "6x6 has no exact solver" in capsys.readouterr().err


def test_a_sampled_grade_on_4x4_is_repeatable_by_its_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runs = [grade_json(capsys, FIRST_EMPTY, "--board", "4", "--games", "4", "--seed", "7")]
    runs.append(grade_json(capsys, FIRST_EMPTY, "--board", "4", "--games", "4", "--seed", "7"))
    (code, report), (_, again) = runs
    assert report["mode"] == "sampled" and report["games"] == 4 and report["seed"] == 7
    assert finding(report, "losses") == finding(again, "losses")
    assert code == (1 if finding(report, "losses")["count"] else 0)


def test_installed_strategies_are_found_by_their_entry_point(tmp_path: Path) -> None:
    """A package's strategy, registered in `tui_tictactoe.strategies`, as pip installs it
    (a dist-info folder on the path), is listed and graded by its name."""
    (tmp_path / "learner_ai.py").write_text((HERE / "first_empty.py").read_text())
    info = tmp_path / "learner_ai-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: learner-ai\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[tui_tictactoe.strategies]\nlearner = learner_ai:FirstEmpty\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    listed = subprocess.run(
        [*command(), "grade", "--list", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert listed.returncode == 0, listed.stderr
    names = {entry["name"]: entry for entry in json.loads(listed.stdout)}
    assert names["learner"]["value"] == "learner_ai:FirstEmpty"
    assert names["learner"]["package"] == "learner-ai"
    assert {"minimax", "random"} <= set(names), "the package's own are registered too"
    graded = subprocess.run(
        [*command(), "grade", "learner", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert graded.returncode == 1, graded.stderr
    assert finding(json.loads(graded.stdout), "losses")["count"] > 0


def test_the_package_s_perfect_ai_passes_by_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = grade_json(capsys, "minimax")
    assert code == 0 and finding(report, "losses")["count"] == 0
    assert finding(report, "slow_wins")["count"] == 0


# -- --strategy in play --------------------------------------------------------------


def test_play_against_your_own_strategy_in_a_real_run() -> None:
    """--plain in a subprocess: the AI's replies are the first empty cells, so it is the
    learner's strategy that plays (the hard AI would never let 3-5-7 through)."""
    child = on_pipe("--strategy", FIRST_EMPTY, "--symbol", "X", "--first", "human")
    child.expect(PROMPT)
    for cell, reply in (("5", "1"), ("3", "2")):
        child.sendline(cell)
        child.expect(f"AI played {reply}")
        child.expect(PROMPT)
    child.sendline("7")
    child.expect(r"You win with X!")
    child.sendline("q")
    child.expect_exact(child.delimiter)  # the end of output: the game quit
    child.wait()
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("PlaysTaken", "returned (1, 1) (cell 5), already taken by X"),
        ("Raises", "raised RuntimeError: my search has a bug"),
        ("Hangs", "took longer than 0.3 s"),
    ],
)
def test_a_faulty_strategy_in_play_is_said_and_the_game_goes_on(name: str, said: str) -> None:
    child = on_pipe("--strategy", f"{FAULTY}:{name}", "--move-seconds", "0.3", "--first", "human")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect_exact(f"The AI failed: press r for a new round. (StrategyFault: {FAULTY}:{name} ")
    child.expect_exact(said)
    child.expect(PROMPT)
    child.sendline("r")
    child.expect("Round 2")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect_exact(child.delimiter)
    child.wait()
    assert child.exitstatus == 0


async def test_the_full_screen_game_plays_the_strategy_the_command_line_names() -> None:
    """App.run_test with the strategy `--strategy` loads (guarded, off the record): the
    AI's replies are the first empty cells; a taken cell is said and `r` plays on."""
    args = parse(["--strategy", FIRST_EMPTY])
    strategy = play_command.own_strategy(args, in_room=False)
    assert args.record is False, "rounds against your own AI stay out of your record"
    app = make_app(strategy=strategy, record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        assert status(app) == "AI played 1. Your turn: you play X."
        await press(pilot, "3")
        assert status(app) == "AI played 2. Your turn: you play X."
        await press(pilot, "7")
        assert status(app).startswith("You win")
    args = parse(["--strategy", f"{FAULTY}:PlaysTaken", "--move-seconds", "5"])
    app = make_app(strategy=play_command.own_strategy(args, in_room=False), record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        assert status(app).startswith("The AI failed: press r for a new round.")
        assert "already taken by X" in status(app)
        await press(pilot, "r", "1")
        assert board(app)[0] == "X"


def test_a_strategy_that_cannot_be_loaded_stops_play_with_one_line() -> None:
    done = subprocess.run(
        [*command(), "--plain", "--strategy", f"{FAULTY}:NotAStrategy"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=TIMEOUT,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a MoveStrategy subclass" in done.stderr


# -- never from a client ---------------------------------------------------------------


@pytest.fixture
def marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A strategy file that leaves a mark when it is imported, and where the mark goes."""
    mark = tmp_path / "imported"
    monkeypatch.setenv("TUI_TICTACTOE_TEST_MARK", str(mark))
    source = tmp_path / "evil.py"
    source.write_text(
        "import os, pathlib\n"
        "pathlib.Path(os.environ['TUI_TICTACTOE_TEST_MARK']).write_text('ran')\n"
        "from tui_tictactoe.engine.strategies import RandomStrategy as Evil\n"
    )
    return source


def test_a_hosted_game_s_options_cannot_carry_a_strategy(marker: Path) -> None:
    """serve-ssh reads a client's exec request with `parse_play_options`, and a hosted game
    starts at `commands.play.main`: both refuse --strategy, and never load the file."""
    with pytest.raises(OptionsError) as refused:
        parse_play_options(f"--strategy {marker}:Evil")
    assert refused.value.status == 2
    assert "--strategy" in refused.value.message and "own machine" in refused.value.message
    assert refused.value.message.count("\n") == 1
    with pytest.raises(OptionsError):
        parse_play_options(f"play --strat {marker}:Evil")  # an abbreviation too
    with pytest.raises(SystemExit) as leaving:
        play_command.main(["play", "--strategy", f"{marker}:Evil"])
    assert leaving.value.code == 2
    assert not (marker.parent / "imported").exists(), "the file was never loaded"


def test_the_local_command_line_loads_it(marker: Path) -> None:
    """The control: the same file on this machine's own command line is loaded."""
    done = subprocess.run(
        [*command(), "grade", f"{marker}:Evil", "--json"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1, done.stderr  # a random player loses somewhere
    assert (marker.parent / "imported").read_text() == "ran"


def test_the_servers_help_does_not_offer_it() -> None:
    with pytest.raises(OptionsError) as shown:
        parse_play_options("--help")
    assert shown.value.status == 0 and "--strategy" not in shown.value.message
