"""What the server tests and `benchmarks/bench_ssh.py` need to see of a server, kept out of
the package because only they use it."""

from __future__ import annotations

import argparse

from tui_tictactoe.servers.games.command import CHILD_COMMAND, play_args
from tui_tictactoe.servers.ssh.server import SshServer


def game_argv(options: argparse.Namespace) -> list[str]:
    """A hosted game's command line as a fresh interpreter: the child entry point and the
    canonical options (what `SshServer.launcher` starts without the fork server)."""
    return [*CHILD_COMMAND, *play_args(options)]


def game_pids(server: SshServer) -> list[int]:
    """Process ids of the games `server` is running now."""
    return [game.pid for game in server.games if game.pid is not None]
