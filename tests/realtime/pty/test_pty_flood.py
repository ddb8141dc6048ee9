"""A key flood in a local terminal (issue 28): no server in front, the input gate alone.

The installed `tui-tictactoe` in a real pty (`pty_terminal.Terminal`) gets arrow keys at
2,500 a second, every 10 ms the keys due in one write, its output read as it comes; its
memory is read from /proc. Without the gate it grew ~8 MB a second.
"""

from __future__ import annotations

import sys
import time

from flood_tools import (
    AFTER,
    ARROWS,
    CTRL_Q,
    FLOOD_SECONDS,
    GROWTH_LIMIT,
    MEMORY_LIMIT,
    QUIT_WITHIN,
    RATE,
    TICK,
    rss,
)
from pty_terminal import STEP_TIMEOUT, Terminal


def flood_terminal(term: Terminal, seconds: float) -> int:
    """Arrow keys at RATE for `seconds`; the game's peak VmRSS meanwhile."""
    started, sent, peak = time.monotonic(), 0, 0
    while (elapsed := time.monotonic() - started) < seconds:
        due = int(elapsed * RATE) - sent
        if due > 0:
            term.send_bytes(b"".join(ARROWS[(sent + i) % 2] for i in range(due)))
            sent += due
        term._read(0)  # read, as a terminal does; drawn on the screen later, in one go
        peak = max(peak, rss(term.pid))
        time.sleep(TICK)
    return peak


def test_a_key_flood_in_a_terminal_keeps_the_game_small_and_ctrl_q_quits_at_once() -> None:
    term = Terminal("--seed", "1", "--no-record")
    try:
        assert term.wait_for_first_frame()
        before = rss(term.pid)
        peak = max(flood_terminal(term, FLOOD_SECONDS), rss(term.pid, "VmHWM"))
        said = f"{peak / 2**20:.0f} MiB (started at {before / 2**20:.0f})"
        print(f"local flood: peak {said}", file=sys.stderr)
        assert peak < MEMORY_LIMIT, said
        assert peak - before < GROWTH_LIMIT, said
        time.sleep(AFTER)
        term.send("5")
        term.wait_until(
            "X in the centre and the AI's reply after the flood",
            lambda: (
                (board := term.visible_board()) is not None
                and board[(1, 1)] == "X"
                and list(board.values()).count("O") == 1
            ),
            STEP_TIMEOUT,
        )
        flood_terminal(term, 1.0)
        sent = time.monotonic()
        term.send_bytes(CTRL_Q)
        status = term.wait_exit(QUIT_WITHIN)
        took = time.monotonic() - sent
        assert status == 0, f"exit {status} after {took:.2f} s"
        print(f"Ctrl+Q after a flood: {took:.2f} s", file=sys.stderr)
        term.pump(0)
        said_after = term.output.rpartition(b"\x1b[?1049l")[2]  # after the game's screen
        assert b"input events dropped in this game" in said_after, said_after[-300:]
    finally:
        term.close()
