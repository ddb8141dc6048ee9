"""Regressions of what only a real terminal showed (issue 9), each in a real pseudo-terminal.

The installed command runs in a pty (pexpect) and its screen is read through the pyte
emulator (see pty_terminal.py). Numbers refer to the findings of issue 9; 4 (no
terminal), 9 (unusual terminals) and 10 (`analyse` input) are covered at the command
line's edge in test_cli_terminal.py and test_cli.py.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pty_terminal
import pytest
from pty_terminal import STEP_TIMEOUT, Terminal

YOUR_TURN = "Your turn: you play X."
EMPTY = "........."


@pytest.fixture
def terminal() -> Iterator[Callable[..., Terminal]]:
    """`terminal(*args)`: the game in a pty, killed at the end of the test if still running."""
    started: list[Terminal] = []

    def start(*args: str, **options: object) -> Terminal:
        term = Terminal(*args, **options)  # type: ignore[arg-type]
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def marks(term: Terminal) -> str:
    """The board on screen in reading order, `.` for empty ('' if it is not drawn)."""
    board = term.visible_board()
    if board is None:
        return ""
    return "".join(board[cell] or "." for cell in sorted(board))


def close(term: Terminal) -> None:
    """Back to the game: Escape twice (one for the help over the menu, say).

    Each Escape stands alone for longer than a terminal's escape-sequence window, or
    the next key would be read with it as one Alt+key, as in any terminal.
    """
    for _ in range(2):
        term.send("escape")
        term.settle(quiet=0.25)


def no_traceback(term: Terminal) -> None:
    term.pump(0)
    assert term.traceback() is None, term.post_mortem()


# -- 1. keys typed before the first frame ----------------------------------------


@pytest.mark.parametrize("keys", ["q", "qi", "qn", "q?", "q\x10", "q5", "qr"])
def test_quit_typed_ahead_exits_cleanly(terminal, keys: str) -> None:
    term = terminal("--seed", "1")
    term.send(keys)  # before the first frame
    assert term.wait_exit(STEP_TIMEOUT) == 0, term.post_mortem()
    no_traceback(term)


def test_keys_typed_ahead_act_as_if_typed_after_the_first_frame(terminal) -> None:
    term = terminal("--seed", "1")
    term.send("i", "5")
    term.wait_until("X in the centre and the AI's reply", lambda: marks(term).count("O") == 1, 20)
    assert marks(term)[4] == "X"
    term.wait_for_text("Looks ahead")  # the info panel, asked for before the first frame
    no_traceback(term)
    assert term.quit("ctrl+q") == 0


# -- 2. a double click on a notification ------------------------------------------


def test_double_clicks_on_a_notice_are_harmless(terminal) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    term.send("ctrl+c")  # Textual's "press Ctrl+Q to quit" notice
    term.wait_until("the notice", lambda: term.find("ctrl+q") or term.find("Ctrl+Q"), 10)
    found = term.find("ctrl+q") or term.find("Ctrl+Q")
    assert found is not None
    row, col = found
    for dx in (0, 2, 4):
        term.double_click(col + 1 + dx, row + 1)
        term.settle()
    assert term.alive(), term.post_mortem()
    no_traceback(term)
    assert term.quit() == 0


# -- 3. tiny terminals ----------------------------------------------------------


@pytest.mark.parametrize(("cols", "rows"), [(1, 1), (5, 6), (30, 8)])
def test_every_screen_survives_a_tiny_terminal(terminal, cols: int, rows: int) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    for opener in ("ctrl+p", "n", "?"):
        term.resize(rows, cols)
        term.send(opener)
        term.settle()
        term.resize(max(rows - 1, 1), max(cols - 1, 1))
        term.settle()
        term.resize(24, 80)
        close(term)
        term.send(opener)
        term.settle()
        term.resize(rows, cols)
        term.settle()
        term.resize(24, 80)
        close(term)
        assert term.alive(), term.post_mortem()
    no_traceback(term)
    assert term.quit() == 0


def test_keys_do_not_play_while_the_terminal_is_too_small(terminal) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    term.resize(12, 30)
    term.wait_for_text("enlarge")
    term.send("5", "enter", "1", "r")
    term.settle()
    term.resize(24, 80)
    term.wait_until("the board again", lambda: marks(term) == EMPTY, 10)
    no_traceback(term)
    assert term.quit() == 0


# -- 4. a terminal that goes away ----------------------------------------------------


def test_the_game_exits_when_its_terminal_goes_away_even_ignoring_sighup(monkeypatch) -> None:
    installed = pty_terminal.command()
    # `trap "" HUP` ignores SIGHUP; the ignored disposition survives `exec`.
    monkeypatch.setattr(
        pty_terminal, "command", lambda: ["sh", "-c", 'trap "" HUP; exec "$@"', "sh", *installed]
    )
    term = Terminal("--seed", "1")  # not the fixture's: this test reaps the process itself
    term.wait_for_first_frame()
    term.send("5")  # and leave its output unread: a write may be blocked when it goes
    pid = term.pid
    os.close(term.child.child_fd)  # the window closes, the SSH link drops
    gone = time.monotonic()
    while time.monotonic() - gone < 3:
        finished, _ = os.waitpid(pid, os.WNOHANG)
        if finished:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("still running 3 s after its terminal went away")
    assert time.monotonic() - gone < 1.0


# -- 5. moves typed in a burst ------------------------------------------------------


def test_moves_typed_in_one_write_are_all_played(terminal) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    term.send("5", "2")  # 2 arrives while the AI answers 5
    term.wait_until(
        "both moves and both replies", lambda: marks(term).count("O") == 2 and marks(term)[1], 20
    )
    shown = marks(term)
    assert shown[4] == "X" and shown[1] in "XO"
    assert shown.count("X") == 2, term.text  # 2 was played unless the AI had taken it
    no_traceback(term)
    assert term.quit("ctrl+q") == 0


# -- 6. quitting while the AI thinks -------------------------------------------------


def test_quit_does_not_wait_for_the_ai(terminal, monkeypatch) -> None:
    monkeypatch.setattr(
        pty_terminal, "command", lambda: [sys.executable, "-c", pty_terminal.SLEEPY_AI]
    )
    term = terminal()
    term.wait_for_first_frame()
    term.send("5")
    term.wait_for_text("AI is thinking")
    term.send("q")  # in the middle of a round `q` asks first
    term.wait_for_text("Quit and abandon this round?")
    asked = time.monotonic()
    assert term.quit("y") == 0
    assert time.monotonic() - asked < 2.0  # the search would take 60 s
    no_traceback(term)


SIZES = [(53, 89), (30, 100), (60, 200), (20, 60), (40, 120)]


def test_ctrl_q_quits_ahead_of_input_the_app_has_not_caught_up_with(terminal) -> None:
    """Behind resizes and the help laid out at each new size (seconds of work: on a
    loaded machine the quit came 5-9 s late), Ctrl+Q quits at once: the backlog is
    dropped (Python's own exit takes ~0.2 s of the time allowed)."""
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    term.settle(quiet=0.1, idle_cpu=True)
    for rows, cols in SIZES * 20:
        term.resize(rows, cols)
        term.send_bytes(b"??")
    sent = time.monotonic()
    term.send("ctrl+q")
    assert term.wait_exit(2.0) == 0, term.post_mortem()
    assert time.monotonic() - sent < 2.0
    no_traceback(term)


# -- 7. screens stacked in a burst ---------------------------------------------------


@pytest.mark.parametrize(
    "burst",
    [
        ["ctrl+p", "?", "ctrl+p", "ctrl+p"],
        ["?", "ctrl+p", "?", "ctrl+p"],
        ["n", "enter", "enter", "n", "escape", "escape"],
        ["ctrl+p", "enter", "enter", "ctrl+p", "escape"],
        ["n", "?", "ctrl+p", "escape", "escape", "escape"],
        ["ctrl+p", "pageup", "pagedown", "escape"],
    ],
)
def test_screens_stacked_in_a_burst_are_safe(terminal, burst: list[str]) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    for _ in range(3):
        term.send(*burst)
        term.settle(limit=2)
    assert term.alive(), term.post_mortem()
    no_traceback(term)
    close(term)
    close(term)
    term.send("ctrl+q")
    assert term.wait_exit() == 0, term.post_mortem()


# -- 8. the menu writes no files --------------------------------------------------------


def test_the_menu_has_no_screenshot_command(terminal, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    term = terminal("--seed", "1", cwd=str(tmp_path))
    term.wait_for_first_frame()
    term.send("ctrl+p")
    term.settle(quiet=0.3, idle_cpu=True)
    assert "Theme" in term.text and "Screenshot" not in term.text
    close(term)
    for position in range(8):  # run every command in the list but the last (Quit)
        term.send("ctrl+p", "home", *["down"] * position, "enter")
        term.settle(quiet=0.3)
        close(term)
    assert term.alive(), term.post_mortem()
    assert not list(tmp_path.rglob("*.svg"))
    assert term.quit() == 0


@pytest.mark.parametrize(("rows", "cols"), [(17, 80), (24, 49), (8, 64)])
def test_quit_typed_ahead_in_a_terminal_too_small(terminal, rows: int, cols: int) -> None:
    """The too-small message was mounted before the screen was: MountError (chaos test)."""
    term = terminal("--seed", "1", rows=rows, cols=cols)
    term.send("q")
    assert term.wait_exit(STEP_TIMEOUT) == 0, term.post_mortem()
    no_traceback(term)


def test_ctrl_q_quits_over_the_menu(terminal) -> None:
    term = terminal("--seed", "1")
    term.wait_for_first_frame()
    term.send("5")
    term.send("ctrl+p")
    term.settle(quiet=0.3)
    assert term.quit("ctrl+q") == 0
