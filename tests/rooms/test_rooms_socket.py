"""The hub across processes: `HubServer` and `SocketHub` over real AF_UNIX sockets, with
game processes played by `room_client.py` in processes of their own (no mocks)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import shutil
import signal
import stat
import struct
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.socket import wire
from tui_tictactoe.rooms.socket.client import GONE, NO_SERVER, SocketHub
from tui_tictactoe.rooms.socket.server import MAX_TICKETS, HubServer, HubServerError
from tui_tictactoe.rooms.view import Person, Refused, Ticket

CLIENT = Path(__file__).parents[1] / "room_client.py"
WAIT = 20.0  # seconds: generous, the machine is shared; nothing here is timed


class Game:
    """A game process: `room_client.py` in its own interpreter, one JSON line each way."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, path: Path) -> Game:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(CLIENT),
            str(path),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        game = cls(process)
        assert await game._line() == {"ready": True}
        return game

    async def _line(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), WAIT)
        assert line, "the game process ended"
        said: dict[str, Any] = json.loads(line)
        return said

    async def ask(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command).encode() + b"\n")
        await self.process.stdin.drain()
        return await self._line()

    async def end(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()


@pytest.fixture
async def served() -> AsyncIterator[tuple[MemoryHub, HubServer, list[str]]]:
    hub = MemoryHub(rng=random.Random(22))
    lines: list[str] = []
    server = HubServer(hub, log=lines.append)
    await server.start()
    yield hub, server, lines
    await server.stop()


async def test_two_game_processes_and_a_spectator_see_the_same_room(served) -> None:
    hub, server, _ = served
    ann, bob, cat = [await Game.start(server.path) for _ in range(3)]
    try:
        created = await ann.ask(op="create", name="ann", size=3, first="X", public=True)
        code = created["ticket"][0]
        assert (await bob.ask(op="join", code=code.lower(), name="bob"))["ticket"][1] == "O"
        assert (await cat.ask(op="watch", code=code, name="cat"))["ticket"][1] is None
        players = {"X": ann, "O": bob}
        for seat, cell in [("X", 1), ("O", 4), ("X", 2), ("O", 5), ("X", 3)]:
            generation = hub.view(code).generation
            other = players["O" if seat == "X" else "X"]
            refused = await other.ask(op="move", cell=9, generation=generation)
            assert "turn" in refused["refused"]  # out of turn: the hub's own sentence
            assert await players[seat].ask(op="move", cell=cell, generation=generation) == {
                "ok": True
            }
            now = hub.view(code)
            seen = [await game.ask(op="view", at_least=now.generation) for game in (ann, bob, cat)]
            assert seen == [{"room": wire.view_to_json(now)}] * 3
        assert now.result == "X" and now.moves == (1, 4, 2, 5, 3) and now.watchers == 1
        rooms = await cat.ask(op="rooms")
        assert rooms == {"rooms": [[code, 3, ["ann", "bob"], 1]]}
        full = await cat.ask(op="join", code=code, name="dan")
        assert "full" in full["refused"]
    finally:
        for game in (ann, bob, cat):
            await game.end()


async def test_a_game_process_killed_outright_counts_as_a_drop(served) -> None:
    hub, server, _ = served
    ann, bob = await Game.start(server.path), await Game.start(server.path)
    try:
        code = (await ann.ask(op="create", name="ann", size=4, first="O"))["ticket"][0]
        await bob.ask(op="join", code=code, name="bob")
        joined = hub.view(code).generation
        bob.process.send_signal(signal.SIGKILL)
        await bob.process.wait()
        room = (await ann.ask(op="view", at_least=joined + 1))["room"]
        assert room["seats"][1]["person"]["name"] == "bob"
        assert room["seats"][1]["present"] is False and room["seats"][1]["back_by"] is not None
        assert room == wire.view_to_json(hub.view(code))
        for _ in range(100):  # the server forgets the connection once its drop is done
            if len(server.connections) == 1:
                break
            await asyncio.sleep(0.05)
        assert len(server.connections) == 1
    finally:
        await ann.end()
        await bob.end()


async def _raw(path: Path | None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    assert path is not None, "the server is not serving"
    return await asyncio.open_unix_connection(str(path))


async def _closed_by_server(reader: asyncio.StreamReader) -> bool:
    """Whether the server closes this connection (without sending it anything)."""
    try:
        return await asyncio.wait_for(reader.read(), WAIT) == b""
    except ConnectionResetError:
        return True


async def _slowloris(writer: asyncio.StreamWriter) -> None:
    """A frame's header, then its body one byte at a time, slower than any deadline."""
    writer.write(struct.pack(">I", 100))
    for _ in range(200):
        await asyncio.sleep(0.1)
        writer.write(b" ")
        await writer.drain()


async def test_hostile_connections_are_closed_and_stall_no_one() -> None:
    lines: list[str] = []
    hub = MemoryHub()
    async with HubServer(hub, idle_timeout=2.0, frame_timeout=1.0, log=lines.append) as server:
        hostile = {name: await _raw(server.path) for name in ("huge", "junk", "shape", "slow")}
        hostile["huge"][1].write(b"\xff\xff\xff\xff")
        hostile["junk"][1].write(struct.pack(">I", 5) + b"\x00{]\xff\x01")
        hostile["shape"][1].write(wire.encode({"id": 1, "op": "eval", "args": {}}, 100))
        idle = await _raw(server.path)
        slow = asyncio.create_task(_slowloris(hostile["slow"][1]))
        try:
            # meanwhile a real game plays through the same server, slowloris and all
            async with (
                await SocketHub.connect(server.path, ping_interval=0.3) as ann,
                await SocketHub.connect(server.path, ping_interval=0.3) as bob,
            ):
                x = await ann.create(Person("ann"), 3, "X")
                o = await bob.join(x.code, Person("bob"))
                await ann.move(x, 5, hub.view(x.code).generation)
                await bob.move(o, 1, hub.view(x.code).generation)
                assert hub.view(x.code).moves == (5, 1)
                for reader, _ in hostile.values():
                    assert await _closed_by_server(reader)
                assert await _closed_by_server(idle[0])
                await asyncio.sleep(2.5)  # past the idle timeout: the pings keep them open
                updates = ann.updates(x)
                assert (await anext(updates)).moves == (5, 1)
                await updates.aclose()
        finally:
            slow.cancel()
    assert any("frame of 4294967295 bytes" in line for line in lines)
    assert any("Not JSON" in line for line in lines)
    assert any("Op must be one of" in line for line in lines)
    assert sum("nothing whole in time" in line for line in lines) == 2  # slow and idle


async def test_the_server_stops_cleanly() -> None:
    hub = MemoryHub()
    server = HubServer(hub)
    path = await server.start()
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    ann = await SocketHub.connect(path)
    x = await ann.create(Person("ann"), 3, "X")
    updates = ann.updates(x)
    await anext(updates)
    raw = await _raw(path)
    await server.stop()
    assert server.connections == {}
    assert not path.exists() and not path.parent.exists()
    with pytest.raises(Refused, match=GONE):
        await anext(updates)
    with pytest.raises(Refused, match=GONE):
        await ann.move(x, 1, 1)
    assert await _closed_by_server(raw[0])
    await ann.close()
    assert asyncio.all_tasks() == {asyncio.current_task()}
    assert hub.view(x.code).seats[0].present is False  # the closed connection dropped it


async def test_the_socket_directory_must_be_private() -> None:
    parent = Path(tempfile.mkdtemp(prefix="rooms-test-"))
    try:
        os.chmod(parent, 0o755)
        with pytest.raises(HubServerError, match="0700"):
            await HubServer(MemoryHub(), parent / "hub.sock").start()
        os.chmod(parent, 0o700)
        async with HubServer(MemoryHub(), parent / "hub.sock") as server:
            assert (parent / "hub.sock").exists()
            async with await SocketHub.connect(server.path) as hub:
                assert await hub.rooms() == []
        assert parent.exists() and not (parent / "hub.sock").exists()
        async with HubServer(MemoryHub(), parent / "made" / "hub.sock"):
            assert stat.S_IMODE(os.stat(parent / "made").st_mode) == 0o700
        assert not (parent / "made").exists()
        with pytest.raises(HubServerError, match="too long"):
            await HubServer(MemoryHub(), parent / ("x" * 120) / "hub.sock").start()
    finally:
        shutil.rmtree(parent)


async def test_a_game_finds_the_server_in_its_environment(monkeypatch) -> None:
    monkeypatch.delenv(wire.ENV_VAR, raising=False)
    with pytest.raises(Refused, match=NO_SERVER):
        await SocketHub.connect()
    async with HubServer(MemoryHub()) as server:
        monkeypatch.setenv(wire.ENV_VAR, str(server.path))
        async with await SocketHub.connect() as hub:
            assert await hub.rooms() == []
    with pytest.raises(Refused, match=NO_SERVER):
        await SocketHub.connect()


async def test_caps_on_one_connection_and_on_connections() -> None:
    lines: list[str] = []
    async with HubServer(MemoryHub(), max_connections=1, log=lines.append) as server:
        ann = await SocketHub.connect(server.path)
        for _ in range(MAX_TICKETS):
            await ann.create(Person("ann"), 3, "X", True)  # public: listed
        with pytest.raises(Refused, match="too many places"):
            await ann.create(Person("ann"), 3, "X")
        with pytest.raises(Refused, match="Size must be"):  # checked before it is sent
            await ann.create(Person("ann"), 7, "X")
        second = await _raw(server.path)
        assert await _closed_by_server(second[0])
        assert len(await ann.rooms()) == MAX_TICKETS
        await ann.close()
    assert lines == ["room hub: refused a connection: already 1 connections"]


async def _first(updates: AsyncIterator[Any]) -> Any:
    try:
        return await anext(updates)
    finally:
        await updates.aclose()  # type: ignore[attr-defined]


def _call(hub: Any, op: str, ticket: Ticket, code: str, rng: random.Random) -> Any:
    """One call of the walk, its arguments drawn from `rng`."""
    who = Person(name := rng.choice(["ann", "bob", "cat", "dan"]), key=name)
    if op == "create":
        return hub.create(who, rng.choice([3, 4]), "X", rng.random() < 0.5)
    if op in ("join", "watch"):
        return getattr(hub, op)(code, who)
    if op == "move":
        return hub.move(ticket, rng.randint(1, 16), rng.randint(1, 12))
    if op == "rooms":
        return hub.rooms()
    if op == "updates":
        return _first(hub.updates(ticket))
    if op in ("set_public", "set_watching"):
        return getattr(hub, op)(ticket, rng.random() < 0.5)
    return getattr(hub, op)(ticket)  # rematch, leave, drop


async def _walk(hub: Any, rng: random.Random, steps: int) -> list[Any]:
    """Random calls from four people; what each call gave (a value or the refusal)."""
    tickets: list[Ticket] = []
    codes = ["ABCD"]
    seen: list[Any] = []
    for _ in range(steps):
        ticket = rng.choice(tickets) if tickets else Ticket("ABCD", "X", "t")
        code = rng.choice(codes)
        op = rng.choice(["create", "join", "join", "watch", "move", "move", "move", "rematch"])
        op = rng.choice([op, op, op, "leave", "drop", "rooms", "updates", "set_public"])
        op = "set_watching" if op == "set_public" and rng.random() < 0.5 else op
        try:
            value = await _call(hub, op, ticket, code, rng)
        except Refused as refused:
            value = ("refused", refused.reason)
        if isinstance(value, Ticket):
            tickets.append(value)
            codes.append(value.code)
        seen.append((op, value))
    return seen


async def test_a_socket_hub_answers_exactly_as_the_hub_behind_it() -> None:
    """The same seeded walk of calls, on a MemoryHub and through the socket to a twin."""
    for seed in range(3):
        keys = (str(n) for n in itertools.count()), (str(n) for n in itertools.count())
        direct = MemoryHub(rng=random.Random(seed), clock=lambda: 0.0, round_keys=keys[0].__next__)
        twin = MemoryHub(rng=random.Random(seed), clock=lambda: 0.0, round_keys=keys[1].__next__)
        expected = await _walk(direct, random.Random(seed), 300)
        async with HubServer(twin) as server, await SocketHub.connect(server.path) as hub:
            assert await _walk(hub, random.Random(seed), 300) == expected
        assert sum(value[0] == "refused" for _, value in expected if isinstance(value, tuple))
        assert any(isinstance(value, Ticket) for _, value in expected)


SERVER_SCRIPT = """
import asyncio, sys
from tui_tictactoe.rooms.socket.server import HubServer
from tui_tictactoe.rooms.memory_hub import MemoryHub

async def main():
    server = HubServer(MemoryHub())
    print(await server.start(), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_a_server_killed_outright_is_gone_for_its_games() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVER_SCRIPT, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    path = Path((await asyncio.wait_for(process.stdout.readline(), WAIT)).decode().strip())
    try:
        hub = await SocketHub.connect(path)
        x = await hub.create(Person("ann"), 3, "X")
        updates = hub.updates(x)
        assert (await anext(updates)).code == x.code
        process.send_signal(signal.SIGKILL)
        await process.wait()
        with pytest.raises(Refused, match=GONE):
            await anext(updates)
        with pytest.raises(Refused, match=GONE):
            await hub.watch(x.code, Person("bob"))
        await hub.close()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
        shutil.rmtree(path.parent, ignore_errors=True)  # a killed server removes nothing


async def test_a_game_that_stops_reading_is_cut_off_and_dropped() -> None:
    """Updates it never reads fill its socket; after `write_timeout` the server ends
    the connection (a drop) instead of holding views for it."""
    hub = MemoryHub(replace(UNTIMED, max_spectators=1))
    ignored: list[str] = []
    async with HubServer(hub, write_timeout=1.0, log=ignored.append) as server:
        reader, writer = await _raw(server.path)
        who = wire.person_to_json(Person("ann"))
        writer.write(
            wire.encode(
                {
                    "id": 1,
                    "op": "create",
                    "args": {"who": who, "size": 3, "first": "X", "public": False},
                },
                999,
            )
        )
        await writer.drain()
        header = await asyncio.wait_for(reader.readexactly(4), WAIT)
        reply = json.loads(await reader.readexactly(struct.unpack(">I", header)[0]))
        x = wire.ticket_from_json(reply["ok"]["ticket"])
        writer.write(
            wire.encode({"id": 2, "op": "updates", "args": {"ticket": reply["ok"]["ticket"]}}, 999)
        )
        await writer.drain()  # from here on it reads nothing
        async with await SocketHub.connect(server.path) as busy:
            for _ in range(20_000):  # each watch and leave sends ann a whole view
                if not hub.view(x.code).seats[0].present:
                    break
                await busy.leave(await busy.watch(x.code, Person("bob")))
        assert hub.view(x.code).seats[0].present is False
        writer.close()


def test_directories_of_older_servers_go_once_nobody_listens() -> None:
    """Without an owner file (older servers): swept only once old and its socket refuses;
    a socket with a listener, or a directory just made, stays (`hub_directory`)."""
    import shutil
    import socket as sockets
    import tempfile

    # Not pytest's tmp_path: a socket's path holds at most 107 bytes, and pytest's grows
    # with the number of runs on the machine (pytest-1038/popen-gw2/test_directories_...).
    tmp_path = Path(tempfile.mkdtemp(prefix="hubs"))

    from tui_tictactoe.rooms.socket import directory as hub_directory

    old = time.time() - 2 * hub_directory.LEGACY_AGE
    made = {}
    listening = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
    for name, listen, age in (("stale", False, old), ("live", True, old), ("new", False, None)):
        directory = tmp_path / f"{hub_directory.PREFIX}{name}"
        directory.mkdir(mode=0o700)
        sock = listening if listen else sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
        sock.bind(os.fspath(directory / hub_directory.SOCKET_NAME))
        if listen:
            sock.listen(1)
        else:
            sock.close()  # a socket file nobody listens on: its server was killed
        if age is not None:
            os.utime(directory, (age, age))
        made[name] = directory
    try:
        assert hub_directory.sweep_orphans(tmp_path) == [made["stale"]]
        assert not made["stale"].exists() and made["live"].exists() and made["new"].exists()
    finally:
        listening.close()
        shutil.rmtree(tmp_path, ignore_errors=True)
