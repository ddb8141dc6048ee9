"""Where the record lives: one directory for every file the game keeps, or a shared
PostgreSQL database named by a URL.

The SSH server keeps its host key here too, so one environment variable moves all
of the game's files (a test, a container's volume).
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "tui-tictactoe"
DATA_DIR_ENV = "TUI_TICTACTOE_DATA_DIR"
DATABASE_NAME = "record.sqlite3"
DATABASE_URL_ENV = "TUI_TICTACTOE_DATABASE_URL"
"""Set to a `postgresql://` URL, the record is kept there (several hosts share it)."""


def data_dir() -> Path:
    """The directory of the record: `$TUI_TICTACTOE_DATA_DIR`, else the platform's data dir."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs  # on first use: the app's start-up budget is tight

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def database_path() -> Path:
    """The record's database file (it need not exist yet)."""
    return data_dir() / DATABASE_NAME


def database_url() -> str | None:
    """The shared database's URL (`$TUI_TICTACTOE_DATABASE_URL`); None: the SQLite file."""
    return os.environ.get(DATABASE_URL_ENV) or None
