"""Rooms over `serve-ssh` end to end: real SSH clients (asyncssh, and OpenSSH in a pty),
real game processes, the hub in the server's process, on loopback.

Every session is its own game process that reaches the hub over its socket; what a
player sees is read off a `pyte` screen fed by the SSH channel (the helpers of
`test_serve_ssh`). The server runs in the test's event loop, so the hub's own view
(`hosted.server.rooms.hub`) is there to compare every screen's board against. No
fixed sleeps: each wait polls until its text is on screen, or fails with the screen.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from pathlib import Path
from typing import Any

import asyncssh
import pexpect
import pyte
import pytest
import test_serve_ssh
from asyncssh.saslprep import SASLPrepError, saslprep
from hostile import HOSTILE
from pty_terminal import SGR, Terminal
from server_tools import game_pids
from test_serve_ssh import STEP_TIMEOUT, SSHTerminal, connect, open_game

from tui_tictactoe.identity import displayable, set_apart
from tui_tictactoe.record import Record
from tui_tictactoe.rooms.limits import RoomLimits
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.view import RoomView
from tui_tictactoe.servers.arguments import public_address
from tui_tictactoe.servers.room_service import friend_address

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
FINGERPRINT = {key: key.get_fingerprint("sha256") for key in (ANN_KEY, BOB_KEY)}


# -- helpers ----------------------------------------------------------------------------


class Session:
    """One player's SSH connection and the terminal of its one session."""

    def __init__(self, conn: asyncssh.SSHClientConnection, term: SSHTerminal) -> None:
        self.conn, self.term = conn, term

    @property
    def text(self) -> str:
        return self.term.text

    async def shows(self, text: str, timeout: float = STEP_TIMEOUT) -> None:
        await self.term.wait_until(repr(text), lambda: text in self.term.text, timeout)

    async def matches(self, pattern: str) -> re.Match[str]:
        await self.term.wait_until(pattern, lambda: re.search(pattern, self.term.text) is not None)
        found = re.search(pattern, self.term.text)
        assert found is not None
        return found

    def send(self, *keys: str) -> None:
        self.term.send(*keys)


async def enter(
    port: int,
    command: str | None,
    username: str,
    key: asyncssh.SSHKey | None = None,
    local: str = "127.0.0.1",
    cols: int = 80,
    rows: int = 24,
) -> Session:
    conn = await connect(port, username=username, key=key, local=local)
    return Session(conn, await open_game(conn, command, cols=cols, rows=rows))


async def new_room(port: int, username: str = "ann", **options: Any) -> tuple[Session, str]:
    """A room opened by `username` (`--room new`), and its code as the screen shows it."""
    ann = await enter(port, "--room new", username, **options)
    found = await ann.matches(r"Waiting for a second player: give them the code ([A-Z]{4})\.")
    code = found.group(1)
    assert f"Room {code}" in ann.text
    return ann, code


async def seated(port: int, bob_port: int | None = None) -> tuple[Session, Session, str]:
    """ann's new room (her key), bob in it (his key, from 127.0.0.2, through `bob_port` if
    another host's), and ann's first turn on her screen: the start of most room tests."""
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(bob_port or port, f"--join {code}", "bob", BOB_KEY, local="127.0.0.2")
    await ann.shows("Your turn: you play X.")
    return ann, bob, code


def hub_of(hosted: Any) -> MemoryHub:
    rooms = hosted.server.rooms
    assert rooms is not None, "the server runs without rooms"
    hub = rooms.hub
    assert isinstance(hub, MemoryHub)
    return hub


def hub_board(view: RoomView) -> dict[tuple[int, int], str]:
    """The hub's board, as `SSHTerminal.board` reads a screen's."""
    board = {(row, col): "" for row in range(view.size) for col in range(view.size)}
    mark = view.first
    for key in view.moves:
        board[divmod(key - 1, view.size)] = mark
        mark = "O" if mark == "X" else "X"
    return board


