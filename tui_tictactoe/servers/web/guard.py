"""What `serve-web` lets in: which pages may open a game, how many games at once, and
what a message from the page may say.

Pure rules, no I/O, so they can be read (and tested) apart from the server:

- **Origin.** A browser sends the page's origin with every websocket handshake, and any
  page the local user visits can open `ws://127.0.0.1:8000/ws` (cross-site websocket
  hijacking). Only the origins the server is known by pass: `--public-url`, the
  `http://HOST:PORT` it listens on, and, listening on loopback, the loopback names of
  that port. The list is fixed at start (not read from the `Host` header), so a page
  that rebinds its own DNS name to 127.0.0.1 is still a foreign origin. A handshake
  with no `Origin` comes from a program, not a page (browsers always send one on
  websockets), and is let in, as any program may connect to the port anyway; one that
  has no `Origin` but carries the `Sec-Fetch-*` headers only browsers send is refused,
  and so is the `null` origin of sandboxed frames and local files.
- **Capacity.** `--max-sessions` games at once, `--max-per-address` from one address,
  refused with a one-line reason: a program before the upgrade, with 503 or 429; a page
  (its handshake has an `Origin`) after it, by a close code of the CLOSE_* below and the
  reason, which a page can read where it cannot read an HTTP status.
- **Messages.** The page speaks JSON arrays (`["stdin", text]`, `["resize", {"width":
  W, "height": H}]`, `["ping", text]`, `["focus"]`, `["blur"]`). Anything else is
  dropped; sizes are clamped to `limits.clamp_size` before they reach the game.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import NamedTuple
from urllib.parse import urlsplit

from tui_tictactoe.addresses import counting_key
from tui_tictactoe.limits import clamp_size
from tui_tictactoe.servers.games.command import printable
from tui_tictactoe.servers.ops.log_format import Event

MAX_MESSAGE = 64 * 1024
"""Bytes in one websocket message from the page (a key, a paste, a resize); a larger
one closes the socket (1009) before it is parsed."""

MAX_PING = 64
"""Characters of a ping the server echoes back (the page sends a timestamp)."""

DEFAULT_SIZE = (80, 24)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
BROWSER_ONLY_HEADERS = ("Sec-Fetch-Mode", "Sec-Fetch-Site", "Sec-Fetch-Dest")
_DEFAULT_PORTS = {"http": 80, "https": 443}


# -- origin ---------------------------------------------------------------------------


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of a URL as a browser writes it in `Origin` (lower case, no
    default port), or None if it is not an http(s) URL with a host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _http_origin(host: str, port: int) -> str | None:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return origin_of(f"http://{host}:{port}")


def allowed_origins(host: str, port: int, public_url: str | None) -> frozenset[str]:
    """The origins of the pages that may open a game: the server's own addresses."""
    hosts = [host]
    if host in ("127.0.0.1", "localhost", "::1"):
        hosts += LOOPBACK_HOSTS
    found = {_http_origin(name, port) for name in hosts}
    if public_url:
        found.add(origin_of(public_url))
    return frozenset(origin for origin in found if origin)


def origin_refusal(headers: Mapping[str, str], allowed: frozenset[str]) -> str | None:
    """Why a websocket handshake with these headers may not open a game (None: it may)."""
    origin = headers.get("Origin")
    if origin is None:
        if any(name in headers for name in BROWSER_ONLY_HEADERS):
            return "a browser's websocket without an Origin header"
        return None  # a program, not a page: it could connect to the port anyway
    if origin_of(origin) not in allowed:
        return f"a websocket from another site ({printable(origin, 100)!r}), not from this page"
    return None


# -- capacity -------------------------------------------------------------------------


# The close codes a page reads (servers/web/page/tictactoe.js says what each means to a
# player and what to do): the standard ones (1000 the game ended, 1001 the server stops,
# 1009 a message too large, 1011 the game failed), and these of the private range.
CLOSE_QUIT = 4000  # the player quit the game
CLOSE_RESTARTED = 4001  # the game ended after its round: the server is draining
CLOSE_IDLE = 4008  # no input for --idle-timeout seconds
CLOSE_ORIGIN = 4403  # a page of another site (or another name of this one)
CLOSE_TOO_MANY = 4429  # --max-per-address from this address already
CLOSE_FULL = 4503  # --max-sessions in all already
CLOSE_DRAINING = 4513  # a new tab while the server drains


