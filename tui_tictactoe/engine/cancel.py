"""How a long search is stopped: the callback it polls, and what it raises when told to.

Apart from `search` so that the players, the strategies and the controller can name them
without importing the search itself, which a 3x3 game never runs (its start-up does not
pay for it).
"""

from __future__ import annotations

from collections.abc import Callable

Cancelled = Callable[[], bool]
"""Polled during a search; returning True abandons it with `SearchCancelled`."""


class SearchCancelled(Exception):
    """The `cancelled` callback of a search returned True; the search was abandoned."""
