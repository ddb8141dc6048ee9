"""A screenshot of `tui-tictactoe serve-web` in headless Chromium: `screenshots/web.png`.

Run by hand: `python screenshots/web_screenshot.py [--out screenshots/web.png]`. Needs
Debian's `chromium` (`apt-get install chromium`). The server and the browser are
started on free loopback ports; the page is driven through the DevTools protocol
(aiohttp, installed with textual-serve): open the page, wait until its game process
has drawn (it has gone CPU-idle), press 5 so the board shows a move and the AI's
reply, wait again, capture. The game keeps its settings and record in a temporary
data directory (the picture shows a fresh player, and yours is not touched), and the
whole run has a deadline (DEADLINE).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

HERE = Path(__file__).resolve().parent
WINDOW = (1000, 640)
TIMEOUT = 60.0  # seconds for any one step
DEADLINE = 180.0  # seconds for the whole run


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (the shell textual-serve uses, then the game)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    parents[int(entry)] = int(stat.read().rpartition(b")")[2].split()[1])
            except OSError:
                pass
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent:
                found.append(child)
                todo.append(child)
    return found


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total


async def until_idle(server: int, quiet: float = 0.5) -> None:
    """Until a game runs under the server and has used no CPU for `quiet` seconds."""
    deadline = time.monotonic() + TIMEOUT
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        games = descendants(server)
        ticks = cpu_ticks(games)
        if not games or ticks != last:
            last, since = ticks, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("the game never settled")


class DevTools:
    """The few DevTools-protocol calls this script needs, over one page's websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.ws.send_json({"id": number, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=TIMEOUT)
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def key(self, text: str) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, text=text, key=text)


async def shoot(out: Path) -> None:
    browser_binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_binary is None:
        sys.exit("web_screenshot: needs chromium (apt-get install chromium)")
    port = free_port()
    data = tempfile.mkdtemp(prefix="web-screenshot-data-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["TUI_TICTACTOE_DATA_DIR"] = data
    server = subprocess.Popen(
        [sys.executable, "-m", "tui_tictactoe", "serve-web", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    profile = tempfile.mkdtemp(prefix="web-screenshot-")
    browser = subprocess.Popen(
        [
            browser_binary,
            "--headless=new",
            "--no-sandbox",  # root in a container
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert browser.stderr is not None
        devtools_port = None
        deadline = time.monotonic() + TIMEOUT
        while devtools_port is None and time.monotonic() < deadline:
            line = await asyncio.to_thread(browser.stderr.readline)
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            devtools_port = int(found.group(1)) if found else None
        if devtools_port is None:
            raise RuntimeError("chromium did not start its DevTools endpoint")
        url = f"http://127.0.0.1:{port}/"
        async with aiohttp.ClientSession() as http:
            deadline = time.monotonic() + TIMEOUT
            while True:  # the server is up when the page answers
                if time.monotonic() > deadline:
                    raise TimeoutError("serve-web never answered")
                try:
                    async with http.get(url) as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.05)
            async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as response:
                targets = json.loads(await response.text())
            page = next(t for t in targets if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.call("Page.enable")
                await tools.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=WINDOW[0],
                    height=WINDOW[1],
                    deviceScaleFactor=1,
                    mobile=False,
                )
                await tools.call("Page.navigate", url=url)
                await until_idle(server.pid)
                # Keys go to the focused element: xterm.js reads them from its textarea.
                await tools.call(
                    "Runtime.evaluate",
                    expression="document.querySelector('.xterm-helper-textarea').focus()",
                )
                await tools.key("5")
                await until_idle(server.pid)
                shot = await tools.call("Page.captureScreenshot", format="png")
        out.write_bytes(base64.b64decode(shot["data"]))
        print(f"wrote {out}")
    finally:
        browser.terminate()
        server.terminate()
        browser.wait(10)
        server.wait(10)
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "web.png")
    out = parser.parse_args().out
    try:
        asyncio.run(asyncio.wait_for(shoot(out), DEADLINE))
    except TimeoutError:
        sys.exit(f"web_screenshot: not done within {DEADLINE:g} s")


if __name__ == "__main__":
    main()