class Refusal(NamedTuple):
    """A session refused: the HTTP status (for a program), the close code (for a page)
    and the reason shown to both."""

    status: int
    reason: str
    code: int = 1001


SHUTTING_DOWN = Refusal(503, "the server is shutting down: goodbye")
DRAINING = Refusal(
    503, "this server is restarting: try again in a moment (or on another host)", CLOSE_DRAINING
)


class Capacity:
    """Games at once, in all and per address (an IPv6 browser by its /64,
    `addresses.counting_key`); the server's only shared counts."""

    def __init__(self, max_sessions: int, max_per_address: int) -> None:
        self.max_sessions = max_sessions
        self.max_per_address = max_per_address
        self.per_address: Counter[str] = Counter()

    @property
    def sessions(self) -> int:
        return sum(self.per_address.values())

    def admit(self, address: str) -> Refusal | None:
        """Take a slot for `address`, or say why not (nothing is counted then)."""
        address = counting_key(address)
        if self.sessions >= self.max_sessions:
            return Refusal(
                503,
                f"the server is full ({self.max_sessions} games at once): try again later",
                CLOSE_FULL,
            )
        if self.per_address[address] >= self.max_per_address:
            return Refusal(
                429,
                f"too many games from your address ({self.max_per_address} at once): "
                "finish one first",
                CLOSE_TOO_MANY,
            )
        self.per_address[address] += 1
        return None

    def release(self, address: str) -> None:
        address = counting_key(address)
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]


class RefusalLog:
    """Refusals logged at a bounded rate: the first `burst` in each `interval` seconds
    line by line, the rest as one count. A client can be refused as fast as it can
    connect, and each refusal would otherwise be a line in the server's log."""

    def __init__(
        self,
        log: Callable[[str], None],
        prefix: str = "",
        burst: int = 10,
        interval: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.prefix = prefix
        self.burst = burst
        self.interval = interval
        self.clock = clock
        self.window = clock()
        self.logged = 0
        self.suppressed = 0

    def __call__(self, line: str) -> None:
        now = self.clock()
        if now - self.window >= self.interval:
            self.flush()
            self.window, self.logged = now, 0
        if self.logged < self.burst:
            self.logged += 1
            self.log(line)
        else:
            self.suppressed += 1

    def flush(self) -> None:
        if self.suppressed:
            text = f"{self.prefix}{self.suppressed} more refused, not logged one by one"
            self.log(Event("refusals.counted", text, count=self.suppressed, noun="websockets"))
            self.suppressed = 0


# -- messages from the page -------------------------------------------------------------


class Stdin(NamedTuple):
    """Keys, mouse and paste, as the terminal in the page encodes them: the game's input."""

    text: str


class Resize(NamedTuple):
    """The page's terminal size, already clamped."""

    width: int
    height: int


class Ping(NamedTuple):
    data: str


class Focus(NamedTuple):
    focused: bool


Message = Stdin | Resize | Ping | Focus


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def query_size(query: Mapping[str, str]) -> tuple[int, int]:
    """The size a session starts at (`/ws?width=W&height=H`), clamped; 80x24 when absent
    or not a whole number."""
    size = []
    for name, default in zip(("width", "height"), DEFAULT_SIZE, strict=True):
        text = query.get(name, "")
        size.append(int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else default)
    return clamp_size(*size)


def parse_message(text: str) -> Message | None:
    """One message from the page, checked and clamped; None for anything else (dropped).
    The text is at most MAX_MESSAGE bytes: the websocket refuses larger ones unread."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # not JSON; a huge number; "[[[[..." 64 KB deep
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(data, str):
        return Stdin(data)
    if kind == "resize" and isinstance(data, dict):
        width, height = _whole(data.get("width")), _whole(data.get("height"))
        if width is None or height is None:
            return None
        return Resize(*clamp_size(width, height))
    if kind == "ping" and isinstance(data, str):
        return Ping(data[:MAX_PING])
    if kind in ("focus", "blur"):
        return Focus(kind == "focus")
    return None
