"""serve-web in a real browser: from a tab's navigation to the board on its screen (issue 40).

Two servers run side by side in one run, this code and a baseline (by default a
`git worktree` of BASELINE, the integration commit before the speed work, run from its
own sources through PYTHONPATH, its games too), each with caps high enough for every tab.
One headless Chromium (Debian's, through chromedriver, as tests/browser_tools.py drives
it) opens the page with its cache off (a first visit: every file fetched), and a script
run before the page's own stamps each websocket message with `performance.now()` (which
counts from the tab's navigation). The bytes are drawn by a `pyte` screen as xterm.js
draws them; a tab's time is the stamp of the message after which the whole board is on
its screen.

- one tab: RUNS tabs, one at a time, the servers taking turns; p50 (target <= 1.0 s);
- a burst: TABS tabs opened at once (each navigated without waiting for the last), all
  timed, ROUNDS times per server in turns; p95 over every tab (target <= 2 s);
- with `--mbit N`, each tab's network is N Mbit/s each way and LATENCY ms a request
  (Chromium's emulation), as a visitor elsewhere has it; by default, loopback as it is.

"Of which the page" is the time to the page's websocket (the page and its files loaded);
the rest is the game's start. textual.js's bytes as sent to a browser that accepts gzip
are printed per server, which says the baseline is the code it should be.

Tabs are closed (their games end) and the servers left a few seconds between rounds.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "realtime" / "web"))

from browser_tools import start_browser  # noqa: E402
from selenium import webdriver  # noqa: E402
from server_tools import free_port  # noqa: E402
from test_serve_web import Screen  # noqa: E402

BASELINE = "4b1db67"  # integ3 before issue 40's speed work: the page uncompressed
WAIT = 60.0  # seconds a tab may take to show its board (a loaded host)
SERVE_WEB = (sys.executable, "-m", "tui_tictactoe", "serve-web")
SETTLE = 3.0  # seconds between rounds: the closed tabs' games go

STAMPS = """
(() => {
  const Native = window.WebSocket;
  const events = (window.__stamped = []);
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    if (typeof data === "string" && data.startsWith('["resize"')) {
      const size = JSON.parse(data)[1];
      events.push(["size", size.width, size.height]);
    }
    return send.call(this, data);
  };
  window.WebSocket = new Proxy(Native, {
    construct(target, args, newTarget) {
      const socket = Reflect.construct(target, args, newTarget);
      const query = new URL(args[0]).searchParams;
      events.push(["size", Number(query.get("width")), Number(query.get("height"))]);
      events.push(["open", performance.now()]);
      socket.addEventListener("message", (event) => {
        if (typeof event.data !== "string") {
          let text = "";
          for (const byte of new Uint8Array(event.data)) text += String.fromCharCode(byte);
          events.push(["data", btoa(text), performance.now()]);
        }
      });
      return socket;
    },
  });
})();
"""
"""Before the page's scripts: each size the terminal has and each message, stamped."""


@dataclass
class Tab:
    """One tab's screen, drawn from its stamped messages."""

    handle: str
    screen: Screen = field(default_factory=Screen)
    read: int = 0
    board_at: float | None = None  # ms from the tab's navigation
    opened_at: float | None = None  # ... to the page's websocket made: the page is loaded

    def update(self, browser: webdriver.Chrome) -> bool:
        """Draw what came since the last look; True once the board is on the screen."""
        browser.switch_to.window(self.handle)
        events = browser.execute_script("return window.__stamped || [];")
        for event in events[self.read :]:
            if self.board_at is not None:
                break
            if event[0] == "open":
                self.opened_at = float(event[1])
                continue
            if event[0] == "size":
                self.screen.screen.resize(int(event[2]), int(event[1]))
                continue
            self.screen.feed(base64.b64decode(event[1]))
            if self.screen.visible_board() is not None:
                self.board_at = float(event[2])
        self.read = len(events)
        return self.board_at is not None


MBIT = 0.0  # the tabs' network, emulated by Chromium (`--mbit`; 0: loopback as it is)
LATENCY = 20.0  # ms added to each request on an emulated network


def open_tab(browser: webdriver.Chrome, url: str) -> Tab:
    """A new tab navigating to `url` (not waited for), its cache off, stamped."""
    browser.switch_to.new_window("tab")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    if MBIT:
        rate = MBIT * 1e6 / 8  # bytes a second
        conditions = {"offline": False, "latency": LATENCY}
        conditions |= {"downloadThroughput": rate, "uploadThroughput": rate}
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STAMPS})
    handle = browser.current_window_handle
    browser.execute_script("window.location.href = arguments[0];", url)
    return Tab(handle)


def close_tabs(browser: webdriver.Chrome, keep: str) -> None:
    for handle in browser.window_handles:
        if handle != keep:
            browser.switch_to.window(handle)
            browser.close()
    browser.switch_to.window(keep)