async def same_board_as_the_hub(session: Session, view: RoomView) -> None:
    expected = hub_board(view)
    await session.term.wait_until(
        f"the hub's board {expected}", lambda: session.term.visible_board() == expected
    )


async def until(what: str, condition: Any, timeout: float = STEP_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        await asyncio.sleep(0.05)


def record_of(tmp_path: Path) -> Record:
    """The record the games wrote (the fixture's data directory, which they inherit)."""
    assert (tmp_path / "data").is_dir()
    return Record.open()


# -- a whole round, with a spectator, kept in the record ----------------------------------


async def test_create_join_watch_a_round_the_rematch_and_leaving(host: Any, tmp_path: Path) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    assert f"Friend: ssh -t -p {port} localhost -- --join {code}" in ann.text
    assert "--seat" not in ann.text  # a keyed player needs no seat token
    bob = await enter(port, f"--join {code.lower()}", "bob", BOB_KEY, local="127.0.0.2")
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.3")
    await ann.shows("Your turn: you play X.")
    await bob.shows("Waiting for ann (X).")
    await carol.shows("ann to play.")
    await ann.shows(f"Room {code} · ann (X) vs bob (O) · 1 watching")
    await ann.shows(f"Watch: ssh -t -p {port} localhost -- --watch {code}")

    bob.send("1")  # out of turn: the hub refuses, and bob reads why
    await bob.shows("Not your turn: ann plays X.")
    for mover, other, cell in ((ann, bob, 1), (bob, ann, 4), (ann, bob, 2), (bob, ann, 5)):
        name, mark = ("ann", "O") if mover is ann else ("bob", "X")
        mover.send(str(cell))
        await other.shows(f"{name} played {cell}. Your turn: you play {mark}.")
        await carol.shows(f"{name} played {cell}. {'bob' if mover is ann else 'ann'} to play.")
    ann.send("3")
    for session in (ann, bob, carol):
        await session.shows("ann wins!")
        await same_board_as_the_hub(session, hub_of(hosted).view(code))
    view = hub_of(hosted).view(code)
    assert view.result == "X" and view.moves == (1, 4, 2, 5, 3)

    ann.send("r")
    await ann.shows("Waiting for bob to press r.")
    await bob.shows("ann wants a rematch: press r.")
    bob.send("r")
    await bob.shows("Your turn: you play O.")  # the rematch: the other starts
    await ann.shows("ann 1 · bob 0 · draws 0 · round 2")
    bob.send("5")
    await ann.shows("bob played 5. Your turn: you play X.")
    ann.send("q")  # mid-round: asked once
    await ann.shows("Leave and abandon the round?")
    ann.send("y")
    assert await ann.term.wait_closed() == 0
    await bob.shows("ann left: the round is abandoned.")
    await carol.shows("ann left: the round is abandoned.")

    record = record_of(tmp_path)
    try:  # each round kept once though both sessions saved it; both ratings moved once
        await until(
            "both rounds kept", lambda: len(record.people.rounds(FINGERPRINT[ANN_KEY])) == 2
        )
        rounds = record.people.rounds(FINGERPRINT[BOB_KEY])  # newest first, bob's side
        assert [(r.kind, r.symbol, r.first, r.opponent, r.result, r.left_by) for r in rounds] == [
            ("room", "O", "O", "ann", "abandoned", "X"),
            ("room", "O", "X", "ann", "loss", None),
        ]
        assert [r.moves for r in rounds] == [(5,), (1, 4, 2, 5, 3)]
        assert all(r.rated for r in rounds)
        ratings = {entry.player: (entry.rating, entry.games) for entry in record.people.ratings()}
        # ann won the first (+16), then left the second: her loss, 32 * 0.546 from 1216
        assert ratings == {FINGERPRINT[ANN_KEY]: (1199, 2), FINGERPRINT[BOB_KEY]: (1201, 2)}
    finally:
        record.close()


async def test_a_third_player_is_told_the_room_is_full_and_how_to_watch(host: Any) -> None:
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port)
    await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")
    await ann.shows("Your turn: you play X.")
    dave = await enter(hosted.port, f"--join {code}", "dave", local="127.0.0.3")
    await dave.shows(f"Room {code} is full: watch it with --watch {code}.")
    await dave.shows("w Watch  l Lobby  ? Help  q Quit")
    dave.send("q")
    assert await dave.term.wait_closed() == 0
    dave = await enter(hosted.port, f"--watch {code}", "dave", local="127.0.0.3")
    await dave.shows("ann to play.")


