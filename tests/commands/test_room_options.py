"""The rooms' command-line options (`--room new`, `--join CODE [--seat TOKEN]`,
`--watch CODE`), what a game without a hub says, and a `SocketHub` connecting on first use."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tui_tictactoe.commands import play
from tui_tictactoe.commands.play_arguments import (
    NO_HUB,
    BoundedParser,
    add_play_options,
    room_request,
)
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import RoomRequest
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.socket.server import HubServer
from tui_tictactoe.rooms.view import Person, Refused


def parse(*words: str) -> RoomRequest | None:
    parser = BoundedParser(prog="tui-tictactoe")
    add_play_options(parser, defaults=True)
    args = parser.parse_args(words)
    return room_request(args, int(args.board or 3))


def test_each_option_is_read_into_a_request() -> None:
    assert parse() is None
    assert parse("--room", "new", "--board", "4") == RoomRequest("new", size=4)
    assert parse("--join", "ab-cd") == RoomRequest("join", "ABCD")
    assert parse("--join", "abcd", "--seat", "Xy_-09") == RoomRequest("join", "ABCD", "Xy_-09")
    assert parse("--watch", "w x y z") == RoomRequest("watch", "WXYZ")


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (("--room", "old"), "invalid choice: 'old'"),
        (("--join", "abc"), "four letters, like ABCD, not 3"),
        (("--join", "ab1d"), "'1' is not one"),
        (("--join", "x" * 5000), "that is too long"),
        (("--watch", "ILOQ"), "never use I, L, O or Q"),
        (("--join", "abcd", "--watch", "abcd"), "not allowed with"),
        (("--join", "abcd", "--seat", "a b"), "not a seat token"),
        (("--join", "abcd", "--seat", "x" * 33), "not a seat token"),
        (("--join", "abcd", "--seat", "\x1b[2J"), "not a seat token: '\\x1b[2J'"),
    ],
)
def test_bad_values_are_refused_with_a_short_line(
    words: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(*words)
    assert exit_.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert message in error and len(error) <= 190 and "\x1b" not in error


def test_a_seat_token_goes_with_join() -> None:
    with pytest.raises(ValueError, match="--seat goes with --join"):
        parse("--seat", "abc")


@pytest.mark.parametrize(
    "words", [("--room", "new"), ("--join", "ABCD"), ("--watch", "ABCD"), ("--seat", "x")]
)
def test_without_a_hub_a_room_option_says_how_and_exits_2(
    words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    parser = BoundedParser(prog="tui-tictactoe")
    add_play_options(parser, defaults=True)
    assert play.run_play(parser.parse_args(words)) == 2
    error = capsys.readouterr().err
    assert error.strip() in (NO_HUB, "tui-tictactoe: error: --seat goes with --join CODE")
    assert NO_HUB == "Rooms are played over serve-ssh: ssh -t -p 2222 HOST -- --room new"


# -- a SocketHub connects on first use -------------------------------------------


async def test_a_socket_hub_connects_once_on_first_use_and_passes_every_call_on(
    tmp_path: Path,
) -> None:
    hub = MemoryHub(rng=random.Random(1))
    async with HubServer(hub, tmp_path / "hub" / "hub.sock") as server:
        lazy = SocketHub(server.path)
        assert not server.connections
        ann, _ = await asyncio.gather(lazy.create(Person("ann", "k"), 3, "X"), lazy.rooms())
        assert len(server.connections) == 1
        bob = await lazy.join(ann.code, Person("bob", "k2"))
        await lazy.watch(ann.code, Person("eve"))
        await lazy.move(ann, 5, hub.view(ann.code).generation)
        stream = lazy.updates(bob)
        view = await anext(stream)
        assert view.moves == (5,) and view.watchers == 1
        await lazy.offer(bob)
        assert hub.view(ann.code).offer == ("draw", "O")
        await lazy.drop(bob)
        assert hub.view(ann.code).seats[1].present is False
        await lazy.leave(ann)
        await lazy.leave(bob)
        with pytest.raises(Refused):
            await lazy.rematch(ann)
        await stream.aclose()
        assert len(server.connections) == 1
        await lazy.close()


async def test_a_failed_connection_is_said_and_tried_again(tmp_path: Path) -> None:
    path = tmp_path / "hub" / "hub.sock"
    lazy = SocketHub(path)
    with pytest.raises(Refused, match="No room server"):
        await lazy.rooms()
    async with HubServer(MemoryHub(rng=random.Random(2)), path):
        assert await lazy.rooms() == []
        await lazy.close()


def test_the_games_name_for_the_hubs_variable_is_the_wires() -> None:
    from tui_tictactoe.rooms.socket import wire

    assert play.HUB_ENV == wire.ENV_VAR
