"""A key flood over `serve-web` (issue 28): the game stays small, answers, and quits at once.

The installed `serve-web` and a real websocket client (aiohttp) sending arrow keys as the
page does (`["stdin", ...]` messages) at 2,500 a second while reading the game's output;
the game's memory is read from /proc. Without the input gate the game queued every key:
~8 MB a second, and after the flood it answered nothing for many seconds.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
from flood_tools import (
    CATCH_UP,
    CTRL_Q,
    FLOOD_SECONDS,
    GROWTH_LIMIT,
    MEMORY_LIMIT,
    QUIT_WITHIN,
    RATE,
    flood,
    rss,
    until_a_key_acts,
)
from test_serve_web import STEP_TIMEOUT, Screen
from test_serve_web_hostile import board_shown, serve_web, wait_for_games

from tui_tictactoe.servers import input_budget


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
        assert ws.close_code == 1000
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
