"""`serve-ssh --proxy-protocol-from`: the client's address from a trusted balancer's header.

Real parts throughout: a `SshServer` on loopback, asyncssh clients bound to 127.0.0.2 and
127.0.0.3, and a real HAProxy (`send-proxy` and `send-proxy-v2`) in front when it is
installed (`.ci/run` installs it; in CI its absence fails). The direct tests play the balancer themselves on a raw
socket: a header, then the client's SSH on the same socket. What they check: the named
address is the one `--max-per-address`, the log and the game (the rooms' wrong-code limit)
see; a header from anywhere else is not believed; a trusted peer that sends a slow, oversized
or malformed header is dropped within the bound while others play on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
import test_serve_ssh
from proxy_headers import v1, v2
from pty_terminal import command
from server_tools import HAPROXY, game_pids, until_listening
from test_serve_ssh import (
    START_TIMEOUT,
    STEP_TIMEOUT,
    Hosted,
    Player,
    SSHTerminal,
    connect,
    environment,
    open_game,
    until_closed,
)

from tui_tictactoe.rooms.request import PLAYER_ADDRESS_ENV
from tui_tictactoe.servers.proxy import listener as proxy_listener

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log
BALANCER = "127.0.0.2"  # the address the direct tests' "balancer" connects from
TRUST = f"{BALANCER}/32"
TRUST_BALANCER = (ipaddress.ip_network(TRUST),)
TOO_MANY = "too many games from your address (1 at once)"
HEADERS: dict[str, Callable[[str, int], bytes]] = {"v1": v1, "v2": v2}
VERSIONS = pytest.mark.parametrize("version", list(HEADERS))


async def via_balancer(
    port: int, header: bytes, local: str = BALANCER
) -> asyncssh.SSHClientConnection:
    """An SSH client on a socket from `local` that first sent `header`."""
    sock = await raw(port, local)
    sock.sendall(header)
    conn, _ = await asyncio.wait_for(
        asyncssh.create_connection(
            Player,
            sock=sock,
            username="player",
            known_hosts=None,
            config=None,
            agent_path=None,
            client_keys=[],
            public_key_auth=False,
        ),
        START_TIMEOUT,
    )
    return conn


async def raw(port: int, local: str = BALANCER) -> socket.socket:
    sock = socket.socket()
    sock.bind((local, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def game(conn: asyncssh.SSHClientConnection) -> SSHTerminal:
    term = await open_game(conn)
    await term.first_frame()
    return term


async def refused(conn: asyncssh.SSHClientConnection) -> str:
    term = await open_game(conn)
    assert await term.wait_closed() == 1
    return str(term.stderr.decode())


async def closed_by_server(sock: socket.socket) -> float:
    """Seconds until the server closes `sock` (the test writes nothing more)."""
    reader, writer = await asyncio.open_connection(sock=sock)
    return await asyncio.wait_for(until_closed((reader, writer)), STEP_TIMEOUT)


@VERSIONS
async def test_a_trusted_balancer_names_each_client(host: Any, version: str) -> None:
    hosted: Hosted = await host(
        max_per_address=1, proxy_protocol_from=TRUST_BALANCER, fork_server=False
    )
    header = HEADERS[version]
    first = await game(await via_balancer(hosted.port, header("203.0.113.7", 40001)))
    second = await game(await via_balancer(hosted.port, header("2001:db8::8", 40002)))
    assert "Your turn" in first.status() and "Your turn" in second.status()
    addresses = {client.address for client in hosted.server.clients}
    assert addresses == {"203.0.113.7", "2001:db8::8"}
    # The game (which limits wrong room codes per address) is told the client's address,
    # as the per-address rules count it: an IPv6 client by its /64.
    players = {environment(pid)[PLAYER_ADDRESS_ENV] for pid in game_pids(hosted.server)}
    assert players == {"203.0.113.7", "2001:db8::/64"}
    again = await via_balancer(hosted.port, header("203.0.113.7", 40003))
    assert TOO_MANY in await refused(again)
    await hosted.logged("203.0.113.7:40003 ")
    first.send("q")
    assert await first.wait_closed() == 0
    await hosted.logged("203.0.113.7:40001 ")


async def test_eight_addresses_of_one_ipv6_64_are_one_address_for_the_caps(host: Any) -> None:
    """Issue 28: 8 addresses of one /64 got 8 games under --max-per-address 4."""
    hosted: Hosted = await host(
        max_per_address=4, proxy_protocol_from=TRUST_BALANCER, fork_server=False
    )
    terms = []
    for n in range(1, 5):
        conn = await via_balancer(hosted.port, v2(f"2001:db8:0:1::{n}", 40000 + n))
        terms.append(await game(conn))
    for n in range(5, 9):
        again = await via_balancer(hosted.port, v1(f"2001:db8:0:1:{n}::{n}", 40000 + n))
        assert "too many games from your address (4 at once)" in await refused(again)
    other = await game(await via_balancer(hosted.port, v2("2001:db8:0:2::1", 40009)))
    players = {environment(pid)[PLAYER_ADDRESS_ENV] for pid in game_pids(hosted.server)}
    assert players == {"2001:db8:0:1::/64", "2001:db8:0:2::/64"}
    for term in (*terms, other):
        term.send("q")
        assert await term.wait_closed() == 0


async def test_ipv6_prefix_128_counts_each_address(host: Any) -> None:
    hosted: Hosted = await host(
        max_per_address=1, proxy_protocol_from=TRUST_BALANCER, ipv6_prefix=128
    )
    terms = [
        await game(await via_balancer(hosted.port, v2(f"2001:db8:0:1::{n}", 40000 + n)))
        for n in (1, 2)
    ]
    again = await via_balancer(hosted.port, v2("2001:db8:0:1::1", 40003))
    assert TOO_MANY in await refused(again)
    for term in terms:
        term.send("q")
        assert await term.wait_closed() == 0


async def test_three_addresses_of_one_64_share_the_wrong_code_limit(host: Any) -> None:
    """Issue 28: 3 addresses of one /64 got 15 wrong codes (5 each) instead of 5."""
    hosted: Hosted = await host(rooms=True, proxy_protocol_from=TRUST_BALANCER)
    text = "There is no room ZZZZ: check the code."
    for n in range(5):
        address = f"2001:db8:0:1::{n % 3 + 1}"
        conn = await via_balancer(hosted.port, v2(address, 41000 + n))
        term = await open_game(conn, "--join ZZZZ")

        def shown(term: SSHTerminal = term) -> bool:
            return text in term.text

        await term.wait_until(repr(text), shown)
        term.send("q")
        assert await term.wait_closed() == 0
    conn = await via_balancer(hosted.port, v1("2001:db8:0:1:ffff::9", 41009))
    term = await open_game(conn, "--join ZZZZ")
    found = re.compile(r"Too many wrong codes: wait \d+ s\.")
    await term.wait_until(found.pattern, lambda: found.search(term.text) is not None)
    term.send("q")
    assert await term.wait_closed() == 0
    conn = await via_balancer(hosted.port, v2("2001:db8:0:2::1", 41010))  # another /64
    term = await open_game(conn, "--join ZZZZ")
    await term.wait_until(repr(text), lambda: text in term.text)


async def test_health_checks_use_the_balancers_address(host: Any) -> None:
    hosted: Hosted = await host(max_per_address=1, proxy_protocol_from=TRUST_BALANCER)
    term = await game(await via_balancer(hosted.port, b"PROXY UNKNOWN\r\n"))
    assert {client.address for client in hosted.server.clients} == {BALANCER}
    local = await via_balancer(hosted.port, v2(None, command=0x20))  # v2 LOCAL
    assert TOO_MANY in await refused(local)
    term.send("q")
    assert await term.wait_closed() == 0


async def test_a_header_from_anywhere_else_is_not_believed(host: Any) -> None:
    hosted: Hosted = await host(max_per_address=1, proxy_protocol_from=TRUST_BALANCER)
    term = await game(await connect(hosted.port, local="127.0.0.3"))  # plain SSH still works
    assert {client.address for client in hosted.server.clients} == {"127.0.0.3"}
    forged = await raw(hosted.port, "127.0.0.3")  # a client naming someone else
    forged.sendall(v1("203.0.113.9", 5555))
    await closed_by_server(forged)  # not SSH: asyncssh ends it
    with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
        await refused(await via_balancer(hosted.port, v2("203.0.113.9", 5556), "127.0.0.3"))
    await hosted.logged("127.0.0.3:")
    assert not [line for line in hosted.log if "203.0.113.9" in line], hosted.log
    assert {client.address for client in hosted.server.clients} <= {"127.0.0.3"}
    term.send("q")
    assert await term.wait_closed() == 0


BAD_HEADERS = {
    "v1 malformed": b"PROXY TCP4 203.0.113.7 10.0.0.1 99999 22\r\n",
    "v1 oversized": b"PROXY TCP4 " + b"7" * 300,
    "no header: SSH at once": b"SSH-2.0-OpenSSH_9.2\r\n",
    "v2 other version": v2("203.0.113.7", 1)[:12] + b"\x31" + v2("203.0.113.7", 1)[13:],
    "v2 oversized": v2("203.0.113.7", 1)[:14] + b"\xff\xff" + bytes(600),
    "v2 udp": v2("203.0.113.7", 1, family=0x12),
}


@pytest.mark.parametrize("bad", list(BAD_HEADERS))
async def test_a_bad_header_from_the_balancer_is_dropped_and_others_play(
    host: Any, bad: str
) -> None:
    hosted: Hosted = await host(proxy_protocol_from=TRUST_BALANCER)
    sock = await raw(hosted.port)
    sock.sendall(BAD_HEADERS[bad])
    assert await closed_by_server(sock) < proxy_listener.HEADER_TIMEOUT
    line = await hosted.logged(f"{BALANCER}:")
    assert "dropped:" in line and "203.0.113.7" not in line
    term = await game(await via_balancer(hosted.port, v1("203.0.113.7", 1)))
    assert "Your turn" in term.status()


async def test_a_slow_header_is_dropped_at_the_deadline_while_others_play(
    host: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proxy_listener, "HEADER_TIMEOUT", 2.0)
    hosted: Hosted = await host(proxy_protocol_from=TRUST_BALANCER)
    slow = await raw(hosted.port)
    slow.sendall(b"PROXY TCP4 203.0.113.")  # and then nothing
    silent = await raw(hosted.port)  # nothing at all
    term = await game(await via_balancer(hosted.port, v2("203.0.113.8", 2)))  # meanwhile
    assert "Your turn" in term.status()
    for sock in (slow, silent):
        await closed_by_server(sock)
    await hosted.logged("dropped: no whole PROXY header within 2 s")
    assert {client.address for client in hosted.server.clients} == {"203.0.113.8"}


async def test_headers_read_at_once_are_capped(host: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proxy_listener, "PENDING_LIMIT", 2)
    hosted: Hosted = await host(proxy_protocol_from=TRUST_BALANCER)
    waiting = [await raw(hosted.port) for _ in range(2)]  # silent: their headers pending
    await until(lambda: len(hosted.server._acceptor.reading) == 2)  # type: ignore[union-attr]
    extra = await raw(hosted.port)
    assert await closed_by_server(extra) < proxy_listener.HEADER_TIMEOUT
    await hosted.logged("dropped: too many PROXY headers being read at once")
    for sock in waiting:
        sock.close()
    await until(lambda: not hosted.server._acceptor.reading)  # type: ignore[union-attr]
    term = await game(await via_balancer(hosted.port, v1("203.0.113.7", 1)))
    assert "Your turn" in term.status()


async def test_sigterm_with_the_option_exits_0_with_headers_and_logins_pending(
    tmp_path: Path,
) -> None:
    """The installed server with --proxy-protocol-from: a header that never ends, a client
    that never logs in and one playing do not hold SIGTERM's clean exit up."""
    env = {**os.environ, "TUI_TICTACTOE_DATA_DIR": str(tmp_path)}
    server = subprocess.Popen(
        [*command(), "serve-ssh", "--port", "0", "--no-rooms", "--proxy-protocol-from", TRUST],
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert server.stderr is not None
        line = await asyncio.wait_for(asyncio.to_thread(server.stderr.readline), START_TIMEOUT)
        listening = re.search(rb"listening on 127\.0\.0\.1:(\d+)", line)
        assert listening is not None, line
        port = int(listening.group(1))
        slow = await raw(port)
        slow.sendall(b"PROXY TCP4 ")
        lingering = await raw(port, "127.0.0.3")
        lingering.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
        term = await game(await via_balancer(port, v2("203.0.113.7", 9)))
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        status = await asyncio.to_thread(server.wait, 10)
        assert status == 0 and time.monotonic() - started < 5
        assert await term.wait_closed(5) == 1
        log = server.stderr.read().decode()
        assert "203.0.113.7:9 " in log and "exception" not in log.lower(), log
        for sock in (slow, lingering):
            sock.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


async def until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT
    while not condition():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)


