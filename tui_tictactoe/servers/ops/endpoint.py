"""`--metrics HOST:PORT`: /metrics, /livez and /readyz over HTTP, in the server's own loop.

- `/metrics`: Prometheus' text format (`metrics.Metrics`).
- `/livez`: 200 "ok" while the event loop answers (the answer itself is the proof).
- `/readyz`: 200 "ready" when the server listens, its rooms' hub (and database) answer,
  it is not draining and a game is free; else 503 with the reason, one line ("not ready:
  full (N games at once)" while every game is taken). A load balancer's health check
  (HAProxy `option httpchk GET /readyz`) then sends new players elsewhere.

A scrape must never stall the SSH relay or the games: the port takes a few connections
at a time (`MAX_IN_FLIGHT` requests, more get 503 at once), requests are small (a GET
and its headers: aiohttp's line and field limits, no body), idle connections close
after `KEEPALIVE` s, and every answer is built from counters already in memory. Put it
on a private address (127.0.0.1 by default): it says how busy the server is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

if TYPE_CHECKING:
    from tui_tictactoe.servers.ops.metrics import Metrics

MAX_IN_FLIGHT = 4
KEEPALIVE = 5.0  # seconds an idle keep-alive connection stays open
LINE_LIMIT = 1024  # bytes of the request line
FIELD_LIMIT = 1024  # bytes of a header
BACKLOG = 8


Readiness = Callable[[], str | None]
"""Why the server is not ready (a short sentence), or None when it is."""


class OpsEndpoint:
    """The HTTP side: `start()` listens, `stop()` closes; `port` once started."""

    def __init__(
        self,
        address: tuple[str, int],
        readiness: Readiness,
        scrape: Callable[[], bytes] | None,
        content_type: str = "text/plain",
    ) -> None:
        self.address = address
        self.readiness = readiness
        self.scrape = scrape
        self.content_type = content_type
        self.port: int | None = None
        self._in_flight = 0
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        app = web.Application(client_max_size=LINE_LIMIT, middlewares=[self._bounded])
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/livez", self._livez)
        app.router.add_get("/readyz", self._readyz)
        runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            keepalive_timeout=KEEPALIVE,
            max_line_size=LINE_LIMIT,
            max_field_size=FIELD_LIMIT,
        )
        await runner.setup()
        site = web.TCPSite(runner, self.address[0], self.address[1], backlog=BACKLOG)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _bounded(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if self._in_flight >= MAX_IN_FLIGHT:
            return web.Response(status=503, text="busy\n")
        self._in_flight += 1
        try:
            return await handler(request)
        finally:
            self._in_flight -= 1

    async def _metrics(self, _request: web.Request) -> web.Response:
        if self.scrape is None:
            return web.Response(status=404, text="no metrics\n")
        response = web.Response(body=self.scrape())
        response.headers["Content-Type"] = self.content_type
        return response

    async def _livez(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, _request: web.Request) -> web.Response:
        why = self.readiness()
        if why is not None:
            return web.Response(status=503, text=f"not ready: {why}\n")
        return web.Response(text="ready\n")


class OpsHost(Protocol):
    """What `start_ops` reads of a server, at each scrape or check."""

    def sessions_now(self) -> Mapping[str, int]: ...

    def rooms_now(self) -> int: ...

    @property
    def draining(self) -> bool: ...

    def not_ready(self) -> str | None: ...


async def start_ops(address: tuple[str, int], host: OpsHost) -> tuple[OpsEndpoint, Metrics]:
    """Count `host`'s events (its `ServerEvents` from now on: the returned `Metrics`) and
    serve them with the health checks on `address`. OSError if it cannot listen."""
    from tui_tictactoe.servers.ops.metrics import CONTENT_TYPE_LATEST, Metrics

    metrics = Metrics(host.sessions_now, host.rooms_now, lambda: host.draining)
    endpoint = OpsEndpoint(address, host.not_ready, metrics.scrape, CONTENT_TYPE_LATEST)
    await endpoint.start()
    return endpoint, metrics
