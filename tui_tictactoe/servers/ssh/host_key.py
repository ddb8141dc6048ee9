"""Where the server keeps its files, and its host key: made once, then the same on every start.

Clients remember a server's key (`known_hosts`); a new key on every start would
make every returning player see OpenSSH's "host identification has changed" warning.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shlex
from pathlib import Path

import asyncssh

from tui_tictactoe.record import APP_NAME, data_dir  # one rule for every file the game keeps

HOST_KEY_NAME = "ssh_host_ed25519_key"
MAX_KEY_FILE = 64 * 1024  # bytes: an RSA 16384 key is about 12 KiB


class HostKeyError(Exception):
    """The host key cannot be read or written; the message is one line for the user."""


def default_host_key_path() -> Path:
    return data_dir() / HOST_KEY_NAME


def load_or_create(path: Path) -> asyncssh.SSHKey:
    """The private key in `path`; if there is none, a new Ed25519 key written there (0600).

    The file is made with mode 0600 from its first byte, so the key is never readable by
    others, not even for a moment, and whole before it has its name (`_place`), so two
    servers starting at once cannot both write one nor read one half written. An existing key that others may read (or write) is refused,
    as OpenSSH refuses one: anyone who has read it can pose as this server.
    """
    try:
        with open(path, "rb") as file:
            mode = os.fstat(file.fileno()).st_mode  # of the file read, not of a name
            data = file.read(MAX_KEY_FILE + 1)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise HostKeyError(f"cannot read the host key {str(path)!r}: {_reason(error)}") from None
    else:
        try:
            if len(data) > MAX_KEY_FILE:
                raise ValueError(f"larger than {MAX_KEY_FILE:,} bytes")
            key = asyncssh.import_private_key(data)
        except (ValueError, asyncssh.KeyImportError) as error:
            raise HostKeyError(
                f"cannot read the host key {str(path)!r}: {_reason(error)}"
            ) from None
        if mode & 0o077:
            raise HostKeyError(
                f"the host key {str(path)!r} is open to others (mode {mode & 0o777:04o}): "
                f"make it private with: chmod 600 {shlex.quote(str(path))}"
            )
        return key
    key = asyncssh.generate_private_key("ssh-ed25519", comment=APP_NAME)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        placed = _place(path, key.export_private_key())
    except OSError as error:
        raise HostKeyError(f"cannot create the host key {str(path)!r}: {_reason(error)}") from None
    return key if placed else load_or_create(path)  # another server made it first: use that


def _place(path: Path, data: bytes) -> bool:
    """Put `data` at `path` whole, or not at all if a file is there already (False).

    Written to a private file beside it first, then hard-linked into place: a link never
    replaces a file, and the key is whole before its name exists, so a host starting at
    the same moment (several share one `--host-key`) never reads it half written, as it
    could between an O_EXCL create and the write."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, path)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return True


def _reason(error: Exception) -> str:
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)
