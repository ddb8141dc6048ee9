"""The record's SQLite file: made whole, opened safely, and moved aside intact when damaged.

Several processes use one file at once (SSH sessions, two terminals): a new file is
published complete with a hard link, never made in place; the file is opened in
WAL mode with `synchronous=FULL`, so a round reported saved survives a power cut;
and a damaged file is recognised from its header before SQLite writes to it, then
renamed with its WAL, so nothing it held is lost.
"""

from __future__ import annotations

import os
import threading
import weakref
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from tui_tictactoe.record.failures import Damaged, reason
from tui_tictactoe.record.schema import check_version, migrate, schema_version

if TYPE_CHECKING:
    import sqlite3

BUSY_TIMEOUT = 5.0
"""Seconds a writer waits for another process's transaction (SSH sessions, two terminals)."""

_MAGIC = b"SQLite format 3\x00"

_open_here: dict[tuple[int, int], int] = {}
"""The connections open in this process, per file (device, inode): a file with one open is
not header-read. Closing any descriptor of a file drops every POSIX lock the process holds
on it, SQLite's too (https://www.sqlite.org/howtocorrupt.html, 2.2): a second record
opened beside a first in one process (a test beside the in-loop server's) read the header
and closed it, the first connection's locks went, and a game's connection closing in
another process, believing itself the last, deleted the WAL and its -shm under it (the
first then failed with "disk I/O error"). With none open, the header is read as before (a
file damaged in place since is still found)."""
_opening = threading.Lock()
_files: weakref.WeakKeyDictionary[sqlite3.Connection, tuple[int, int]] = (
    weakref.WeakKeyDictionary()
)  # each open connection's file, to count it off when it closes
_tracked: type[sqlite3.Connection] | None = None


def _connection_class() -> type[sqlite3.Connection]:
    """sqlite3's connection, counted in `_open_here` until it is closed (made on first use:
    sqlite3 is imported lazily)."""
    global _tracked
    if _tracked is None:
        import sqlite3

        class Tracked(sqlite3.Connection):
            def close(self) -> None:
                with _opening:
                    file = _files.pop(self, None)
                    if file is not None and _open_here.get(file, 0) > 1:
                        _open_here[file] -= 1
                    elif file is not None:
                        _open_here.pop(file, None)
                super().close()

        _tracked = Tracked
    return _tracked


