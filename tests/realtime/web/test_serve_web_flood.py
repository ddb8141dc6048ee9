"""Floods over `serve-web`: keys (issue 28) and resize messages (issue 35).

Keys: the game stays small, answers, and quits at once.

The installed `serve-web` and a real websocket client (aiohttp) sending arrow keys as the
page does (`["stdin", ...]` messages) at 2,500 a second while reading the game's output;
the game's memory is read from /proc. Without the input gate the game queued every key:
~8 MB a second, and after the flood it answered nothing for many seconds.

Resizes: 4 tabs from one address (an attacker process of its own, `flood_tools`) send
`["resize", ...]` at 7,500 a second each; before `control_budget` a new tab's first frame
took 2.8-3.5 s against 0.3-0.7 s. Now a tab's sizes reach its game at most 4 a second,
the last always, and a tab far beyond any person's rate is closed as a flood.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from flood_tools import (
    CATCH_UP,
    CTRL_Q,
    FLOOD_SECONDS,
    FLOODERS,
    GROWTH_LIMIT,
    MEMORY_LIMIT,
    QUIT_WITHIN,
    RATE,
    ROUNDS,
    WEB_RESIZE_RATE,
    attack_ends,
    attacker,
    beside_floods,
    flood,
    resize_flood,
    rss,
    size_at,
    until_a_key_acts,
)
from server_tools import serve_web_async as serve_web
from test_serve_web import STEP_TIMEOUT, Screen, free_port
from test_serve_web_hostile import board_shown, from_address, wait_for_games
from test_serve_web_ops import scrape

from tui_tictactoe.servers import control_budget, input_budget


class Tab:
    """A websocket read in the background into a screen, as a browser tab reads it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, screen: Screen) -> None:
        self.ws, self.screen = ws, screen
        self.closed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(message.data)
        self.closed.set()

    async def send(self, data: bytes) -> None:
        if not self.closed.is_set():
            await self.ws.send_str(json.dumps(["stdin", data.decode()]))

    async def until(self, what: str, condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + STEP_TIMEOUT
        while not condition():
            assert not self.closed.is_set(), f"the tab closed while waiting for {what}"
            assert time.monotonic() < deadline, f"waited for {what}:\n" + "\n".join(
                self.screen.lines
            )
            await asyncio.sleep(0.02)

    async def ctrl_q_during_a_flood(self, rate: float) -> float:
        """Flood, Ctrl+Q a second in, flood on: seconds from Ctrl+Q to the tab's close."""
        keep_on = asyncio.create_task(flood(self.send, 60, rate, stop=self.closed.is_set))
        await asyncio.sleep(1.0)
        sent_at = time.monotonic()
        await self.send(CTRL_Q)
        try:
            await asyncio.wait_for(self.closed.wait(), STEP_TIMEOUT)
        finally:
            await keep_on
        return time.monotonic() - sent_at


def centre_and_reply(screen: Screen) -> bool:
    board = screen.visible_board()
    return board is not None and board[(1, 1)] == "X" and list(board.values()).count("O") == 1


async def flooded_tab(tmp_path: Path, rate: float, seconds: float) -> None:
    """A tab floods its game: it stays small, answers a move, and Ctrl+Q closes it."""
    async with (
        serve_web(tmp_path) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        screen = await board_shown(ws)
        (pid,) = await wait_for_games(served, 1)
        tab = Tab(ws, screen)
        before = rss(pid)
        flooded = await flood(tab.send, seconds, rate, pid=pid)
        peak = max(flooded.peak_rss, rss(pid, "VmHWM"))
        said = f"{peak / 2**20:.0f} MiB (started at {before / 2**20:.0f})"
        print(f"flood of {flooded.keys:,} keys: peak {said}", file=sys.stderr)
        assert peak < MEMORY_LIMIT, said
        assert peak - before < GROWTH_LIMIT, said
        await until_a_key_acts(
            tab.send,
            b"5",
            lambda: centre_and_reply(screen),
            CATCH_UP,
            lambda: "\n".join(screen.lines),
        )
        took = await tab.ctrl_q_during_a_flood(rate)
        assert took < QUIT_WITHIN, f"Ctrl+Q took {took:.2f} s"
        assert ws.close_code == 4000  # CLOSE_QUIT: the player quit
    lines = served.log_lines()
    if rate > input_budget.RATE:  # bytes a second: the server dropped some, and said so
        assert any("input dropped" in line for line in lines), lines


async def test_a_key_flood_keeps_the_game_under_150_mb_and_ctrl_q_quits_at_once(
    tmp_path: Path,
) -> None:
    await flooded_tab(tmp_path, RATE, FLOOD_SECONDS)


async def test_bytes_far_beyond_a_person_are_dropped_by_the_server_and_logged(
    tmp_path: Path,
) -> None:
    await flooded_tab(tmp_path, 30 * input_budget.RATE, 4)


# -- resize messages (issue 35) ----------------------------------------------------------


async def first_frame_time(url: str, address: str) -> float:
    """A new tab from `address`: seconds from the handshake to its first board drawn."""
    started = time.monotonic()
    async with from_address(address) as http, http.ws_connect(url) as ws:
        await board_shown(ws)
        took = time.monotonic() - started
    return took


@pytest.mark.solo
async def test_a_resize_flood_is_closed_as_a_flood_and_stalls_no_new_tab(tmp_path: Path) -> None:
    """A new tab's first frame, from addresses of its own, in turns: while 4 tabs flood
    resize messages at the issue's rate at a second server (the control), then at this
    one (`beside_floods`). Every flooding tab is closed as a flood, logged, counted."""
    metrics = free_port()
    (tmp_path / "measured").mkdir()
    (tmp_path / "sink").mkdir()
    async with (
        serve_web(tmp_path / "measured", "--metrics", f"127.0.0.1:{metrics}") as served,
        serve_web(tmp_path / "sink") as sink,
    ):
        url = served.ws_url + "?width=80&height=24"
        await first_frame_time(url, "127.0.0.2")  # the first game's imports, unmeasured
        await first_frame_time(sink.ws_url + "?width=80&height=24", "127.0.0.2")

        async def measure(n: int) -> float:
            return await first_frame_time(url, f"127.0.0.{n}")

        ends = await beside_floods("web", (served.port, sink.port), WEB_RESIZE_RATE, measure)
        assert "still open" not in " ".join(ends), ends
        rounds = ROUNDS
        closed = [line for line in served.log_lines() if control_budget.FLOOD in line]
        assert len(closed) == rounds * FLOODERS, closed
        assert "resizes and other messages in" in closed[0]
        samples = await scrape(metrics)
        assert samples[("tui_tictactoe_floods_total", ())] == rounds * FLOODERS


async def test_resizes_faster_than_a_game_redraws_are_coalesced_and_the_last_size_drawn(
    tmp_path: Path,
) -> None:
    """50 resize messages a second for 2 s (a window dragged fast, no flood): the game gets
    at most 4 a second, and ends at the last size, drawn for it."""
    metrics = free_port()
    async with (
        serve_web(tmp_path, "--metrics", f"127.0.0.1:{metrics}") as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.ws_url + "?width=80&height=24") as ws,
    ):
        screen = await board_shown(ws)
        tab = Tab(ws, screen)

        async def resize(width: int, height: int) -> None:
            await ws.send_str(json.dumps(["resize", {"width": width, "height": height}]))

        sent = await resize_flood(resize, 2.0, 50)
        last = (150, 45)
        assert last not in {size_at(n) for n in range(sent)}
        screen.screen.resize(last[1], last[0])
        await resize(*last)
        await tab.until(
            "the board laid out again, centred in 150x45",
            lambda: (
                screen.locate_board()
                and abs(
                    min(left for _, _, left, _ in screen.cells.values())
                    + max(right for _, _, _, right in screen.cells.values())
                    - last[0]
                )
                <= 4
            ),
        )
        samples = await scrape(metrics)
        coalesced = samples[("tui_tictactoe_resizes_coalesced_total", ())]
        print(f"{sent + 1} resizes, {coalesced:.0f} coalesced", file=sys.stderr)
        assert coalesced >= sent - 2 * control_budget.RESIZES * 2.5, coalesced  # ~4 a second


async def test_a_page_pace_through_a_stall_of_the_server_is_no_flood(tmp_path: Path) -> None:
    """4 tabs resize 20 times a second while serve-web stalls for 10 s (SIGSTOP, as a
    machine's other work can): what they sent meanwhile is read at once after, past the
    request burst. None is closed as a flood (`control_budget.LoopWatch`: the loop's
    stall seen when it wakes)."""
    async with serve_web(tmp_path) as served:
        process = await attacker("web", served.port, 20, 16)
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await asyncio.sleep(1.0)  # sending (the pace of a page: nothing here is a bound)
        served.process.send_signal(signal.SIGSTOP)
        try:
            await asyncio.sleep(10.0)  # the stall: the tabs send on
        finally:
            served.process.send_signal(signal.SIGCONT)
        ends = await attack_ends(process)
        assert ends and all(end.endswith("still open") for end in ends), ends
        assert not [line for line in served.log_lines() if control_budget.FLOOD in line]
