"""`tui-tictactoe serve-web`: the game in a web browser, through Textual's own `textual-serve`.

textual-serve starts the command once per browser tab, through a shell, with
TEXTUAL_DRIVER set to its web driver (so the game's terminal check steps aside),
and relays the screen over a websocket to xterm.js in the page.

Every visitor plays as a guest, as an SSH client without a key does: a web page
says nothing about who is at the other end, so no visitor plays as the server's
user, with that user's record, settings and theme, and nothing a visitor plays is kept.

What textual-serve's `Server` leaves open to any client, and where it is closed here
(a subclass that uses its public methods and attributes only; nothing of it is patched):

- its websocket handler (no Origin check, any size, no caps, no idle timeout, a tab
  that stops reading stalls its game) is replaced by `handle_websocket`, which checks
  the handshake (`web_guard`) and runs a bounded `web_session.WebSession`, built on
  textual-serve's public `AppService`;
- its application (`/static/` listed its files) is built again from the same public
  handlers, with the files served but no directory listing, and the page refusing to
  be framed by another site (a frame would start games as this site);
- its `serve` (aiohttp's default one-minute shutdown, sessions left open) is replaced
  by one that ends every session with a message and stops every game, in seconds;
- its page loads a web font from a third-party site (every visitor's address sent there,
  and no font offline): the page is served with the same font from textual-serve's own
  static files (`page_template`); and its start-up banner (a logo and the game's internal
  command line) is one line of ours with the address to open.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server

from tui_tictactoe.commands.play_arguments import PROG
from tui_tictactoe.identity import guest_environment
from tui_tictactoe.servers.database import (
    DatabaseUnusable,
    check_record,
    database_environment,
    database_url,
)
from tui_tictactoe.servers.web.child import SERVER_VARIABLE
from tui_tictactoe.servers.web.guard import (
    SHUTTING_DOWN,
    Capacity,
    RefusalLog,
    allowed_origins,
    origin_refusal,
    query_size,
)
from tui_tictactoe.servers.web.session import WebSession

TITLE = "Tic-Tac-Toe"
SHUTDOWN_GRACE = 2.5  # seconds sessions get to end on SIGTERM before their games are killed
WILDCARD_HOSTS = ("", "0.0.0.0", "::")
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}


def game_command() -> str:
    """The command line textual-serve runs (through a shell, hence quoted): the game,
    with the guest's environment assigned in front of it. The shell `exec`s it, so
    the game is the server's child and can die with it (`web_child`)."""
    environment = {**guest_environment(), SERVER_VARIABLE: str(os.getpid())}
    assigned = " ".join(f"{name}={shlex.quote(value)}" for name, value in environment.items())
    game = [sys.executable, "-m", "tui_tictactoe.servers.web.child", "play"]
    return f"{assigned} exec {shlex.join(game)}"


PAGE = "app_index.html"
THIRD_PARTY_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*/>", re.DOTALL)
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf");
      }
    </style>"""


def page_template(templates: Path) -> str:
    """textual-serve's page, its Roboto Mono from the server's own static files (which ship
    the font) instead of a third-party font service."""
    page = (templates / PAGE).read_text(encoding="utf-8")
    return THIRD_PARTY_FONT.sub(lambda _: LOCAL_FONT, page)


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class GameWebServer(Server):
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
        self.idle_timeout: float = args.idle_timeout
        self.log = log
        self.log_refusal = RefusalLog(log, prefix=f"{PROG} serve-web: ")
        self.sessions: set[WebSession] = set()
        self.accepting = True

    # -- the application --------------------------------------------------------------

    async def build_app(self) -> web.Application:
        """The routes of textual-serve's application, with its public handlers."""
        app = web.Application()
        page = page_template(Path(self.templates_path))
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({PAGE: page}))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_response_prepare.append(self._add_security_headers)
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """One line with the address to open (not textual-serve's logo and command line)."""
        self.log(f"{PROG} serve-web: open {self.public_url}/ in a browser; Ctrl+C stops")

    @staticmethod
    async def _add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)

    def serve(self, debug: bool = False) -> None:
        """As textual-serve's `serve`, with this application and a short shutdown:
        SIGINT and SIGTERM end every session (`on_shutdown`) before the loop stops."""
        self.debug = debug
        self.initialize_logging()
        if self.host in WILDCARD_HOSTS and not self.public_url_given:
            self.log(
                f"{PROG} serve-web: listening on every address without --public-url: "
                "browsers are refused until it names the address they use "
                f"(e.g. --public-url http://NAME:{self.port})"
            )
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.add_signal_handler(signal.SIGINT, self.request_exit)
        loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        web.run_app(
            self.build_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda *args: None,
            shutdown_timeout=1.0,  # for handlers still running after on_shutdown
            access_log=None,  # a line per request, as fast as anyone sends them: one per session instead
        )

    # -- sessions ---------------------------------------------------------------------

    # textual-serve annotates this handler as returning a WebSocketResponse; aiohttp takes any
    # response from a handler, and a refusal here is an HTTP status before the upgrade.
    async def handle_websocket(  # type: ignore[override]
        self, request: web.Request
    ) -> web.StreamResponse:
        """A tab's game: refused before the upgrade (403 for a foreign page, 503 when the
        server is full or stopping, 429 for too many from one address), else played."""
        address = request.remote or "?"
        reason = origin_refusal(request.headers, self.origins)
        if reason is not None:
            self.log_refusal(f"{PROG} serve-web: {address} refused: {reason}")
            return web.Response(status=403, text=f"{PROG}: {reason}\n")
        session = WebSession(
            request,
            self.command,
            self.download_manager,
            self.idle_timeout,
            log=lambda line: self.log(f"{PROG} serve-web: {address} {line}"),
        )
        if not session.websocket.can_prepare(request).ok:
            return web.Response(status=400, text=f"{PROG}: this address is for websockets\n")
        refusal = SHUTTING_DOWN if not self.accepting else self.capacity.admit(address)
        if refusal is not None:
            self.log_refusal(f"{PROG} serve-web: {address} refused: {refusal.reason}")
            return web.Response(
                status=refusal.status,
                text=f"{PROG}: {refusal.reason}\n",
                headers={"Retry-After": "60"},
            )
        self.sessions.add(session)
        try:
            await session.run(*query_size(request.query))
        finally:
            self.sessions.discard(session)
            self.capacity.release(address)
            dropped = session.budget.report(final=True)
            self.log(
                f"{PROG} serve-web: {address} played {session.seconds:.0f} s: "
                f"{session.ending or 'ended'}" + (f"; {dropped}" if dropped else "")
            )
        return session.websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Tell every tab, close its websocket, stop its game; kill games that linger."""
        self.accepting = False
        sessions = list(self.sessions)
        for session in sessions:
            session.end(SHUTTING_DOWN.reason, code=1001, notice=f"{PROG}: {SHUTTING_DOWN.reason}")
        if sessions:
            await asyncio.wait(
                [asyncio.ensure_future(session.done.wait()) for session in sessions],
                timeout=SHUTDOWN_GRACE,
            )
        for session in sessions:
            if not session.done.is_set():
                session.kill_game()
        self.log_refusal.flush()


def serve(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM, then end every session and exit 0. With a database
    (`--database-url`) it must be usable first (else one line and exit 1, as `serve-ssh`)."""
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
    server = GameWebServer(args)
    try:
        server.serve()
    except OSError as error:
        print(
            f"{PROG} serve-web: cannot listen on {args.host}:{args.port}: {error.strerror}",
            file=sys.stderr,
        )
        return 1
    return 0