# -- a dropped link, and the grace --------------------------------------------------------


async def test_a_dropped_link_comes_back_within_the_grace_by_key_and_by_seat_token(
    host: Any,
) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(port, f"--join {code}", "bob", local="127.0.0.2")  # a guest
    found = await bob.matches(rf"Your seat back: --join {code} --seat ([A-Za-z0-9_-]+)")
    token = found.group(1)
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.send("1")
    await ann.shows("bob played 1. Your turn: you play X.")

    ann.conn.close()  # ann's link drops: the seat waits for her
    await bob.matches(r"ann left: waiting \d+ s( for them to come back|; c claims it in \d+ s)\.")
    ann = await enter(port, f"--join {code}", "ann", ANN_KEY)  # the same key: her seat
    await ann.shows("bob played 1. Your turn: you play X.")
    await same_board_as_the_hub(ann, hub_of(hosted).view(code))
    await bob.shows("Waiting for ann (X).")
    ann.send("9")
    await bob.shows("ann played 9. Your turn: you play O.")

    bob.conn.abort()  # bob's drops outright
    await ann.matches(r"bob left: waiting \d+ s( for them to come back|; c claims it in \d+ s)\.")
    thief = await enter(port, f"--join {code}", "bob", local="127.0.0.3")  # no token: not his
    await thief.shows(f"Room {code} is full")
    bob = await enter(port, f"--join {code} --seat {token}", "bob", local="127.0.0.2")
    await bob.shows("ann played 9. Your turn: you play O.")
    await same_board_as_the_hub(bob, hub_of(hosted).view(code))
    bob.send("3")
    await ann.shows("bob played 3. Your turn: you play X.")
    assert hub_of(hosted).view(code).moves == (5, 1, 9, 3)


async def test_a_seat_token_never_reaches_a_games_command_line(host: Any) -> None:
    """Issue 28: games started as fresh interpreters (`--no-fork-server`, or after the fork
    server died) had `--seat TOKEN` in their argv, which every local user's `ps` shows."""
    hosted = await host(rooms=True, fork_server=False)
    port = hosted.port
    ann, code = await new_room(port, key=ANN_KEY)
    bob = await enter(port, f"--join {code}", "bob", local="127.0.0.2")  # a guest
    token = (await bob.matches(rf"--join {code} --seat ([A-Za-z0-9_-]+)")).group(1)
    await ann.shows("Your turn: you play X.")
    bob.conn.abort()
    await ann.matches(r"bob left: waiting \d+ s( for them to come back|; c claims it in \d+ s)\.")
    bob = await enter(port, f"--join {code} --seat {token}", "bob", local="127.0.0.2")
    await bob.shows("Waiting for ann (X).")
    pids = game_pids(hosted.server)
    assert len(pids) == 2
    for pid in pids:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        assert token not in argv, argv  # the environment has it: only its own user reads that


