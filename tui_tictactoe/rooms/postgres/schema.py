"""The room hub's tables on PostgreSQL and their migrations, run once by hosts starting together.

The rooms keep a schema of their own beside the record's (its own one-row version table,
`room_schema_version`, and its own advisory lock): the hub and the record are separate
parts that may share a database, and either can be upgraded without the other. Step i
takes version i to i + 1; append, never edit; a step only adds, as hosts are upgraded
one by one. A database of a newer version is refused.

One row per room (`rooms`), keyed by its code; a seat is a row of `room_seats` only
while someone holds it; a spectator is a row of `room_watchers`. Seat tokens are kept as
their SHA-256 only. Every deadline is a `timestamptz` on one clock (the database's
`now()`), so the hosts' clocks do not matter. `room_hosts` is each hub's heartbeat: a
seat or spectator whose host stopped beating is treated as dropped. `room_wrong_codes`
holds the last minute's wrong room codes by client address, for every host's limit
(and, of `kind` "lobby", the names each address put in the lobby). A room keeps its
creator's address (`owner_address`) while it is live, and each seat its player's
(`room_seats.address`), so rooms are counted per address.
`room_queue` holds the quick-match places (`postgres/queue.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg

MIGRATION_LOCK = 0x7474_7400_0002
"""The advisory lock the rooms' migration runs under (the record's is ...0001)."""
MIGRATION_TIMEOUT_MS = 60_000

_SEAT = "text NOT NULL CHECK (seat IN ('X', 'O'))"
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE room_hosts (
            host_id text PRIMARY KEY,
            seen_at timestamptz NOT NULL
        )""",
        """CREATE TABLE rooms (
            code text PRIMARY KEY CHECK (code ~ '^[A-HJKMNPR-Z]{4}$'),
            incarnation bigint NOT NULL,
            size smallint NOT NULL CHECK (size IN (3, 4, 5)),
            generation bigint NOT NULL CHECK (generation >= 1),
            board_generation bigint NOT NULL CHECK (board_generation BETWEEN 1 AND generation),
            round integer NOT NULL CHECK (round >= 1),
            round_key text NOT NULL CHECK (length(round_key) BETWEEN 1 AND 100),
            first text NOT NULL CHECK (first IN ('X', 'O')),
            moves smallint[] NOT NULL,
            score integer[] NOT NULL CHECK (cardinality(score) = 3),
            result text CHECK (result IN ('X', 'O', 'draw', 'abandoned')),
            left_by text CHECK (left_by IN ('X', 'O')),
            rematch text[] NOT NULL,
            closed boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        )""",
        f"""CREATE TABLE room_seats (
            code text NOT NULL REFERENCES rooms ON DELETE CASCADE,
            seat {_SEAT},
            name text NOT NULL,
            key text NOT NULL,
            token_hash text NOT NULL,
            present boolean NOT NULL,
            back_by timestamptz CHECK (present = (back_by IS NULL)),
            host_id text NOT NULL,
            PRIMARY KEY (code, seat)
        )""",
        """CREATE TABLE room_watchers (
            code text NOT NULL REFERENCES rooms ON DELETE CASCADE,
            token_hash text NOT NULL,
            name text NOT NULL,
            key text NOT NULL,
            host_id text NOT NULL,
            PRIMARY KEY (code, token_hash)
        )""",
        # The sweep: graces running out, and seats and spectators of hosts gone quiet.
        "CREATE INDEX room_seats_by_back_by ON room_seats (back_by) WHERE back_by IS NOT NULL",
        "CREATE INDEX room_seats_by_host ON room_seats (host_id) WHERE present",
        "CREATE INDEX room_watchers_by_host ON room_watchers (host_id)",
    ),
    # 1 -> 2: wrong room codes per address, counted for every host (`postgres/wrong_codes.py`).
    (
        """CREATE TABLE room_wrong_codes (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            address text NOT NULL,
            at timestamptz NOT NULL
        )""",
        "CREATE INDEX room_wrong_codes_by_address ON room_wrong_codes (address, at DESC)",
        "CREATE INDEX room_wrong_codes_by_at ON room_wrong_codes (at)",
    ),
    # 2 -> 3: private rooms (issue 28): listed or not, watching on or off, the seat that
    # opened the room, the creator's address (rooms counted per address), and the names
    # put before strangers counted per address beside the wrong codes (`kind`).
    (
        "ALTER TABLE rooms ADD COLUMN public boolean NOT NULL DEFAULT false,"
        " ADD COLUMN watching boolean NOT NULL DEFAULT true,"
        " ADD COLUMN owner_address text NOT NULL DEFAULT ''",
        "ALTER TABLE room_seats ADD COLUMN creator boolean NOT NULL DEFAULT false",
        "ALTER TABLE room_wrong_codes ADD COLUMN kind text NOT NULL DEFAULT 'code'",
        "CREATE INDEX rooms_by_owner ON rooms (owner_address) WHERE NOT closed",
        "CREATE INDEX rooms_listed ON rooms (created_at, code) WHERE public AND NOT closed",
        "CREATE INDEX room_wrong_codes_by_kind ON room_wrong_codes (kind, address, at DESC)",
    ),
    # 3 -> 4: offers between the players (a draw): the one waiting for an answer, who
    # made it, the seats that offered since the last move (one a move), and whether the
    # round's draw was agreed rather than played out.
    (
        "ALTER TABLE rooms ADD COLUMN offer text CHECK (offer IN ('draw')),"
        " ADD COLUMN offer_by text CHECK (offer_by IN ('X', 'O')),"
        " ADD COLUMN offered text[] NOT NULL DEFAULT '{}',"
        " ADD COLUMN agreed boolean NOT NULL DEFAULT false,"
        " ADD CONSTRAINT rooms_offer_by CHECK ((offer IS NULL) = (offer_by IS NULL)),"
        " ADD CONSTRAINT rooms_agreed CHECK (NOT agreed OR result = 'draw')",
    ),
    # 4 -> 5: 6x6 rooms (five in a row): the size CHECK of step 1 named 6 too. Postgres
    # named that inline CHECK `rooms_size_check`; it keeps the name.
    (
        "ALTER TABLE rooms DROP CONSTRAINT rooms_size_check,"
        " ADD CONSTRAINT rooms_size_check CHECK (size IN (3, 4, 5, 6))",
    ),
    # 5 -> 6: the move clock and consent (issue 31): the room's move time and reconnect
    # grace (its terms, fixed when it opens, so every host keeps the same clock), the
    # mover's deadline (Unix seconds on the database's clock, as a float: read back
    # exactly, as `back_by` is to the microsecond), why a round ended early ("time",
    # "claimed"), the round's take-backs, and the take-back as an offer's kind.
    (
        "ALTER TABLE rooms ADD COLUMN move_time double precision NOT NULL DEFAULT 0"
        " CHECK (move_time >= 0),"
        " ADD COLUMN grace double precision NOT NULL DEFAULT 0 CHECK (grace >= 0),"
        " ADD COLUMN deadline double precision,"
        " ADD COLUMN cause text CHECK (cause IN ('time', 'claimed')),"
        " ADD COLUMN take_backs integer NOT NULL DEFAULT 0 CHECK (take_backs >= 0),"
        " DROP CONSTRAINT rooms_offer_check,"
        " ADD CONSTRAINT rooms_offer_check CHECK (offer IN ('draw', 'take_back'))",
        "CREATE INDEX rooms_by_deadline ON rooms (deadline) WHERE deadline IS NOT NULL",
    ),
    # 6 -> 7: quick match (`postgres/queue.py`): a row per place in a board's queue, keyed by
    # its token's hash (which becomes its seat's); `code`, `seat` and `paired_at` once
    # paired, kept through the decline window (`told`: its session has its seat).
    # `seen_at` is the place's heartbeat.
    (
        """CREATE TABLE room_queue (
            token_hash text PRIMARY KEY,
            size smallint NOT NULL CHECK (size IN (3, 4, 5, 6)),
            rating integer NOT NULL,
            name text NOT NULL,
            key text NOT NULL,
            address text NOT NULL,
            host_id text NOT NULL,
            since timestamptz NOT NULL,
            seen_at timestamptz NOT NULL,
            code text,
            seat text CHECK (seat IN ('X', 'O')),
            paired_at timestamptz,
            told boolean NOT NULL DEFAULT false,
            CONSTRAINT room_queue_paired CHECK (
                (code IS NULL) = (seat IS NULL) AND (code IS NULL) = (paired_at IS NULL)
            )
        )""",
        "CREATE INDEX room_queue_waiting ON room_queue (since) WHERE code IS NULL",
        "CREATE INDEX room_queue_by_address ON room_queue (address)",
        "CREATE INDEX room_queue_by_seen ON room_queue (seen_at)",
    ),
    # 7 -> 8: hostile quick matches (issue 35): each seat's address (a room counts
    # against every seated player's, a quick match's having no opener), whether a room is
    # a quick match's with its opening's time (the first move and the first reply), the
    # seat whose opening ran out (the room aborted), and a pair from one address (unrated).
    (
        "ALTER TABLE room_seats ADD COLUMN address text NOT NULL DEFAULT ''",
        "CREATE INDEX room_seats_by_address ON room_seats (address) WHERE address <> ''",
        "ALTER TABLE rooms ADD COLUMN matched boolean NOT NULL DEFAULT false,"
        " ADD COLUMN opening_time double precision NOT NULL DEFAULT 0"
        " CHECK (opening_time >= 0),"
        " ADD COLUMN aborted_by text CHECK (aborted_by IN ('X', 'O')),"
        " ADD COLUMN unrated boolean NOT NULL DEFAULT false",
    ),
    # 8 -> 9: fair play between strangers (issue 35): the seconds of the round's grace a
    # seat's holder spent in absences that ended (`Room.away`), so leaving and coming back
    # again and again cannot stall a round on any host; and the last offer's answer (what,
    # whose offer, yes or no) until the position changes, for every screen to say.
    (
        "ALTER TABLE room_seats ADD COLUMN away_spent double precision NOT NULL DEFAULT 0"
        " CHECK (away_spent >= 0)",
        "ALTER TABLE rooms ADD COLUMN answered text CHECK (answered IN ('draw', 'take_back')),"
        " ADD COLUMN answered_by text CHECK (answered_by IN ('X', 'O')),"
        " ADD COLUMN answered_yes boolean,"
        " ADD CONSTRAINT rooms_answered CHECK ((answered IS NULL) = (answered_by IS NULL)"
        " AND (answered IS NULL) = (answered_yes IS NULL))",
    ),
)


