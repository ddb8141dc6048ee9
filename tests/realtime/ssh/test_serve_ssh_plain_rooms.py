"""Rooms in `--plain` over a real serve-ssh: asyncssh clients without a pty play a room line
by line through the same hub as the full-screen room, and watch one; a plain player and a
full-screen one share a room. Every wait polls the output with a generous deadline."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import test_serve_ssh
from plain_tools import TIMEOUT, plain_env
from test_serve_ssh import connect, open_game
from test_serve_ssh_plain import Lines
from test_serve_ssh_rooms import hub_of, new_room

from tui_tictactoe.commands.plain.text import REVIEW_LATER
from tui_tictactoe.commands.play import HUB_ENV

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


async def plain(port: int, command: str, username: str, local: str = "127.0.0.1") -> Lines:
    conn = await connect(port, username=username, local=local)
    return Lines(await open_game(conn, f"--plain {command}", term_type=None))


async def room_of_two(port: int, options: str = "") -> tuple[Lines, Lines, str]:
    """ann opens a room (with `options`), bob joins it by its code from another address:
    both plain, ann to play X; the code."""
    ann = await plain(port, f"--room new {options}".strip(), "ann")
    code = (await ann.expect(rb"give them the code ([A-Z]{4})\.")).group(1).decode()
    bob = await plain(port, f"--join {code}", "bob", local="127.0.0.2")
    await bob.expect(rb"Waiting for ann \(X\)\.\n")
    await ann.expect(rb"Your turn: you play X\.\n")
    return ann, bob, code


async def test_two_plain_players_play_a_round_and_a_third_watches_in_plain(host: Any) -> None:
    hosted = await host(rooms=True)
    ann, bob, code = await room_of_two(hosted.port)
    eve = await plain(hosted.port, f"--watch {code}", "eve", local="127.0.0.3")
    await eve.expect(rb"ann to play\.\n")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        mover.send(str(cell))
        await other.expect(rb"played %d\. Your turn" % cell)  # the other's move, as it came
        await eve.expect(rb"played %d\. " % cell)
    bob.send("1")  # taken: the hub's reason, nothing changes
    await bob.expect(rb"Not your turn")
    ann.send("3")
    await ann.expect(rb"ann wins!")
    await bob.expect(rb"ann wins!")
    await eve.expect(rb"X  X  X\nO  O  6\n7  8  9\nann wins!")
    await ann.expect(rb"ann 1 - bob 0 - draws 0 - round 1\n")
    eve.send("5")
    await eve.expect(rb"You are watching: only the players play\.")
    assert hub_of(hosted).view(code).moves == (1, 4, 2, 5, 3)
    ann.send("r")
    bob.send("r")
    await ann.expect(rb"Waiting for bob \(O\)\.\n")  # the other starts the rematch
    bob.send("5")
    await ann.expect(rb"bob played 5\. Your turn")
    ann.send("q")
    await ann.expect(rb"Leave and abandon the round\?")
    ann.send("y")
    assert await ann.term.wait_closed() == 0
    await bob.expect(rb"ann left: the round is abandoned\.")
    for each in (ann, bob, eve):
        assert b"\x1b" not in bytes(each.term.output) and b"\r" not in bytes(each.term.output)


async def test_a_plain_player_and_a_full_screen_player_share_a_room(host: Any) -> None:
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port)
    bob = await plain(hosted.port, f"--join {code}", "bob", local="127.0.0.2")
    await bob.expect(rb"Waiting for ann \(X\)\.\n")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.expect(rb"ann played 5\. Your turn: you play O\.\n")
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")
    bob.send("q")
    await bob.expect(rb"Leave and abandon the round\?")
    bob.send("2")  # any line but a yes only answers no: 2 is not played
    await bob.expect(rb"Playing on\.")
    assert hub_of(hosted).view(code).moves == (5, 1)
    assert bob.term.chan is not None
    bob.term.chan.write_eof()  # the end of input: the plain player leaves
    assert await bob.term.wait_closed() == 0
    await ann.shows("bob left: the round is abandoned.")


async def test_a_plain_refusal_is_one_line_and_status_1(host: Any) -> None:
    hosted = await host(rooms=True)
    lines = await plain(hosted.port, "--join ZZZZ", "ann")
    await lines.expect(rb"There is no room ZZZZ: check the code\.\n")
    assert await lines.term.wait_closed() == 1


def test_a_plain_room_never_imports_textual(tmp_path: Path) -> None:
    """The whole room path (the options, the hub client, the loop) without the UI: with no
    server at the hub's socket the hub's refusal is one line and the status 1."""
    env = {**plain_env("dumb"), HUB_ENV: str(tmp_path / "no-hub.sock")}
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tui_tictactoe", "--plain", "--join", "ABCD"],
        input="q\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert run.returncode == 1, run.stderr[-500:]
    assert run.stdout.count("\n") == 1  # the hub's reason, said once
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()}
    assert "tui_tictactoe.commands.plain.room" in imported
    assert not {name for name in imported if name.split(".")[0] in ("textual", "rich")}


async def test_plain_players_offer_take_back_and_answer_by_words(host: Any) -> None:
    """The room screen's d, u, y, n as lines: the status says 'y/n' in plain too."""
    hosted = await host(rooms=True)
    ann, bob, code = await room_of_two(hosted.port)
    ann.send("5")
    await bob.expect(rb"ann played 5\. Your turn")
    ann.send("u")
    await bob.expect(rb"ann asks to take back 5: y/n\n")
    bob.send("y")
    await ann.expect(rb"Your turn: you play X\.\n")
    assert hub_of(hosted).view(code).take_backs == 1
    ann.send("1")
    await bob.expect(rb"ann played 1\. Your turn")
    ann.send("d")
    await bob.expect(rb"ann offers a draw: y/n\n")
    bob.send("n")
    await ann.expect(rb"Waiting for bob \(O\)\.\n")
    bob.send("c")
    await bob.expect(rb"Nothing to claim: your opponent is still here\.\n")


