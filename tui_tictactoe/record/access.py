"""`Access`: what a part of the record (`People`, `Moderation`) reads of the `Record` it belongs to.

The record's parts are written once for both backends on three hooks of the `Record` that owns
them: `run` (an operation on the connection, degrading with a notice), `query` (one statement's
rows, its parameters marked `?`) and `writing` (the transaction a write runs in).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Access(Protocol):
    """The owning record's hooks, as its parts call them."""

    def run(self, operation: Callable[[Any], T], fallback: T, lost: str) -> T:
        """`operation(connection)`, or `fallback` with a notice if the record fails."""
        ...

    def query(self, conn: Any, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, whose parameters are marked `?`."""
        ...

    def writing(self, conn: Any) -> AbstractContextManager[None]:
        """The transaction a write runs in."""
        ...
