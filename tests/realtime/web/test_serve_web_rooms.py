"""Rooms from the browser (issue 40, part 4): a real headless Chromium on `serve-web`, and
real SSH clients (asyncssh) on `serve-ssh`, in one room.

A host's rooms live in one server's memory, so a serve-ssh and a serve-web process share
them through PostgreSQL (`--database-url` on both, a throwaway cluster: `pg_cluster.py`),
as hosts of one world do; one serve-web alone hosts its own rooms in memory, where two
tabs meet. Each browser state is saved as a screenshot (`browser_tools.SHOTS`). The
browser's calls block, so they run in a thread while the SSH clients read in the loop.
Nothing is timed: each wait is for a screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import asyncssh
import pytest
from browser_tools import Page, browser, new_tab, open_game, shot, until
from selenium import webdriver
from selenium.webdriver.common.keys import Keys
from server_tools import Served, serve_web
from ssh_player import SshPlayer, enter, serve_ssh

from tui_tictactoe.record.location import DATABASE_URL_ENV

__all__ = ["browser"]  # the module's browser, a fixture

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")

SEAT_KEY = "tui-tictactoe.seat"


async def shows(page: Page, text: str) -> None:
    """Wait (in a thread: the browser's calls block) until the page's terminal shows `text`."""
    await asyncio.to_thread(page.until_drawn, lambda p: text in p.text(), repr(text))


async def keys(page: Page, text: str) -> None:
    await asyncio.to_thread(page.keys, text)


def kept_seat(page: Page) -> Any:
    return page.browser.execute_script(f"return window.sessionStorage.getItem('{SEAT_KEY}');")


async def play(moves: list[tuple[SshPlayer | Page, str]], others: Callable[[str], Any]) -> None:
    """Each move in turn, waiting for the other side to hear of it (`others(cell)`)."""
    for mover, cell in moves:
        if isinstance(mover, Page):
            await keys(mover, cell)
        else:
            mover.send(cell)
        await others(cell)


# -- a browser guest and an SSH player, on two servers of one database ----------------------


class World(NamedTuple):
    """A serve-ssh (its port) and a serve-web on one database (its URL)."""

    ssh_port: int
    web: Served
    database: str


@pytest.fixture
def world(pg_url: str, tmp_path: Path) -> Iterator[World]:
    ssh_server, port = serve_ssh(["--database-url", pg_url, "--no-fork-server"], tmp_path / "ssh")
    try:
        with serve_web(tmp_path, "--database-url", pg_url) as web:
            yield World(port, web, pg_url)
    finally:
        ssh_server.terminate()
        try:
            ssh_server.wait(10)
        except subprocess.TimeoutExpired:
            ssh_server.kill()
            ssh_server.wait(10)


async def test_a_browser_guest_joins_an_ssh_players_room_and_they_play_it_to_the_end(
    browser: webdriver.Chrome, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    port, web, database = world
    ann = await enter(port, "--room new", "ann", ANN_KEY)
    found = await ann.matches(r"Waiting for a second player: give them the code ([A-Z]{4})\.")
    code = found.group(1)
    page = await asyncio.to_thread(open_game, browser, f"{web.url}/?join={code}")
    await shows(page, "Waiting for ann (X).")
    await shows(page, f"Room {code} · ann (X) vs guest (O)")
    await shows(page, "Your seat back: reload this page (this tab keeps it)")
    await ann.shows("Your turn: you play X.")
    assert "guest" in ann.text
    seat = await asyncio.to_thread(kept_seat, page)
    assert seat is not None and f'"code":"{code}"' in seat, seat  # the tab keeps the seat
    assert "token" not in (await asyncio.to_thread(lambda: browser.current_url))

    async def heard(cell: str) -> None:
        board = {"1", "2", "3"}
        if cell in board:  # ann's: the guest's turn
            await shows(page, f"ann played {cell}. Your turn: you play O.")
        else:
            await ann.shows(f"guest played {cell}. Your turn: you play X.")

    await play([(ann, "1"), (page, "4"), (ann, "2"), (page, "5")], heard)
    await asyncio.to_thread(shot, browser, "rooms-browser-guest-mid-round")
    ann.send("3")
    await ann.shows("ann wins!")
    await shows(page, "ann wins!")
    await asyncio.to_thread(shot, browser, "rooms-browser-guest-round-over")

    ann.send("r")  # the rematch, asked over SSH, agreed in the browser
    await shows(page, "ann wants a rematch: press r.")
    await keys(page, "r")
    await shows(page, "Your turn: you play O.")
    await ann.shows("ann 1 · guest 0 · draws 0 · round 2")

    monkeypatch.setenv(DATABASE_URL_ENV, database)
    from tui_tictactoe.record import Record

    record = Record.open()
    rounds = record.people.rounds(ANN_KEY.get_fingerprint("sha256"))
    assert [(r.symbol, r.opponent, r.result, r.rated) for r in rounds] == [
        ("X", "guest", "win", False)  # a browser guest is a guest: unrated
    ]


async def test_a_browser_guest_is_matched_with_a_stranger_over_ssh(
    browser: webdriver.Chrome, world: World
) -> None:
    page = await asyncio.to_thread(open_game, browser, f"{world.web.url}/?match")
    await shows(page, "Waiting")
    await asyncio.to_thread(shot, browser, "rooms-browser-match-waiting")
    bob = await enter(world.ssh_port, "--match", "bob", BOB_KEY, local="127.0.0.2")
    found = await bob.matches(r"Room ([A-Z]{4}) · (\w+) \(X\) vs (\w+) \(O\)")
    code, x_name = found.group(1), found.group(2)
    await shows(page, f"Room {code} · {x_name} (X) vs")
    if x_name == "bob":  # X, the lower rating, starts: a tie either way
        await bob.shows("Your turn: you play X.")
        bob.send("5")
        await shows(page, "bob played 5. Your turn: you play O.")
    else:
        await shows(page, "Your turn: you play X.")
        await keys(page, "5")
        await bob.shows("guest played 5. Your turn: you play O.")
    await asyncio.to_thread(shot, browser, "rooms-browser-quick-match")
    assert code in str(await asyncio.to_thread(kept_seat, page))  # the match's seat, kept


# -- one serve-web: its own rooms in memory ------------------------------------------------


def room_code(page: Page) -> str:
    found = until(
        lambda: re.search(r"give them the code ([A-Z]{4})\.", page.text()),
        "a room's code",
    )
    return str(found.group(1))


def test_a_reload_gets_a_guest_their_seat_back(browser: webdriver.Chrome, tmp_path: Path) -> None:
    with serve_web(tmp_path) as web:
        ann = open_game(browser, f"{web.url}/?room=new")
        code = room_code(ann)
        assert f"Friend: {web.url}/?join={code}" in ann.text()
        ann_tab = browser.current_window_handle
        bob = new_tab(browser, f"{web.url}/?join={code}")
        bob.until_drawn(lambda p: "Waiting for guest (X)." in p.text(), "bob seated")
        bob_tab = browser.current_window_handle
        token = kept_seat(bob)
        assert token and code in token

        browser.switch_to.window(ann_tab)
        ann.until_drawn(lambda p: "Your turn: you play X." in p.text(), "ann's turn")
        ann.keys("5")
        browser.switch_to.window(bob_tab)
        bob.until_drawn(lambda p: "Your turn: you play O." in p.text(), "bob's turn")

        secret = json.loads(token)["token"]
        browser.refresh()  # the tab's session storage keeps the seat; the address has no token
        again = Page(browser)
        again.until_drawn(lambda p: "Your turn: you play O." in p.text(), "bob's seat back")
        assert f"Room {code}" in again.text()
        assert again.board() is not None and again.board()[(1, 1)] == "X"  # type: ignore[index]
        shot(browser, "rooms-browser-reload-seat-back")
        assert kept_seat(again) != token  # the seat's new token, kept again
        assert secret not in browser.current_url
        assert not any(secret in line for line in command_lines())  # nor on a command line
        again.keys("1")
        browser.switch_to.window(ann_tab)
        ann.until_drawn(lambda p: "guest played 1. Your turn" in p.text(), "the move after reload")
        watcher = new_tab(browser, f"{web.url}/?watch={code}")  # a spectator, from the page
        watcher.until_drawn(lambda p: "guest to play." in p.text(), "the room watched")
        assert kept_seat(watcher) is None  # a spectator holds no seat


def command_lines() -> list[str]:
    """Every process's command line on this machine (what any local user can read)."""
    lines = []
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            lines.append(path.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
    return lines


def test_rooms_opened_from_browsers_are_counted_per_address(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with serve_web(tmp_path, "--rooms-per-address", "1") as web:
        first = open_game(browser, f"{web.url}/?room=new")
        room_code(first)
        second = new_tab(browser, f"{web.url}/?room=new")
        second.until_drawn(
            lambda p: "This address has 1 rooms open: close one first." in p.text(),
            "the second room refused",
        )
        shot(browser, "rooms-browser-rooms-per-address")
        lobby = new_tab(browser, f"{web.url}/?lobby")  # the lobby, as serve-ssh's
        lobby.until_drawn(lambda p: "Play someone (quick match)" in p.text(), "the lobby")
        lobby.keys(Keys.DOWN + Keys.ENTER)  # a new room: refused for this address too
        lobby.until_drawn(lambda p: "This address has 1 rooms open" in p.text(), "refused")
        shot(browser, "rooms-browser-lobby")


def test_a_bad_room_address_is_told_on_the_page(browser: webdriver.Chrome, tmp_path: Path) -> None:
    with serve_web(tmp_path) as web:
        page = open_game(browser, f"{web.url}/?join=no!")
        said = page.until_panel("address")
        assert page.closed() is not None and page.closed()[0] == 4400  # type: ignore[index]
        assert "code" in said.lower(), said
    with serve_web(tmp_path, "--no-rooms") as web:
        page = open_game(browser, f"{web.url}/?lobby")
        said = page.until_panel("no rooms")
        shot(browser, "rooms-browser-no-rooms")