def schema_version() -> int:
    """The rooms' schema this program writes: the number of steps it knows."""
    return len(MIGRATIONS)


class NewerRoomSchema(Exception):
    """The database's rooms were made by a newer program: this one refuses to touch them."""

    def __init__(self, version: int) -> None:
        super().__init__(
            f"The rooms' tables are at version {version}, newer than this program's "
            f"{schema_version()}: upgrade tui-tictactoe."
        )
        self.version = version


async def stored_version(conn: psycopg.AsyncConnection) -> int:
    cursor = await conn.execute("SELECT to_regclass('room_schema_version') IS NOT NULL")
    exists = await cursor.fetchone()
    if not (exists and exists[0]):
        return 0
    cursor = await conn.execute("SELECT version FROM room_schema_version")
    row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def ensure_schema(conn: psycopg.AsyncConnection) -> None:
    """Bring the rooms' tables to `schema_version()` (one read when current); the steps
    run in one transaction under an advisory lock, so hosts starting together wait for the
    first and then find the work done. `NewerRoomSchema` if the database is newer."""
    version = await stored_version(conn)
    if version > schema_version():
        raise NewerRoomSchema(version)
    if version == schema_version():
        return
    async with conn.transaction():
        timeout = f"{MIGRATION_TIMEOUT_MS}ms"
        await conn.execute(
            "SELECT set_config('statement_timeout', %s, true), set_config('lock_timeout', %s, true)",
            (timeout, timeout),
        )
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS room_schema_version ("
            " only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),"
            " version integer NOT NULL CHECK (version >= 0))"
        )
        await conn.execute(
            "INSERT INTO room_schema_version (version) VALUES (0) ON CONFLICT DO NOTHING"
        )
        version = await stored_version(conn)  # again, under the lock
        if version > schema_version():
            raise NewerRoomSchema(version)
        for step in MIGRATIONS[version:]:
            for statement in step:
                await conn.execute(statement)
        await conn.execute("UPDATE room_schema_version SET version = %s", (schema_version(),))
