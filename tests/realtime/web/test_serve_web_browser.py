"""`serve-web` in a real browser (issue 40): headless Chromium through chromedriver.

The page must load with a title, an icon and the keyboard's focus (a key before any click
plays), from any name of the host; every ending and refusal must be told on the page in
words with what to do, the round's result still readable beside it (SIGTERM, a drain,
the idle timeout, a refused fifth tab, a full server, a foreign address); a phone's
390x844 must play a round by taps; a paste over 64 KiB must leave the game running.
Each state is saved as a screenshot in /tmp/browser-shots/ (`browser_tools.SHOTS`).
"""

from __future__ import annotations

import json
import signal
import socket
import threading
import urllib.request
from pathlib import Path

from browser_tools import Page, browser, new_tab, open_game, shot, until
from selenium import webdriver
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from server_tools import serve_web
from test_serve_web import free_port

__all__ = ["browser"]  # the module's browser, a fixture

RESULT = "Press r for a new round."


def empty_board(page: Page) -> bool:
    board = page.board()
    return board is not None and set(board.values()) == {""}


def centre_taken(page: Page) -> bool:
    board = page.board()
    return board is not None and board[(1, 1)] == "X" and list(board.values()).count("O") == 1


def marks_on(page: Page) -> int:
    board = page.board()
    return -1 if board is None else sum(1 for mark in board.values() if mark)


def play_round(page: Page, play: object) -> None:
    """Play the first empty cell after each reply of the AI's until the round ends."""
    while RESULT not in page.text():
        board = page.board()
        if board is None or "AI is thinking" in page.text():
            until(lambda: page.board() is not None, "the board")
            continue
        marks = marks_on(page)
        cell = next(cell for cell, mark in sorted(board.items()) if not mark)
        play(cell)  # type: ignore[operator]

        def replied(p: Page, before: int = marks) -> bool:
            return RESULT in p.text() or marks_on(p) >= before + 2

        page.until_drawn(replied, "the AI's reply or the result")


def key_of(cell: tuple[int, int]) -> str:
    return str(cell[0] * 3 + cell[1] + 1)


