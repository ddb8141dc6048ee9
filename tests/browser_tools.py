"""A real headless Chromium, driven through Debian's chromedriver (selenium), on serve-web.

The terminal in the page is xterm.js on a canvas: what it shows is read from the bytes
the page's websocket received, recorded by a script the browser runs before the page's
own (a tap: it wraps the page's WebSocket and keeps each message; the page, its
script and textual.js run unchanged), and drawn by a `pyte` screen as xterm.js draws
them. What the page says in words is read from its DOM; screenshots of each state go
to SHOTS (looked at before a change is done, as tests/README.md asks).
"""

from __future__ import annotations

import base64
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from test_serve_web import Screen

SHOTS = Path("/tmp/browser-shots")
WAIT = 30.0  # seconds a page may take to show what a test waits for (a loaded host)
LEAVE_ALTERNATE = b"\x1b[?1049l"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}

TAP = """
(() => {
  const Native = window.WebSocket;
  const events = (window.__events = []);
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
      socket.addEventListener("message", (event) => {
        if (typeof event.data !== "string") {
          let text = "";
          for (const byte of new Uint8Array(event.data)) text += String.fromCharCode(byte);
          events.push(["data", btoa(text)]);
        }
      });
      socket.addEventListener("close", (event) => {
        window.__closed = [event.code, event.reason];
      });
      return socket;
    },
  });
})();
"""
"""Runs before every page's scripts: keeps the sizes the page's terminal sends and the
bytes it receives, in order. A Proxy, so that the page's own subclass of WebSocket
extends it unchanged; the size is read where the page hands it to the browser."""


def browser_found() -> tuple[str, str] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
    )
    return (chromium, driver) if chromium and driver else None


def start_browser() -> webdriver.Chrome:
    """Headless Chromium (Debian's, as .ci/run installs it), 1000x800."""
    found = browser_found()
    if found is None:
        pytest.fail("Chromium and chromedriver are needed (.ci/run installs them)")
    chromium, driver = found
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # as root in a container
        "--disable-dev-shm-usage",
        "--window-size=1000,800",
        "--disable-gpu",
        "--no-first-run",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    """One browser for a module's tests (each opens its own page)."""
    started = start_browser()
    try:
        yield started
    finally:
        started.quit()


def new_tab(browser: webdriver.Chrome, url: str) -> Page:
    """A new tab of the game at `url`, the tap in it (a script is added per tab)."""
    browser.switch_to.new_window("tab")
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TAP})
    browser.get(url)
    return Page(browser)


def shot(browser: webdriver.Chrome, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    browser.save_screenshot(str(path))
    return path


def until(condition: Callable[[], Any], what: str, timeout: float = WAIT, on_fail: str = "") -> Any:
    """`condition()` once it is truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except WebDriverException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}{on_fail}")
        time.sleep(0.05)


class Page:
    """One tab of the game: what its terminal shows, what its panel says, its keys."""

    def __init__(self, browser: webdriver.Chrome) -> None:
        self.browser = browser
        self.screen = Screen()
        self.read = 0
        self.raw = bytearray()  # every byte the page received
        self.columns, self.rows = 80, 24

    def drawn(self) -> list[str]:
        """The terminal's lines, after every byte the page has received so far."""
        events = self.browser.execute_script("return window.__events || [];")
        for event in events[self.read :]:
            if event[0] == "size":
                self.columns, self.rows = int(event[1]), int(event[2])
                self.screen.screen.resize(self.rows, self.columns)
            else:
                data = base64.b64decode(event[1])
                self.raw += data
                self.screen.feed(data)
        self.read = len(events)
        return self.screen.lines

    def still_on_screen(self) -> bool:
        """The game's screen was never left: xterm.js shows its last frame (pyte, which
        has no alternate screen, would draw it either way)."""
        self.drawn()
        return LEAVE_ALTERNATE not in self.raw

    def text(self) -> str:
        return "\n".join(self.drawn())

    def board(self) -> dict[tuple[int, int], str] | None:
        self.drawn()
        return self.screen.visible_board()

    def until_drawn(self, condition: Callable[[Page], object], what: str) -> None:
        until(lambda: condition(self), what, on_fail=drawn_for(self))

    def keys(self, text: str) -> None:
        """Keys as a player types them, to whatever has the focus (no click first)."""
        ActionChains(self.browser).send_keys(text).perform()

    def closed(self) -> tuple[int, str] | None:
        value = self.browser.execute_script("return window.__closed || null;")
        return (int(value[0]), str(value[1])) if value else None

    def panel(self) -> str:
        """What the "ended" panel says, once it shows (else "")."""
        panels = self.browser.find_elements(By.CSS_SELECTOR, ".ended")
        return str(panels[0].text) if panels and panels[0].is_displayed() else ""

    def until_panel(self, *words: str) -> str:
        return str(
            until(
                lambda: (said := self.panel()) and all(w in said for w in words) and said,
                f"the page to say {words}",
                on_fail=f"; it says {self.panel()!r}",
            )
        )


def drawn_for(page: Page) -> str:
    try:
        return "; the terminal shows:\n" + page.text()
    except WebDriverException as error:
        return f"; the page is gone: {error}"


def open_game(browser: webdriver.Chrome, url: str, phone: bool = False) -> Page:
    """The game at `url` in a tab of its own, every other tab closed (as a phone of 390x844
    CSS pixels if `phone`)."""
    old = browser.window_handles
    browser.switch_to.new_window("tab")
    for handle in old:
        browser.switch_to.window(handle)
        browser.close()
    browser.switch_to.window(browser.window_handles[0])
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TAP})
    if phone:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    browser.get(url)
    return Page(browser)
