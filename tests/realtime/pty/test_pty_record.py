"""The record in a real terminal: the installed command in a pty, read through pyte.

A round is played to its end by keys, `s` must list it, its replay must step
through every move, and `tui-tictactoe stats --json` must report it after the
game has quit. A round left by hanging up the terminal must be kept as abandoned.
Each test's record lives in its own `tmp_path` (`TUI_TICTACTOE_DATA_DIR`).

Only text lines are read (the status line, the stats table, the replay's move
line), not the board's drawing: how cells draw their marks may change.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pty_terminal import STEP_TIMEOUT, Terminal, child_env, command

from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import DATA_DIR_ENV, DATABASE_NAME, Record
from tui_tictactoe.record.sqlite_file import BUSY_TIMEOUT

ROUND_OVER = "Press r for a new round."
YOUR_TURN = "Your turn: you play X."
AI_PLAYED = re.compile(r"AI played (\d)\.")
RESULT_WORDS = {"You win": "win", "The AI wins": "loss", "draw": "draw"}
"""How the status line says each result, and the record's word for it."""


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The game's record here, for the child processes (which inherit the environment)."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    return tmp_path


@pytest.fixture
def terminal(data_dir: Path) -> Iterator[Callable[..., Terminal]]:
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        term = Terminal(*args)
        started.append(term)
        term.wait_for_first_frame()
        term.wait_for_text(YOUR_TURN)
        return term

    yield start
    for term in started:
        term.close()


def status(term: Terminal) -> str:
    """The status line: whose turn it is, or the result."""
    for line in term.lines:
        stripped = line.strip()
        if stripped.startswith(("Your turn", "AI played", "AI is thinking")) or (
            ROUND_OVER in stripped
        ):
            return stripped
    return ""


def play_a_round(term: Terminal) -> tuple[list[int], str]:
    """Play the lowest free cell until the round ends; my keys, and the result's word."""
    taken: set[int] = set()
    mine: list[int] = []
    while ROUND_OVER not in status(term):
        key = min(set(range(1, 10)) - taken)
        taken.add(key)
        mine.append(key)
        before = status(term)
        term.send(str(key))

        def answered(before: str = before) -> bool:
            now = status(term)
            return now != before and (YOUR_TURN in now or ROUND_OVER in now)

        term.wait_until(f"the AI's reply to {key} or the result", answered, STEP_TIMEOUT)
        if found := AI_PLAYED.search(status(term)):
            taken.add(int(found.group(1)))
    said = status(term)
    result = next(word for shown, word in RESULT_WORDS.items() if shown in said)
    return mine, result


def line_with(term: Terminal, *words: str) -> list[str] | None:
    """The first screen line holding all `words` as whole tokens, split into tokens."""
    for line in term.lines:
        tokens = line.split()
        if all(word in tokens for word in words):
            return tokens
    return None