def open_database(path: Path, max_pages: int | None = None) -> sqlite3.Connection:
    """A connection to the record at `path` with the current schema, made whole if missing.

    Damaged if the header shows the file is not a usable database, Foreign if it is
    another program's, NewerSchema if a newer program wrote it; SQLite's and the
    file system's errors as they come. `max_pages`: a size cap (a full database is a
    full disk).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with _opening:
        if _identity(path) not in _open_here:
            damage = header_damage(path)
            if damage is not None:
                raise Damaged(damage)
    if not os.path.lexists(path):
        _create_database(path)
    return _connect(path, max_pages)


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at `path` as the kernel knows it (a file moved aside and made again is
    another), or None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _connect(path: Path, max_pages: int | None) -> sqlite3.Connection:
    """A connection in WAL mode with the current schema; NewerSchema if it is newer.

    `mode=rw`: an existing file only. A new database is made by `_create_database`,
    never here, so no process ever sees a half-made one.
    """
    import sqlite3  # on first use: `import sqlite3` alone costs several ms of start-up

    conn = sqlite3.connect(
        f"{path.absolute().as_uri()}?mode=rw",
        uri=True,
        timeout=BUSY_TIMEOUT,
        isolation_level=None,
        check_same_thread=False,
        factory=_connection_class(),
    )
    with _opening:
        if (file := _identity(path)) is not None:
            _files[conn] = file
            _open_here[file] = _open_here.get(file, 0) + 1
    try:
        # Read before anything writes: a newer schema or another program's
        # database must not be touched at all.
        version = check_version(conn)
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise sqlite3.OperationalError(f"cannot use WAL mode (journal mode {mode})")
        # FULL: in WAL mode, NORMAL can lose the last commits on a power cut.
        conn.execute("PRAGMA synchronous = FULL")
        if max_pages is not None:
            conn.execute(f"PRAGMA max_page_count = {int(max_pages)}")
        if version < schema_version():
            migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _create_database(path: Path) -> None:
    """Make a new record at `path` whole, or find that another process just did.

    Built under a temporary name (WAL mode, the current schema, closed: complete on
    disk) and published with a hard link, which fails if `path` exists, so processes
    starting together never share a half-made database. SQLite switching a brand-new
    file to WAL mode under several processes at once fails in ways that look like
    corruption, which would move a good record aside.
    """
    import sqlite3

    _remove_leftovers(path)
    building = path.with_name(f"{path.name}.new-{os.getpid()}-{threading.get_ident()}")
    _remove_database(building)
    try:
        conn = sqlite3.connect(building, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            migrate(conn)
        finally:
            conn.close()  # checkpoints: the file alone now holds the schema
        try:
            os.link(building, path)
        except FileExistsError:
            pass  # another process was first: use its record
        except OSError:  # no hard links here (some network or FAT file systems)
            if not os.path.lexists(path):
                os.replace(building, path)
        _sync_directory(path.parent)
    finally:
        _remove_database(building)


def _remove_database(path: Path) -> None:
    for name in (str(path), f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        with suppress(FileNotFoundError):
            os.unlink(name)


def _remove_leftovers(path: Path) -> None:
    """Half-built databases of creators that were killed (their process is gone)."""
    for leftover in path.parent.glob(f"{path.name}.new-*"):
        pid = leftover.name.removeprefix(f"{path.name}.new-").split("-")[0]
        if not pid.isdigit() or leftover.name.endswith(("-wal", "-shm", "-journal")):
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _remove_database(leftover)
        except OSError:
            pass  # alive, or not ours to ask about


def _sync_directory(directory: Path) -> None:
    """Make a new directory entry durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def move_aside(path: Path) -> Path | None:
    """Rename a damaged file (and its WAL) to `<name>.corrupt-<UTC time>`, intact.

    The new path, or None if another process moved it aside first. OSError if the
    file cannot be renamed.
    """
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while os.path.lexists(aside):
        number += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return None
    # Its WAL holds committed rounds too: keep it beside the file, where SQLite
    # looks for it, so the moved copy opens with everything it had.
    for suffix in ("-wal", "-shm"):
        companion = Path(f"{path}{suffix}")
        if os.path.lexists(companion):
            with suppress(OSError):
                os.rename(companion, Path(f"{aside}{suffix}"))
    return aside


def header_damage(path: Path) -> str | None:
    """Why the file at `path` is not a usable SQLite database, from its header alone.

    Checked before SQLite opens it, because SQLite writes to a file while it opens
    it (WAL mode) and the damaged file must be moved aside byte-for-byte. None: no
    file, or nothing wrong that the header shows.
    """
    if not os.path.lexists(path):
        return None
    if path.is_dir():
        return "a directory is in its place"
    if not path.is_file():
        return "not a regular file"
    try:
        with open(path, "rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError as error:
        return f"unreadable: {reason(error)}"
    if not header:
        # SQLite would make it a database in place, which is unsafe with several
        # processes starting at once; moved aside, it is replaced whole.
        return "empty"
    if not (header.startswith(_MAGIC) or _MAGIC.startswith(header)):
        return "not a database"
    if len(header) < 100:
        return "truncated"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return "not a database (bad header)"
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return None  # the file may legitimately lag its WAL (a checkpoint cut short)
    pages = int.from_bytes(header[28:32], "big")
    pages_valid = header[24:28] == header[92:96]
    if size % page_size or (pages_valid and size < pages * page_size):
        return "truncated"
    return None
