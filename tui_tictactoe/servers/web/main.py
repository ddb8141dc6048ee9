"""`tui-tictactoe serve-web`: the game in a web browser, through Textual's own `textual-serve`.

textual-serve starts the command once per browser tab, through a shell, with
TEXTUAL_DRIVER set to its web driver (so the game's terminal check steps aside),
and relays the screen over a websocket to xterm.js in the page.

Every visitor plays as a guest, as an SSH client without a key does: a web page
says nothing about who is at the other end, so no visitor plays as the server's
user, with that user's record, settings and theme, and nothing a visitor plays is kept.

The rooms are serve-ssh's (`room_service.RoomService`, the same options): a hub in this
process's memory for its own tabs, or on `--database-url` the world every serve-ssh and
serve-web host there shares. Where a tab goes first is in the page's address (`web.rooms`:
`?lobby`, `?join=CODE`, `?match`, ...); a guest's seat is kept by the tab for a reload.

What textual-serve's `Server` leaves open to any client, and where it is closed here
(a subclass that uses its public methods and attributes only; nothing of it is patched):

- its websocket handler (no Origin check, any size, no caps, no idle timeout, a tab
  that stops reading stalls its game) is replaced by `handle_websocket`, which checks
  the handshake (`web.guard`) and runs a bounded `session.WebSession`, built on
  textual-serve's public `AppService`;
- its application (`/static/` listed its files) is built again from the same public
  handlers, with the files served but no directory listing, and the page refusing to
  be framed by another site (a frame would start games as this site);
- its `serve` (aiohttp's default one-minute shutdown, sessions left open) is replaced
  by one that ends every session with a message and stops every game, in seconds, and
  that runs what `serve-ssh` runs as a service: `--metrics` with `/livez` and `/readyz`
  (`ops.endpoint`), the drain on SIGUSR1 (`drain`), `--log-format json` (`log_format`),
  and, behind a reverse proxy, `--forwarded-from`: each visitor named by the proxy's
  header (`proxy.forwarded`), not by the proxy's address;
- its page (`servers/web/page/index.html` here, with textual-serve's textual.js, styles and font):
  loaded a web font from a third-party site, named absolute URLs of `--public-url` (so
  a page opened under another name of the host lost its font), had no title, icon or
  viewport, fetched any `?ping=` URL, and showed "Session ended" whatever happened.
  Ours names everything relative to itself, and its script (`servers/web/page/tictactoe.js`) says
  why a game ended or a tab was refused, from the close code and reason every ending
  and refusal now carries (`guard.CLOSE_*`, `refuse_page`); the responses say
  `connect-src 'self'` and send no Referer. Its start-up banner (a logo and the game's
  internal command line) is one line of ours with the address to open.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import signal
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server

from tui_tictactoe.addresses import counting_key
from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.identity import guest_environment
from tui_tictactoe.rooms.request import ROOM_URL_ENV
from tui_tictactoe.rooms.socket.wire import ENV_VAR as HUB_ENV
from tui_tictactoe.servers.database import (
    DatabaseProbe,
    DatabaseUnusable,
    check_record,
    database_environment,
    database_url,
)
from tui_tictactoe.servers.ops.drain import DRAIN_SIGNAL, Drain
from tui_tictactoe.servers.ops.events import ServerEvents, refusal_reason
from tui_tictactoe.servers.ops.log_format import Event, ServerLog, event_of
from tui_tictactoe.servers.ops.stderr_relay import GameStderr
from tui_tictactoe.servers.proxy.forwarded import (
    HEADERS,
    Network,
    client_address,
    forwarded_hops,
    trusted,
    x_forwarded_for_hops,
)
from tui_tictactoe.servers.refusal_log import RefusalLog as LibraryRefusals
from tui_tictactoe.servers.refusal_log import ending_kind, library_log
from tui_tictactoe.servers.room_service import RoomService, room_limits
from tui_tictactoe.servers.web.child import SERVER_VARIABLE
from tui_tictactoe.servers.web.compressed import CompressedFiles
from tui_tictactoe.servers.web.guard import (
    CLOSE_ORIGIN,
    DRAINING,
    MAX_MESSAGE,
    SHUTTING_DOWN,
    Capacity,
    Refusal,
    RefusalLog,
    allowed_origins,
    origin_refusal,
    query_size,
)
from tui_tictactoe.servers.web.rooms import GameStart, game_start
from tui_tictactoe.servers.web.session import CLOSE_TIMEOUT, WebSession, close_reason

if TYPE_CHECKING:
    from tui_tictactoe.servers.ops.endpoint import OpsEndpoint
    from tui_tictactoe.servers.ops.room_watch import RoomWatch

TITLE = "Tic-Tac-Toe"
REFUSED_MESSAGE = 1024  # bytes of a message a refused page may send while it is closed
SHUTDOWN_GRACE = 2.5  # seconds sessions get to end on SIGTERM before their games are killed
WILDCARD_HOSTS = ("", "0.0.0.0", "::")
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    # No frame of another site's; no fetch, beacon or websocket to any other site.
    "Content-Security-Policy": "frame-ancestors 'none'; connect-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def game_command(
    environment: Mapping[str, str] | None = None, args: Sequence[str] = ("play",)
) -> str:
    """The command line textual-serve runs (through a shell, hence quoted): the game with
    `args`, with the guest's environment (and `environment`: the rooms' hub, for a room's
    game; none, an empty hub) assigned in front of it. The shell `exec`s it, so the game
    is the server's child and can die with it (`web.child`)."""
    environment = {
        **guest_environment(),
        SERVER_VARIABLE: str(os.getpid()),
        HUB_ENV: "",  # a game against the AI: no lobby, whatever the server's environment says
        **(environment or {}),
    }
    assigned = " ".join(f"{name}={shlex.quote(value)}" for name, value in environment.items())
    game = [sys.executable, "-m", "tui_tictactoe.servers.web.child", *args]
    return f"{assigned} exec {shlex.join(game)}"