# -- through a real HAProxy ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def haproxy(tmp_path: Path) -> AsyncIterator[Callable[[dict[str, str]], Any]]:
    """`start({name: "PORT [send-proxy|send-proxy-v2]"})`: one HAProxy in TCP mode with a
    frontend per name on a free port of 127.0.0.1, each passing to a server; returns the
    frontends' ports by name. Without HAProxy: a failure in CI (`CI=true`), which must run
    it, a skip elsewhere, saying why."""
    if HAPROXY is None:
        why = "NO HAPROXY TESTS: haproxy was not found; apt-get install haproxy (.ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    running: list[subprocess.Popen[bytes]] = []

    async def start(backends: dict[str, str]) -> dict[str, int]:
        ports = {name: free_port() for name in backends}
        config = [
            "global\n    maxconn 200\n",
            "defaults\n    mode tcp\n    timeout connect 5s\n"
            "    timeout client 1m\n    timeout server 1m\n",
        ]
        for name, server in backends.items():
            config.append(
                f"frontend f_{name}\n    bind 127.0.0.1:{ports[name]}\n"
                f"    default_backend b_{name}\n"
                f"backend b_{name}\n    server s 127.0.0.1:{server}\n"
            )
        path = tmp_path / "haproxy.cfg"
        path.write_text("".join(config))
        assert HAPROXY is not None
        proc = subprocess.Popen([HAPROXY, "-db", "-f", str(path)], stderr=subprocess.PIPE)
        running.append(proc)
        for port in ports.values():
            await until_listening(port, proc)
        return ports

    yield start
    for proc in running:
        proc.terminate()
        proc.wait(10)
        assert proc.stderr is not None
        proc.stderr.close()


