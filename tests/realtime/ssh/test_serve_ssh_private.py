"""Private rooms over `serve-ssh` end to end (issue 28): real SSH clients (asyncssh), real
game processes, screens read off `pyte`, each person from an address of their own on
loopback. A stranger's lobby never shows a private room's code or its players; a watch
of a room closed to spectators reads exactly as a code that names no room; a friend
joins with the code; a public room is listed and joined from the lobby; rooms that
outlive their sessions are counted against the address that made them."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import test_serve_ssh
from test_serve_ssh_rooms import Session, enter, hub_of, new_room

from tui_tictactoe.rooms.room import ROOMS_PER_ADDRESS
from tui_tictactoe.ui.rooms.lobby_screen import REFRESH

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop


async def never_shows(session: Any, words: tuple[str, ...], seconds: float) -> None:
    """The whole screen, read again and again for `seconds` (the lobby re-reads the rooms
    every `REFRESH` s), never has any of `words`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = session.text
        assert not any(word in text for word in words), text
        await asyncio.sleep(0.1)


async def test_a_private_room_is_not_in_a_strangers_lobby_and_a_friend_joins_by_code(
    host: Any,
) -> None:
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port, "annabel", local="127.0.0.2")
    stranger = await enter(hosted.port, None, "stranger", local="127.0.0.3")
    await stranger.shows("Public rooms")
    await stranger.shows("No public rooms.")
    await never_shows(stranger, (code, "annabel"), 2.5 * REFRESH)
    friend = await enter(hosted.port, f"--join {code}", "friend", local="127.0.0.4")
    await friend.shows(f"Room {code} · annabel (X) vs friend (O)")
    await ann.shows("Your turn: you play X.")
    await never_shows(stranger, (code, "annabel", "friend"), REFRESH + 1)


async def test_a_watch_of_a_room_closed_to_spectators_reads_as_a_code_of_no_room(
    host: Any,
) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, "ann", local="127.0.0.2")
    await enter(port, f"--join {code}", "bob", local="127.0.0.3")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.4")
    await carol.shows("ann to play.")
    ann.send("w")
    await ann.shows("Watching off: spectators were sent away.")
    await ann.shows("w Allow watchers")  # the key bar says what w does now
    await carol.shows("The players turned watching off: press q.")
    assert hub_of(hosted).view(code).watchers == 0
    nowhere = "ZZZZ" if code != "ZZZZ" else "YYYY"
    screens = []
    for typed in (code, nowhere):
        eve = await enter(port, f"--watch {typed}", "eve", local="127.0.0.5")
        await eve.shows(f"There is no room {typed}: check the code.")
        await eve.shows("l Lobby")  # the refusal's own screen, not the room's last frame
        screens.append(eve.text.replace(typed, "CODE"))
        eve.send("q")
        assert await eve.term.wait_closed() == 0
    assert screens[0] == screens[1]  # the same answer, the same screen
    ann.send("w")
    await ann.shows("Watching on: people with the code may watch.")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.4")
    await carol.shows("ann to play.")


async def test_a_public_room_is_listed_and_joined_from_the_lobby_until_made_private(
    host: Any,
) -> None:
    hosted = await host(rooms=True)
    ann = await enter(hosted.port, "--room new --public", "ann", local="127.0.0.2")
    code = (await ann.matches(r"give them the code ([A-Z]{4})\.")).group(1)
    await ann.shows("p Make private")
    stranger = await enter(hosted.port, None, "stranger", local="127.0.0.3")
    await stranger.shows(f"{code} · ann · 3x3 · a seat free")
    stranger.send("tab", "tab", "enter")  # the menu, the code box, the list: Enter joins
    await stranger.shows(f"Room {code} · ann (X) vs stranger (O)")
    await ann.shows("Your turn: you play X.")
    other = await enter(hosted.port, None, "olive", local="127.0.0.4")
    await other.shows(f"{code} · ann vs stranger · 3x3 · full: watch")
    ann.send("p")
    await ann.shows("Private: only people with the code get in.")
    await other.shows("No public rooms.")  # read again within REFRESH s
    await never_shows(other, (code, "ann"), REFRESH + 1)


async def test_rooms_left_behind_by_dropped_sessions_are_counted_per_address(
    host: Any,
) -> None:
    """One address, up to 4 sessions at once, opening rooms and dropping the link: each
    room waits out its players' grace, and counts against the address till it goes."""
    hosted = await host(rooms=True, max_per_address=4)
    made: list[str] = []
    refused = 0
    for _ in range(2 * ROOMS_PER_ADDRESS):
        batch = [
            await enter(hosted.port, "--room new", f"SPAM-ROOM-{n}", local="127.0.0.9")
            for n in range(2)
        ]
        for session in batch:

            def answered(session: Session = session) -> bool:
                return "give them the code" in session.text or "rooms open" in session.text

            await session.term.wait_until("a room or a refusal", answered)
            if "rooms open" in session.text:
                assert f"This address has {ROOMS_PER_ADDRESS} rooms open" in session.text
                refused += 1
            else:
                made.append((await session.matches(r"the code ([A-Z]{4})\.")).group(1))
            session.conn.close()  # dropped: the seat (and the room) wait out the grace
        for session in batch:
            await session.term.wait_closed()
    live = [code for code in made if not hub_of(hosted).view(code).closed]  # none gone yet
    assert len(made) == ROOMS_PER_ADDRESS and len(live) == ROOMS_PER_ADDRESS
    assert refused == 2 * 2 * ROOMS_PER_ADDRESS - ROOMS_PER_ADDRESS
    friend = await enter(hosted.port, "--room new", "friend", local="127.0.0.10")
    await friend.shows("give them the code")  # another address is not held back