async def test_v_says_later_mid_round_and_reviews_the_round_once_it_is_over(host: Any) -> None:
    """Issue 39: `v` in a plain room is one line mid-round that changes nothing; once the
    round is over it prints the round's review once, in the plain game's lines
    (`text.review_lines`), to a player and to a spectator alike."""
    hosted = await host(rooms=True)
    ann, bob, code = await room_of_two(hosted.port)
    eve = await plain(hosted.port, f"--watch {code}", "eve", local="127.0.0.3")
    await eve.expect(rb"ann to play\.\n")
    later = REVIEW_LATER.encode() + b"\n"
    ann.send("1")
    await bob.expect(rb"ann played 1\. Your turn: you play O\.\n")
    for each in (bob, eve):
        each.send("v")
        await each.expect(re.escape(later))
        after = each.read
        each.send("b")  # the next output is the board asked for: `v` said one line only
        await each.expect(rb"X  2  3\n4  5  6\n7  8  9\n")
        assert bytes(each.term.output[after : after + 2]) == b"X "
    assert hub_of(hosted).view(code).moves == (1,)
    for mover, other, cell in ((bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        mover.send(str(cell))
        await other.expect(rb"played %d\. Your turn" % cell)
    ann.send("3")
    for each in (ann, bob, eve):
        await each.expect(rb"ann wins!")
    kept = subprocess.run(  # the same moves, as `tui-tictactoe review` says them
        [sys.executable, "-m", "tui_tictactoe", "review", "--moves", "1", "4", "2", "5", "3"],
        env=plain_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=TIMEOUT,
    ).stdout
    _, _, body = kept.partition("\n")
    assert "  ! blunder" in body  # O's 4 loses
    heading = f"Room {code}, round 1: 3x3, X first, 5 moves"
    for each in (ann, bob, eve):
        each.send("v")
        await each.expect(re.escape(f"{heading}\n{body}".encode()))
        each.send("b")
        await each.expect(rb"X  X  X\nO  O  6\n7  8  9\nann wins!")
        assert bytes(each.term.output).count(heading.encode()) == 1
        assert bytes(each.term.output).count(later) == (each is not ann)
    ann.send("r")
    bob.send("r")
    await ann.expect(rb"Waiting for bob \(O\)\.\n")  # round 2: bob starts
    bob.send("5")
    await ann.expect(rb"bob played 5\. Your turn")
    ann.send("q")
    await ann.expect(rb"Leave and abandon the round\?")
    ann.send("y")
    await bob.expect(rb"ann left: the round is abandoned\.")
    bob.send("v")  # a round over after one move: its review too
    await bob.expect(f"Room {code}, round 2: 3x3, O first, 1 move\n".encode())


async def test_a_long_review_leaves_the_room_answering_and_ends_with_the_player(host: Any) -> None:
    """A 5x5 review searches for seconds, in a thread: meanwhile the room still answers the
    player's lines; leaving the room stops it (no review said, and the session ends well
    before the review would have: the loop's close does not wait for the search)."""
    moves = ["1", "2", "3", "4"]
    began = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "tui_tictactoe", "review", "--board", "5", "--moves", *moves],
        env=plain_env(),
        capture_output=True,
        check=True,
        timeout=TIMEOUT,
    )
    review_time = time.monotonic() - began  # the same review, whole, in a process of its own
    hosted = await host(rooms=True)
    ann, bob, code = await room_of_two(hosted.port, "--board 5")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 2), (ann, bob, 3), (bob, ann, 4)):
        mover.send(str(cell))
        await other.expect(rb"played %d\. Your turn" % cell)
    ann.send("d")
    await bob.expect(rb"ann offers a draw: y/n\n")
    bob.send("y")
    await ann.expect(rb"Draw agreed")
    ann.send("v")
    await ann.expect(rb"Reviewing 4 moves\.\.\.\n")
    ann.send("b")  # answered while the review searches
    await ann.expect(rb" X   O   X   O   5\n")
    ann.send("q")  # the round is over: leaving asks nothing
    left = time.monotonic()
    assert await ann.term.wait_closed() == 0
    assert time.monotonic() - left < review_time / 2
    assert b"Room " + code.encode() + b", round 1" not in bytes(ann.term.output)
