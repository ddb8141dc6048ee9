"""The wider bounds on wrong room codes (issue 35, finding 5): per address alone, 48 IPv6 /64s
made 240 guesses in 44 s and were never refused. Now at most `NETWORK_LIMIT` a minute from one
/48 and `GLOBAL_LIMIT` a minute from everyone, on both hubs: a `MemoryHub` behind its real
socket (`HubServer`, each guesser a `SocketHub` of its own, as a game process is), and two
`PostgresHub` hosts on one real PostgreSQL (the bound holds for both together). A clock of
the test's own: nothing here waits on time."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from pg_rooms_tools import HostTimings

from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.socket.server import HubServer
from tui_tictactoe.rooms.view import Person, Refused
from tui_tictactoe.rooms.wrong_codes import GLOBAL_LIMIT, NETWORK_LIMIT

QUIET: HostTimings = {
    "heartbeat": 3600.0,
    "host_timeout": 7200.0,
    "reread": 3600.0,
    "listen": False,
}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guesser(network: int, host: int) -> Person:
    """A guest from the /64 number `host` of the /48 number `network`, as the servers key
    it (`addresses.counting_key`)."""
    return Person("guest", "", f"2001:db8:{network:x}:{host:x}::/64")


async def guesses(hubs: list[RoomHub], people: list[Person], wrong: str) -> tuple[int, int]:
    """Five wrong codes from each person (the per-address limit), through the hubs in turn:
    how many were looked up (told there is no room), and how many refused as too many."""
    looked, refused = 0, 0
    for number, person in enumerate(people):
        hub = hubs[number % len(hubs)]
        for _ in range(5):
            try:
                await hub.join(wrong, person)
            except Refused as error:
                if "Too many wrong codes" in error.reason:
                    refused += 1
                else:
                    assert "no room" in error.reason, error.reason
                    looked += 1
    return looked, refused


async def check_the_bounds(hubs: list[RoomHub], clock: Clock, code: str) -> None:
    wrong = "ZZZZ" if code != "ZZZZ" else "YYYY"
    # 48 /64s of one /48: 240 guesses, of which NETWORK_LIMIT are looked up
    looked, refused = await guesses(hubs, [guesser(1, n) for n in range(48)], wrong)
    assert (looked, refused) == (NETWORK_LIMIT, 240 - NETWORK_LIMIT)
    clock.now += 61
    # 48 /48s, a /64 each: the host-wide bound, for every host together
    looked, refused = await guesses(hubs, [guesser(0x100 + n, 1) for n in range(48)], wrong)
    assert (looked, refused) == (GLOBAL_LIMIT, 240 - GLOBAL_LIMIT)
    newcomer = Person("bob", "", "10.0.0.2")
    for hub in hubs:  # even a right code, from an address that guessed nothing: wait
        with pytest.raises(Refused, match=r"Too many wrong codes: wait \d+ s"):
            await hub.join(code, newcomer)
    clock.now += 61  # a window later, the right code works again
    assert (await hubs[-1].join(code, newcomer)).seat == "O"


@pytest.fixture
async def socket_hub() -> AsyncIterator[tuple[list[RoomHub], Clock]]:
    clock = Clock()
    server = HubServer(MemoryHub(clock=clock), log=lambda _: None)
    await server.start()
    clients = [await SocketHub.connect(server.path) for _ in range(2)]
    try:
        yield list(clients), clock
    finally:
        for client in clients:
            await client.close()
        await server.stop()


async def test_many_networks_guessing_over_the_hubs_socket_meet_the_network_and_host_bounds(
    socket_hub: tuple[list[RoomHub], Clock],
) -> None:
    hubs, clock = socket_hub
    ann = await hubs[0].create(Person("ann", "", "10.0.0.1"), 3, "X")
    await check_the_bounds(hubs, clock, ann.code)


async def test_two_postgresql_hosts_share_the_network_and_host_bounds(pg_url: str) -> None:
    clock = Clock()
    a = PostgresHub(pg_url, clock=clock, **QUIET)
    b = PostgresHub(pg_url, clock=clock, **QUIET)
    await a.start()
    await b.start()
    try:
        ann = await a.create(Person("ann", "", "10.0.0.1"), 3, "X")
        await check_the_bounds([a, b], clock, ann.code)
    finally:
        await a.shutdown()
        await b.shutdown()
