"""What a failure of the record's file means: classified here, and nowhere else (the
PostgreSQL backend's failures in `record.postgres.connection.classify`, onto the same `Failure`).

`Record` asks `classify` about every error from SQLite or the file system, while
opening the file and in every operation, and reacts to the answer in one method
(`Record._failed`). An error that is none of these is a bug and propagates.
"""

from __future__ import annotations

import errno
from enum import Enum

# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB = 5, 6, 11, 13, 26


class Failure(Enum):
    """What went wrong, by what the record does about it."""

    DAMAGED = "damaged"  # move the file aside, intact, and start a new one (once)
    FULL = "full"  # the disk (or the size cap): this write is lost, the record stays on
    BUSY = "busy"  # another process holds the lock: this operation is lost, try again later
    NEWER = "newer"  # a newer program's schema: leave the file alone, play without a record
    OTHER = "other"  # anything else: play without a record
    UNREACHABLE = "unreachable"  # a database server not reached: this operation is lost


class Damaged(Exception):
    """The file is not a usable record (seen from its header, before SQLite opens it)."""


class Foreign(Damaged):
    """Another program's SQLite database where the record should be: not ours to change."""


class NewerSchema(Exception):
    """The file's schema is newer than this program knows: it must not be touched."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def classify(error: BaseException) -> Failure | None:
    """What `error` means for the record; None: not a failure of the record (a bug)."""
    if isinstance(error, NewerSchema):
        return Failure.NEWER
    if isinstance(error, Damaged):
        return Failure.DAMAGED
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return _SQLITE_FAILURES.get(code & 0xFF, Failure.OTHER)
    if isinstance(error, OSError):
        return Failure.FULL if error.errno in (errno.ENOSPC, errno.EDQUOT) else Failure.OTHER
    import sqlite3  # loaded already if the error came from it

    return Failure.OTHER if isinstance(error, sqlite3.Error) else None


_SQLITE_FAILURES = {
    _SQLITE_CORRUPT: Failure.DAMAGED,
    _SQLITE_NOTADB: Failure.DAMAGED,
    _SQLITE_FULL: Failure.FULL,
    _SQLITE_BUSY: Failure.BUSY,
    _SQLITE_LOCKED: Failure.BUSY,
}


def reason(error: BaseException) -> str:
    """The error in a few words, for a notice: `disk I/O error`, `permission denied`."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower() if error.strerror[:1].isupper() else error.strerror
    return str(error) or type(error).__name__
