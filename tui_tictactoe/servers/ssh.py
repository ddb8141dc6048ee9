"""`tui-tictactoe serve-ssh`: anyone can `ssh -p 2222 host` and play, each in a game of their own.

One SSH connection holds at most one session, and a session with a pty runs one
game in its own process and pseudo-terminal (`GameProcess`). The server never
runs a shell and never runs what a client sends: an exec request is read as the
game's options. Everything else a client may ask for (SFTP and other subsystems,
port forwarding both ways, agent and X11 forwarding) is refused. The server is in
`ssh_server`, a session and its game in `ssh_session`; this module is the command.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from ..commands.play_options import PROG
from .database import DatabaseUnusable, database_url
from .host_key import HostKeyError
from .ssh_server import GameServer, Settings


def play_hint(host: str, port: int) -> str:
    """The command players type: listening on every address, the server cannot know
    which of this machine's names or addresses they can reach."""
    if host in ("", "0.0.0.0", "::"):
        return f"ssh -t -p {port} ADDRESS (this machine's name or address; here: localhost)"
    if host in ("127.0.0.1", "::1"):
        return f"ssh -t -p {port} localhost"
    return f"ssh -t -p {port} {host}"


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(
        host=args.host,
        port=args.port,
        host_key=Path(args.host_key) if args.host_key else None,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        max_sessions=args.max_sessions,
        max_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout,
        fork_server=args.fork_server,
        warm_games=args.warm_games,
        rooms=args.rooms,
        reconnect_grace=args.reconnect_grace,
        max_spectators=args.max_spectators,
        room_limits=(args.rooms_per_address, args.max_rooms or args.max_sessions),
        public_address=args.public_address,
        database_url=database_url(args.database_url),
        listen_url=args.database_listen_url,
        database_connections=args.database_connections,
        proxy_protocol_from=args.proxy_protocol_from,
        ipv6_prefix=args.ipv6_prefix,
    )


def serve(args: argparse.Namespace) -> int:
    """`tui-tictactoe serve-ssh`: run until SIGINT or SIGTERM, then shut down cleanly (exit 0)."""
    try:
        server = GameServer(settings_from(args))
    except HostKeyError as error:
        print(f"{PROG} serve-ssh: {error}", file=sys.stderr)
        return 2
    return asyncio.run(_run(server))


async def _run(server: GameServer) -> int:
    try:
        port = await server.start()
    except DatabaseUnusable as error:
        print(f"{PROG} serve-ssh: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        where = f"{server.settings.host}:{server.settings.port}"
        print(f"{PROG} serve-ssh: cannot listen on {where}: {error.strerror}", file=sys.stderr)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    host = server.settings.host
    shown = f"[{host}]" if ":" in host else host
    server.log(
        f"{PROG} serve-ssh: listening on {shown}:{port} (host key {server.fingerprint}); "
        f"play with: {play_hint(host, port)}"
    )
    await stop.wait()
    server.stop_accepting()
    server.log(f"{PROG} serve-ssh: shutting down")
    with contextlib.suppress(asyncio.CancelledError):
        await server.stop()
    server.log(f"{PROG} serve-ssh: stopped")
    return 0
