"""The `serve-ssh` server: admits or refuses connections, logs each one, ends them all.

`SshServer` listens and counts; `Client` is one SSH connection (who it is, logging in,
its idle timer, its log line); the session and its game are `session.SshSession`.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from tui_tictactoe.addresses import DEFAULT_IPV6_PREFIX
from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.identity import name_refusal
from tui_tictactoe.record.moderation import LiveSession, now_text
from tui_tictactoe.record.names import mark_of
from tui_tictactoe.rooms.limits import DEFAULTS, RoomLimits
from tui_tictactoe.servers.admission import Admission
from tui_tictactoe.servers.deny import DENIED, DenyGate
from tui_tictactoe.servers.games.command import CHILD_COMMAND, common_environment, printable
from tui_tictactoe.servers.games.fork_server import ForkServer
from tui_tictactoe.servers.games.process import Launch, PtyProcess, spawn
from tui_tictactoe.servers.moderation import ModerationLink
from tui_tictactoe.servers.names import (
    NewNames,
    Standing,
    name_notice,
    reserved_refusal,
    reserved_skeletons,
)
from tui_tictactoe.servers.ops.drain import DEFAULT_TIMEOUT, RESTARTING, Drain
from tui_tictactoe.servers.ops.events import ServerEvents, refusal_reason
from tui_tictactoe.servers.ops.log_format import Event, event_of, quoted
from tui_tictactoe.servers.proxy.listener import Acceptor, Network, Source, listen, ssh_options
from tui_tictactoe.servers.refusal_log import RefusalLog, ending_kind, library_log, log_prefix
from tui_tictactoe.servers.room_service import RoomService, database_environment, friend_address
from tui_tictactoe.servers.ssh.host_key import HostKeyError, default_host_key_path, load_or_create
from tui_tictactoe.servers.ssh.session import SshSession

if TYPE_CHECKING:
    from tui_tictactoe.servers.ops.endpoint import OpsEndpoint
    from tui_tictactoe.servers.ops.room_watch import RoomWatch

SHUTTING_DOWN = "the server is shutting down: goodbye"
LOGIN_TIMEOUT = 10.0  # seconds to finish logging in
REFUSED_GRACE = 5.0  # seconds a refused connection may stay open without asking for a session
TELLING_LIMIT = 16  # connections refused on arrival that are told why at once (others: dropped)
SILENT_GRACE = 0.5  # seconds for one of those to send its version (clients send it at once)
WAITING_PER_GAME = 4  # connections not (yet) playing, in all: this many per --max-sessions
SHUTDOWN_GRACE = 1.5  # seconds clients get to close after being told, before they are cut off
USERNAME_LIMIT = 256  # characters of a user name kept at all (shown cut shorter still)
BUSY = "the server is busy with connections logging in: try again in a moment"
STARTS_PER_CORE = 2  # games starting at once per core (`Host.starts`): one computes, one waits


@dataclass(frozen=True)
class Settings:
    """What `serve-ssh` was asked for."""

    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None
    max_sessions: int = 16
    max_per_address: int = 4
    idle_timeout: float = 600.0
    fork_server: bool = True  # games forked from a process that imported the game once
    warm_games: int = 4  # ... of which this many forked ahead of demand (`fork_server.Forker`)
    rooms: bool = True  # a room hub for people playing each other (and the lobby)
    room_limits: RoomLimits = DEFAULTS  # the hub's (`rooms.limits`), whole
    public_address: tuple[str, int | None] | None = None  # what players ssh to
    database_url: str | None = None  # PostgreSQL for the record and the rooms; None: SQLite
    listen_url: str | None = None  # the rooms' LISTEN connection, when not database_url
    database_connections: int | None = None  # the rooms' hub's pool; None: the hub's own
    proxy_protocol_from: tuple[Network, ...] = ()  # balancers whose PROXY headers are read
    ipv6_prefix: int = DEFAULT_IPV6_PREFIX  # an IPv6 client counts by its network of this
    drain_timeout: float = DEFAULT_TIMEOUT  # seconds a drain (SIGUSR1) waits for rounds
    metrics: tuple[str, int] | None = None  # where /metrics, /livez, /readyz are served
    deny: Path | None = None  # the deny list (`deny.DenyGate`), read again on SIGHUP
    admin: bool = True  # the record as `tui-tictactoe admin`'s channel (`moderation`)
    reserved_names: tuple[str, ...] | None = None  # refused at login; None: `DEFAULT_RESERVED`


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class SshServer:
    """The listening server: admits or refuses connections, counts them, and ends them all
    on shutdown. It outlives every session and every game process."""

    def __init__(self, settings: Settings, log: Callable[[str], None] = _log_to_stderr) -> None:
        self.settings = settings
        self._log = log
        self.events = ServerEvents()  # counted with --metrics (`ops_http.start_ops`)
        self.ops: OpsEndpoint | None = None
        self.room_watch: RoomWatch | None = None
        self.drain = Drain(self, settings.drain_timeout, self.log)
        self.deny = DenyGate(settings.deny, self.log)
        self.renamed: dict[str, str] = {}  # key -> the name an admin gave it (`moderation`)
        self.moderation: ModerationLink | None = None
        public = settings.public_address[0] if settings.public_address else None
        self.reserved = reserved_skeletons(settings.reserved_names, public)
        self.new_names = NewNames()  # names taken, per address (`names`)
        unreadable = self.deny.load(announce=False)
        if unreadable is not None:  # never start with fewer denied than the host asked for
            raise HostKeyError(unreadable)
        self.host_key = load_or_create(settings.host_key or default_host_key_path())
        self.authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
        if settings.authorized_keys is not None:
            try:
                self.authorized_keys = asyncssh.read_authorized_keys(str(settings.authorized_keys))
            except (OSError, ValueError, asyncssh.KeyImportError) as error:
                reason = getattr(error, "strerror", None) or str(error)
                raise HostKeyError(
                    f"cannot read the authorized keys {str(settings.authorized_keys)!r}: {reason}"
                ) from None
        self.clients: set[Client] = set()
        self.admission: Admission[Client] = Admission(
            settings.max_sessions,
            settings.max_per_address,
            WAITING_PER_GAME * settings.max_sessions,
            settings.ipv6_prefix,
        )
        self.telling: set[Client] = set()  # refused on arrival, to be told why once they log in
        self.games: set[PtyProcess] = set()
        self.starts = asyncio.Semaphore(STARTS_PER_CORE * (os.cpu_count() or 1))
        self.fork_server: ForkServer | None = None
        self.rooms: RoomService | None = None  # the room hub, when rooms are on
        self.room_environment = database_environment(settings.database_url)  # + the hub's
        self.accepting = True
        self._acceptor: Acceptor | None = None
        self._ending: set[asyncio.Task[None]] = set()  # hang-ups and the log lines after them
        self.refusals = RefusalLog(log, log_prefix)
        self._quiet_libraries: Callable[[], None] | None = None  # undoes `library_log`

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint("sha256")

    def log(self, line: str) -> None:
        """Every line of the server's (and its hub's, its fork server's): to the log, and
        as an event to the metrics (`ops.events`)."""
        self._log(line)
        self.events.heard(*event_of(line))

    async def start(self) -> int:
        """Start the metrics (if asked), the rooms' hub (if on), then listen; returns the
        port (for port 0). OSError if the metrics' address cannot be listened on."""
        settings = self.settings
        self._quiet_libraries = self._quiet_libraries or library_log(self.refusals)
        if settings.metrics is not None:
            from tui_tictactoe.servers.ops.endpoint import start_ops

            self.ops, self.events = await start_ops(settings.metrics, self)
        if settings.rooms:
            rooms = RoomService.of(settings, self.log)
            self.rooms = rooms if await rooms.start() else None
        if self.rooms is not None and settings.metrics is not None:
            from tui_tictactoe.servers.ops.room_watch import RoomWatch

            self.rooms.server.watch = self.room_watch = RoomWatch(self.events)
        self._acceptor = await listen(
            settings.host,
            settings.port,
            settings.proxy_protocol_from,
            lambda source: Client(self, source),
            self._dropped,
            ssh_options(self.host_key, LOGIN_TIMEOUT),
        )
        port = self._acceptor.get_port()
        if self.rooms is not None:  # before the first game can start (the loop runs on)
            self.rooms.listening(friend_address(settings.host, port, settings.public_address))
            self.room_environment.update(self.rooms.environment)
        if settings.admin:
            deny = str(settings.deny) if settings.deny is not None else None
            self.moderation = ModerationLink(self, port, settings.database_url, deny)
            await self.moderation.start()
        if self.settings.fork_server and sys.platform == "linux":
            try:
                self.fork_server = await ForkServer.start(
                    common_environment(), self.log, settings.warm_games
                )
            except OSError as error:
                self.log(f"{PROG} serve-ssh: no fork server ({error}): games start as processes")
        return port

    def _dropped(self, peer: str, why: str) -> None:
        """The listener dropped a connection (a bad PROXY header)."""
        self.events.refused(refusal_reason(why))
        self.refusals.note(
            "connections",
            why,
            Event(
                "connection.dropped",
                f"{log_prefix()}{peer} {why}",
                address=peer,
                reason=refusal_reason(why),
            ),
        )

    # -- what the metrics and the health checks read (`ops_http`) ---------------------

    def sessions_now(self) -> Mapping[str, int]:
        kinds: Counter[str] = Counter(
            client.session.kind
            for client in self.admission.admitted
            if client.session is not None and client.session.game is not None
        )
        kinds["queued"] = len(self.admission.queue)
        return kinds

    def rooms_now(self) -> int:
        return self.room_watch.rooms if self.room_watch is not None else 0

    @property
    def draining(self) -> bool:
        return self.drain.draining

    def not_ready(self) -> str | None:
        """Why a balancer should send no new player here, or None."""
        if self.drain.draining:
            return "draining"
        if not self.accepting or self._acceptor is None:
            return "not listening"
        if self.settings.rooms and self.rooms is None:
            return "no rooms hub"
        postgres = self.rooms.postgres if self.rooms is not None else None
        if postgres is not None and not postgres.readers.reached:
            return "the database is out of reach"
        admission = self.admission
        if len(admission.admitted) >= admission.max_sessions:  # the next player: refused
            return f"full ({admission.max_sessions} games at once)"
        return None

    # -- the drain (`drain.Drain`) ------------------------------------------------------

    def playing(self) -> Iterator[PtyProcess]:
        for client in self.clients:
            session = client.session
            if session is not None and session.game is not None and session.drew:
                yield session.game

    def busy(self) -> bool:
        return bool(self.games) or any(
            client.session is not None and client.session.starting for client in self.clients
        )

    # -- what `tui-tictactoe admin` sees and does (`moderation.ModerationLink`) ------------

    def live_sessions(self, host: str) -> list[LiveSession]:
        """Every logged-in connection: who, from where, in which rooms (its game's places
        in the hub, and the room its options named)."""
        rooms = self.rooms.server.rooms_by_game() if self.rooms is not None else {}
        found = []
        for client in self.clients:
            if not client.logged_in:
                continue
            session = client.session
            game = session.game if session is not None else None
            codes = set(rooms.get(game.pid, ())) if game is not None and game.pid else set()
            if session is not None and session.room:
                codes.add(session.room)
            kind = session.kind if session is not None and game is not None else "queued"
            found.append(
                LiveSession(
                    host,
                    client.session_id,
                    printable(client.name) or "-",
                    client.fingerprint,
                    client.address,
                    " ".join(sorted(codes)),
                    kind,
                    client.began_at,
                )
            )
        if self.rooms is not None:  # seats held for players away: rooms nobody is in
            found += self.rooms.held_seats(host)
        return sorted(found)

    def end_sessions(self, target: str, message: str) -> int:
        """End the session `target` names, or every session in the room it names."""
        rooms = self.rooms.server.rooms_by_game() if self.rooms is not None else {}
        ended = 0
        for client in list(self.clients):
            session = client.session
            game = session.game if session is not None else None
            held = rooms.get(game.pid, set()) if game is not None and game.pid else set()
            named = session is not None and session.room == target
            if client.session_id == target or target in held or named:
                client.end(message, 1, ending="ended by an admin")
                ended += 1
        if not ended and self.rooms is not None:  # a room its players left: closed
            self.rooms.close_room(target)
        return ended

    def begin_drain(self) -> None:
        self.drain.begin()

    # -- names (`names`, `Moderation.claim_name`) -----------------------------------------

    def name_refusal(self, name: str) -> str | None:
        """Why a client cannot log in under `name` (invisible characters, a reserved
        name), in one line, or None."""
        return name_refusal(name) or reserved_refusal(name, self.reserved)

    async def name_standing(self, player: str | None, name: str, address: str) -> Standing:
        """What follows `name` where others see this session (`identity.marked`): nothing
        if the name is `player`'s or nobody's, else "guest" or the key's fingerprint; and
        what a key is told when the name is not its own (`name_notice`). A new name taken
        here is counted for `address`."""
        if self.moderation is None:
            return Standing()
        refusal = self.new_names.refusal(address)
        claim = await self.moderation.claim(player, name, self.reserved, refusal is None)
        if claim.new:
            self.new_names.took(address)
        mark = "" if claim.owner in (None, player) else mark_of(player)
        notice = name_notice(name, claim, refusal) if player is not None else ""
        return Standing(mark, notice)

    # -- admission (the counting is `Admission`'s) ---------------------------------------

    def arrive(self, client: Client) -> str | None:
        """Count a new connection as waiting; or why it is refused (the message it gets).
        A connection it displaces (see `admission`) is told the server is busy."""
        self.clients.add(client)
        denied = self.deny.check(address=client.address)
        if denied is not None:  # told like any refusal on arrival, never counted as waiting
            return denied
        refusal, evicted = self.admission.arrive(client)
        if evicted is not None:
            evicted.refuse(BUSY, ending="refused: made room for a newer connection")
        return refusal

    def admit(self, client: Client) -> str | None:
        """A logged-in connection gets a game's slot, or is told why not (it then stays
        counted as waiting until it closes)."""
        if self.drain.draining:
            return RESTARTING
        return self.admission.admit(client) if self.accepting else SHUTTING_DOWN

    def release(self, client: Client) -> None:
        self.clients.discard(client)
        self.telling.discard(client)
        self.admission.release(client)

    def launcher(self, args: list[str], env: dict[str, str]) -> Launch:
        """How a game with `commands.play.main(args)` starts: forked by the fork server if there is
        one (it falls back by itself), else as a fresh interpreter."""
        if self.fork_server is not None:
            return self.fork_server.launch(args, env)
        return spawn([*CHILD_COMMAND, *args], env)

    def hang_up(self, game: PtyProcess) -> asyncio.Task[None]:
        """End a game in the background (once, however often asked); `stop` waits for it."""
        task = game.hang_up()
        self.keep(task)
        return task

    def keep(self, task: asyncio.Task[None]) -> None:
        """A task of the ending of a game or connection: `stop` waits for every one."""
        if task not in self._ending:
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)

    # -- shutdown -----------------------------------------------------------------

    def stop_accepting(self) -> None:
        """New connections are refused by the system from now on (the port is closed)."""
        self.accepting = False
        if self._acceptor is not None:
            self._acceptor.close()

    async def stop(self, reason: str = SHUTTING_DOWN) -> None:
        """Stop accepting, tell every session why, end every game, close every connection.

        Returns once every game process has been reaped (at most about a second after
        the hang-up, see `PtyProcess.hang_up`), every connection has closed and been
        logged, and the fork server has exited.
        """
        self.stop_accepting()
        self.refusals.flush()
        clients = list(self.clients)
        for client in clients:
            client.end(reason, 1, ending="server shut down")
        closed = [asyncio.ensure_future(client.closed.wait()) for client in clients]
        if closed:
            _, pending = await asyncio.wait(closed, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()
        for client in list(self.clients):
            client.abort()
        for game in list(self.games):
            self.hang_up(game)
        while self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)
        if self.fork_server is not None:
            await self.fork_server.close()
        if self.moderation is not None:
            await self.moderation.stop()
        if self.rooms is not None:
            await self.rooms.stop()
        if self.ops is not None:
            await self.ops.stop()
        self.refusals.flush()
        if self._quiet_libraries is not None:
            self._quiet_libraries()
            self._quiet_libraries = None


