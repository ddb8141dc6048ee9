"""The command-line options of `serve-ssh` and `serve-web`.

Imported by `cli.build_parser` on every start, so it imports nothing heavy: the
servers themselves (asyncssh, aiohttp) load only when a `serve-*` command runs.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Callable

from tui_tictactoe.addresses import DEFAULT_IPV6_PREFIX, IPV6_PREFIXES
from tui_tictactoe.rooms.limits import options as room_limit_options
from tui_tictactoe.servers.config import add_config_options
from tui_tictactoe.servers.names import DEFAULT_RESERVED
from tui_tictactoe.servers.proxy.forwarded import HEADERS as FORWARDED_HEADERS

LOG_FORMATS = ("text", "json")  # `log_format.LOG_FORMATS` (not imported: start-up cost)

SSH_PORT = 2222
WEB_PORT = 8000
LOOPBACK = "127.0.0.1"
DATABASE_CONNECTIONS = 4
"""The rooms' hub's pool by default: `rooms.postgres.link.POOL_SIZE`, not imported here (it
costs `stats` and the other commands that build this parser ~45 ms of imports); a test
checks that the two agree, so `--print-config` shows the number in force."""


def _whole(name: str, low: int, high: int) -> Callable[[str], int]:
    """A `type=` for a whole number in [low, high]; the cli's `BoundedParser` bounds the echo."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    parse.__name__ = name
    return parse


def _seconds(text: str) -> float:
    """`--idle-timeout`: seconds, fractions allowed (the tests use short ones); 0 turns it off."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not 0 <= value <= 7 * 24 * 3600:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be from 0 to 604800 seconds, not {text!r}")
    return value


_port = _whole("port", 0, 65535)

ADDRESS_LIMIT = 253  # the longest DNS name
_ADDRESS_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:_")


def public_address(text: str) -> tuple[str, int | None]:
    """`--public-address HOST[:PORT]` (an IPv6 address in brackets: `[2001:db8::1]:2222`):
    the host and port players type, shown in a room's line for a friend. No port: the
    port the server listens on."""
    host, port = text, None
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise argparse.ArgumentTypeError(f"not HOST[:PORT]: {text[:40]!r}")
        port = rest[1:] or None
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or len(host) > ADDRESS_LIMIT or not set(host) <= _ADDRESS_CHARS:
        raise argparse.ArgumentTypeError(
            f"not a host name or address: {text[:40]!r} (letters, digits, . - : _)"
        )
    if port is None:
        return host, None
    return host, _whole("port", 1, 65535)(port)


NAMES_LIMIT = 200
"""Names `--reserved-names` may list."""


def name_list(text: str) -> tuple[str, ...]:
    """`--reserved-names admin,root`: names, comma-separated (spaces around them dropped)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if len(names) > NAMES_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {NAMES_LIMIT} names, not {len(names)}")
    if any(len(name) > 64 for name in names):
        raise argparse.ArgumentTypeError("a name is at most 64 characters")
    return names


