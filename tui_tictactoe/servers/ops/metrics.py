"""`--metrics`: a server's `ServerEvents` counted for Prometheus (prometheus_client).

Imported only when `--metrics` is given. Each server has a registry of its own (not
prometheus_client's global one), so that servers started in one process (the tests)
never share a count. Names follow Prometheus' conventions: the `tui_tictactoe_` prefix,
units in the name (`_seconds`), `_total` on counters; every label value is from a fixed
list (`ops.events`), never a user name, an address or a room's code. The list of
metrics, with what each counts, is in docs/hosting.md ("Metrics").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from tui_tictactoe.servers.ops.events import (
    GAME_EXITS,
    OTHER,
    REFUSAL_REASONS,
    SESSION_KINDS,
    ServerEvents,
)

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

PREFIX = "tui_tictactoe"
FIRST_FRAME_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.5, 5.0, 10.0)
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BOARDS = ("3", "4", "5")
RESULTS = {"X": "x_won", "O": "o_won", "draw": "draw", "abandoned": "abandoned"}

DATABASE_ERRORS = ("hub.database_unreachable", "hub.error")
DATABASE_RECONNECTS = ("hub.database_reconnected",)
FORK_SERVER_LOSSES = ("fork_server.lost",)


def _count_of(sessions: Callable[[], Mapping[str, int]], kind: str) -> Callable[[], float]:
    return lambda: sessions().get(kind, 0)


class Metrics(ServerEvents):
    """Counts a server's events; `sessions` and `rooms` are read at each scrape."""

    def __init__(
        self,
        sessions: Callable[[], Mapping[str, int]],
        rooms: Callable[[], int],
        draining: Callable[[], bool],
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        gauge = Gauge(f"{PREFIX}_sessions", "Sessions now, by kind", ["kind"], registry=registry)
        for kind in SESSION_KINDS:
            gauge.labels(kind=kind).set_function(_count_of(sessions, kind))
        Gauge(
            f"{PREFIX}_rooms", "Rooms with a session on this host now", registry=registry
        ).set_function(rooms)
        Gauge(
            f"{PREFIX}_draining", "1 while the server drains (SIGUSR1), else 0", registry=registry
        ).set_function(lambda: 1 if draining() else 0)
        self.connections = Counter(
            f"{PREFIX}_connections", "Connections accepted", registry=registry
        )
        self.refusals = Counter(
            f"{PREFIX}_refusals",
            "Connections, keys and headers refused, by reason",
            ["reason"],
            registry=registry,
        )
        for _, reason in (*REFUSAL_REASONS, (OTHER, OTHER)):
            self.refusals.labels(reason=reason)
        self.first_frames = Histogram(
            f"{PREFIX}_first_frame_seconds",
            "From a session's start to its game's first output sent",
            buckets=FIRST_FRAME_BUCKETS,
            registry=registry,
        )
        self.moves = Histogram(
            f"{PREFIX}_move_delivery_seconds",
            "From a move reaching the hub to the room's new view sent to another screen",
            buckets=MOVE_BUCKETS,
            registry=registry,
        )
        self.rounds = Counter(
            f"{PREFIX}_rounds",
            "Rounds in rooms ended, by board size and result",
            ["board", "result"],
            registry=registry,
        )
        self.games = Counter(f"{PREFIX}_games_started", "Games started", registry=registry)
        self.exits = Counter(
            f"{PREFIX}_game_exits", "Games ended, by cause", ["cause"], registry=registry
        )
        for cause in GAME_EXITS:
            self.exits.labels(cause=cause)
        self.database_errors = Counter(
            f"{PREFIX}_hub_database_errors",
            "The rooms' hub: the database out of reach, or an operation failed",
            registry=registry,
        )
        self.reconnects = Counter(
            f"{PREFIX}_hub_database_reconnects",
            "The rooms' hub: the database reached again after an absence",
            registry=registry,
        )
        self.fork_server_losses = Counter(
            f"{PREFIX}_fork_server_losses",
            "The fork server lost (games start as fresh processes after)",
            registry=registry,
        )

        self.coalesced = Counter(
            f"{PREFIX}_resizes_coalesced",
            "Window sizes replaced by a later one before they reached the game",
            registry=registry,
        )
        self.floods = Counter(
            f"{PREFIX}_floods",
            "Sessions closed as a flood of requests or messages",
            registry=registry,
        )

    def scrape(self) -> bytes:
        """The text exposition format (`CONTENT_TYPE_LATEST`)."""
        return generate_latest(self.registry)

    # -- ServerEvents ----------------------------------------------------------

    def connection_opened(self) -> None:
        self.connections.inc()

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason=reason).inc()

    def game_started(self) -> None:
        self.games.inc()

    def first_frame(self, seconds: float) -> None:
        self.first_frames.observe(seconds)

    def game_exited(self, cause: str) -> None:
        self.exits.labels(cause=cause if cause in GAME_EXITS else "failed").inc()

    def move_delivered(self, seconds: float) -> None:
        self.moves.observe(seconds)

    def round_ended(self, board: int, result: str) -> None:
        if str(board) in BOARDS and result in RESULTS:
            self.rounds.labels(board=str(board), result=RESULTS[result]).inc()

    def resize_coalesced(self) -> None:
        self.coalesced.inc()

    def flooded(self) -> None:
        self.floods.inc()

    def heard(self, event: str, fields: dict[str, object]) -> None:
        if event in DATABASE_ERRORS:
            self.database_errors.inc()
        elif event in DATABASE_RECONNECTS:
            self.reconnects.inc()
        elif event in FORK_SERVER_LOSSES:
            self.fork_server_losses.inc()
