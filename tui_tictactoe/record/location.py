"""Where the record lives: one directory for every file the game keeps.

The SSH server keeps its host key here too, so one environment variable moves all
of the game's files (a test, a container's volume).
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "tui-tictactoe"
DATA_DIR_ENV = "TUI_TICTACTOE_DATA_DIR"
DATABASE_NAME = "record.sqlite3"


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
