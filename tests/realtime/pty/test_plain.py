"""`--plain`: the game line by line, played as a script or a screen reader's terminal would
play it, through pexpect on a pipe (no terminal at all) and on a pty with TERM=dumb. Whole
rounds against the AI (a win, a loss, a draw, seeded), hot seat, hints, the analysis,
take-backs, hostile lines and the end of input; the record is read back with `stats`."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from typing import Any

import pexpect
from plain_tools import (
    PROMPT,
    TIMEOUT,
    hang_up,
    matched,
    on_pipe,
    on_pty,
    plain_env,
    play_round,
    stats,
)

from tui_tictactoe.commands.plain.lines import LINE_LIMIT, TOO_LONG, LineReader


def easy_3x3(record: dict[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = record["by_board"]["3x3"]["easy"]
    return counts


def test_a_won_round_on_a_pipe_is_kept_in_the_record() -> None:
    child = on_pipe("--difficulty", "easy", "--seed", "3")
    child.expect(r"you X vs AI O - easy, 3x3\. Cells are numbered 1-9")
    assert play_round(child, "hint") == "You win with X!"
    child.expect(r"Score: you 1, AI 0, draws 0, abandoned 0\.")
    child.expect(PROMPT)
    child.sendline("q")  # the round is over: q quits at once
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    assert easy_3x3(stats())["wins"] == 1


def test_a_lost_round_and_a_drawn_one_against_hard() -> None:
    child = on_pipe("--difficulty", "hard", "--seed", "1")
    assert play_round(child, "lowest") == "The AI wins with O."
    child.expect(PROMPT)
    child.sendline("r")
    child.expect(r"Round 2\.")
    assert play_round(child, "hint") == "It's a draw."
    child.expect(r"Score: you 0, AI 1, draws 1, abandoned 0\.")
    child.sendline("q")
    child.expect(pexpect.EOF)
    hard = stats()["by_board"]["3x3"]["hard"]
    assert (hard["losses"], hard["draws"]) == (1, 1)


def test_the_board_the_ai_reply_and_the_prompt_are_plain_text() -> None:
    child = on_pipe("--seed", "1", "--no-record")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect(
        r"You played 5\.\r?\n(.*?)AI played (\d)\. Your turn: you play X\.", timeout=TIMEOUT
    )
    rows = matched(child, 1).split("\n")
    ai = int(matched(child, 2))
    cells = [cell for row in rows if row.strip() for cell in row.split()]
    expected = [str(key) for key in range(1, 10)]
    expected[4], expected[ai - 1] = "X", "O"
    assert cells == expected  # numbers for empty cells, marks for taken ones
    child.expect(r"Your move \(1-9, h hint, a analysis, u undo, q quit, \? help\):")
    child.sendline("q")
    child.expect(r"Quit and abandon this round\?")
    child.sendline("y")
    child.expect(pexpect.EOF)
    out = child.before or ""
    assert "\x1b" not in out


def test_hint_analysis_undo_and_junk_on_a_pty() -> None:
    child = on_pty("--seed", "2")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect(r"AI played (\d)\.")
    ai = matched(child, 1)
    child.expect(PROMPT)
    child.sendline("a")
    child.expect(r"Analysis for X: (.*)\.\r\n")
    verdicts = re.findall(r"(\d): (win in \d|loss in \d|draw)", matched(child, 1))
    assert sorted(int(cell) for cell, _ in verdicts) == [
        k for k in range(1, 10) if str(k) not in ("5", ai)
    ]
    child.sendline("h")
    child.expect(r"Hint: cell (\d) is a best move\.")
    child.sendline("u")
    child.expect(rf"Took back your 5 and the AI's {ai}\.")
    for junk in ("xyz", "\x1b[31mred", "5 5", "-1", "0", "99", "\u00b2", "\u0663"):
        child.sendline(junk)
        child.expect(r"Not a command: .*|No cell \d+: the cells are 1 to 9\.")
        assert "\x1b[31m" not in matched(
            child, 0
        )  # shown escaped, never as a command to the terminal
    child.sendline("b")  # nothing the junk said was played
    child.expect(r"1  2  3\r\n4  5  6\r\n7  8  9\r\n")
    child.sendline("x" * (LINE_LIMIT + 40))
    child.expect(rf"That line is too long \(at most {LINE_LIMIT} bytes\): nothing done\.")
    child.sendline("1")
    child.expect(r"You played 1\.")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(r"Cell 1 is already taken by X\.")
    child.sendeof()  # the player has gone mid-round: abandoned, kept, a clean exit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert stats()["by_board"]["3x3"]["hard"]["abandoned"] == 1


QUIT_PROMPT = r"Quit\? \(q or y: yes; anything else: no\):"


def test_q_mid_round_asks_once_and_another_line_only_answers_no() -> None:
    """Issue 36: `n` after the question said "Playing on." then "Not a command", `3`
    played 3, and the prompt under the question was the move prompt. Now the prompt is the
    question's, and any line but a yes only answers no."""
    child = on_pty("--seed", "4", "--no-record")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    for answer in ("n", "3", "r", "b"):
        child.sendline("q")
        child.expect(r"Quit and abandon this round\? q or y: yes")
        child.expect(QUIT_PROMPT)
        child.sendline(answer)
        child.expect(r"Playing on\.\r?\n")
        child.expect(PROMPT)  # the next line is the move prompt, nothing came between
        assert (child.before or "").strip() == "", (answer, child.before)
    child.sendline("b")  # nothing the answers said was played: 1, the AI's reply, no 3
    child.expect(r"(([XO.\d] +){2}[XO.\d]\r?\n){3}")
    assert matched(child, 0).count("X") == 1
    child.sendline("q")
    child.expect(QUIT_PROMPT)
    child.sendline("q")  # q again: yes
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_end_of_input_after_the_question_says_it_quits() -> None:
    child = on_pipe("--seed", "4", "--no-record")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(QUIT_PROMPT)
    child.sendeof()
    child.expect(r"End of input: quitting; the round in play counts as abandoned\.")
    child.expect(pexpect.EOF)
    assert child.wait() == 0


