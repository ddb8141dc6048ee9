"""`--plain`'s `v` (issue 39): refused mid-round in one line; once the round is over, the
review in `tui-tictactoe review`'s words (its formatter), on a pipe."""

from __future__ import annotations

import re
import subprocess

import pexpect
from plain_tools import PROMPT, matched, on_pipe, plain_env, play_round
from pty_terminal import command

from tui_tictactoe.commands.plain.text import REVIEW_LATER


def test_v_is_refused_mid_round_and_reviews_the_round_once_it_is_over() -> None:
    child = on_pipe("--difficulty", "hard", "--seed", "1")
    child.expect(PROMPT)
    child.sendline("v")
    child.expect(re.escape(REVIEW_LATER))
    assert play_round(child, "lowest") == "The AI wins with O."
    child.expect(PROMPT)
    child.sendline("v")
    child.expect(r"This round: 3x3, X first, (\d) moves\r?\n([\s\S]*?)\r?\nRound over")
    body = matched(child, 2).replace("\r\n", "\n")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    kept = subprocess.run(
        [*command(), "review", "--round", "1"],
        env=plain_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    heading, _, rest = kept.rstrip("\n").partition("\n")
    assert heading.startswith("Round 1 (") and heading.endswith("you X, X first, loss")
    assert body.rstrip("\n") == rest
    assert "! blunder" in body  # the lowest cells lose to hard: a blunder said with its line
    assert "  line: " in body
