"""`tui-tictactoe serve-ssh`: anyone can `ssh -p 2222 host` and play, each in a game of their own.

One SSH connection holds at most one session, and a session with a pty runs one
game in its own process and pseudo-terminal (`PtyProcess`). The server never
runs a shell and never runs what a client sends: an exec request is read as the
game's options. Everything else a client may ask for (SFTP and other subsystems,
port forwarding both ways, agent and X11 forwarding) is refused. The server is in
`ssh.server`, a session and its game in `ssh.session`; this module is the command.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.servers.database import DatabaseUnusable, database_url
from tui_tictactoe.servers.ops.drain import DRAIN_SIGNAL, RESTARTING
from tui_tictactoe.servers.ops.log_format import Event, ServerLog
from tui_tictactoe.servers.room_service import room_limits
from tui_tictactoe.servers.ssh.host_key import HostKeyError
from tui_tictactoe.servers.ssh.server import Settings, SshServer


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
        room_limits=room_limits(args),
        public_address=args.public_address,
        database_url=database_url(args.database_url),
        listen_url=args.database_listen_url,
        database_connections=args.database_connections,
        proxy_protocol_from=args.proxy_protocol_from,
        ipv6_prefix=args.ipv6_prefix,
        drain_timeout=args.drain_timeout,
        metrics=args.metrics,
        deny=Path(args.deny) if args.deny else None,
        reserved_names=args.reserved_names,
    )


def serve(args: argparse.Namespace) -> int:
    """`tui-tictactoe serve-ssh`: run until SIGINT or SIGTERM, then shut down cleanly (exit 0)."""
    try:
        server = SshServer(settings_from(args), ServerLog(args.log_format))
    except HostKeyError as error:
        print(f"{PROG} serve-ssh: {error}", file=sys.stderr)
        return 2
    return asyncio.run(_run(server))


def _shown(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _run(server: SshServer) -> int:
    settings = server.settings
    try:
        port = await server.start()
    except (DatabaseUnusable, OSError) as error:
        if server.ops is not None:
            await server.ops.stop()
        if isinstance(error, DatabaseUnusable):
            print(f"{PROG} serve-ssh: {error}", file=sys.stderr)
            return 1
        where = _shown(settings.host, settings.port)
        if settings.metrics is not None and server.ops is None:  # the metrics' port failed
            where = _shown(*settings.metrics)
        print(f"{PROG} serve-ssh: cannot listen on {where}: {error.strerror}", file=sys.stderr)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(DRAIN_SIGNAL, server.drain.begin)
    loop.add_signal_handler(signal.SIGHUP, server.deny.reload)  # in a thread: see `deny`
    _said_listening(server, port)
    done = asyncio.ensure_future(server.drain.done.wait())
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait((done, stopped), return_when=asyncio.FIRST_COMPLETED)
    for waiting in (done, stopped):
        waiting.cancel()
    server.stop_accepting()
    server.log(Event("server.stopping", f"{PROG} serve-ssh: shutting down"))
    with contextlib.suppress(asyncio.CancelledError):
        if server.drain.done.is_set():
            await server.stop(RESTARTING)
        else:
            await server.stop()
    server.log(Event("server.stopped", f"{PROG} serve-ssh: stopped"))
    return 0


def _said_listening(server: SshServer, port: int) -> None:
    host = server.settings.host
    ops = server.ops
    metrics = (
        f"; metrics and health on http://{_shown(ops.address[0], ops.port or 0)}" if ops else ""
    )
    server.log(
        Event(
            "server.listening",
            f"{PROG} serve-ssh: listening on {_shown(host, port)} (host key {server.fingerprint}); "
            f"play with: {play_hint(host, port)}{metrics}",
            port=port,
            host_key=server.fingerprint,
            metrics_port=ops.port if ops else None,
        )
    )
