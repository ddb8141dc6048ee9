"""`tui-tictactoe admin` (issue 31, Moderation; issue 32's `admin drain`): list, end, deny,
rename and drain running `serve-ssh` servers through the record, on one host (the SQLite record
in the data directory) and across two hosts sharing PostgreSQL.

Real parts: `SshServer`s in the test's loop (and the installed `serve-ssh` for the drain),
real asyncssh clients, and the installed `tui-tictactoe admin` run as a host runs it. Nothing
is timed: each wait is for a screen, a listing, a log line or an exit.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import asyncssh
import pytest
import test_serve_ssh
from pty_terminal import command
from test_serve_ssh import START_TIMEOUT, by_key, connect, play, play_round
from test_serve_ssh_deny import told, wide
from test_serve_ssh_hosts import listening_port, processes, serve_ssh
from test_serve_ssh_rooms import (
    ANN_KEY,
    BOB_KEY,
    FINGERPRINT,
    enter,
    hub_of,
    new_room,
    seated,
    until,
)

from tui_tictactoe.cli import build_parser
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.rooms.view import Refused

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
__all__ = ["processes"]  # the fixture, used by name
DENIED = "This server does not accept you"


async def admin(*words: str, data: Path | None = None, status: int = 0) -> str:
    """`tui-tictactoe admin WORDS` as a host runs it; its standard output."""
    env = dict(os.environ)
    if data is not None:
        env["TUI_TICTACTOE_DATA_DIR"] = str(data)
    done = await asyncio.to_thread(
        subprocess.run,
        [*command(), "admin", *words],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == status, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


async def listed(*words: str, data: Path | None = None) -> dict[str, Any]:
    listing: dict[str, Any] = json.loads(await admin(*words, "list", "--json", data=data))
    return listing


async def until_listed(condition: Any, *words: str, data: Path | None = None) -> dict[str, Any]:
    """`admin list` until `condition(listing)` holds (a server publishes within a second)."""
    found: dict[str, Any] = {}

    async def look() -> bool:
        found.update(await listed(*words, data=data))
        return bool(condition(found))

    for _ in range(60):
        if await look():
            return found
        await asyncio.sleep(0.25)
    pytest.fail(f"the listing never showed it: {found}")


def held_only(listing: dict[str, Any], code: str) -> bool:
    """Room `code` listed by its two held seats alone (a listing published before the
    links dropped still shows the players' sessions, two rows too)."""
    rows = [each for each in listing["sessions"] if code in each["rooms"].split()]
    return len(listing["rooms"].get(code, ())) == 2 and {row["kind"] for row in rows} == {"away"}


def sessions_by_name(listing: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {session["name"]: session for session in listing["sessions"]}


async def test_list_end_deny_and_rename_on_one_host(host: Any, tmp_path: Path) -> None:
    deny = tmp_path / "deny"
    deny.write_text("# the host's own list\n", encoding="utf-8")
    hosted = await host(rooms=True, admin=True, deny=deny)
    ann, bob, code = await seated(hosted.port)
    carol = await play(hosted.port, "--difficulty easy", username="carol", local="127.0.0.3")

    listing = await until_listed(
        lambda found: (
            {"ann", "bob", "carol"} <= set(sessions_by_name(found))
            and sessions_by_name(found)["bob"]["rooms"] == code
        )
    )
    seen = sessions_by_name(listing)
    assert seen["ann"]["player"] == FINGERPRINT[ANN_KEY] and seen["ann"]["rooms"] == code
    assert seen["bob"]["address"] == "127.0.0.2"
    assert seen["carol"]["player"] is None and seen["carol"]["kind"] == "ai"
    assert [h["deny_file"] for h in listing["hosts"]] == [str(deny)]
    together = sorted([seen["ann"]["session"], seen["bob"]["session"]])
    assert list(listing["rooms"]) == [code] and sorted(listing["rooms"][code]) == together
    text = await admin("list")
    assert f"{code}  ann, bob" in text or f"{code}  bob, ann" in text
    assert "(guest)" in text and "127.0.0.3" in text

    said = await admin("end", code, "--reason", "abusive room name")
    assert "taken by 1 of 1 hosts" in said
    for player in (ann, bob):
        assert await player.term.wait_closed() == 1
        stderr = player.term.stderr.decode()
        assert f"the host closed room {code}: abusive room name" in stderr
    assert carol.exit_status is None  # not in the room: plays on

    said = await admin("end", seen["carol"]["session"], "--reason", "testing the end")
    assert await carol.wait_closed() == 1
    assert "the host ended this session: testing the end" in carol.stderr.decode()
    await admin("end", "ZZZZ", "--reason", "no such room", status=1)

    await admin("deny", "127.0.0.9", "--for", "1s", "--reason", "a second")  # soon expired
    await asyncio.sleep(1.1)
    said = await admin(
        "deny", "127.0.0.3", "--for", "1h", "--reason", "flooding", "--file", str(deny)
    )
    lines = deny.read_text().splitlines()
    assert lines[0] == "# the host's own list" and lines[1].startswith("127.0.0.9/32 until=")
    assert lines[2].startswith("127.0.0.3/32 until=")  # to the live host's file, or --file
    assert lines[2].endswith("# flooding") and len(lines) == 3
    assert DENIED in await until_refused(hosted.port, "127.0.0.3")  # shared: no SIGHUP
    await admin("deny", "bogus", "--reason", "x", status=1)
    await admin("deny", "127.0.0.4", "--for", "forever", "--reason", "x", status=2)

    await admin("rename", FINGERPRINT[ANN_KEY], "Annabel", "--reason", "asked to")
    await until("the rename read", lambda: FINGERPRINT[ANN_KEY] in hosted.server.renamed)
    annabel, code = await new_room(hosted.port, "ann", key=ANN_KEY)
    bob = await enter(hosted.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    await bob.shows("Waiting for Annabel (X).")

    for action in ("end", "deny", "rename"):
        await hosted.logged(f"{action} ")
    assert any('because "flooding"' in line for line in hosted.log)
    # Read here, in the server's process, only now: a second connection to the SQLite file
    # closed in this process can take the write-ahead log from under the server's.
    record = Record.open()
    try:
        actions = [(a.action, a.reason) for a in record.moderation.actions_after(0)]
        assert (
            len(record.moderation.denied_entries()) == 1
        )  # the expired entry went as one was added
    finally:
        record.close()
    assert ("deny", "flooding") in actions and ("rename", "asked to") in actions
    assert ("end", "abusive room name") in actions
    for session in (annabel, bob):
        session.conn.close()


async def until_refused(port: int, local: str) -> str:
    """Connect from `local` until the server turns it away (the shared list is read each
    second); what it said."""
    for _ in range(40):
        try:
            conn = await connect(port, local=local)
        except asyncssh.DisconnectError as error:
            return str(error.reason)
        conn.close()
        await asyncio.sleep(0.25)
    pytest.fail(f"{local} was never turned away")


async def test_two_hosts_on_postgresql_share_the_list_the_orders_and_the_denials(
    pg_url: str, host: Any
) -> None:
    a = await host(rooms=True, admin=True, database_url=pg_url)
    b = await host(rooms=True, admin=True, database_url=pg_url)
    ann, bob, code = await seated(a.port, b.port)
    url = ("--database-url", pg_url)
    listing = await until_listed(
        lambda found: (
            len(found["hosts"]) == 2
            and {s["rooms"] for s in found["sessions"]} == {code}
            and len(found["sessions"]) == 2
        ),
        *url,
    )
    hosts = {s["name"]: s["host"] for s in listing["sessions"]}
    assert hosts["ann"] != hosts["bob"]  # one room, two hosts
    other = await enter(b.port, None, "ANN", BOB_KEY, local="127.0.0.5")  # ann's name, on B
    await until_listed(lambda found: len(found["sessions"]) == 3, *url)
    record = Record.open_url(pg_url)
    try:  # the name is the key's that used it first, on whichever host
        assert record.moderation.name_owner("ann") == FINGERPRINT[ANN_KEY]
    finally:
        record.close()
    other.conn.close()

    assert "taken by 2 of 2 hosts" in await admin(*url, "end", code, "--reason", "closing it")
    for player in (ann, bob):
        assert await player.term.wait_closed() == 1
        assert "closed room" in player.term.stderr.decode()

    await admin(*url, "deny", "name:eve*", "--for", "10m", "--reason", "spam")
    for hosted in (a, b):
        await until("the shared entry read", lambda h=hosted: h.server.deny.check(name="eve2"))
        assert f"{DENIED}: spam." in await told(hosted.port, username="Eve")
    await admin(*url, "rename", FINGERPRINT[BOB_KEY], "Robert", "--reason", "asked")
    for hosted in (a, b):
        await until("the rename read", lambda h=hosted: h.server.renamed)
    for hosted in (a, b):  # each host logs every action, whichever host's admin ran it
        await hosted.logged("rename ")


async def test_a_name_belongs_to_the_first_key_that_used_it(host: Any, tmp_path: Path) -> None:
    hosted = await host(admin=True)
    ann, bob = FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]
    first = await play(hosted.port, username="alice", key=ANN_KEY)
    record = Record.open()
    try:
        await until("the name claimed", lambda: record.moderation.name_owner("alice") == ann)
        second = await play(hosted.port, username=wide("ALICE"), key=BOB_KEY, local="127.0.0.2")
        await until_listed(lambda found: len(found["sessions"]) == 2)
        assert (
            record.moderation.name_owner("Alice") == ann
        )  # NFKC and case: the same name, still ann's
        won = FinishedRound("medium", "X", "human", (1, 4, 2, 5, 3), "win", display_name="alice")
        for key in (bob, ann):  # both keep rounds under the name
            assert record.save_round(key, won)
        labels = {entry.player: entry.label for entry in record.leaderboard().medium_wins}
    finally:
        record.close()
    assert labels[ann] == "alice"  # the owner under the name
    assert labels[bob] == f"alice ({bob[:15]}…)"  # the other with its fingerprint
    for term in (first, second):
        term.send("q")
        assert await term.wait_closed() == 0


async def test_admin_lists_and_ends_a_room_both_players_left(host: Any) -> None:
    """Issue 35: a room whose players' links both dropped (their seats held for the grace)
    had no live session, so `admin list` did not show it and `admin end` found no room."""
    hosted = await host(rooms=True, admin=True)
    ann, bob, code = await seated(hosted.port)
    hub = hub_of(hosted)
    for player in (ann, bob):
        player.conn.abort()
    await until("both seats away", lambda: len(hub.away_seats()) == 2)

    listing = await until_listed(lambda found: held_only(found, code))
    away = [each for each in listing["sessions"] if each["rooms"] == code]
    assert sorted((each["name"], each["kind"]) for each in away) == [
        ("ann", "away"),
        ("bob", "away"),
    ]
    assert {each["player"] for each in away} == {FINGERPRINT[ANN_KEY], FINGERPRINT[BOB_KEY]}
    text = await admin("list")
    assert f"{code}  bob (away), ann (away)" in text or f"{code}  ann (away), bob (away)" in text

    said = await admin("end", code, "--reason", "left open")
    assert "taken by 1 of 1 hosts" in said
    await until("the room closed", lambda: hub.away_seats() == [])
    with pytest.raises(Refused):
        hub.view(code)
    await until_listed(lambda found: code not in found["rooms"])


async def test_admin_lists_once_and_ends_a_room_both_players_left_on_postgresql(
    pg_url: str, host: Any
) -> None:
    """Issue 35 with `--database-url`: a room of two hosts whose players' links both
    dropped is listed once (not once per host) and `admin end` closes it on every host."""
    a = await host(rooms=True, admin=True, database_url=pg_url)
    b = await host(rooms=True, admin=True, database_url=pg_url)
    ann, bob, code = await seated(a.port, b.port)
    for player in (ann, bob):
        player.conn.abort()
    url = ("--database-url", pg_url)
    record = Record.open_url(pg_url)
    try:  # each host publishes both held seats: four rows in the record
        await until(
            "both hosts' held seats published",
            lambda: (
                [s.kind for s in record.moderation.live("")[1] if s.rooms == code] == ["away"] * 4
            ),
        )
    finally:
        record.close()
    listing = await until_listed(lambda found: held_only(found, code), *url)
    away = [each for each in listing["sessions"] if each["rooms"] == code]
    assert sorted((each["name"], each["kind"]) for each in away) == [
        ("ann", "away"),
        ("bob", "away"),
    ]
    text = await admin(*url, "list")
    assert f"{code}  bob (away), ann (away)" in text or f"{code}  ann (away), bob (away)" in text

    assert "taken by 2 of 2 hosts" in await admin(*url, "end", code, "--reason", "left open")
    for hosted in (a, b):
        hub = hosted.server.rooms.postgres

        async def gone(hub: Any = hub) -> bool:
            try:
                await hub.view(code)
            except Refused:
                return True
            return False

        for _ in range(60):
            if await gone():
                break
            await asyncio.sleep(0.25)
        else:
            pytest.fail(f"room {code} was never closed")
    await until_listed(lambda found: code not in found["rooms"], *url)
    again = await enter(b.port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.3")
    await again.shows(f"There is no room {code}: check the code.")
    again.send("q")
    assert await again.term.wait_closed() == 0


async def test_admin_drain_ends_the_server_once_its_round_has_finished(
    processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    server = serve_ssh(["--port", "0", "--no-rooms"], data)
    processes.append(server)
    port, _ = await listening_port(server)
    term = await play(port, "--difficulty easy")
    term.send("5")
    await term.wait_until("the AI's reply", lambda: "AI played" in term.status())
    await until_listed(lambda found: len(found["sessions"]) == 1, data=data)
    said = await admin("drain", "--reason", "deploying", data=data)
    assert "taken by 1 of 1 hosts" in said
    await term.wait_until("the notice", lambda: "This server restarts after your" in term.text)
    assert server.poll() is None  # the round still in play: the server waits for it
    await play_round(term, by_key(term))
    assert await asyncio.to_thread(server.wait, START_TIMEOUT) == 0
    assert server.stderr is not None
    log = server.stderr.read().decode()
    assert "drain" in log and 'because "deploying"' in log and "drained" in log, log
    assert not (await listed(data=data))["hosts"]  # gone from the list as it stopped


def test_the_database_url_goes_before_or_after_the_action() -> None:
    parser = build_parser()
    for words in (["--database-url", "U", "list"], ["list", "--database-url", "U"]):
        assert parser.parse_args(["admin", *words]).database_url == "U"
    assert parser.parse_args(["admin", "list"]).database_url is None


async def test_bad_words_are_one_line_and_change_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    said = await admin("rename", "alice", "x", "--reason", "r", data=data, status=1)
    assert "SHA256:" in said
    key = FINGERPRINT[ANN_KEY]
    said = await admin("rename", key, "a\x1b[2Jb", "--reason", "r", data=data, status=1)
    assert "\x1b" not in said
    said = await admin("drain", "--reason", "r", data=data, status=1)
    assert "no live server" in said
    said = await admin("end", "abc", "--reason", "r", data=data, status=1)
    said = await admin("end", "ABCD", data=data, status=2)
    assert "--reason" in said
    file = tmp_path / "deny"
    file.write_text("# the host's own list\n", encoding="utf-8")
    for pattern in ("name:*#bot", "name:evil guy", "name:\uff45vil\uff03"):  # (issue 35, 5)
        said = await admin(
            "deny", pattern, "--reason", "r", "--file", str(file), data=data, status=1
        )
        assert "no spaces and no '#'" in said and said.count("\n") == 1, said
    said = await admin(
        "deny",
        "127.0.0.2",
        "--for",
        "999999w",
        "--reason",
        "r",
        "--file",
        str(file),
        data=data,
        status=2,
    )
    assert "longer than 520w" in said and "Overflow" not in said, said
    assert file.read_text(encoding="utf-8") == "# the host's own list\n"
    record = Record.open(data / "record.sqlite3")
    try:
        assert not record.moderation.admin_names()
        assert not record.moderation.denied_entries()
    finally:
        record.close()
