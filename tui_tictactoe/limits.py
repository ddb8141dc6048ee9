"""The largest terminal a hosted game draws, whatever a client reports.

A window of 10,000 x 10,000 cells made one game use 1.45 GB for a single frame. The
servers clamp every size a client sends (an SSH window change, serve-web's width and
height) to these before it reaches the game; the game tells its player once when it
runs at the cap. At the bottom of the package: the servers and the UI both read it,
and it imports nothing.
"""

from __future__ import annotations

MAX_COLUMNS = 500
MAX_ROWS = 200


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A client's terminal size as a game may use it: at least 1 x 1, at most the cap."""
    return max(1, min(columns, MAX_COLUMNS)), max(1, min(rows, MAX_ROWS))
