"""The player's lifetime record and settings, kept in one SQLite file, or in a shared
PostgreSQL database for several hosts (`$TUI_TICTACTOE_DATABASE_URL`).

Everything that touches the database lives in this package, behind `Record`: the
PostgreSQL backend (`postgres.store`) is a second implementation of it, chosen by
`Record.open()`, not a change to the app. The app, the command line and the SSH
server use:

    record = Record.open()            # never raises; Record.disabled() for --no-record
    record.settings(player)           # {"symbol": "O", "theme": "nord", ...}
    record.save_round(player, FinishedRound(...))  # True once committed
    record.stats(player), record.recent_rounds(player), record.leaderboard()
    record.people.save_match(Match(...))  # a round between people; rated ones move both ratings
    record.people.stats(player), record.people.rounds(player), record.people.ratings()
    record.moderation.claim_name(player, name)  # the admin's and the servers' side: moderation
    record.take_notice()              # a one-time message for the status line, or None

The modules, from the top: `store` (`Record`), `failures` (what each failure of the
file means), `sqlite_file` (making, opening and moving aside the file), `schema`
(tables, the standings' upkeep, migrations), `people` (rounds between people and
their Elo ratings: `Record.people`), `access` (the hooks a part of `Record` is handed),
`validation` (arguments against
`options.CHOICES`), `values` (what the record hands out), `names` (how a stored
player is shown), `listing` (the record as the stats screen and `stats` list it),
`location` (where the file lives), `rounds` (a round checked, and the standings'
upkeep in SQL, for both backends), `moderation` (what `tui-tictactoe admin` and the servers
tell each other; who owns a name: `Record.moderation`), `deny_list` (the deny list's lines, read and matched); for PostgreSQL `postgres.store` (`PostgresRecord`),
`postgres.schema` (its tables and migrations) and `postgres.connection` (connecting, and what
its failures mean).

The record stands beside the controller: it imports only the engine, the option
choices, the player's identity and nothing above. `sqlite3`, `platformdirs` and
`psycopg` are imported on first use, not with the package: the app's start-up budget
is tight and `import sqlite3` alone costs several ms (psycopg only with a URL set).
"""

from __future__ import annotations

from tui_tictactoe.record.listing import (
    HOT_SEAT_COLUMNS,
    PEOPLE_COLUMNS,
    PEOPLE_ROUND_COLUMNS,
    RECENT_ROUNDS,
    ROUND_COLUMNS,
    STANDING_COLUMNS,
    board_tables,
    people_round_cells,
    people_summary,
    people_tables,
    round_cells,
)
from tui_tictactoe.record.location import (
    APP_NAME,
    DATA_DIR_ENV,
    DATABASE_NAME,
    DATABASE_URL_ENV,
    data_dir,
    database_path,
)
from tui_tictactoe.record.names import shown_name
from tui_tictactoe.record.postgres.store import (
    PostgresRecord,  # registers the postgresql:// backend with Record
)
from tui_tictactoe.record.schema import schema_version
from tui_tictactoe.record.store import Record
from tui_tictactoe.record.values import (
    KINDS,
    LEADERBOARD_BOARD,
    MATCH_RESULTS,
    RESULTS,
    DifficultyStats,
    FinishedRound,
    HotSeatStanding,
    Leaderboard,
    LeaderEntry,
    Match,
    PeopleRound,
    PeopleStanding,
    PeopleStats,
    RatingEntry,
    RoundRecord,
    Seat,
    Stats,
    board_name,
    empty_people_stats,
    empty_stats,
    new_round_key,
)

__all__ = [
    "APP_NAME",
    "DATABASE_NAME",
    "DATABASE_URL_ENV",
    "DATA_DIR_ENV",
    "HOT_SEAT_COLUMNS",
    "KINDS",
    "LEADERBOARD_BOARD",
    "MATCH_RESULTS",
    "PEOPLE_COLUMNS",
    "PEOPLE_ROUND_COLUMNS",
    "RECENT_ROUNDS",
    "RESULTS",
    "ROUND_COLUMNS",
    "STANDING_COLUMNS",
    "DifficultyStats",
    "FinishedRound",
    "HotSeatStanding",
    "LeaderEntry",
    "Leaderboard",
    "Match",
    "PeopleRound",
    "PeopleStanding",
    "PeopleStats",
    "PostgresRecord",
    "RatingEntry",
    "Record",
    "RoundRecord",
    "Seat",
    "Stats",
    "board_name",
    "board_tables",
    "data_dir",
    "database_path",
    "empty_people_stats",
    "empty_stats",
    "new_round_key",
    "people_round_cells",
    "people_summary",
    "people_tables",
    "round_cells",
    "schema_version",
    "shown_name",
]