async def test_a_guest_back_without_the_seat_token_is_offered_to_watch_and_watches(
    host: Any,
) -> None:
    """Issue 29: a guest who lost the link and the token came back with `--join CODE` to an
    empty board, keys that played nothing and 'Entering the room…'. Now the refusal, a key
    bar that names only keys that act, and `w` watches the room."""
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port, key=ANN_KEY)
    bob = await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")  # a guest
    await bob.matches(rf"Your seat back: --join {code} --seat ")
    await ann.shows("Your turn: you play X.")
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.conn.abort()
    await ann.matches(r"bob left: waiting \d+ s( for them to come back|; c claims it in \d+ s)\.")
    bob = await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")  # no --seat
    await bob.shows(f"Room {code} is full: watch it with --watch {code}.")
    await bob.shows("w Watch  l Lobby  ? Help  q Quit")
    assert "Play" not in bob.text and "Rematch" not in bob.text
    bob.send("3")  # a room's key: nothing here
    await bob.shows("Watch room")
    bob.send("w")
    await bob.shows("bob left: waiting")  # the room, as a spectator sees it
    await until("bob watching", lambda: hub_of(hosted).view(code).watchers == 1)
    assert hub_of(hosted).view(code).moves == (5,)
    assert "1-9 Play" not in bob.text


async def test_after_the_grace_the_round_is_abandoned_by_the_one_who_left(
    host: Any, tmp_path: Path
) -> None:
    hosted = await host(rooms=True, room_limits=RoomLimits(reconnect_grace=1.0))
    ann, bob, code = await seated(hosted.port)
    ann.send("5")
    await bob.shows("ann played 5. Your turn: you play O.")
    bob.conn.close()
    await ann.shows("bob left: the round is abandoned.")
    view = hub_of(hosted).view(code)
    assert (view.result, view.left_by, view.seats[1].person) == ("abandoned", "O", None)
    record = record_of(tmp_path)
    try:  # kept by ann's session alone: bob's was gone
        await until("the round kept", lambda: record.people.rounds(FINGERPRINT[ANN_KEY]))
        kept = record.people.rounds(FINGERPRINT[ANN_KEY])[0]
        assert (kept.result, kept.left_by, kept.moves) == ("abandoned", "O", (5,))
        assert (kept.rated, kept.rating_change) == (True, 16)  # bob's leaving: his loss
    finally:
        record.close()


# -- limits -------------------------------------------------------------------------------


async def test_spectators_and_room_sessions_count_toward_the_caps(host: Any) -> None:
    hosted = await host(
        rooms=True, room_limits=RoomLimits(max_spectators=1), max_sessions=4, max_per_address=2
    )
    port = hosted.port
    ann, code = await new_room(port)
    await enter(port, f"--join {code}", "bob")  # two from 127.0.0.1: its cap
    await ann.shows("Your turn: you play X.")
    carol = await enter(port, f"--watch {code}", "carol")
    assert await carol.term.wait_closed() == 1
    assert "too many games from your address (2 at once)" in carol.term.stderr.decode()
    carol = await enter(port, f"--watch {code}", "carol", local="127.0.0.2")
    await carol.shows("ann to play.")
    dave = await enter(port, f"--watch {code}", "dave", local="127.0.0.3")  # the 4th session
    await dave.shows(f"Room {code} has as many spectators as it takes (1).")
    eve = await enter(port, f"--watch {code}", "eve", local="127.0.0.4")
    assert await eve.term.wait_closed() == 1
    assert "the server is full (4 games at once)" in eve.term.stderr.decode()
    await ann.shows("1 watching")


async def test_bad_and_unknown_codes_and_the_wrong_code_limit(host: Any) -> None:
    hosted = await host(rooms=True)
    port = hosted.port
    _, code = await new_room(port)
    bad = await enter(port, "--join AB1D", "mallory", local="127.0.0.9")
    assert await bad.term.wait_closed() == 2  # refused by the server, before any game
    assert "'1' is not one" in bad.term.stderr.decode()
    assert len(bad.term.stderr.decode().strip().splitlines()) == 1
    unknown = "ZZZZ" if code != "ZZZZ" else "YYYY"
    for _ in range(5):  # the hub's limit: 5 wrong codes a minute from one address
        wrong = await enter(port, f"--join {unknown}", "mallory", local="127.0.0.9")
        await wrong.shows(f"There is no room {unknown}: check the code.")
        wrong.send("q")
        assert await wrong.term.wait_closed() == 0
    sixth = await enter(port, f"--watch {code}", "mallory", local="127.0.0.9")
    await sixth.matches(r"Too many wrong codes: wait \d+ s\.")  # even the right code, for now
    other = await enter(port, f"--watch {code}", "olive", local="127.0.0.8")
    await other.shows("Waiting for a second player.")  # another address is not held up