async def test_through_haproxy_each_client_has_its_own_address(host: Any, haproxy: Any) -> None:
    """HAProxy connects from 127.0.0.1: trusted by one server, not by the other. Clients
    from 127.0.0.2 and 127.0.0.3 under --max-per-address 1: told apart through send-proxy and
    send-proxy-v2; without the option they share the balancer's address."""
    trusting: Hosted = await host(
        max_per_address=1, proxy_protocol_from=(ipaddress.ip_network("127.0.0.0/30"),)
    )
    plain: Hosted = await host(max_per_address=1)
    ports = await haproxy(
        {
            "v1": f"{trusting.port} send-proxy",
            "v2": f"{trusting.port} send-proxy-v2",
            "none": f"{trusting.port}",
            "plain": f"{plain.port}",
        }
    )
    ann = await game(await connect(ports["v2"], local="127.0.0.2"))
    bob = await game(await connect(ports["v1"], local="127.0.0.3"))
    assert {client.address for client in trusting.server.clients} == {"127.0.0.2", "127.0.0.3"}
    assert TOO_MANY in await refused(await connect(ports["v1"], local="127.0.0.2"))
    assert TOO_MANY in await refused(await connect(ports["v2"], local="127.0.0.3"))
    # A balancer that sends no header is a misconfiguration: dropped, and said so.
    with pytest.raises((asyncssh.Error, OSError)):
        await connect(ports["none"], local="127.0.0.2")
    await trusting.logged("dropped: not a PROXY protocol header")
    for term in (ann, bob):
        term.send("q")
        assert await term.wait_closed() == 0
    # Without the option: one address, the balancer's, for both.
    carl = await game(await connect(ports["plain"], local="127.0.0.2"))
    assert TOO_MANY in await refused(await connect(ports["plain"], local="127.0.0.3"))
    assert {client.address for client in plain.server.clients} == {"127.0.0.1"}
    carl.send("q")
    assert await carl.wait_closed() == 0
