"""Moderation in the record: what `tui-tictactoe admin` and the servers tell each other.

A running `serve-ssh` publishes itself and its live sessions here (`publish`, every few
seconds: a heartbeat), and takes the orders an admin left for it (`take_orders`: end a
session or a room, drain); it reads the shared deny entries (`denied_entries`), the names an
admin set (`admin_names`) and every admin action since the last look (`actions_after`),
which it writes to its log. The admin command writes those and reads the live sessions.
The record is the one channel for one host (the SQLite file in the data directory) and for
every host sharing a PostgreSQL database alike: no socket of its own, no second protocol.

A name belongs to the first key that used it (`claim_name`, `name_owners`): another key under
the same name is shown with its fingerprint and does not take the name's place on the
leaderboard. Written once for both backends on the hooks of the `Record` that owns it
(`access.Access`); times are UTC ISO text, which sorts as time does.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, NamedTuple, TypeVar

from tui_tictactoe.record.access import Access
from tui_tictactoe.record.names import FINGERPRINT, name_skeleton

T = TypeVar("T")

NAMES_PER_KEY = 3
"""Names one key may own at once (`claim_name`): a key that tried 12 names owned 12."""
NAME_LAPSE_DAYS = 180
"""Days a name its owner has not used stays theirs; then anyone may take it."""

MODERATION_TABLES = (
    """CREATE TABLE live_hosts (
        host TEXT PRIMARY KEY,
        machine TEXT NOT NULL,
        pid INTEGER NOT NULL,
        deny_file TEXT,
        started_at TEXT NOT NULL,
        seen_at TEXT NOT NULL
    )""",
    """CREATE TABLE live_sessions (
        host TEXT NOT NULL,
        session TEXT NOT NULL,
        name TEXT NOT NULL,
        player TEXT,
        address TEXT NOT NULL,
        rooms TEXT NOT NULL,
        kind TEXT NOT NULL,
        started_at TEXT NOT NULL,
        PRIMARY KEY (host, session)
    )""",
    """CREATE TABLE admin_orders (
        id {id},
        host TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('end', 'drain')),
        target TEXT NOT NULL,
        message TEXT NOT NULL,
        made_at TEXT NOT NULL,
        done_at TEXT
    )""",
    "CREATE INDEX admin_orders_by_host ON admin_orders (host, done_at)",
    "CREATE TABLE denied (id {id}, entry TEXT NOT NULL, added_at TEXT NOT NULL)",
    """CREATE TABLE admin_actions (
        id {id},
        at TEXT NOT NULL,
        by_user TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL,
        outcome TEXT NOT NULL
    )""",
    "CREATE TABLE admin_names (player TEXT PRIMARY KEY, name TEXT NOT NULL)",
    "CREATE TABLE name_owners (name TEXT PRIMARY KEY, player TEXT NOT NULL, since TEXT NOT NULL)",
)
"""The tables of the schema step that adds moderation (`{id}`: each backend's row id)."""


def rekeyed_owners(rows: Iterable[Sequence[str]], now: str) -> list[tuple[str, str, str]]:
    """`name_owners`' rows (name, player, since) keyed by their skeletons, as `claim_name`
    looks them up: of names that share one, the first claimed stays; each counts as used
    `now` (before, `since` was the claim's time, not the last use). The schema step of
    both backends that brings the skeleton in."""
    kept: dict[str, str] = {}
    for name, player, _ in sorted(rows, key=lambda row: (row[2], row[0])):
        key = name_skeleton(name)
        if key:
            kept.setdefault(key, player)
    return [(key, player, now) for key, player in kept.items()]


class LiveHost(NamedTuple):
    host: str  # MACHINE:PORT
    machine: str
    pid: int
    deny_file: str | None  # its --deny FILE, which `admin deny` appends to
    started_at: str
    seen_at: str


class LiveSession(NamedTuple):
    host: str
    session: str  # the connection's id, as in the server's log
    name: str  # as shown
    player: str | None  # the key's fingerprint; None: a guest
    address: str
    rooms: str  # room codes, space-separated ("" if none)
    kind: str
    started_at: str


class Order(NamedTuple):
    id: int
    action: str  # end, drain
    target: str  # a session or a room's code (end)
    message: str  # what the players are told


class AdminAction(NamedTuple):
    id: int
    at: str
    by_user: str
    action: str
    target: str
    reason: str
    outcome: str


class Claim(NamedTuple):
    """What `claim_name` found: the name's owner (None: nobody's), whether this session
    has just taken it (a new name: counted by the server per address), and whether the
    key could not take a free name because it owns NAMES_PER_KEY already (it is told)."""

    owner: str | None
    new: bool
    full: bool = False


def lapsed_before() -> str:
    """The time (as `now_text`) before which a name's last use lets it lapse."""
    from datetime import UTC, datetime, timedelta

    then = datetime.now(UTC) - timedelta(days=NAME_LAPSE_DAYS)
    return then.isoformat(timespec="seconds").replace("+00:00", "Z")


def now_text() -> str:
    """Now, as the moderation tables keep times."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Moderation:
    """The record's moderation (`record.moderation`), on the hooks of the `Record` that owns
    it (`Access`). Like every `Record` method they never raise for the database's sake: a
    failure returns the fallback and leaves a notice."""

    def __init__(self, access: Access) -> None:
        self._access = access

    # -- the servers' side ---------------------------------------------------------

    def publish(self, host: LiveHost, sessions: Sequence[LiveSession]) -> bool:
        """The host (its heartbeat: `seen_at`) and all its live sessions, replacing the last."""

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                self._access.query(
                    conn,
                    "INSERT INTO live_hosts (host, machine, pid, deny_file, started_at, seen_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (host) DO UPDATE SET"
                    " machine = excluded.machine, pid = excluded.pid,"
                    " deny_file = excluded.deny_file, started_at = excluded.started_at,"
                    " seen_at = excluded.seen_at",
                    tuple(host),
                )
                self._access.query(conn, "DELETE FROM live_sessions WHERE host = ?", (host.host,))
                for session in sessions:
                    self._access.query(
                        conn,
                        "INSERT INTO live_sessions (host, session, name, player, address, rooms,"
                        " kind, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        tuple(session),
                    )
            return True

        return self._access.run(write, False, "the live sessions were not published")

    def claim_name(
        self, player: str | None, name: str, reserved: Collection[str] = (), may_add: bool = True
    ) -> Claim:
        """Who owns `name` once `player` (a key's fingerprint; None: a guest) starts a
        session under it. A name is compared by its skeleton (`name_skeleton`: alice with
        a Cyrillic a is `alice`); its owner's use keeps it (`since`, the last use), and one unused for
        NAME_LAPSE lapses. A key takes a name nobody owns, unless the name is `reserved`
        (skeletons), the key owns NAMES_PER_KEY already, or `may_add` is False (the
        server's count of new names per address)."""
        key = name_skeleton(name)
        now = now_text()

        def write(conn: Any) -> Claim:
            if not key:
                return Claim(None, False)
            with self._access.writing(conn):
                self._access.query(
                    conn, "DELETE FROM name_owners WHERE since < ?", (lapsed_before(),)
                )
                rows = self._access.query(
                    conn, "SELECT player FROM name_owners WHERE name = ?", (key,)
                )
                if rows:
                    owner = str(rows[0][0])
                    if owner == player:
                        self._access.query(
                            conn, "UPDATE name_owners SET since = ? WHERE name = ?", (now, key)
                        )
                    return Claim(owner, False)
                if player is None or not player.startswith(FINGERPRINT) or not may_add:
                    return Claim(None, False)
                if key in reserved:
                    return Claim(None, False)
                owned = self._access.query(
                    conn, "SELECT count(*) FROM name_owners WHERE player = ?", (player,)
                )
                if int(owned[0][0]) >= NAMES_PER_KEY:
                    return Claim(None, False, full=True)
                self._access.query(
                    conn,
                    "INSERT INTO name_owners (name, player, since) VALUES (?, ?, ?)"
                    " ON CONFLICT (name) DO NOTHING",
                    (key, player, now),
                )
                rows = self._access.query(
                    conn, "SELECT player FROM name_owners WHERE name = ?", (key,)
                )
            taker = str(rows[0][0]) if rows else None  # another host's, if it came first
            return Claim(taker, taker == player)

        return self._access.run(write, Claim(None, False), "the name's owner could not be read")

    def name_owner(self, name: str) -> str | None:
        """The key that owns `name`, if one does."""

        def read(conn: Any) -> str | None:
            rows = self._access.query(
                conn, "SELECT player FROM name_owners WHERE name = ?", (name_skeleton(name),)
            )
            return str(rows[0][0]) if rows else None

        return self._access.run(read, None, "the name's owner could not be read")

    def with_owners(self, conn: Any, entries: list[T]) -> list[T]:
        """`entries` (a leaderboard's rows: `LeaderEntry`, `RatingEntry`) each marked
        whether its key owns its name (`owns_name`)."""
        rows: list[Any] = entries
        players = sorted({entry.player for entry in rows})
        if not players:
            return entries
        marks = ", ".join("?" * len(players))
        owned = {
            (name, player)
            for name, player in self._access.query(
                conn, f"SELECT name, player FROM name_owners WHERE player IN ({marks})", players
            )
        }
        return [
            entry._replace(owns_name=(name_skeleton(entry.display_name), entry.player) in owned)
            for entry in rows
        ]

    def forget_host(self, host: str) -> bool:
        """A host that stops: it and its sessions are no longer live."""

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                self._access.query(conn, "DELETE FROM live_sessions WHERE host = ?", (host,))
                self._access.query(conn, "DELETE FROM live_hosts WHERE host = ?", (host,))
            return True

        return self._access.run(write, False, "the host's sessions were not removed")

    def take_orders(self, host: str) -> list[Order]:
        """The orders left for `host` not taken yet, each taken once (marked done)."""

        def take(conn: Any) -> list[Order]:
            find = (
                "SELECT id, action, target, message FROM admin_orders"
                " WHERE host = ? AND done_at IS NULL ORDER BY id"
            )
            if not self._access.query(conn, find, (host,)):  # the usual look: no write lock taken
                return []
            with self._access.writing(conn):
                rows = self._access.query(conn, find, (host,))
                for row in rows:
                    self._access.query(
                        conn,
                        "UPDATE admin_orders SET done_at = ? WHERE id = ?",
                        (now_text(), row[0]),
                    )
            return [Order(*row) for row in rows]

        return self._access.run(take, [], "the admin's orders could not be read")

    def denied_entries(self) -> list[str]:
        """Every shared deny entry's line (`deny_list.parse_entry` reads each)."""

        def read(conn: Any) -> list[str]:
            return [
                row[0] for row in self._access.query(conn, "SELECT entry FROM denied ORDER BY id")
            ]

        return self._access.run(read, [], "the shared deny list could not be read")

    def admin_names(self) -> dict[str, str]:
        """Names an admin gave players, by key."""

        def read(conn: Any) -> dict[str, str]:
            return dict(self._access.query(conn, "SELECT player, name FROM admin_names"))

        return self._access.run(read, {}, "the names set by the admin could not be read")

    def actions_after(self, last: int, limit: int = 100) -> list[AdminAction]:
        """Admin actions with an id above `last`, oldest first (-1: none, just the last id)."""

        def read(conn: Any) -> list[AdminAction]:
            if last < 0:
                rows = self._access.query(
                    conn,
                    "SELECT id, at, by_user, action, target, reason, outcome FROM admin_actions"
                    " ORDER BY id DESC LIMIT 1",
                )
            else:
                rows = self._access.query(
                    conn,
                    "SELECT id, at, by_user, action, target, reason, outcome FROM admin_actions"
                    " WHERE id > ? ORDER BY id LIMIT ?",
                    (last, limit),
                )
            return [AdminAction(*row) for row in rows]

        return self._access.run(read, [], "the admin's actions could not be read")

    # -- the admin's side ----------------------------------------------------------

    def live(self, seen_since: str) -> tuple[list[LiveHost], list[LiveSession]]:
        """The hosts seen since `seen_since` (UTC ISO text) and their sessions."""

        def read(conn: Any) -> tuple[list[LiveHost], list[LiveSession]]:
            hosts = self._access.query(
                conn,
                "SELECT host, machine, pid, deny_file, started_at, seen_at FROM live_hosts"
                " WHERE seen_at >= ? ORDER BY host",
                (seen_since,),
            )
            sessions = self._access.query(
                conn,
                "SELECT s.host, s.session, s.name, s.player, s.address, s.rooms, s.kind,"
                " s.started_at FROM live_sessions s JOIN live_hosts h ON h.host = s.host"
                " WHERE h.seen_at >= ? ORDER BY s.started_at, s.session",
                (seen_since,),
            )
            return [LiveHost(*row) for row in hosts], [LiveSession(*row) for row in sessions]

        nothing: tuple[list[LiveHost], list[LiveSession]] = ([], [])
        return self._access.run(read, nothing, "the live sessions could not be read")

    def add_order(self, host: str, action: str, target: str, message: str) -> int | None:
        """An order for `host`; its id (to wait for `order_taken`), None if not written."""

        def write(conn: Any) -> int:
            with self._access.writing(conn):
                rows = self._access.query(
                    conn,
                    "INSERT INTO admin_orders (host, action, target, message, made_at)"
                    " VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (host, action, target, message, now_text()),
                )
            return int(rows[0][0])

        return self._access.run(write, None, "the order was not written")

    def order_taken(self, order: int) -> bool:
        def read(conn: Any) -> bool:
            rows = self._access.query(
                conn, "SELECT done_at FROM admin_orders WHERE id = ?", (order,)
            )
            return bool(rows and rows[0][0] is not None)

        return self._access.run(read, False, "the order could not be read")

    def add_denied(self, entry: str) -> bool:
        """Keep a shared deny entry: only a line every host reads back as itself
        (`deny_list.entry_for`'s), else False and nothing kept."""
        from tui_tictactoe.record.deny_list import parse_entry

        try:
            parsed = parse_entry(entry)
        except ValueError:
            parsed = None
        if parsed is None or parsed.line() != entry:
            return False

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                self._access.query(
                    conn, "INSERT INTO denied (entry, added_at) VALUES (?, ?)", (entry, now_text())
                )
            return True

        return self._access.run(write, False, "the deny entry was not kept")

    def forget_denied(self, entries: Sequence[str]) -> bool:
        """Shared deny entries no longer kept (expired ones, which apply nowhere)."""

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                for entry in entries:
                    self._access.query(conn, "DELETE FROM denied WHERE entry = ?", (entry,))
            return True

        return self._access.run(write, False, "the expired deny entries were not removed")

    def log_action(self, by_user: str, action: str, target: str, reason: str, outcome: str) -> bool:
        """One admin action: who (the OS user), what, on what, why, and what came of it."""

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                self._access.query(
                    conn,
                    "INSERT INTO admin_actions (at, by_user, action, target, reason, outcome)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (now_text(), by_user, action, target, reason, outcome),
                )
            return True

        return self._access.run(write, False, "the admin action was not logged")

    def rename(self, player: str, name: str) -> bool:
        """`player` is called `name` from now on: on the leaderboard and ratings at once, in
        its next session's game (the server reads `admin_names`), and `name` is its own."""

        def write(conn: Any) -> bool:
            with self._access.writing(conn):
                self._access.query(
                    conn,
                    "INSERT INTO admin_names (player, name) VALUES (?, ?)"
                    " ON CONFLICT (player) DO UPDATE SET name = excluded.name",
                    (player, name),
                )
                for table in ("players", "ratings"):
                    self._access.query(
                        conn,
                        f"UPDATE {table} SET display_name = ? WHERE player = ?",
                        (name, player),
                    )
                self._access.query(
                    conn,
                    "INSERT INTO name_owners (name, player, since) VALUES (?, ?, ?)"
                    " ON CONFLICT (name) DO UPDATE SET player = excluded.player",
                    (name_skeleton(name), player, now_text()),
                )
            return True

        return self._access.run(write, False, "the name was not changed")