def carried(name: str) -> str | None:
    """`name` as an SSH server receives it (RFC 4013 SASLprep, which asyncssh applies on
    both sides: control and bidi characters are refused, some spaces mapped); None if
    SSH cannot carry it at all (the server never sees such a name)."""
    try:
        name.encode()
        return saslprep(name)
    except (SASLPrepError, UnicodeEncodeError):
        return None


SSH_NAMES = [
    (name, set_apart(displayable(sent)))
    for name, _ in HOSTILE
    if (sent := carried(name)) and displayable(sent, empty="") and len(name) < 100
] + [("bob (O) · 5 watching", "“bob (O) · 5 watching”")]  # issue 28: a name posing as the frame


@pytest.mark.parametrize(("name", "shown"), SSH_NAMES, ids=lambda v: ascii(v)[1:-1][:16])
async def test_a_hostile_user_name_shows_as_text_on_the_other_players_screen(
    host: Any, name: str, shown: str
) -> None:
    hosted = await host(rooms=True)
    ann, code = await new_room(hosted.port)
    await enter(hosted.port, f"--join {code}", name, local="127.0.0.2")
    await ann.shows(f"ann (X) vs {shown} (O)")  # the title: as text, markup and all
    await ann.shows(f"ann 0 · {shown} 0")
    await ann.shows("Your turn: you play X.")
    assert ann.term.exit_status is None  # still playing: nothing was read as a command


def test_ssh_carries_the_markup_names_and_refuses_the_escapes() -> None:
    assert {"[bold red]x", "[@click=app.quit]x[/]", "$text-error $var"} <= dict(SSH_NAMES).keys()
    assert carried("\x1b[31mred\x1b[0m") is None and carried("\u202eevil\u202c") is None


# -- the lobby, options, the address ------------------------------------------------------


async def test_no_options_shows_the_lobby_and_enter_plays_the_ai(host: Any) -> None:
    hosted = await host(rooms=True)
    lobby = await enter(hosted.port, None, "ann")
    for item in ("Play the AI", "New room", "Join a room", "Public rooms"):
        await lobby.shows(item)
    lobby.send("enter")
    await lobby.term.first_frame()
    assert "Your turn: you play X." in lobby.text
    direct = await enter(hosted.port, "--difficulty easy", "bob")  # a game option: no lobby
    await direct.term.first_frame()
    assert "Play the AI" not in direct.text


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            "--room new --difficulty easy",
            "--difficulty is not for rooms (a room takes --board and --first)",
        ),
        ("--seat abc", "--seat goes with --join CODE"),
        ("--join ABCD --board 4", "--board and --first go with --room new"),
        ("--room old", "invalid choice: 'old'"),
    ],
)
async def test_room_options_that_do_not_fit_are_one_line_and_status_2(
    host: Any, command: str, message: str
) -> None:
    hosted = await host(rooms=True)
    session = await enter(hosted.port, command, "ann")
    assert await session.term.wait_closed() == 2
    error = session.term.stderr.decode()
    assert message in error and len(error.strip().splitlines()) == 1, error


async def test_the_creator_chooses_the_board_and_who_starts(host: Any) -> None:
    hosted = await host(rooms=True, public_address=("ttt.example.org", 22))
    ann = await enter(hosted.port, "--room new --board 4 --first ai", "ann")
    found = await ann.matches(r"give them the code ([A-Z]{4})")
    code = found.group(1)
    await ann.shows(f"Friend: ssh -t -p 22 ttt.example.org -- --join {code}")
    view = hub_of(hosted).view(code)
    assert (view.size, view.first) == (4, "O")  # --first ai: the friend (in O) starts
    bob = await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")
    await bob.shows("Your turn: you play O.")
    await ann.shows("Waiting for bob (O).")


