"""The hub's private socket directories in the temp dir: made with an owner, swept when orphaned.

`HubServer` makes `tui-tictactoe-rooms-*` (mode 0700) for its socket and removes it on
`stop`; a server killed outright (SIGKILL, the OOM killer, a power cut of the container)
cannot, and 40 such directories were found in one temp dir. Each directory now names its
owner (`OWNER`: the server's pid), and the next server to start removes every one of this
user's whose owner is gone. Only what a server puts there is removed (the socket and the
owner file, then the empty directory), and only in directories of this user closed to
others: nothing anyone else made in the shared temp dir is touched. A directory of a
version without owner files goes if its socket has had no listener for `LEGACY_AGE`.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import tempfile
import time
from pathlib import Path

PREFIX = "tui-tictactoe-rooms-"
OWNER = "owner.pid"
SOCKET_NAME = "hub.sock"
LEGACY_AGE = 60.0
"""Seconds without an owner file before a directory whose socket nobody listens on is
stale (a server is never that long between making it and listening)."""
SWEEP_LIMIT = 1000
"""Directories looked at per start, at most: a temp dir full of them costs a bounded time."""


def make_directory() -> Path:
    """A new private directory (0700) for a hub's socket, naming this process its owner."""
    directory = Path(tempfile.mkdtemp(prefix=PREFIX))
    owner = directory / OWNER
    owner.write_text(str(os.getpid()))
    owner.chmod(0o600)
    return directory


def remove_directory(directory: Path) -> None:
    """What `make_directory` and the server put there, then the directory if it is empty."""
    for name in (SOCKET_NAME, OWNER):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(directory / name)
    with contextlib.suppress(OSError):
        os.rmdir(directory)


def sweep_orphans(temp: Path | None = None) -> list[Path]:
    """Remove this user's hub directories whose owner process is gone; those removed."""
    swept = []
    root = Path(tempfile.gettempdir()) if temp is None else temp
    for count, directory in enumerate(root.glob(f"{PREFIX}*")):
        if count >= SWEEP_LIMIT:
            break
        if _private(directory) and _orphaned(directory):
            remove_directory(directory)
            swept.append(directory)
    return swept


def _private(directory: Path) -> bool:
    """A real directory (not a link) of this user that nobody else may enter."""
    try:
        info = os.lstat(directory)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077


def _orphaned(directory: Path) -> bool:
    try:
        owner = int((directory / OWNER).read_text()[:16])
    except FileNotFoundError:
        return _legacy_orphan(directory)
    except (OSError, ValueError):
        return False
    return owner != os.getpid() and not _alive(owner)


def _alive(pid: int) -> bool:
    if pid <= 0:  # not a process (0 and -1 would name groups)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: the pid was reused, or not ours
        return True
    return True


def _legacy_orphan(directory: Path) -> bool:
    """No owner file: stale if old and its socket, if any, has no listener."""
    try:
        if time.time() - os.lstat(directory).st_mtime < LEGACY_AGE:
            return False
    except OSError:
        return False
    path = directory / SOCKET_NAME
    if not path.exists():
        return not any(directory.iterdir())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(os.fspath(path))
        except ConnectionRefusedError:
            return True
        except OSError:
            return False
    return False
