"""The servers' `--database-url`: which database, and whether it can be used at start-up.

`serve-ssh` and `serve-web` take the same option, with the same default
(`$TUI_TICTACTOE_DATABASE_URL`) and the same refusal: a database that cannot be used
stops the start with one line (`DatabaseUnusable`, the password hidden by `shown_url`)
and exit status 1, since a host without the database its players expect would be a
world of its own, which they could not tell. What "used" means is each server's:
`serve-ssh` starts its rooms' hub on it (`room_service`), `serve-web`, whose games only
read the record (a visitor plays as a guest, whose rounds are not kept), opens the
record there (`check_record`). psycopg is imported only then.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from tui_tictactoe.record.location import DATABASE_URL_ENV

POSTGRES_SCHEMES = ("postgresql", "postgres")


class DatabaseUnusable(Exception):
    """The database cannot be used at start-up: the server does not start."""


def database_url(given: str | None) -> str | None:
    """`--database-url`, else `$TUI_TICTACTOE_DATABASE_URL`; None (either empty): SQLite."""
    return given or os.environ.get(DATABASE_URL_ENV) or None


def database_environment(url: str | None) -> dict[str, str]:
    """What every game's environment gets for the record: the database (none: the
    game's SQLite file), so that a round is kept where every host reads it."""
    return {DATABASE_URL_ENV: url} if url else {}


_SECRET = re.compile(r"(?i)(\w*password\s*=\s*)('(?:[^'\\]|\\.)*'?|(?:[^\s\\]|\\.)*)")
"""A `password=` (or `sslpassword=`) and its value in libpq's key=value form: quoted with
escapes, or up to a space (libpq's own rules), so that the value never shows."""


def shown_url(url: str) -> str:
    """A database URL as the log may show it: without its password or its query (which
    may hold one too), and cut short. Text in libpq's key=value form (`host=db
    password=...`), which is not a URL, is shown with every password's value hidden."""
    if "://" not in url:
        shown = _SECRET.sub(r"\1***", url)
    else:
        try:
            parts = urlsplit(url)
            netloc = parts.netloc
            if parts.password is not None:
                user = parts.username or ""
                host = netloc.rpartition("@")[2]
                netloc = f"{user}:***@{host}"
            shown = _SECRET.sub(r"\1***", f"{parts.scheme}://{netloc}{parts.path}")
        except ValueError:
            shown = url.partition(":")[0] + "://..."
    return shown if len(shown) <= 120 else shown[:119] + "…"


def check_scheme(url: str) -> None:
    """`DatabaseUnusable` unless `url` names PostgreSQL."""
    if url.partition(":")[0].lower() not in POSTGRES_SCHEMES:
        raise DatabaseUnusable(f"not a postgresql:// URL: {shown_url(url)}")


def check_record(url: str) -> None:
    """The record on `url` opens, its tables made or upgraded now (so the first game
    does not wait for that); else `DatabaseUnusable`, saying why in a few words."""
    check_scheme(url)
    from tui_tictactoe.record.failures import Failure, NewerSchema
    from tui_tictactoe.record.postgres.connection import classify, connect, reason
    from tui_tictactoe.record.postgres.schema import ensure_schema, schema_version

    try:
        conn = connect(url)
        try:
            ensure_schema(conn)
        finally:
            conn.close()
    except Exception as error:
        failure = classify(error)
        if failure is None:
            raise  # a bug, not the database's
        if isinstance(error, NewerSchema):
            why = (
                f"its record's tables are at version {error.version}, newer than this "
                f"program's {schema_version()}: upgrade tui-tictactoe."
            )
        elif failure is Failure.UNREACHABLE:
            why = f"it cannot be reached ({reason(error)})."
        else:
            why = f"{reason(error)}."
        raise DatabaseUnusable(f"cannot use the database {shown_url(url)}: {why}") from None


PROBE_AGE = 5.0
"""Seconds a probe's answer stands before the next question asks the database again."""


class DatabaseProbe:
    """Whether the database answers, for a health check (`/readyz`) that must not wait.

    `reachable()` returns the last answer at once and, if it is older than PROBE_AGE,
    asks again in a thread (one at a time; a connection opened and closed, bounded by
    the record's `connect_timeout`). Nothing is asked unless someone checks, so a server
    without health checks opens no extra connection."""

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.clock = clock
        self.reached = True  # the start-up check (`check_record`) has just reached it
        self.asked_at = clock()
        self._asking: asyncio.Future[None] | None = None

    def reachable(self) -> bool:
        if self._asking is None and self.clock() - self.asked_at >= PROBE_AGE:
            self._asking = asyncio.get_running_loop().run_in_executor(None, self._ask)
            self._asking.add_done_callback(self._answered)
        return self.reached

    def _ask(self) -> None:
        from tui_tictactoe.record.postgres.connection import connect

        try:
            connect(self.url).close()
        except Exception:  # whatever the reason: not reachable for a player's game either
            self.reached = False
        else:
            self.reached = True

    def _answered(self, _future: asyncio.Future[None]) -> None:
        self.asked_at = self.clock()
        self._asking = None
