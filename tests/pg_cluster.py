"""A throwaway PostgreSQL cluster for the tests: a real server, never a mock.

`Cluster.create()` runs Debian's `initdb` into a temporary directory and `pg_ctl`
starts it on a free loopback port, with its unix socket in that directory too.
PostgreSQL refuses to run as root, so as root (CI) it runs as the `postgres` user,
which then owns the directory. `destroy()` stops it at once (`-m immediate`) and
removes everything. pytest-xdist workers each make their own (`conftest.py`).

The binaries are off PATH on Debian (`/usr/lib/postgresql/<version>/bin`); `.ci/run`
installs the `postgresql` package when they are missing.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

OWNER = "owner.pid"
"""In a cluster's directory: the test process that made it. A process killed before its
teardown (a SIGKILLed xdist worker, a timeout) leaves its server running: the next
`Cluster.create` stops and removes every cluster whose owner is gone (`sweep_orphans`)."""

SEARCHED = "$TUI_TICTACTOE_TEST_PG_BIN, /usr/lib/postgresql/<version>/bin, then PATH"
RUN_AS = "postgres"
PREFIX = "tui-tictactoe-pg-"
"""Of a cluster's temporary directory (`sweep_orphans` finds them by it)."""


BIN_ENV = "TUI_TICTACTOE_TEST_PG_BIN"
"""Names the directory of the binaries instead (a test of the fixture names a missing one)."""


def binaries() -> Path | None:
    """The directory of `initdb` and `pg_ctl`: `$TUI_TICTACTOE_TEST_PG_BIN`, else the newest
    Debian version, else PATH's."""
    override = os.environ.get(BIN_ENV)
    if override is not None:
        directory = Path(override)
        return directory if (directory / "initdb").exists() else None
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
    )
    for directory in reversed(versions):
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def orphans(prefix: str) -> list[Path]:
    """The temporary directories named `prefix*` whose owner (`OWNER`) is a test process
    that died before its teardown; one without an owner file is left alone (being made)."""
    found = []
    for root in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
        try:
            owner = int((root / OWNER).read_text())
        except (OSError, ValueError):
            continue
        if not alive(owner):
            found.append(root)
    return found


def sweep_orphans(bin_dir: Path) -> list[Path]:
    """Stop and remove the clusters of test processes that died before their teardown;
    the directories removed."""
    swept = orphans(PREFIX)
    for root in swept:
        Cluster(bin_dir, root, 0).destroy()
    return swept


class Cluster:
    """One PostgreSQL server of the tests' own, and the databases made on it."""

    _numbers = itertools.count(1)

    def __init__(self, bin_dir: Path, root: Path, port: int) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data = root / "data"
        self.port = port
        self.user = RUN_AS if os.geteuid() == 0 else None

    @classmethod
    def create(cls, bin_dir: Path) -> Cluster:
        """initdb and start; everything is removed again if that fails halfway."""
        sweep_orphans(bin_dir)
        root = Path(tempfile.mkdtemp(prefix=PREFIX))
        (root / OWNER).write_text(str(os.getpid()))
        cluster = cls(bin_dir, root, free_port())
        try:
            if cluster.user is not None:
                shutil.chown(root, cluster.user, cluster.user)
            cluster._run(
                "initdb",
                "--pgdata",
                str(cluster.data),
                "--username",
                "postgres",
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C",
                "--no-sync",
            )
            for tries_left in reversed(range(3)):  # another worker may take the port first
                try:
                    cluster.start()
                    break
                except RuntimeError:
                    if not tries_left:
                        raise
                    cluster.port = free_port()
        except BaseException:
            cluster.destroy()
            raise
        return cluster

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=self.root)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr}{done.stdout}")

    def start(self) -> None:
        """Start (or start again) on the same port; returns once it takes connections."""
        options = (
            f"-c port={self.port} -c listen_addresses=127.0.0.1"
            f" -c unix_socket_directories={self.root}"
            # A throwaway server: no need to survive a power cut.
            " -c fsync=off -c full_page_writes=off -c max_connections=60"
        )
        log = self.root / "server.log"
        self._run(
            "pg_ctl", "--pgdata", str(self.data), "--log", str(log), "-o", options, "-w", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "--pgdata", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        """Stop at once, whatever state it is in, and remove every file."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(Exception):
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(self.url(), autocommit=True) as conn,
        ):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


TESTS = Path(__file__).parent


def run_without(
    variable: str, missing: str, test: str, ci: str | None
) -> subprocess.CompletedProcess[str]:
    """One test in a pytest of its own, the binary its fixture looks for (named by the
    environment `variable`) said to be `missing`; `ci`: the CI variable's value, if any."""
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env[variable] = missing
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            str(TESTS / test),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=TESTS.parent,
        timeout=120,
    )
