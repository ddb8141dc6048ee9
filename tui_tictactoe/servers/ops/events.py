"""What a server reports as it runs, for whoever counts it (`metrics.Metrics`), or nobody.

`ServerEvents` does nothing: the servers call it always, and `--metrics` puts a counting
one in its place, so that prometheus_client is imported only then (start-up cost: `cli`
and the game processes never import it). Every label value comes from a fixed list here
(`REFUSAL_REASONS`, `GAME_EXITS`, `SESSION_KINDS`), never from a client: a label that
took a user name or an address would grow without bound.
"""

from __future__ import annotations

import argparse

from tui_tictactoe.commands.play_arguments import plays_the_ai

SESSION_KINDS = ("lobby", "ai", "room_player", "spectator", "match", "queued")
"""Sessions now, by kind. A game's kind is what its options asked for at the start
(`session_kind`): a lobby session that then enters a room stays "lobby" (the server
does not read the game's screens), and a `--match` session stays "match" once paired;
"queued" is a connection not (yet) admitted to a game (not the quick match's queue)."""

REFUSAL_REASONS: tuple[tuple[str, str], ...] = (
    # (words in the connection's ending, the reason's label)
    ("logging in from one address", "address_logging_in"),
    ("made room for a newer connection", "displaced"),
    ("server is full", "full"),
    ("too many games from your address", "address_games"),
    ("restarting", "draining"),
    ("shutting down", "shutting_down"),
    ("bad options", "bad_options"),
    ("no pty", "no_pty"),
    ("environment variables", "environment"),
    ("subsystem", "subsystem"),
    ("stats for a guest", "stats_guest"),
    ("PROXY", "proxy_header"),
    ("--authorized-keys", "key_not_authorized"),
    ("does not accept you", "denied"),  # `serve-ssh --deny` (`deny.DENIED`)
    # serve-web's (`web.guard`): a page of another site, a plain HTTP request on /ws
    ("another site", "origin"),
    ("without an Origin", "origin"),
    ("for websockets", "not_websocket"),
)
OTHER = "other"

GAME_EXITS = ("exited", "failed", "killed", "fork_server_lost", "not_started")
"""How games end: status 0, another status, a signal (our hang-up too), lost with the
fork server, or never started (out of processes)."""


def refusal_reason(ending: str) -> str:
    """The label of a refusal, from the server's own wording of it."""
    for words, label in REFUSAL_REASONS:
        if words in ending:
            return label
    return OTHER


def session_kind(options: argparse.Namespace | None, rooms: bool) -> str:
    """A game's kind from its play options: a spectator (`--watch`), a room's player
    (`--room`, `--join`), a quick match (`--match`), the lobby (no option, with rooms on), else against the AI
    (game options, `--no-rooms`; hot seat too)."""
    if options is not None and getattr(options, "watch", None):
        return "spectator"
    if options is not None and (getattr(options, "room", None) or getattr(options, "join", None)):
        return "room_player"
    if options is not None and getattr(options, "match", None):
        return "match"
    if not rooms or options is None:
        return "lobby" if rooms else "ai"
    return "ai" if plays_the_ai(options) else "lobby"


class ServerEvents:
    """The events a server reports; these do nothing (no `--metrics`)."""

    def connection_opened(self) -> None:
        """A TCP connection reached the SSH server (or a websocket, the web server)."""

    def refused(self, reason: str) -> None:
        """A connection (or a key, or a PROXY header) refused, by `refusal_reason`'s label."""

    def game_started(self) -> None:
        """A game's process started."""

    def first_frame(self, seconds: float) -> None:
        """A game's first output reached its client, `seconds` after its session began."""

    def game_exited(self, cause: str) -> None:
        """A game ended, by `GAME_EXITS`."""

    def move_delivered(self, seconds: float) -> None:
        """A move in a room reached another screen's link, `seconds` after the hub got it."""

    def round_ended(self, board: int, result: str) -> None:
        """A round in a room ended (`RoomView.result`: X, O, draw, abandoned)."""

    def resize_coalesced(self) -> None:
        """A session's window size replaced by a later one before it reached the game
        (`control_budget.Resizes`)."""

    def flooded(self) -> None:
        """A session closed as a flood of requests or messages (`control_budget.Flood`)."""

    def heard(self, event: str, fields: dict[str, object]) -> None:
        """A log event (`log_format.ServerLog`'s listener): the hub's database, the fork server."""
