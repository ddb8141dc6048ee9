"""`tui-tictactoe review`: a round from the record (`--round N`) or typed moves (`--moves`),
run as the installed command in a real subprocess; its JSON, its text and its refusals."""

from __future__ import annotations

import json
import subprocess

import pytest
from pty_terminal import command

from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import FinishedRound, Record

TIMEOUT = 120


def review(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), "review", *args], capture_output=True, text=True, timeout=TIMEOUT
    )


MOVE_KEYS = {
    "number",
    "symbol",
    "cell",
    "before",
    "after",
    "proven",
    "blunder",
    "best",
    "held",
    "line",
    "best_line",
    "sentence",
}


def test_typed_moves_with_blunders_as_json() -> None:
    done = review("--moves", "1", "2", "3", "4", "5", "6", "7", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"board", "first", "moves", "blunders", "status"}
    assert (report["board"], report["first"], report["status"]) == (3, "X", "X_wins")
    assert report["blunders"] == [2, 3, 4]
    moves = report["moves"]
    assert [move["cell"] for move in moves] == [1, 2, 3, 4, 5, 6, 7]
    for move in moves:
        assert set(move) == MOVE_KEYS
        assert set(move["before"]) == set(move["after"]) == {"outcome", "plies", "shortest"}
        assert move["line"][0] == move["cell"]
        assert move["proven"] is True
    second = moves[1]
    assert second["symbol"] == "O"
    assert second["before"]["outcome"] == "draw"
    assert (second["after"]["outcome"], second["after"]["plies"]) == ("loss", 6)
    assert second["held"] == 5 and second["best_line"][0] == 5
    assert second["line"] == [2, 4, 7, 5, 6, 9]
    assert second["sentence"] == (
        "move 2 (cell 2) turned a draw into a loss in 6; cell 5 held the draw"
    )
    assert moves[0]["held"] is None and moves[0]["blunder"] is False


def test_a_round_without_blunders_as_text() -> None:
    done = review("--moves", "5", "1", "9", "3", "2", "8", "7", "4", "6")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "3x3, X first"
    assert lines[2].split() == ["move", "who", "cell", "before", "after"]
    assert len([line for line in lines if line.endswith("best")]) == 9
    assert lines[-1] == "No blunders: no move turned a win or a draw into worse."


def test_4x4_moves_and_their_blunder_with_lines() -> None:
    keys = ["2", "16", "15", "6", "3", "11", "5", "10", "4"]
    done = review("--moves", *keys, "--board", "4")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("4x4, X first\n")
    assert "Move 7 (cell 5) turned a draw into a loss in 2; cell 1 held the draw." in text
    at = text.splitlines().index(
        "Move 7 (cell 5) turned a draw into a loss in 2; cell 1 held the draw."
    )
    assert text.splitlines()[at + 1].startswith("  line: 5, ")
    assert text.splitlines()[at + 2].startswith("  held: 1")
    as_json = json.loads(review("--moves", *keys, "--board", "4", "--json").stdout)
    assert as_json["board"] == 4 and 7 in as_json["blunders"]


def kept(moves: list[int], symbol: str = "O", first: str = "ai") -> None:
    player = current_identity().player
    assert player is not None
    with Record.open() as record:
        assert record.save_round(
            player,
            FinishedRound(
                difficulty="hard", symbol=symbol, first=first, moves=moves, result="loss"
            ),
        )


def test_a_kept_round_by_number_newest_first() -> None:
    kept([1, 2, 3, 4, 5, 6, 7])  # the AI (X) started: the player's O 2 is the blunder
    kept([5, 1, 9], symbol="X", first="human")
    latest = json.loads(review("--round", "1", "--json").stdout)
    assert [move["cell"] for move in latest["moves"]] == [5, 1, 9]
    older = review("--round", "2")
    assert older.returncode == 0, older.stderr
    first_line = older.stdout.splitlines()[0]
    assert first_line.startswith("Round 2 (") and first_line.endswith(
        "3x3 hard, you O, X first, loss"
    )
    assert "Move 2 (cell 2) turned a draw into a loss in 6; cell 5 held the draw." in older.stdout


def rounds_kept() -> int:
    with Record.open() as record:
        return len(record.recent_rounds(current_identity().player, 100))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--round", "3"], "no round 3: your record holds 1 round (see `tui-tictactoe stats`)"),
        (["--round", "0"], "argument --round: must be 1 to 10,000, not '0'"),
        (["--moves", "5", "5"], "move 2: cell 5 is taken"),
        (["--moves", "1", "10"], "move 2: 10 is not a cell of 3x3 (1 to 9)"),
        (["--moves", "1", "17", "--board", "4"], "move 2: 17 is not a cell of 4x4 (1 to 16)"),
        (["--moves", "1", "4", "2", "5", "3", "9"], "move 6 (cell 9) comes after the game is over"),
        (["--moves", "x"], "argument --moves: a move is a cell number (1 top-left), not 'x'"),
        (["--round", "1", "--board", "4"], "--board and --first go with --moves"),
        ([], "one of the arguments --round --moves is required"),
        (["--moves", "1", "--board", "7"], "argument --board: invalid choice: '7'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_changing_nothing(args: list[str], said: str) -> None:
    kept([5, 1])
    done = review(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    error = done.stderr.strip()
    assert "\n" not in error and error.startswith("tui-tictactoe review: error: ")
    assert said in error
    assert rounds_kept() == 1