PAGE = "index.html"
PAGE_FILES = Path(__file__).parent / "page"
"""The page's own files: its template, its script (`tictactoe.js`) and its icon."""
MIN_COLUMNS, MIN_ROWS = 60, 19
"""The smallest window every board fits (`ui.screens.board_screen.MIN_SIZE`, 6x6's rows):
the page picks a font size that leaves the game at least this many cells."""


def page_template() -> str:
    """The page: textual-serve's terminal (its textual.js, styles and font, all from this
    server, named relative to the page), with a title, an icon, a viewport for phones,
    and our script, which says why a game ended or a tab was refused
    (`servers/web/page/tictactoe.js`)."""
    return (PAGE_FILES / PAGE).read_text(encoding="utf-8")


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


RESTARTED = f"{PROG}: this server restarted after your round: reload the page to play again"
"""What a tab reads when its game ended during a drain."""


class WebServer(Server):
    """textual-serve's `Server`, holding against hostile pages and clients."""

    def __init__(
        self,
        args: argparse.Namespace,
        log: Callable[[str], None] = _log_to_stderr,
    ) -> None:
        super().__init__(
            game_command(), host=args.host, port=args.port, title=TITLE, public_url=args.public_url
        )
        self.origins = allowed_origins(args.host, args.port, args.public_url)
        self.public_url_given = args.public_url is not None
        self.capacity = Capacity(args.max_sessions, args.max_per_address)
        self.forwarded_from: tuple[Network, ...] = getattr(args, "forwarded_from", ())
        self.forwarded_header: str = getattr(args, "forwarded_header", HEADERS[0])
        self.idle_timeout: float = args.idle_timeout
        self._log = log
        self.log_refusal = RefusalLog(self.log, prefix=f"{PROG} serve-web: ")
        self.sessions: set[WebSession] = set()
        self.accepting = True
        self.listening = False
        self.binding: tuple[str, int] = (args.host, args.port)  # listened on last (or tried)
        self.metrics_address: tuple[str, int] | None = getattr(args, "metrics", None)
        self.events = ServerEvents()  # counted with --metrics (`ops_http.start_ops`)
        self.ops: OpsEndpoint | None = None
        self.drain = Drain(self, getattr(args, "drain_timeout", 600.0), self.log, "serve-web")
        url = database_url(getattr(args, "database_url", None))
        self.database = DatabaseProbe(url) if url is not None else None
        self.rooms_wanted: bool = getattr(args, "rooms", False)
        self.rooms: RoomService | None = None  # the rooms' hub, once started (`start_rooms`)
        self.room_watch: RoomWatch | None = None  # what the metrics learn of the rooms
        self.room_environment: dict[str, str] = {}  # a room's game's: the hub, the page's URL
        self.files: CompressedFiles | None = None  # the page's files and their gzip, once built
        if self.rooms_wanted:
            self.rooms = RoomService(
                room_limits(args),
                self.log,
                url,
                getattr(args, "database_listen_url", None),
                getattr(args, "database_connections", None),
                server="serve-web",
            )

    def log(self, line: str) -> None:
        """Every line of the server's: to the log, and as an event to the metrics."""
        self._log(line)
        self.events.heard(*event_of(line))

    def initialize_logging(self) -> None:
        """Every library's warnings (textual-serve's, aiohttp's, asyncio's) as one bounded line
        each in the server's log, at a bounded rate (`refusal_log.LibraryLog`): textual-serve's
        own set-up wrote them with Rich to stdout, tracebacks whole, never as JSON."""
        library_log(LibraryRefusals(self.log, lambda: f"{PROG} serve-web: "), names=("",))

    # -- the application --------------------------------------------------------------

    async def build_app(self) -> web.Application:
        """The routes of textual-serve's application, with its public handlers; the page's
        files served gzip-compressed to a browser that accepts it (`web.compressed`)."""
        app = web.Application()
        files = self.files = CompressedFiles()
        statics = files.add("static", Path(self.statics_path))
        page_files = files.add("page", PAGE_FILES)
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({PAGE: page_template()}))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.get("/favicon.ico", self.handle_favicon, name="favicon"),
                web.static("/static", statics, show_index=False, name="static"),
                web.static("/page", page_files, show_index=False, name="page"),
            ]
        )
        app.on_response_prepare.append(self._add_security_headers)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page (textual-serve's handler named absolute URLs of the public URL, and
        read a font size from the query: the page now picks its own)."""
        context = {
            "title": TITLE,
            "min_columns": MIN_COLUMNS,
            "min_rows": MIN_ROWS,
            "max_message": MAX_MESSAGE,
        }
        response = aiohttp_jinja2.render_template(PAGE, request, context)
        response.enable_compression()  # gzip or deflate if the browser accepts it, else plain
        return response

    @staticmethod
    async def handle_favicon(request: web.Request) -> web.FileResponse:
        """Where a browser asks for a site's icon unasked: the page's icon."""
        return web.FileResponse(
            PAGE_FILES / "favicon.svg", headers={"Content-Type": "image/svg+xml"}
        )

    @staticmethod
    async def _add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)

    def serve(self, debug: bool = False) -> None:
        """As textual-serve's `serve`, with this application and a short shutdown:
        SIGINT and SIGTERM end every session (`on_shutdown`) before the loop stops;
        SIGUSR1 drains (`drain`). OSError if an address cannot be listened on."""
        self.debug = debug
        self.initialize_logging()
        if self.host in WILDCARD_HOSTS and not self.public_url_given:
            self.log(
                f"{PROG} serve-web: listening on every address without --public-url: "
                "browsers are refused until it names the address they use "
                f"(e.g. --public-url http://NAME:{self.port})"
            )
        asyncio.run(self.run())

    async def run(self) -> None:
        """Listen (and serve the metrics, if asked) until stopped or drained."""
        runner = web.AppRunner(
            await self.build_app(),
            handle_signals=False,
            access_log=None,  # a line per request, as fast as anyone sends them: one per session
            shutdown_timeout=1.0,  # for handlers still running after on_shutdown
        )
        await runner.setup()
        try:
            await self.start_rooms()
            await web.TCPSite(runner, self.host, self.port).start()
            if self.metrics_address is not None:
                from tui_tictactoe.servers.ops.endpoint import start_ops

                self.binding = self.metrics_address
                self.ops, self.events = await start_ops(self.metrics_address, self)
                if self.rooms is not None:
                    from tui_tictactoe.servers.ops.room_watch import RoomWatch

                    self.rooms.server.watch = self.room_watch = RoomWatch(self.events)
            self.listening = True
            self._said_listening()
            await self._until_stopped()
            self.log(Event("server.stopping", f"{PROG} serve-web: shutting down"))
        finally:
            served, self.accepting, self.listening = self.listening, False, False
            await runner.cleanup()  # `on_shutdown`: every session told, every game stopped
            if self.files is not None:
                self.files.remove()
            if self.rooms is not None:
                await self.rooms.stop()
            if self.ops is not None:
                await self.ops.stop()
        if served:
            self.log(Event("server.stopped", f"{PROG} serve-web: stopped"))

    async def start_rooms(self) -> None:
        """The rooms' hub of this server (`room_service.RoomService`: in memory, or on
        `--database-url` shared with every serve-ssh and serve-web host there), served to
        its games; without it (its socket could not be made) the server runs without rooms.
        Raises `DatabaseUnusable` if the rooms' database cannot be used."""
        if self.rooms is None:
            return
        if not await self.rooms.start():
            self.rooms = None
            return
        self.room_environment = {**self.rooms.environment, ROOM_URL_ENV: self.public_url}

    def game_for(self, start: GameStart) -> str:
        """The command line of a tab's game (`game_command`): a room's reaches the hub."""
        if not start.rooms or self.rooms is None:
            return self.command
        return game_command(self.room_environment, start.args)

    async def _until_stopped(self) -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        loop.add_signal_handler(DRAIN_SIGNAL, self.drain.begin)
        waits = [asyncio.ensure_future(event.wait()) for event in (stop, self.drain.done)]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()

    def _said_listening(self) -> None:
        """One line with the address to open (not textual-serve's logo and command line)."""
        ops = self.ops
        metrics = f"; metrics and health on http://{ops.address[0]}:{ops.port}" if ops else ""
        self.log(
            Event(
                "server.listening",
                f"{PROG} serve-web: open {self.public_url}/ in a browser; Ctrl+C stops{metrics}",
                url=f"{self.public_url}/",
                port=self.port,
                metrics_port=ops.port if ops else None,
            )
        )

    # -- what the metrics and the health checks read (`ops_http.OpsHost`) ----------------

    def sessions_now(self) -> Mapping[str, int]:
        """Tabs by what they play (`ops.events.SESSION_KINDS`); serve-web has no queue."""
        return Counter(session.start.kind for session in self.sessions)

    def rooms_now(self) -> int:
        return self.room_watch.rooms if self.room_watch is not None else 0

    @property
    def draining(self) -> bool:
        return self.drain.draining

    def not_ready(self) -> str | None:
        """Why a balancer should send no new tab here, or None."""
        if self.drain.draining:
            return "draining"
        if not self.accepting or not self.listening:
            return "not listening"
        if self.database is not None and not self.database.reachable():
            return "the database is out of reach"
        if self.capacity.sessions >= self.capacity.max_sessions:  # the next tab: refused
            return f"full ({self.capacity.max_sessions} games at once)"
        if self.rooms_wanted and self.rooms is None:
            return "no rooms hub"
        return None

    # -- the drain (`drain.Drain`) ------------------------------------------------------

    def stop_accepting(self) -> None:
        """New tabs are refused (503, `DRAINING`); the page and its files are still served
        to the tabs that play, and the port stays open for them."""
        self.accepting = False

    def playing(self) -> set[WebSession]:
        return set(self.sessions)

    def busy(self) -> bool:
        return bool(self.sessions)

    # -- sessions ---------------------------------------------------------------------

    async def _refused(
        self, request: web.Request, address: str, refusal: Refusal
    ) -> web.StreamResponse:
        """Logged and counted; a page told by a close code and the reason after the upgrade
        (its WebSocket cannot read an HTTP status), a program by the status before it."""
        self.events.refused(refusal_reason(refusal.reason))
        self.log_refusal(
            Event(
                "connection.refused",
                f"{PROG} serve-web: {address} refused: {refusal.reason}",
                address=address,
                reason=refusal_reason(refusal.reason),
            )
        )
        if "Origin" in request.headers:
            return await refuse_page(request, refusal)
        headers = {"Retry-After": "60"} if refusal.status in (429, 503) else None
        return web.Response(
            status=refusal.status, text=f"{PROG}: {refusal.reason}\n", headers=headers
        )

    # textual-serve annotates this handler as returning a WebSocketResponse; aiohttp takes any
    # response from a handler, and a refusal here is an HTTP status before the upgrade.
    async def handle_websocket(  # type: ignore[override]
        self, request: web.Request
    ) -> web.StreamResponse:
        """A tab's game: refused (a foreign page: 403 or CLOSE_ORIGIN; full or stopping:
        503, CLOSE_FULL or CLOSE_DRAINING; too many from one address: 429 or
        CLOSE_TOO_MANY), else played."""
        address = self.client_address(request)
        self.events.connection_opened()
        start = game_start(request.query, self.rooms is not None)
        session = WebSession(
            request,
            self.game_for(start) if isinstance(start, GameStart) else self.command,
            self.download_manager,
            self.idle_timeout,
            log=lambda line: self.log(f"{PROG} serve-web: {address} {line}"),
            events=self.events,
            farewell=lambda: RESTARTED if self.drain.draining else None,
            stderr=GameStderr(self.log, f"{PROG} serve-web: {address} ", address=address),
            start=start if isinstance(start, GameStart) else GameStart(),
            address=counting_key(address),
        )
        if not session.websocket.can_prepare(request).ok:
            self.events.refused(refusal_reason("for websockets"))
            return web.Response(status=400, text=f"{PROG}: this address is for websockets\n")
        reason = origin_refusal(request.headers, self.origins)
        if reason is not None:
            return await self._refused(request, address, Refusal(403, reason, CLOSE_ORIGIN))
        if isinstance(start, Refusal):  # the page's address asks for what is not here
            return await self._refused(request, address, start)
        refusal: Refusal | None = DRAINING if self.drain.draining else SHUTTING_DOWN
        if self.accepting:
            refusal = self.capacity.admit(address)
        if refusal is not None:
            return await self._refused(request, address, refusal)
        self.sessions.add(session)
        try:
            await session.run(*query_size(request.query))
        finally:
            self.sessions.discard(session)
            self.capacity.release(address)
            self._log_session(session, address)
        return session.websocket

    def client_address(self, request: web.Request) -> str:
        """Who the tab is: its peer, or with `--forwarded-from` the visitor a trusted proxy
        names (`proxy.forwarded`); what the caps count and the log says."""
        peer = request.remote or "?"
        if not trusted(peer, self.forwarded_from):
            return peer
        if self.forwarded_header == "forwarded":
            hops = forwarded_hops(request.forwarded)  # aiohttp's RFC 7239 parser
        else:
            hops = x_forwarded_for_hops(request.headers.getall("X-Forwarded-For", []))
        return client_address(peer, self.forwarded_from, hops)

    def _log_session(self, session: WebSession, address: str) -> None:
        dropped = [
            line for line in (session.budget.report(final=True), session.resizes.report()) if line
        ]
        ending = session.ending or "ended"
        self.log(
            Event(
                "connection.closed",
                f"{PROG} serve-web: {address} played {session.seconds:.0f} s: "
                + "; ".join([ending, *dropped]),
                session=session.session_id,
                address=address,
                kind=session.start.kind,
                seconds=round(session.seconds, 1),
                ending=ending_kind(ending),
            )
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """Tell every tab, close its websocket, stop its game; kill games that linger."""
        self.accepting = False
        reason = DRAINING if self.drain.done.is_set() else SHUTTING_DOWN
        sessions = list(self.sessions)
        for session in sessions:
            session.end(reason.reason, code=1001, notice=f"{PROG}: {reason.reason}")
        if sessions:
            await asyncio.wait(
                [asyncio.ensure_future(session.done.wait()) for session in sessions],
                timeout=SHUTDOWN_GRACE,
            )
        for session in sessions:
            if not session.done.is_set():
                session.kill_game()
        self.log_refusal.flush()


async def refuse_page(request: web.Request, refusal: Refusal) -> web.WebSocketResponse:
    """Upgrade, then close at once with the refusal's code and reason; no game is started,
    nothing the page sends is read but the close (bounded in size and time)."""
    websocket = web.WebSocketResponse(max_msg_size=REFUSED_MESSAGE, timeout=CLOSE_TIMEOUT)
    await websocket.prepare(request)
    with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
        await asyncio.wait_for(
            websocket.close(code=refusal.code, message=close_reason(refusal.reason)),
            CLOSE_TIMEOUT,
        )
    return websocket


def serve(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM, then end every session and exit 0; on SIGUSR1, drain
    and exit 0. With a database (`--database-url`) it must be usable first (else one line
    and exit 1, as `serve-ssh`)."""
    url = database_url(args.database_url)
    if url is not None:
        try:
            check_record(url)
        except DatabaseUnusable as error:
            print(f"{PROG} serve-web: {error}", file=sys.stderr)
            return 1
        # Every game inherits this process's environment (textual-serve copies it): not
        # on the game's command line, which any local user may read and which is shell text.
        os.environ.update(database_environment(url))
    server = WebServer(args, ServerLog(args.log_format))
    try:
        server.serve()
    except DatabaseUnusable as error:  # the rooms' database (the record's was checked)
        print(f"{PROG} serve-web: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        host, port = server.binding
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        # asyncio's bind error has its own long wording: the system's few words instead
        why = os.strerror(error.errno) if error.errno else str(error)
        print(f"{PROG} serve-web: cannot listen on {where}: {why}", file=sys.stderr)
        return 1
    return 0