async def test_without_rooms_a_room_option_says_how_and_no_options_plays_the_ai(
    host: Any,
) -> None:
    hosted = await host(rooms=False)
    session = await enter(hosted.port, "--room new", "ann")
    assert await session.term.wait_closed() == 2
    assert "Rooms are played over serve-ssh" in session.text + session.term.stderr.decode()
    plain = await enter(hosted.port, None, "bob")
    await plain.term.first_frame()


def test_public_address_and_the_friends_line() -> None:
    assert public_address("ttt.example.org") == ("ttt.example.org", None)
    assert public_address("ttt.example.org:2022") == ("ttt.example.org", 2022)
    assert public_address("[2001:db8::1]:22") == ("2001:db8::1", 22)
    assert public_address("2001:db8::1") == ("2001:db8::1", None)
    for wrong in ("", "host:0", "host:99999", "a b", "x;rm", "[::1", "[::1]x", "é.org", "h" * 254):
        with pytest.raises(Exception, match=r"not|must"):
            public_address(wrong)
    assert friend_address("127.0.0.1", 2222, None) == "localhost 2222"
    assert friend_address("::1", 2222, None) == "localhost 2222"
    assert friend_address("10.1.2.3", 2200, None) == "10.1.2.3 2200"
    assert friend_address("0.0.0.0", 2222, ("ttt.example.org", None)) == "ttt.example.org 2222"
    assert friend_address("0.0.0.0", 2222, ("ttt.example.org", 22)) == "ttt.example.org 22"
    assert friend_address("0.0.0.0", 2222, None).endswith(" 2222")


# -- OpenSSH ------------------------------------------------------------------------------


class OpenSSH:
    """The OpenSSH client (`ssh -tt`) in a pty of its own, its screen drawn by pyte;
    read without blocking, so the server in this event loop runs on meanwhile."""

    boxes = Terminal.boxes
    locate_board = Terminal.locate_board
    inside = Terminal.inside
    visible_board = Terminal.visible_board

    def __init__(self, port: int, user: str, *words: str) -> None:
        ssh = shutil.which("ssh")
        assert ssh is not None
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.cells: dict[Any, Any] = {}
        options = ("-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null")
        self.child: pexpect.spawn[bytes] = pexpect.spawn(
            ssh,
            [
                *("-tt", "-F", "/dev/null", "-p", str(port), *options, "-o", "LogLevel=ERROR"),
                *("-o", "PubkeyAuthentication=no", "-l", user, "127.0.0.1", "--", *words),
            ],
            dimensions=(24, 80),
            env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"},
        )

    @property
    def lines(self) -> list[str]:
        return list(self.screen.display)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def shows(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text:
            try:
                data = self.child.read_nonblocking(65536, timeout=0)
                self.stream.feed(SGR.sub(b"", data))
            except pexpect.TIMEOUT:
                await asyncio.sleep(0.02)
            except pexpect.EOF:
                pytest.fail(f"ssh ended waiting for {text!r}:\n{self.text}")
            assert time.monotonic() < deadline, f"waited for {text!r}:\n{self.text}"


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client here")
async def test_an_openssh_client_plays_in_a_room(host: Any) -> None:
    hosted = await host(rooms=True)
    openssh = OpenSSH(hosted.port, "ann", "--room", "new")
    try:
        await openssh.shows("Waiting for a second player: give them the code")
        said = re.search(r"code ([A-Z]{4})\.", openssh.text)
        assert said is not None, openssh.text
        code = said.group(1)
        bob = await enter(hosted.port, f"--join {code}", "bob", local="127.0.0.2")
        await openssh.shows("Your turn: you play X.")
        openssh.child.send("5")
        await bob.shows("ann played 5. Your turn: you play O.")
        bob.send("1")
        await openssh.shows("bob played 1. Your turn: you play X.")
        assert openssh.visible_board() == hub_board(hub_of(hosted).view(code))
    finally:
        openssh.child.close(force=True)