def test_hot_seat_on_a_pipe_is_kept_with_the_rounds_between_people() -> None:
    child = on_pipe("--opponent", "human")
    child.expect(r"X vs O - two players")
    for cell, mover in zip("1245", "XOXO", strict=True):
        child.expect(rf"{mover} to move \(1-9, u undo, q quit, \? help\):")
        child.sendline(cell)
    child.sendline("h")
    child.expect(r"No hints in a game between people\.")
    child.sendline("a")
    child.expect(r"No analysis in a game between people\.")
    child.sendline("7")
    child.expect(r"X wins! Press r for a new round\.")
    child.expect(r"Score: X 1, O 0, draws 0, abandoned 0\.")
    child.sendline("q")
    child.expect(pexpect.EOF)
    hot_seat = stats()["people"]["hot_seat"]["3x3"]
    assert hot_seat["x_wins"] == 1


def test_a_4x4_round_numbers_its_cells_to_16() -> None:
    child = on_pipe("--board", "4", "--seed", "1", "--no-record")
    child.expect(r" 1   2   3   4\r?\n 5   6   7   8\r?\n 9  10  11  12\r?\n13  14  15  16")
    child.expect(r"Your move \(1-16,")
    child.sendline("16")
    child.expect(r"AI played (\d+)\. Your turn", timeout=TIMEOUT)
    child.expect(PROMPT)
    child.sendline("17")
    child.expect(r"No cell 17: the cells are 1 to 16\.")
    child.sendline("q")
    child.expect(r"Quit and abandon")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_a_6x6_round_numbers_its_cells_to_36_and_the_ai_answers() -> None:
    """6x6: two-digit numbers from 10 on, the hard AI's bounded search replies (a second)."""
    child = on_pipe("--board", "6", "--seed", "1", "--no-record")
    child.expect(r"6x6\. Cells are numbered 1-36 in reading order\.")
    child.expect(r" 1   2   3   4   5   6\r?\n 7   8   9  10  11  12\r?\n")
    child.expect(r"31  32  33  34  35  36")
    child.expect(r"Your move \(1-36,")
    child.sendline("36")
    child.expect(r"AI played (\d+)\. Your turn", timeout=TIMEOUT)
    assert 1 <= int(matched(child, 1)) <= 35
    child.expect(PROMPT)
    child.sendline("37")
    child.expect(r"No cell 37: the cells are 1 to 36\.")
    child.sendline("q")
    child.expect(r"Quit and abandon")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_plain_needs_no_terminal_and_never_imports_textual() -> None:
    """TERM=dumb, no tty anywhere, and start-up stays cheap: not one Textual module."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tui_tictactoe", "--plain", "--no-record"],
        input="q\n",
        capture_output=True,
        text=True,
        env=plain_env("dumb"),
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr[-500:]
    assert "Your move (1-9" in run.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()}
    assert not {name for name in imported if name.split(".")[0] in ("textual", "rich")}


def test_a_line_is_read_with_a_bound() -> None:
    exact = b"5" * LINE_LIMIT
    stream = io.BytesIO(exact + b"\n" + b"y" * (LINE_LIMIT + 1) + b"z" * 10_000 + b"\n7\n\xff8")
    reader = LineReader(stream)
    assert reader.read() == "5" * LINE_LIMIT
    assert reader.read() == TOO_LONG  # skipped to its end...
    assert reader.read() == "7"  # ...and the next line is whole
    assert reader.read() == "\ufffd8"  # not UTF-8: replaced, a last line without a newline
    assert reader.read() is None


def test_a_hang_up_mid_round_keeps_the_round_as_abandoned() -> None:
    child = on_pty("--seed", "5")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect(r"AI played \d\.")
    child.expect(PROMPT)
    assert hang_up(child) == 129  # the terminal goes away: SIGHUP
    assert stats()["by_board"]["3x3"]["hard"]["abandoned"] == 1