class Client(asyncssh.SSHServer):
    """One SSH connection: who it is, its one game session, its idle timer, its log line."""

    def __init__(self, server: SshServer, source: Source = None) -> None:
        self.server = server
        self.source = source  # who connected, as the listener saw it (a trusted PROXY header)
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.counted_as = "?"  # the address as every per-address rule counts it
        self.peer = "?"
        self.username = ""
        self.name = ""  # as the game shows it: the user name, or the one an admin gave the key
        self.began_at = now_text()
        self.fingerprint: str | None = None
        self.refusal: str | None = None
        self.session: SshSession | None = None
        self.ending: str | None = None
        self.logged_in = False
        self.authenticating = False  # began logging in (the key exchange is done)
        self.telling: str | None = None  # refused on arrival: why, told once logging in
        self.closed = asyncio.Event()
        self.session_id = secrets.token_hex(4)  # names this connection in the JSON log
        self._offered: asyncssh.SSHKey | None = None
        self._guest = False
        self._started = time.monotonic()
        self._last_input = self._started
        self._timer: asyncio.TimerHandle | None = None

    @property
    def host(self) -> SshServer:
        """The server, as the session sees it (`session.Host`)."""
        return self.server

    # -- the connection -------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = self.source or conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.counted_as = self.server.admission.key(self.address)
        self.peer = f"[{peer[0]}]:{peer[1]}" if ":" in str(peer[0]) else f"{peer[0]}:{peer[1]}"
        loop = asyncio.get_running_loop()
        self.server.events.connection_opened()
        refusal = self.server.arrive(self)
        if refusal is not None:
            self.ending = (
                f"refused: {DENIED} (address)"  # one kind in the counted log, whatever the reason
                if refusal.startswith(DENIED)
                else "refused: too many connections logging in from one address"
            )
            self._refuse_on_arrival(refusal)
        elif self.server.settings.idle_timeout:
            self._timer = loop.call_later(self.server.settings.idle_timeout, self._check_idle)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        game = self.session.game if self.session is not None else None
        if self.session is not None:
            self.session.end_game()
        self.server.release(self)
        self.closed.set()
        if self.ending is not None and self.ending.startswith(("refused", "dropped")):
            self.server.events.refused(refusal_reason(self.ending))
        if game is not None and game.returncode is None:  # logged once the game is gone
            self.server.keep(asyncio.get_running_loop().create_task(self._log_after(game, exc)))
        elif game is not None:
            self.server.log(self.log_line(exc, game))
        else:  # no game: as cheap to repeat as to send, so counted rather than each logged
            kind = ending_kind(self._ending(exc, None))
            self.server.refusals.note("connections", kind, self.log_line(exc))

    async def _log_after(self, game: PtyProcess, exc: Exception | None) -> None:
        await self.server.hang_up(game)
        self.server.log(self.log_line(exc, game))

    def log_line(self, exc: Exception | None = None, game: PtyProcess | None = None) -> str:
        """One line per connection: when, from where, who, how long, how it ended, and for
        a game the server hung up, how long it took to be gone (reaped)."""
        ending = self._ending(exc, game)
        seconds = time.monotonic() - self._started
        session = self.session
        return Event(
            "connection.closed",
            f"{self._who()} {seconds:.1f}s {ending}",
            session=self.session_id,
            address=self.address,
            user=printable(self.username),
            key=self.fingerprint,
            kind=session.kind if session is not None and session.game is not None else None,
            room=session.room if session is not None else None,
            seconds=round(seconds, 1),
            ending=ending_kind(ending),
        )

    def _ending(self, exc: Exception | None, game: PtyProcess | None) -> str:
        ending = self.ending
        if ending is None:
            if not self.logged_in:
                ending = "closed before logging in"
            elif self.session is None:
                ending = "closed without a session"
            else:
                ending = "client disconnected"
            if exc is not None:  # an OSError in words alone: "Broken pipe", not "[Errno 32] ..."
                said = getattr(exc, "strerror", None) or str(exc)
                ending += f" ({printable(said, 60) or type(exc).__name__})"
        if game is not None and game.hung_up_at is not None and game.exited_at is not None:
            ending += f"; game gone {game.exited_at - game.hung_up_at:.2f}s after hang-up"
        return ending

    def _who(self) -> str:
        return (
            f"{log_prefix()}{self.peer} "
            f"user={quoted(printable(self.username))} key={self.fingerprint or '-'}"
        )

    def abort(self) -> None:
        if self.conn is not None:
            self.conn.abort()

    def refuse(self, message: str, ending: str | None = None) -> None:
        """Close with a reason the client shows (OpenSSH: "Received disconnect ...").
        SSH allows a disconnect message from just after the version lines, before the
        key exchange: the reason then travels in clear text, which is all it is."""
        if ending is not None:
            self.ending = ending
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"{PROG}: {message}")

    def _refuse_on_arrival(self, message: str) -> None:
        """Told why once the key exchange is done (`begin_auth`), for a few at a time; the
        others are dropped at once. A disconnect message sent before the key exchange,
        with the client's first bytes unread, is lost to the reset that closing then
        sends (OpenSSH says "Broken pipe"); a few key exchanges at a time cost little."""
        loop = asyncio.get_running_loop()
        if len(self.server.telling) >= TELLING_LIMIT:
            loop.call_soon(self.abort)
            return
        self.server.telling.add(self)
        self.telling = message
        self._timer = loop.call_later(SILENT_GRACE, self._drop_if_silent)

    def _drop_if_silent(self) -> None:
        """A refused connection that has not even said its version is not worth telling."""
        if self.conn is None or not self.conn.get_extra_info("client_version"):
            self.abort()
        else:
            self._timer = asyncio.get_running_loop().call_later(REFUSED_GRACE, self.abort)

    def progress(self) -> tuple[int, float]:
        """How far logging in has come, least first: what `Admission.arrive` displaces first."""
        if self.refusal is not None:  # logged in and told it gets no game: only lingering
            return 0, self._started
        if self.authenticating:
            return 3, self._started
        said = self.conn is not None and self.conn.get_extra_info("client_version")
        return (2 if said else 1), self._started

    def end(self, message: str, status: int, ending: str) -> None:
        """End this connection for a reason of the server's: the client is told why."""
        if self.ending is None:
            self.ending = ending
        if self.session is not None and self.session.end(message, status):
            return
        if self.conn is not None:
            self.conn.close()

    # -- idle -----------------------------------------------------------------------

    def touch(self) -> None:
        self._last_input = time.monotonic()

    def _check_idle(self) -> None:
        timeout = self.server.settings.idle_timeout
        left = self._last_input + timeout - time.monotonic()
        if left > 0:
            self._timer = asyncio.get_running_loop().call_later(left, self._check_idle)
            return
        self.end(f"no input for {timeout:g} s: the session is closed", 1, ending="idle timeout")

    # -- logging in ---------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        """Logging in is required only to learn the player's key; anyone gets in without one,
        unless `--authorized-keys` was given."""
        self.username = self.name = username[:USERNAME_LIMIT]
        self.authenticating = True
        if self.telling is not None:  # before any answer to it: a client stops at "denied"
            self.refuse(self.telling)
        return True

    def auth_completed(self) -> None:
        """Logged in: a game's slot, or a refusal the session will be told."""
        self.logged_in = True
        if self._offered is not None and not self._guest:
            self.fingerprint = self._offered.get_fingerprint("sha256")
        renamed = self.server.renamed.get(self.fingerprint or "")
        self.name = renamed or self.username
        denied = self.server.deny.check(key=self.fingerprint, name=self.username)
        if denied is not None:
            self.ending = f"refused: {DENIED} (key or name)"
        elif renamed is None and (denied := self.server.name_refusal(self.username)):
            self.ending = "refused: the name"
        self.refusal = denied or self.server.admit(self)
        if self.refusal is not None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(REFUSED_GRACE, self.abort)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Any key in open mode, a listed one otherwise. asyncssh checks the signature after
        this returns True and logs in only if it holds, so the last key accepted here is the
        key the player proved to own when `auth_completed` follows a key login."""
        keys = self.server.authorized_keys
        if keys is not None and keys.validate(key, self.address, self.address) is None:
            self.server.events.refused("key_not_authorized")
            self.server.refusals.note(
                "keys",
                "refused a key not in --authorized-keys",
                Event(
                    "key.refused",
                    f"{self._who()} refused key {key.get_fingerprint('sha256')} "
                    "(not in --authorized-keys)",
                    session=self.session_id,
                    address=self.address,
                    key=key.get_fingerprint("sha256"),
                ),
            )
            return False
        self._offered = key
        return True

    def kbdint_auth_supported(self) -> bool:
        """Without `--authorized-keys`, clients with no key log in as guests, unprompted."""
        return self.server.authorized_keys is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._guest = True  # a guest: whatever key was offered before, it was not used
        return True

    def password_auth_supported(self) -> bool:
        return False

    # -- what the client asks for -------------------------------------------------------

    def session_requested(self) -> SshSession | bool:
        if self.session is not None:
            return False  # one game per connection: the caps count connections
        self.session = SshSession(self)
        return self.session

    def connection_requested(self, *_args: Any) -> bool:
        return False  # local port forwarding (ssh -L)

    def server_requested(self, *_args: Any) -> bool:
        return False  # remote port forwarding (ssh -R)

    def unix_connection_requested(self, *_args: Any) -> bool:
        return False

    def unix_server_requested(self, *_args: Any) -> bool:
        return False