class Listener:
    """A port that notes whether anything connected to it (a fetch the page must not make)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connected = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connected.set()
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


# -- 2. a page that works as a page ---------------------------------------------------------


def test_the_page_loads_with_a_title_an_icon_and_focus_and_a_first_key_plays(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    """Opened as `localhost` while the server's URL says 127.0.0.1: the font still loads;
    a `?ping=` link fetches nothing; the first key, before any click, plays."""
    listener = Listener()
    try:
        with serve_web(tmp_path) as served:
            ping = f"http://127.0.0.1:{listener.port}/"
            page = open_game(browser, f"http://localhost:{served.port}/?ping={ping}")
            assert browser.title == "Tic-Tac-Toe"
            page.until_drawn(empty_board, "the empty board")
            shot(browser, "loaded")
            assert browser.execute_script(
                "return document.activeElement.classList.contains('xterm-helper-textarea')"
            ), "the terminal has no focus"
            page.keys("5")
            page.until_drawn(centre_taken, "X in the centre and the AI's reply")
            shot(browser, "first-key")
            assert until(
                lambda: browser.execute_script(
                    "return [...document.fonts].some("
                    "f => f.family.includes('Roboto Mono') && f.status === 'loaded')"
                ),
                "the page's font",
            )
            for path in ("/favicon.ico", "/page/favicon.svg"):
                with urllib.request.urlopen(served.url + path) as response:
                    assert response.status == 200
                    assert response.headers["Content-Type"].startswith("image/svg+xml")
            with urllib.request.urlopen(served.url + "/") as response:
                csp = response.headers["Content-Security-Policy"]
                assert "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
                assert response.headers["Referrer-Policy"] == "no-referrer"
            errors = [
                entry["message"]
                for entry in browser.get_log("browser")
                if entry["level"] == "SEVERE"
            ]
            assert errors == [], errors  # no 404 (the icon), no blocked font, no script error
            assert "ping" not in browser.current_url
        assert not listener.connected.is_set(), "the page fetched the ?ping= URL"
    finally:
        listener.close()


def test_the_help_and_the_new_game_speak_to_a_browser_and_q_quits(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    """No command-line flags in the help, no turn bell (there are no rooms here), and a quit
    by `q` told on the page (Ctrl+Q may be the browser's own)."""
    with serve_web(tmp_path) as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        page.keys("n")
        page.until_drawn(lambda p: "Opponent" in p.text(), "the new-game dialog")
        shot(browser, "new-game")
        assert "Turn bell" not in page.text()
        page.keys(Keys.ESCAPE)
        page.until_drawn(empty_board, "the board again")
        page.keys("?")
        page.until_drawn(lambda p: "On the 4x4 and 5x5 boards" in p.text(), "the help")
        shot(browser, "help")
        assert "(New game)" in page.text() and "--board" not in page.text()
        page.keys(Keys.ESCAPE)
        page.until_drawn(empty_board, "the board after the help")
        page.keys("q")
        said = page.until_panel("You left the game", "Reload")
        assert page.closed() == (4000, "the game ended")
        shot(browser, "quit")
    assert "the game ended" in said.lower() or "left" in said


def tap(browser: webdriver.Chrome, page: Page, cell: tuple[int, int]) -> None:
    """A finger's tap in the middle of a board cell, where the terminal draws it."""
    top, bottom, left, right = page.screen.cells[cell]
    screen = browser.find_element(By.CSS_SELECTOR, ".xterm-screen")
    box = screen.rect
    x = box["x"] + (left + right + 1) / 2 * box["width"] / page.columns
    y = box["y"] + (top + bottom + 1) / 2 * box["height"] / page.rows
    actions = ActionBuilder(browser, mouse=PointerInput(POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
    actions.perform()


def test_a_phone_of_390_by_844_gets_the_game_s_columns_and_plays_a_round_by_taps(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path) as served:
        page = open_game(browser, served.url + "/", phone=True)
        page.until_drawn(empty_board, "the empty board on a phone")
        assert browser.execute_script("return window.innerWidth") == 390  # the viewport
        assert page.columns >= 60 and page.rows >= 19, (page.columns, page.rows)
        assert "enlarge" not in page.text().lower()
        shot(browser, "phone-board")
        play_round(page, lambda cell: tap(browser, page, cell))
        shot(browser, "phone-round")
        assert RESULT in page.text()


def test_a_paste_over_64_kib_is_dropped_and_said_and_the_game_goes_on(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path) as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        browser.execute_script(
            "const text = 'x'.repeat(70000);"
            "const data = new DataTransfer(); data.setData('text/plain', text);"
            "document.querySelector('.xterm-helper-textarea').dispatchEvent("
            "new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));"
        )
        said = until(
            lambda: (
                (n := browser.find_element(By.CSS_SELECTOR, ".dropped")).is_displayed() and n.text
            ),
            "the page to say the paste was dropped",
        )
        assert "69 KiB" in said and "not sent" in said, said
        shot(browser, "paste-dropped")
        page.keys("5")
        page.until_drawn(centre_taken, "X in the centre after the paste")
        assert page.closed() is None
    log = "\n".join(served.log_lines())
    assert "message too large" not in log


# -- 1. every ending and refusal told on the page ------------------------------------------


def test_sigterm_is_told_on_the_page_beside_the_board(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path) as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        page.keys("5")
        page.until_drawn(centre_taken, "X in the centre")
        served.process.send_signal(signal.SIGTERM)
        said = page.until_panel("shutting down", "Reload")
        assert page.closed() == (1001, "the server is shutting down: goodbye")
        assert centre_taken(page), "the board went from the page:\n" + page.text()
        assert page.still_on_screen(), "the page was sent out of the game's screen"
        shot(browser, "sigterm")
        assert served.process.wait(15) == 0
    assert "Reload the page in a few seconds" in said


def test_a_drain_ends_the_game_after_its_round_with_the_result_readable(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path, "--log-format", "json") as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        page.keys("5")
        page.until_drawn(centre_taken, "X in the centre")
        served.process.send_signal(signal.SIGUSR1)
        page.until_drawn(lambda p: "restarts after your" in p.text(), "the drain's notice")
        shot(browser, "drain-notice")
        # A new tab meanwhile is told the server is restarting.
        other = new_tab(browser, served.url + "/")
        other.until_panel("restarting", "few seconds")
        shot(browser, "drain-refused")
        browser.close()
        browser.switch_to.window(browser.window_handles[0])
        play_round(page, lambda cell: page.keys(key_of(cell)))
        page.until_panel("restarted after your round", "Reload")
        shot(browser, "drain-ended")
        text = page.text()
        assert RESULT in text, "the result went from the page:\n" + text
        assert page.still_on_screen(), "the page was sent out of the game's screen"
        assert page.closed() is not None and page.closed()[0] == 4001  # type: ignore[index]
        assert served.process.wait(15) == 0
    endings = [
        record.get("ending")
        for record in map(json.loads, served.log_lines())
        if record.get("event") == "connection.closed"
    ]
    assert endings == ["the game ended after its round: the server is restarting"], endings


def test_the_idle_timeout_is_told_on_the_page(browser: webdriver.Chrome, tmp_path: Path) -> None:
    with serve_web(tmp_path, "--idle-timeout", "2") as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        said = page.until_panel("want of input", "No input for 2 s")
        assert empty_board(page)
        shot(browser, "idle")
    assert "Reload" in said


def test_a_fifth_tab_a_full_server_and_a_foreign_address_are_told_why(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path, "--max-sessions", "5") as served:
        page = open_game(browser, served.url + "/")
        pages = [page]
        for _ in range(3):
            pages.append(new_tab(browser, served.url + "/"))
        for handle, each in zip(browser.window_handles, pages, strict=True):
            browser.switch_to.window(handle)
            until(lambda p=each: p.drawn() and p.read, "the tab's game")  # type: ignore[misc]
        fifth = new_tab(browser, served.url + "/")
        said = fifth.until_panel("too many games", "Close one of your other tabs")
        assert fifth.closed() == (
            4429,
            "too many games from your address (4 at once): finish one first",
        ), said
        shot(browser, "fifth-tab")
        browser.switch_to.window(browser.window_handles[0])
        browser.close()  # the player closes a tab: the log says so
        until(
            lambda: any("closed by the player" in line for line in served.log_lines()),
            "the closed tab in the log",
        )
        browser.switch_to.window(browser.window_handles[0])
    log = "\n".join(served.log_lines())
    assert "127.0.0.1 refused: too many games from your address" in log
    with serve_web(tmp_path, "--max-sessions", "1") as served:
        page = open_game(browser, served.url + "/")
        page.until_drawn(empty_board, "the empty board")
        new_tab(browser, served.url + "/").until_panel("The server is full", "in a minute")
        shot(browser, "full")
    port = free_port()
    public = f"http://game.invalid:{port}"
    with serve_web(tmp_path, "--host", "0.0.0.0", "--public-url", public, port=port) as served:
        page = open_game(browser, served.url + "/")
        page.until_panel("not the server's own address", "another site")
        shot(browser, "foreign-address")