def stats_json(data_dir: Path) -> dict[str, Any]:
    """`tui-tictactoe stats --json`, as a player would run it after the game."""
    env = {**child_env(), DATA_DIR_ENV: str(data_dir)}
    done = subprocess.run(
        [*command(), "stats", "--json"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def test_a_round_played_shows_in_stats_replays_and_is_reported_after_quitting(
    terminal: Callable[..., Terminal], data_dir: Path
) -> None:
    term = terminal("--seed", "3", "--difficulty", "hard", "--symbol", "X", "--first", "human")
    mine, result = play_a_round(term)
    # I started, so I moved last unless the AI's move ended the round (it won).
    moves = 2 * len(mine) if result == "loss" else 2 * len(mine) - 1

    term.send("s")
    term.wait_until("the round in the stats", lambda: line_with(term, "hard", result), 15)
    row = line_with(term, "hard", result)
    assert row is not None
    # When, board and level, my symbol and turn (I started), result, moves (no take-back).
    assert row[row.index("hard") - 1 :] == ["3x3", "hard", "X", "1st", result, str(moves)], (
        term.text
    )
    assert "1 round kept." in term.text
    counts = {"win": "1 0 0", "loss": "0 1 0", "draw": "0 0 1"}[result]
    # The board's table: its heading, then hard (won, lost, drawn, abandoned, undo).
    assert line_with(term, "3x3", "Won", "Abandoned", "Undo") is not None, term.text
    level_row = next(tokens for tokens in map(str.split, term.lines) if tokens[:1] == ["hard"])
    assert " ".join(level_row[1:6]) == f"{counts} 0 0", term.text

    term.send("enter")
    term.wait_for_text(f"The start: {moves} moves.")
    for at in range(1, moves + 1):
        term.send("right" if at % 2 else "space")
        term.wait_for_text(f"Move {at} of {moves}:")
        if at % 2:  # my moves, in the order I played them
            assert f"you (X) played {mine[at // 2]}" in term.text, term.text
    term.send("left")
    term.wait_for_text(f"Move {moves - 1} of {moves}:")

    term.send("escape")  # back to the stats
    term.wait_until("the stats again", lambda: "Last rounds" in term.text, 15)
    term.send("escape")  # back to the game, the round still over
    term.wait_until("the game again", lambda: ROUND_OVER in status(term), 15)
    assert term.quit() == 0
    assert term.traceback() is None

    reported = stats_json(data_dir)
    assert reported["player"] == current_identity().player
    assert reported["rounds"] == 1
    for counted in (reported["by_board"]["3x3"]["hard"], reported["by_difficulty"]["hard"]):
        by_result = {"win": counted["wins"], "loss": counted["losses"], "draw": counted["draws"]}
        assert by_result == {word: int(word == result) for word in by_result}
        assert (counted["abandoned"], counted["take_backs"]) == (0, 0)
    assert reported["by_board"]["4x4"]["hard"]["wins"] == 0


def hang_up_after_a_move(held: Callable[[], object] | None = None) -> tuple[int, int]:
    """Play cell 1, wait for the AI's reply, then close the terminal as its window going
    away would (SIGHUP). `held` runs just after, while the game leaves. Returns the reply
    and the game's exit status, waited for as an event."""
    term = Terminal("--seed", "3")  # not the fixture's: this reaps the process itself
    term.wait_for_first_frame()
    term.send("1")
    term.wait_until(
        "the AI's reply", lambda: AI_PLAYED.search(status(term)) is not None, STEP_TIMEOUT
    )
    found = AI_PLAYED.search(status(term))
    assert found is not None
    pid = term.pid
    os.close(term.child.child_fd)  # the window closes, the SSH link drops: SIGHUP
    if held is not None:
        held()
    deadline = time.monotonic() + STEP_TIMEOUT
    while not (finished := os.waitpid(pid, os.WNOHANG))[0]:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"still running {STEP_TIMEOUT} s after its terminal went away")
        time.sleep(0.01)
    return int(found.group(1)), os.waitstatus_to_exitcode(finished[1])


def abandoned_rounds(data_dir: Path) -> list[tuple[str, tuple[int, ...]]]:
    with Record.open(data_dir / DATABASE_NAME) as record:
        rounds = record.recent_rounds(current_identity().player, 10)
    return [(kept.result, kept.moves) for kept in rounds]


def test_a_round_left_by_hanging_up_is_kept_abandoned(data_dir: Path) -> None:
    reply, exit_status = hang_up_after_a_move()
    assert exit_status == 129  # exited, as a hung-up game does
    assert abandoned_rounds(data_dir) == [("abandoned", (1, reply))]


def test_a_hang_up_while_another_game_holds_the_record_still_keeps_the_round(
    data_dir: Path,
) -> None:
    """Another process writing (here: holding the write lock) when the terminal goes: the
    game waits for the record as long as its busy timeout, as nobody waits on its exit.
    It used to give up after 0.3 s and lose the round: a loaded CI did (checked: fails
    with the hang-up's wait back at LEAVE_DEADLINE)."""
    with Record.open(data_dir / DATABASE_NAME):
        pass  # the record exists before the game opens it, as after a first round
    lock = sqlite3.connect(data_dir / DATABASE_NAME, isolation_level=None, timeout=STEP_TIMEOUT)

    def hold_the_write_lock() -> None:
        lock.execute("BEGIN IMMEDIATE")
        held_until = time.monotonic() + BUSY_TIMEOUT / 2  # well inside the game's wait
        while time.monotonic() < held_until:
            time.sleep(0.02)  # a game that left without saving has exited by now
        lock.execute("ROLLBACK")

    reply, exit_status = hang_up_after_a_move(hold_the_write_lock)
    lock.close()
    assert exit_status == 129
    assert abandoned_rounds(data_dir) == [("abandoned", (1, reply))]
