"""How `serve-ssh` listens: asyncssh's own listener, or, with `--proxy-protocol-from`, its own.

Behind a TCP load balancer every connection comes from the balancer's address, so the
per-address rules (`--max-per-address`, the log lines, the rooms' wrong-code limit) would
see one address for everyone. With `--proxy-protocol-from NETWORKS` the server accepts TCP
itself: a connection from one of those networks (the balancer's) must begin with a PROXY
header (`proxy.protocol`), read within `HEADER_TIMEOUT` and never past its end; the address
it names is then the client's. Anything else from there is dropped and logged (at a bounded
rate). A connection from anywhere else is taken as it is, its address its own: whatever it
sends is SSH, so a client can never choose its own address. Either way the socket is then
handed, connected, to asyncssh (`asyncssh.run_server`), with the same options as the
ordinary listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import asyncssh

from tui_tictactoe.servers.proxy.protocol import ProxyHeader, ProxyHeaderError, step

HEADER_TIMEOUT = 5.0  # seconds for the balancer's header (it sends it at once)
PENDING_LIMIT = 256  # headers being read at once; more connections are dropped meanwhile
ACCEPT_PAUSE = 0.1  # seconds to wait after accept fails (out of file descriptors)
CIPHERS = (
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
)
"""asyncssh's default ciphers but chacha20-poly1305, which clients pick first: asyncssh builds
it from a fresh cipher context per packet, ~8x the time of AES-GCM for a small packet
(250 against 31 µs here), and every packet a client sends is decrypted on the event loop."""
RECEIVE_BUFFER = 4096
"""Bytes the kernel holds for one connection before its client must wait (SO_RCVBUF, set
on the listening sockets so that each connection's TCP window starts small). asyncssh
takes what one read brings and works through it packet by packet, each time copying what
is left (quadratic in the read): 256 KiB of small packets, a read's most, held the event
loop for a second. A player types 2 KiB a second (`input_budget`): a small buffer costs
nobody, and a flooder is slowed by TCP itself."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Source = tuple[str, int] | None  # the client (a header's, else as accepted); None: the peername
ServerFactory = Callable[[Source], asyncssh.SSHServer]
Dropped = Callable[[str, str], None]  # (the peer, why: the server's own wording)


class Acceptor(Protocol):
    """What the server keeps of its listener: asyncssh's `SSHAcceptor`, or a `ProxyListener`."""

    def get_port(self) -> int: ...

    def close(self) -> None: ...


def ssh_options(host_key: asyncssh.SSHKey, login_timeout: float) -> dict[str, Any]:
    """The asyncssh options of every connection, whichever listener took it."""
    return dict(
        server_host_keys=[host_key],
        server_version="tui_tictactoe",
        encryption_algs=list(CIPHERS),
        encoding=None,  # bytes both ways: the game's output is not for asyncssh to decode
        line_editor=False,  # the game reads raw keys
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        password_auth=False,
        gss_host=None,
        login_timeout=login_timeout,
        keepalive_interval=60,
        keepalive_count_max=3,
    )


def trusted(address: str, among: tuple[Network, ...]) -> bool:
    """Whether a peer's address is in one of the networks (an IPv4 peer on a dual-stack
    socket, ::ffff:10.0.0.5, counts as 10.0.0.5)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in among)


async def read_header(sock: socket.socket) -> ProxyHeader:
    """The PROXY header at the start of `sock`, read a few bytes at a time and never past its
    end (what follows is the client's SSH, left for asyncssh). No deadline here: the caller's."""
    loop = asyncio.get_running_loop()
    data = b""
    while True:
        wanted = step(data)
        if isinstance(wanted, ProxyHeader):
            return wanted
        chunk = await loop.sock_recv(sock, wanted)
        if not chunk:
            raise ProxyHeaderError("closed before the end of its PROXY header")
        data += chunk


async def listen(
    host: str,
    port: int,
    proxies: tuple[Network, ...],
    factory: ServerFactory,
    dropped: Dropped,
    options: dict[str, Any],
) -> Acceptor:
    """asyncssh's listener when no balancer sends headers; else a `ProxyListener`."""
    if not proxies:
        acceptor = await asyncssh.create_server(lambda: factory(None), host, port, **options)
        for sock in acceptor.sockets:  # asyncio's `Server`, which the acceptor wraps
            _small_window(sock)
        return acceptor
    sockets = _bind(host, port)
    for sock in sockets:
        _small_window(sock)
    return ProxyListener(sockets, proxies, factory, dropped, options)


def _small_window(sock: Any) -> None:
    """RECEIVE_BUFFER for the connections `sock` accepts (they inherit it)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)


def _bind(host: str, port: int) -> list[socket.socket]:
    """Listening sockets for every address of `host`, as asyncio's `create_server` makes them
    (port 0: the first picks, the others take the same)."""
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        ):
            if sockets:
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(100)
            sock.setblocking(False)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class ProxyListener:
    """Accepts TCP, reads the balancer's header, hands each socket to asyncssh."""

    def __init__(
        self,
        sockets: list[socket.socket],
        proxies: tuple[Network, ...],
        factory: ServerFactory,
        dropped: Dropped,
        options: dict[str, Any],
    ) -> None:
        self.sockets, self.proxies, self.factory = sockets, proxies, factory
        self.dropped, self.options = dropped, options
        self.reading: set[asyncio.Task[None]] = set()  # headers being read
        self.starting: set[asyncio.Task[None]] = set()  # SSH connections not yet logged in
        loop = asyncio.get_running_loop()
        self.accepting = [loop.create_task(self._accept(sock)) for sock in sockets]

    def get_port(self) -> int:
        return int(self.sockets[0].getsockname()[1])

    def close(self) -> None:
        """Stop listening; headers not read yet are dropped. Connections already handed to
        asyncssh are the server's to end (`SshServer.stop`)."""
        for task in [*self.accepting, *self.reading]:
            task.cancel()
        for sock in self.sockets:
            sock.close()

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, address = await loop.sock_accept(listener)
            except OSError:  # out of descriptors, say: the connection waits in the backlog
                await asyncio.sleep(ACCEPT_PAUSE)
                continue
            sock.setblocking(False)
            peer = (str(address[0]), int(address[1]))  # kept: a reset loses the socket's
            if not trusted(peer[0], self.proxies):
                self._start(sock, peer)
            elif len(self.reading) >= PENDING_LIMIT:
                self._drop(sock, peer, "dropped: too many PROXY headers being read at once")
            else:
                self._keep(self.reading, self._read(sock, peer))

    async def _read(self, sock: socket.socket, peer: tuple[str, int]) -> None:
        """The header, within `HEADER_TIMEOUT`; then SSH, as from the address it names (the
        balancer's own for its health checks)."""
        try:
            header = await asyncio.wait_for(read_header(sock), HEADER_TIMEOUT)
        except ProxyHeaderError as error:
            self._drop(sock, peer, f"dropped: {error}")
        except TimeoutError:
            self._drop(sock, peer, f"dropped: no whole PROXY header within {HEADER_TIMEOUT:g} s")
        except OSError:
            self._drop(sock, peer, "dropped: the connection failed before its PROXY header")
        except asyncio.CancelledError:
            sock.close()
            raise
        else:
            self._start(sock, header.source or peer)

    def _start(self, sock: socket.socket, source: Source) -> None:
        self._keep(self.starting, self._ssh(sock, source))

    async def _ssh(self, sock: socket.socket, source: Source) -> None:
        """asyncssh on the connected socket, until the client has logged in (or not: the
        server's `Client` logs how every connection ended)."""
        with contextlib.suppress(OSError, asyncssh.Error, asyncio.TimeoutError):
            await asyncssh.run_server(
                sock, server_factory=lambda: self.factory(source), **self.options
            )

    def _drop(self, sock: socket.socket, peer: tuple[str, int], why: str) -> None:
        sock.close()
        host, port = peer
        self.dropped(f"[{host}]:{port}" if ":" in host else f"{host}:{port}", why)

    def _keep(self, tasks: set[asyncio.Task[None]], work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