def metrics_address(text: str) -> tuple[str, int]:
    """`--metrics HOST:PORT` (IPv6 in brackets: `[::1]:9464`); port 0 picks a free one."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or len(host) > ADDRESS_LIMIT or not set(host) <= _ADDRESS_CHARS:
        raise argparse.ArgumentTypeError(f"not HOST:PORT: {text[:40]!r}")
    return host, _port(port)


def add_ops_options(parser: argparse.ArgumentParser) -> None:
    """`--metrics` and `--log-format`, alike on both servers (docs/hosting.md)."""
    parser.add_argument(
        "--metrics",
        type=metrics_address,
        metavar="HOST:PORT",
        help="serve Prometheus metrics (/metrics) and health checks (/livez, /readyz) over "
        "HTTP on this address, e.g. 127.0.0.1:9464 (default: off)",
    )
    parser.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="text",
        help="the log on stderr: text lines (default), or json: one object a line "
        "with a stable event name (docs/hosting.md)",
    )


def add_drain_option(parser: argparse.ArgumentParser) -> None:
    """`--drain-timeout`, alike on both servers (`servers.ops.drain`)."""
    parser.add_argument(
        "--drain-timeout",
        type=_seconds,
        default=600.0,
        metavar="SECONDS",
        help="on SIGUSR1 the server takes no new sessions, lets the rounds in play end, then "
        "exits 0; after this long it exits all the same (default 600)",
    )


NETWORKS_LIMIT = 64  # networks in --proxy-protocol-from, --forwarded-from


def networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """`--proxy-protocol-from`, `--forwarded-from CIDR[,CIDR...]`: the balancers' (or the
    proxies') networks (an address alone is one host). Host bits set (10.0.0.1/8) are
    refused: a typo would trust a whole network."""
    parts = text.split(",")
    if len(parts) > NETWORKS_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {NETWORKS_LIMIT} networks")
    found = []
    for part in parts:
        try:
            found.append(ipaddress.ip_network(part.strip(), strict=True))
        except ValueError as error:
            raise argparse.ArgumentTypeError(
                f"not a network: {part.strip()[:45]!r} ({error})"
            ) from None
    return tuple(found)


def add_ssh_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"address to listen on (default {LOOPBACK}: this machine only; 0.0.0.0 for all)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=SSH_PORT,
        help=f"port to listen on (default {SSH_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--host-key",
        metavar="FILE",
        help="the server's private key, created (mode 0600) if missing "
        "(default: ssh_host_ed25519_key in the data directory)",
    )
    parser.add_argument(
        "--authorized-keys",
        metavar="FILE",
        help="let in only the public keys in this file (OpenSSH authorized_keys format); "
        "default: anyone, with any user name and no password",
    )
    add_capacity_options(
        parser,
        "clients",
        "an IPv6 client is counted by its network, see --ipv6-prefix",
        "input",
    )
    parser.add_argument(
        "--ipv6-prefix",
        type=_whole("ipv6_prefix", IPV6_PREFIXES[0], IPV6_PREFIXES[-1]),
        default=DEFAULT_IPV6_PREFIX,
        metavar="BITS",
        help=f"every per-address rule (games, connections logging in, wrong room codes) counts "
        f"an IPv6 client by its network of this many bits, since one host often has a whole "
        f"/64 (default {DEFAULT_IPV6_PREFIX}; 128: each address; {IPV6_PREFIXES[0]}-128)",
    )
    parser.add_argument(
        "--proxy-protocol-from",
        type=networks,
        default=(),
        metavar="CIDR[,CIDR...]",
        help="connections from these networks (your TCP load balancer's, and nobody else's) "
        "must start with a PROXY protocol header (HAProxy send-proxy or send-proxy-v2), whose "
        "address is then the client's for every per-address limit and log line (default: none)",
    )
    parser.add_argument(
        "--deny",
        metavar="FILE",
        help="turn away the keys, addresses, networks and name patterns in this file, one a "
        "line: VALUE [until=WHEN] [# REASON] (docs/hosting.md, Moderation); read again on SIGHUP",
    )
    parser.add_argument(
        "--reserved-names",
        type=name_list,
        default=DEFAULT_RESERVED,
        metavar="NAME[,NAME...]",
        help="names nobody logs in under, nor their look-alikes (default: admin, root, "
        "moderator, support and a few more; this machine's name and --public-address's host "
        "always); an empty value reserves only those",
    )
    add_room_options(parser)
    add_drain_option(parser)
    add_ops_options(parser)
    add_database_option(
        parser, "the record and the rooms, so that several hosts on one database are one world"
    )
    add_room_database_options(parser)
    parser.add_argument(
        "--no-fork-server",
        dest="fork_server",
        action="store_false",
        help="start each game as a fresh process instead of forking it from one that has "
        "imported the game once (slower to start; for comparison, or if forking misbehaves)",
    )
    parser.add_argument(
        "--warm-games",
        type=_whole("warm_games", 0, 64),
        default=4,
        metavar="N",
        help="games the fork server keeps forked ahead of demand, asleep until a player "
        "comes (default 4; 0: fork each on demand; about 1 MB and no CPU each while waiting)",
    )
    add_config_options(parser)


MAX_SESSIONS = 16
MAX_PER_ADDRESS = 4
IDLE_TIMEOUT = 600.0


def add_capacity_options(
    parser: argparse.ArgumentParser, clients: str, per_address: str, input_is: str
) -> None:
    """`--max-sessions`, `--max-per-address` and `--idle-timeout`, alike on both servers:
    what differs is who the `clients` are, what counts per address, and what input is."""
    parser.add_argument(
        "--max-sessions",
        type=_whole("max_sessions", 1, 10_000),
        default=MAX_SESSIONS,
        metavar="N",
        help=f"games at once; more {clients} are told the server is full (default {MAX_SESSIONS})",
    )
    parser.add_argument(
        "--max-per-address",
        type=_whole("max_per_address", 1, 10_000),
        default=MAX_PER_ADDRESS,
        metavar="N",
        help=f"games at once from one IP address (default {MAX_PER_ADDRESS}; {per_address})",
    )
    parser.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=IDLE_TIMEOUT,
        metavar="SECONDS",
        help=f"close a session without {input_is} for this long "
        f"(default {IDLE_TIMEOUT:g}; 0: never)",
    )


def add_database_option(parser: argparse.ArgumentParser, what: str) -> None:
    """`--database-url`, alike on both servers (`servers.database` reads and checks it)."""
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help=f"PostgreSQL (postgresql://...) for {what} (docs/hosting.md); default: "
        "$TUI_TICTACTOE_DATABASE_URL, else SQLite in the data directory",
    )


def add_room_database_options(parser: argparse.ArgumentParser) -> None:
    """`--database-listen-url` and `--database-connections`: the rooms' hub on PostgreSQL,
    alike on both servers (`room_service.RoomService`)."""
    parser.add_argument(
        "--database-listen-url",
        metavar="URL",
        help="the same database reached directly, for the rooms' one LISTEN connection, when "
        "--database-url names a PgBouncer in transaction mode (default: --database-url)",
    )
    parser.add_argument(
        "--database-connections",
        type=_whole("database_connections", 1, 64),
        default=DATABASE_CONNECTIONS,
        metavar="N",
        help="connections the rooms' hub keeps to --database-url (default "
        f"{DATABASE_CONNECTIONS}): that many rooms "
        "change at once; a pooler needs every host's N, plus one LISTEN each if it goes there",
    )


def add_room_options(parser: argparse.ArgumentParser, ssh: bool = True) -> None:
    """Rooms: players playing each other, on a hub in the server's process. The hub's
    limits with an option are made from `rooms.limits.RoomLimits` (names, defaults,
    help): `room_service.room_limits` reads them back by their field names. `serve-web`
    (`ssh` False) has no `--public-address`: its rooms name `--public-url`."""
    parser.add_argument(
        "--no-rooms",
        dest="rooms",
        action="store_false",
        help="no rooms: every session plays the AI at once, without the lobby"
        if ssh
        else "no rooms: the page's ?lobby, ?room=new, ?join=, ?watch= and ?match are refused",
    )
    for name, (option, default) in room_limit_options().items():
        value = "SECONDS" if option.kind == "seconds" else "N"
        shown = "" if default is None else f"{default:g}"
        parser.add_argument(
            "--" + name.replace("_", "-"),
            type=_seconds if option.kind == "seconds" else _whole(name, option.low, option.high),
            default=default,
            metavar=value,
            help=option.help.format(default=shown),
        )
    if not ssh:
        return
    parser.add_argument(
        "--public-address",
        type=public_address,
        metavar="HOST[:PORT]",
        help="the address players ssh to, shown in a room's line for a friend "
        "(default: --host and the port listened on; localhost for 127.0.0.1; "
        "this machine's name for 0.0.0.0)",
    )


def add_web_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"address to listen on (default {LOOPBACK}: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=_whole("port", 1, 65535),
        default=WEB_PORT,
        help=f"port to listen on (default {WEB_PORT})",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when it is not http://HOST:PORT "
        "(behind a reverse proxy, or with --host 0.0.0.0): e.g. https://ttt.example.org; "
        "pages from any other address may not start games",
    )
    add_capacity_options(
        parser,
        "browsers",
        "behind a reverse proxy, see --forwarded-from",
        "a key or click",
    )
    parser.add_argument(
        "--forwarded-from",
        type=networks,
        default=(),
        metavar="CIDR[,CIDR...]",
        help="your reverse proxies' networks (and nobody else's): a request from there is "
        "the visitor its --forwarded-header names (the right-most address outside these "
        "networks), for --max-per-address and the log; anyone else's header is ignored "
        "(default: none, every visitor is the address it connects from)",
    )
    parser.add_argument(
        "--forwarded-header",
        choices=FORWARDED_HEADERS,
        default=FORWARDED_HEADERS[0],
        help="the header your proxy writes the visitor's address to: x-forwarded-for (nginx "
        "$proxy_add_x_forwarded_for, HAProxy option forwardfor) or forwarded (RFC 7239); "
        "the other one is never read (default x-forwarded-for)",
    )
    add_room_options(parser, ssh=False)
    add_drain_option(parser)
    add_ops_options(parser)
    add_database_option(
        parser,
        "the record the games read and the rooms: serve-ssh and serve-web hosts on one "
        "database are one world",
    )
    add_room_database_options(parser)
    add_config_options(parser)
