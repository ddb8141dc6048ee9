"""Names that cannot be borrowed over `serve-ssh` (issue 35): a key owns 3 names, new names
are counted per address, reserved and invisible names are refused at login, and a name
another key owns carries its mark ("guest", a fingerprint) in the lobby and a room's title.

Real parts: `SshServer`s in the test's loop with the record as the admin's channel (the
SQLite record in the test's data directory), real asyncssh clients and game processes,
screens read off `pyte`. Nothing is timed: each wait is for a screen or an exit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncssh
import pytest
import test_serve_ssh
from test_serve_ssh import connect, open_game, play
from test_serve_ssh_deny import told
from test_serve_ssh_plain import PROMPT, Lines
from test_serve_ssh_rooms import ANN_KEY, BOB_KEY, FINGERPRINT, enter
from test_server_config import printed, run

from tui_tictactoe.record import Record
from tui_tictactoe.record.names import mark_of
from tui_tictactoe.servers import names

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log


async def session_under(
    port: int, name: str, key: asyncssh.SSHKey | None, local: str, told: str | None = None
) -> None:
    """A session's game under `name` (its first frame: the name is claimed by then), quit;
    if `told`, once the screen has said it (the words, however the toast wraps them)."""
    term = await play(port, "--difficulty easy", username=name, key=key, local=local)
    if told is not None:
        await term.wait_until(repr(told), lambda: told in flowing(term.text))
    term.send("q")
    assert await term.wait_closed() == 0


def flowing(screen: str) -> str:
    """A toast's words in one line: what follows its left border (▌) on each line, joined
    (the board shows through on the left)."""
    toast = [line.rpartition("\u258c")[2] for line in screen.splitlines() if "\u258c" in line]
    return " ".join(" ".join(toast).split())


async def plain_told(port: int, name: str, key: asyncssh.SSHKey, local: str) -> str:
    """What `--plain` says before its board for a session under `name`: its first line."""
    conn = await connect(port, username=name, key=key, local=local)
    term = await open_game(conn, "--plain --difficulty easy", term_type=None)
    await Lines(term).expect(PROMPT)
    assert term.chan is not None
    term.chan.write_eof()  # the end of input ends a plain game
    assert await term.wait_closed() == 0
    return bytes(term.output).decode().splitlines()[0]


def owners(*named: str) -> list[str | None]:
    with Record.open() as record:
        return [record.moderation.name_owner(name) for name in named]


async def test_a_key_owns_three_names_and_takes_no_fourth(host: Any) -> None:
    """And is told so as its game starts (it plays under the name, which stays free), on
    the screen and in `--plain`; the names it owns are told nothing."""
    hosted = await host(admin=True)
    tried = ["admin0", "root0", "support0", "moderator0"]
    for name in tried[:3]:
        await session_under(hosted.port, name, ANN_KEY, "127.0.0.1")
    full = "moderator0 stays nobody's: your key owns 3 names already"
    await session_under(hosted.port, "moderator0", ANN_KEY, "127.0.0.1", told=full)
    assert owners(*tried) == [FINGERPRINT[ANN_KEY]] * 3 + [None]
    assert (await plain_told(hosted.port, "moderator0", ANN_KEY, "127.0.0.1")).startswith(
        f"Name: {full}"
    )
    assert not (await plain_told(hosted.port, "admin0", ANN_KEY, "127.0.0.1")).startswith("Name")
    await session_under(hosted.port, "moderator0", BOB_KEY, "127.0.0.2")
    assert owners("moderator0") == [FINGERPRINT[BOB_KEY]]  # free for another key


async def test_new_names_are_counted_per_address(
    host: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(names, "NEW_NAMES_PER_ADDRESS", 2)
    hosted = await host(admin=True)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    for number, key in enumerate(keys):  # a fresh key each time, one address
        await session_under(hosted.port, f"name{number}", key, "127.0.0.3")
    taken = [key.get_fingerprint("sha256") for key in keys[:2]]
    assert owners("name0", "name1", "name2") == [*taken, None]
    told = "name2 stays nobody's for now: your address has taken 2 new names this hour."
    assert await plain_told(hosted.port, "name2", keys[2], "127.0.0.3") == f"Name: {told}"
    await session_under(hosted.port, "name2", keys[2], "127.0.0.4")  # another address may
    assert owners("name2") == [keys[2].get_fingerprint("sha256")]


async def test_reserved_and_invisible_names_are_refused_in_one_line(host: Any) -> None:
    hosted = await host(admin=True, reserved_names=("alice",))
    for name in ("alice", "\u0430lice", "ALICE"):  # the host's list, and its look-alikes
        said = await told(hosted.port, username=name, key=ANN_KEY)
        assert "that name is reserved on this server" in said
        assert said.strip().count("\n") == 0
    # The Braille blank, Hangul fillers, a blank note (format characters do not get here:
    # asyncssh's client refuses them, by SASLprep; the unit tests send them).
    for name in ("bob\u2800", "bo\u115fb", "bob\u3164", "bo\U0001d159b"):
        said = await told(hosted.port, username=name)
        assert "a name cannot hold invisible or non-printing characters" in said
    await session_under(hosted.port, "bob", None, "127.0.0.1")  # a name of its own plays
    defaults = await host(admin=True)  # the default list: root and the rest
    assert "reserved" in await told(defaults.port, username="root", key=BOB_KEY)
    assert owners("alice", "root") == [None, None]


def test_the_reserved_names_are_one_setting_printed_and_read_back(tmp_path: Path) -> None:
    assert printed(run("serve-ssh", "--print-config"))["reserved-names"].startswith('["admin", ')
    shown = run("serve-ssh", "--reserved-names", "alice, bob", "--print-config")
    assert printed(shown)["reserved-names"] == '["alice", "bob"]'  # two names, not HOST:PORT
    again = tmp_path / "names.toml"
    again.write_text(shown.stdout, encoding="utf-8")
    assert run("serve-ssh", "--config", str(again), "--print-config").stdout == shown.stdout


async def test_a_guest_and_a_look_alike_of_an_owned_name_are_marked_for_others(
    host: Any,
) -> None:
    hosted = await host(rooms=True, admin=True)
    await session_under(hosted.port, "alice", ANN_KEY, "127.0.0.1")  # alice is ann's
    guest = await enter(hosted.port, "--room new --public", "alice", local="127.0.0.2")
    found = await guest.matches(r"give them the code ([A-Z]{4})")
    code = found.group(1)
    twin = await enter(hosted.port, "--room new --public", "\u0430lice", BOB_KEY, "127.0.0.3")
    await twin.matches(r"give them the code ([A-Z]{4})")
    carol = await enter(hosted.port, None, "carol", local="127.0.0.4")  # the lobby
    await carol.shows(f"{code} · \u201calice (guest)\u201d")
    await carol.shows(f"\u201c\u0430lice ({mark_of(FINGERPRINT[BOB_KEY])})\u201d")
    assert " alice · " not in carol.text  # never bare beside the real alice
    carol.send("\x1b")  # from the list to the code box is the lobby's own; join by option
    watcher = await enter(hosted.port, f"--watch {code}", "dave", local="127.0.0.5")
    await watcher.shows("\u201calice (guest)\u201d (X)")  # the room's title
    owner = await enter(hosted.port, None, "alice", ANN_KEY, "127.0.0.6")
    await owner.shows(f"{code} · \u201calice (guest)\u201d")  # the owner sees the guest marked