def timed(browser: webdriver.Chrome, url: str, tabs: int) -> list[tuple[float, float]]:
    """Seconds from navigation to the board, and to the page's websocket, of `tabs` tabs
    opened at once."""
    keep = browser.current_window_handle
    opened = [open_tab(browser, url) for _ in range(tabs)]
    deadline = time.monotonic() + WAIT
    try:
        while not all(tab.board_at is not None or tab.update(browser) for tab in opened):
            if time.monotonic() > deadline:
                raise SystemExit(f"no board after {WAIT:g} s at {url}")
            time.sleep(0.1)
    finally:
        close_tabs(browser, keep)
    return [(tab.board_at / 1000, (tab.opened_at or 0) / 1000) for tab in opened if tab.board_at]


@contextlib.contextmanager
def serve_web(name: str, pythonpath: str | None, data: Path) -> Iterator[str]:
    """serve-web from this interpreter (its sources: `pythonpath`, else the installed
    package's), caps high enough for every tab; its URL once the page answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["TUI_TICTACTOE_DATA_DIR"] = str(data / name)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    log = (data / f"{name}.log").open("wb")
    process = subprocess.Popen(
        [*SERVE_WEB, "--port", str(port), "--max-sessions", "64", "--max-per-address", "64"],
        stdout=log,
        stderr=log,
        env=env,
        cwd=data,  # `-m` puts the working directory first on the path: not this checkout
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{name} serve-web did not start: {data / name}.log")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@contextlib.contextmanager
def baseline_tree(given: str | None, commit: str) -> Iterator[str]:
    """The baseline's sources: `given`, or a `git worktree` of `commit`, removed after."""
    if given is not None:
        yield given
        return
    where = Path(tempfile.mkdtemp(prefix="bench-web-nav-")) / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), commit],
        check=True,
    )
    try:
        yield str(where)
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], check=False
        )
        shutil.rmtree(where.parent, ignore_errors=True)


def sent_bytes(url: str, name: str = "static/js/textual.js") -> int:
    """Bytes of `name` as the server sends it to a client that accepts gzip."""
    request = urllib.request.Request(url + name, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return len(answer.read())


def p(values: list[float], percent: int) -> float:
    """The `percent`th percentile (inclusive: within the values measured)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6, help="single tabs per server")
    parser.add_argument("--tabs", type=int, default=8, help="tabs opened at once")
    parser.add_argument("--rounds", type=int, default=3, help="bursts per server")
    parser.add_argument(
        "--baseline", help="a checkout to run as the baseline (default: a worktree)"
    )
    parser.add_argument("--baseline-commit", default=BASELINE)
    parser.add_argument(
        "--mbit",
        type=float,
        default=0.0,
        help=f"the tabs' network in Mbit/s each way, {LATENCY:g} ms a request (default: loopback)",
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the servers and browser stopped
    global MBIT
    MBIT = args.mbit
    load = os.getloadavg()[0]
    single: dict[str, list[tuple[float, float]]] = {"this code": [], "baseline": []}
    burst: dict[str, list[tuple[float, float]]] = {"this code": [], "baseline": []}
    with (
        tempfile.TemporaryDirectory() as data_dir,
        baseline_tree(args.baseline, args.baseline_commit) as baseline,
    ):
        data = Path(data_dir)
        (data / "this code").mkdir()
        (data / "baseline").mkdir()
        with (
            serve_web("this code", None, data) as ours,
            serve_web("baseline", baseline, data) as theirs,
        ):
            urls = {"this code": ours, "baseline": theirs}
            sent = {name: sent_bytes(url) for name, url in urls.items()}
            browser = start_browser()
            try:
                for url in urls.values():  # a first tab each, not counted (disk caches)
                    timed(browser, url, 1)
                for run in range(args.runs):
                    for name in sorted(urls, reverse=run % 2 == 1):
                        single[name] += timed(browser, urls[name], 1)
                        time.sleep(1.0)
                for run in range(args.rounds):
                    for name in sorted(urls, reverse=run % 2 == 1):
                        burst[name] += timed(browser, urls[name], args.tabs)
                        time.sleep(SETTLE)
            finally:
                browser.quit()
    network = f"{MBIT:g} Mbit/s and {LATENCY:g} ms a request" if MBIT else "loopback"
    print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {network}\n")
    for name, size in sent.items():
        print(f"{name}: textual.js sent as {size / 1000:.0f} KB")
    print()
    print(
        f"| server | one tab: to the board, p50 (of {args.runs}) | of which the page "
        f"| {args.tabs} tabs at once: p50 | p95 (of {args.tabs * args.rounds}) "
        "| of which the page, p95 | max |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in ("this code", "baseline"):
        one, many = single[name], burst[name]
        boards = [board for board, _ in many]
        print(
            f"| {name} | {p([b for b, _ in one], 50):.2f} s | {p([o for _, o in one], 50):.2f} s "
            f"| {p(boards, 50):.2f} s | {p(boards, 95):.2f} s "
            f"| {p([o for _, o in many], 95):.2f} s | {max(boards):.2f} s |"
        )
    print("\ntargets: one tab p50 <= 1.0 s; p95 <= 2 s with 8 tabs at once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
