"""Floods over `serve-ssh`: keys (issue 28) and window changes (issue 35).

Keys: the game stays small, answers, and quits at once.

A real asyncssh client sends arrow keys at 2,500 a second while reading the output (as
the issue's client did) to a real game process; its memory is read from /proc. Before
the input gate (`ui/input_gate.py`) the game queued every key: ~8 MB a second, and a
Ctrl+Q took tens of seconds. The flood lasts `TUI_TICTACTOE_FLOOD_SECONDS` (default 8;
`benchmarks/bench_flood.py` runs the issue's 30 s and times things).

Window changes: 4 sessions from one address (an attacker process of its own,
`flood_tools`) send 2,500 a second each; before `control_budget` each was a TIOCSWINSZ and
a SIGWINCH, and another player's login timed out after 10 s. Now the sizes reach a game at
most 4 a second, the last always, and a session far beyond any person's rate is closed as
a flood, with one log line and a metric.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import pytest
import test_serve_ssh
from flood_tools import (
    AFTER,
    CTRL_Q,
    FLOOD_SECONDS,
    FLOODERS,
    GROWTH_LIMIT,
    MEMORY_LIMIT,
    QUIT_WITHIN,
    RATE,
    RESIZE_RATE,
    ROUNDS,
    attack_ends,
    attacker,
    beside_floods,
    flood,
    resize_flood,
    rss,
    size_at,
)
from test_serve_ssh import STEP_TIMEOUT, SSHTerminal, gone, play
from test_serve_ssh_hostile import login_times, window_size
from test_serve_ssh_ops import METRICS, ops_port, scrape, until_sample

from tui_tictactoe.servers import control_budget, input_budget

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log

# (a shared, loaded machine; the benchmark measures it)


def sender(term: SSHTerminal) -> Any:
    """Writes to the game until its session has closed."""

    def send(data: bytes) -> None:
        if not term.closed.is_set() and term.chan is not None:
            term.chan.write(data)

    return send


async def ctrl_q_during_a_flood(term: SSHTerminal, rate: float) -> float:
    """Flood, send Ctrl+Q a second in, keep flooding: seconds from Ctrl+Q to the end."""
    send = sender(term)
    keep_on = asyncio.create_task(flood(send, 60, rate, stop=term.closed.is_set))
    await asyncio.sleep(1.0)
    sent_at = time.monotonic()
    send(CTRL_Q)
    try:
        await asyncio.wait_for(term.closed.wait(), STEP_TIMEOUT)
    finally:
        await keep_on
    return time.monotonic() - sent_at


async def answers_a_move(term: SSHTerminal) -> None:
    """`5` plays the centre and the AI replies: the game is alive and keeping up. Sent
    half a second after the flood: the gate's bucket, spent by the flood, has refilled
    (a key sent at once is as likely to be dropped as the flood's own)."""
    await asyncio.sleep(AFTER)
    term.send("5")
    await term.wait_until(
        "X in the centre and the AI's reply after the flood",
        lambda: (
            (board := term.visible_board()) is not None
            and board[(1, 1)] == "X"
            and list(board.values()).count("O") == 1
        ),
    )


async def test_a_key_flood_keeps_the_game_under_150_mb_and_ctrl_q_quits_at_once(
    host: Any,
) -> None:
    hosted = await host()
    term = await play(hosted.port)
    pid = await hosted.new_pid()
    before = rss(pid)
    flooded = await flood(sender(term), FLOOD_SECONDS, RATE, pid=pid)
    assert flooded.keys >= RATE * FLOOD_SECONDS * 0.9  # the client kept its rate
    peak = max(flooded.peak_rss, rss(pid, "VmHWM"))
    said = f"{peak / 2**20:.0f} MiB (started at {before / 2**20:.0f})"
    print(f"flood of {flooded.keys:,} keys: peak {said}", file=sys.stderr)
    assert peak < MEMORY_LIMIT, said
    assert peak - before < GROWTH_LIMIT, said
    await answers_a_move(term)
    took = await ctrl_q_during_a_flood(term, RATE)
    assert took < QUIT_WITHIN, f"Ctrl+Q took {took:.2f} s"
    assert term.exit_status == 0


async def test_bytes_far_beyond_a_person_are_dropped_by_the_server_and_logged(
    host: Any,
) -> None:
    """A client sending ~90,000 keys a second: past `input_budget.RATE` bytes a second
    the server drops them before the pty (the game's parser never sees them), logs it,
    and the game still answers and quits at once."""
    hosted = await host()
    term = await play(hosted.port)
    pid = await hosted.new_pid()
    cpu_before = cpu_seconds(pid)
    flooded = await flood(sender(term), 4, 30 * input_budget.RATE, pid=pid)
    assert flooded.peak_rss < MEMORY_LIMIT
    # Parsing 480 KiB of keys costs the game ~2 s of CPU; what passes costs ~0.1 s.
    assert cpu_seconds(pid) - cpu_before < 2.0
    line = await hosted.logged("input dropped")
    assert "bytes a second" in line
    await answers_a_move(term)
    took = await ctrl_q_during_a_flood(term, 30 * input_budget.RATE)
    assert took < QUIT_WITHIN, f"Ctrl+Q took {took:.2f} s"
    assert term.exit_status == 0
    ended = await hosted.logged("game over")
    assert "input dropped" in ended


def cpu_seconds(pid: int) -> float:
    """User and system time a process has used."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rpartition(b")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def test_a_client_gone_during_a_flood_leaves_no_game(host: Any) -> None:
    """A hang-up acts at once during a flood too (it did before the gate as well: the game's
    SIGHUP handler does not wait on the queue; kept so that it stays so)."""
    hosted = await host()
    term = await play(hosted.port)
    pid = await hosted.new_pid()
    send = sender(term)
    flooding = asyncio.create_task(flood(send, 60, RATE, stop=term.closed.is_set))
    await asyncio.sleep(2.0)
    assert term.chan is not None
    term.chan.get_extra_info("connection").abort()
    await asyncio.wait_for(flooding, STEP_TIMEOUT)
    await gone([pid])


# -- window changes (issue 35) -----------------------------------------------------------


@pytest.mark.solo
async def test_a_window_change_flood_is_closed_as_a_flood_and_stalls_no_login(
    host: Any,
) -> None:
    """Another player's login and first frame, from addresses of their own, in turns:
    while 4 sessions flood window changes at the issue's rate at a second server (the
    control), then at this one (`beside_floods`). Every flooding session is closed as a
    flood: one log line each, counted. No warm games: the flooders' would take them, and
    the logins after would wait on new ones."""
    hosted = await host(metrics=METRICS, warm_games=0)
    sink = await host(warm_games=0)
    await login_times(hosted.port, 2, samples=1)  # the fork server's first fork, unmeasured

    async def measure(n: int) -> float:
        return await login_times(hosted.port, n, samples=1)

    ends = await beside_floods("ssh", (hosted.port, sink.port), RESIZE_RATE, measure)
    assert "still open" not in " ".join(ends), ends
    rounds = ROUNDS
    closed = [line for line in hosted.log if control_budget.FLOOD in line]
    assert len(closed) == rounds * FLOODERS, closed
    assert "window changes and other requests in" in closed[0]
    await until_sample(ops_port(hosted), "tui_tictactoe_floods_total", {}, rounds * FLOODERS)


async def test_resizes_faster_than_a_game_redraws_are_coalesced_and_the_last_size_drawn(
    host: Any,
) -> None:
    """50 window changes a second for 2 s (a window dragged fast, no flood): the
    game gets at most 4 a second, and ends at the last size, drawn for it."""
    hosted = await host(metrics=METRICS)
    term = await play(hosted.port)
    pid = await hosted.new_pid()
    assert term.chan is not None
    sent = await resize_flood(term.chan.change_terminal_size, 2.0, 50)
    last = (150, 45)
    assert last not in {size_at(n) for n in range(sent)}
    term.resize(*last)
    await term.wait_until(
        "the board laid out again, centred in 150x45",
        lambda: (
            window_size(pid) == last
            and term.locate_board()
            and abs(
                min(left for _, _, left, _ in term.cells.values())
                + max(right for _, _, _, right in term.cells.values())
                - last[0]
            )
            <= 4
        ),
    )
    assert not term.closed.is_set()
    samples = await scrape(ops_port(hosted))
    coalesced = samples[("tui_tictactoe_resizes_coalesced_total", ())]
    print(f"{sent + 1} window changes, {coalesced:.0f} coalesced", file=sys.stderr)
    assert coalesced >= sent - 2 * control_budget.RESIZES * 2.5, coalesced  # ~4 a second applied


async def test_a_page_pace_through_a_stall_of_the_server_is_no_flood(host: Any) -> None:
    """4 sessions resize 20 times a second (a window dragged, for as long as it lasts) while
    the server's loop stalls for 10 s (here: the test's own loop, which runs the server,
    blocked): what they sent meanwhile is read at once after, 200 each, past the request
    burst. None is closed as a flood, and the server still answers them. Without the
    loop's watch (`control_budget.LoopWatch`) all 4 were."""
    hosted = await host(warm_games=0)
    process = await attacker("ssh", hosted.port, 20, 16)
    assert process.stdin is not None
    process.stdin.write(b"go\n")
    await asyncio.sleep(1.0)  # sending (the pace of a page: nothing here is a bound)
    time.sleep(10.0)  # the stall: no read, no tick, while the attacker's process sends on
    ends = await attack_ends(process)
    assert ends and all(end.endswith("still open") for end in ends), ends
    assert not [line for line in hosted.log if control_budget.FLOOD in line]
