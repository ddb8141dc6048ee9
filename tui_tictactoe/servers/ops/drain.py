"""Draining a server (SIGUSR1): no new sessions, every round played to its end, exit 0.

One drain for both servers (`serve-ssh`, `serve-web`): each says how it stops taking
sessions (`DrainHost.stop_accepting`) and how its games are told (`Told.send_signal`).
On `begin` new sessions are refused (serve-ssh closes its port; a balancer's next
connection goes to another host, and `/readyz` says "draining"), and every game is told, by SIGUSR1 to its process group,
again every `RETELL` s until it has gone (one still starting ignores it: see
`ui.server_restart`). Each game shows "This server restarts after your round" and ends
itself once no round is in play. When the last game has gone, or after `--drain-timeout`
s in any case, the server stops as on SIGTERM (the sessions left are told why) and the
command exits 0. With `--database-url` a room's players reach another host when they
connect again (`--join CODE`), as after any host's stop: the room goes on there; with
the rooms in the server's memory the room ends with it, and the game says so instead.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.servers.ops.log_format import Event

DRAIN_SIGNAL = signal.SIGUSR1
"""The signal that drains a server, and that the server passes on to its games."""
DEFAULT_TIMEOUT = 600.0
RETELL = 2.0  # seconds between tellings of a game that has not ended
POLL = 0.25  # seconds between looks at what is left
RESTARTING = "this server is restarting: connect again to play (on another host)"


class Told(Protocol):
    """A game as the drain sees it (`games.process.PtyProcess`, `web.session.WebSession`)."""

    @property
    def returncode(self) -> int | None: ...

    def send_signal(self, sig: signal.Signals) -> None: ...


class DrainHost(Protocol):
    """What the drain needs of the server (`ssh.server.SshServer`, `web.main.WebServer`)."""

    def stop_accepting(self) -> None: ...

    def playing(self) -> Iterable[Told]:
        """The games that have drawn (whose app is up) and those still starting."""
        ...

    def busy(self) -> bool:
        """A game still runs, or a session admitted before the drain is starting one."""
        ...


class Drain:
    """The drain of one server: `begin` once (more calls are ignored), `done` when over."""

    def __init__(
        self,
        host: DrainHost,
        timeout: float,
        log: Callable[[str], None],
        command: str = "serve-ssh",
    ) -> None:
        """`command`: the server's name in its log lines."""
        self.host = host
        self.command = command
        self.timeout = timeout
        self.log = log
        self.draining = False
        self.done = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def begin(self) -> None:
        if self.draining:
            return
        self.draining = True
        self.host.stop_accepting()
        self.log(
            Event(
                "drain.begun",
                f"{PROG} {self.command}: draining: no new sessions; rounds in play go on "
                f"(at most {self.timeout:g} s)",
                timeout_seconds=self.timeout,
            )
        )
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        started = time.monotonic()
        told: dict[Told, float] = {}
        while self.host.busy():
            now = time.monotonic()
            if now - started >= self.timeout:
                self._ended("timeout", now - started)
                return
            for game in self.host.playing():
                if game.returncode is None and now - told.get(game, -RETELL) >= RETELL:
                    told[game] = now
                    game.send_signal(DRAIN_SIGNAL)
            for game in [game for game in told if game.returncode is not None]:
                del told[game]
            await asyncio.sleep(POLL)
        self._ended("last game ended", time.monotonic() - started)

    def _ended(self, why: str, seconds: float) -> None:
        self.log(
            Event(
                "drain.ended",
                f"{PROG} {self.command}: drained ({why}) after {seconds:.1f} s",
                reason="timeout" if why == "timeout" else "idle",
                seconds=round(seconds, 1),
            )
        )
        self.done.set()
