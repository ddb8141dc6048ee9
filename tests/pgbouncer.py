"""A throwaway PgBouncer for the tests, in front of the tests' PostgreSQL (`pg_cluster.py`).

`Bouncer.start(cluster)` writes a config into a temporary directory and runs Debian's
`pgbouncer` in the foreground on a free loopback port, in transaction mode with a tiny pool
(`POOL_SIZE` server connections per database and user): the clients' transactions really
share and switch server connections, so anything kept in a session between transactions (a
prepared statement, a `SET`, a session advisory lock) breaks as it would in production.
Every database of the cluster is reachable through it under its own name (`* =`); the
cluster trusts loopback connections, and so does PgBouncer (`auth_type = trust`).

PgBouncer refuses to run as root: as root (CI) it runs as the `postgres` user, as the
cluster does. `stop()` ends it and removes the directory; a test process killed before its
teardown leaves one running, which the next `Bouncer.start` stops (`sweep_orphans`).
`.ci/run` installs the `pgbouncer` package when it is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from pg_cluster import OWNER, RUN_AS, Cluster, free_port, orphans

BINARY_ENV = "TUI_TICTACTOE_TEST_PGBOUNCER"
"""Names the binary instead (a test of the fixture names a missing one)."""
SEARCHED = f"${BINARY_ENV}, PATH, /usr/sbin/pgbouncer"
POOL_SIZE = 2
"""Server connections per database: fewer than the clients of every test that uses it."""
PIDFILE = "pgbouncer.pid"
PREFIX = "tui-tictactoe-pgbouncer-"
START_TIMEOUT = 30.0


def binary() -> Path | None:
    """`$TUI_TICTACTOE_TEST_PGBOUNCER`, else PATH's `pgbouncer`, else Debian's (in /usr/sbin,
    off an ordinary user's PATH)."""
    override = os.environ.get(BINARY_ENV)
    if override is not None:
        return Path(override) if Path(override).is_file() else None
    found = shutil.which("pgbouncer")
    if found:
        return Path(found)
    debian = Path("/usr/sbin/pgbouncer")
    return debian if debian.is_file() else None


def sweep_orphans() -> list[Path]:
    """Stop and remove the bouncers of test processes that died before their teardown."""
    swept = orphans(PREFIX)
    for root in swept:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int((root / PIDFILE).read_text()), signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)
    return swept


class Bouncer:
    """One PgBouncer in transaction mode in front of one cluster."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.root, self.port, self.process = root, port, process

    @classmethod
    def start(cls, program: Path, cluster: Cluster) -> Bouncer:
        """Started and taking connections; everything removed again if that fails."""
        sweep_orphans()
        root = Path(tempfile.mkdtemp(prefix=PREFIX))
        (root / OWNER).write_text(str(os.getpid()))
        port = free_port()
        (root / "userlist.txt").write_text('"postgres" ""\n')  # trust: the name must be listed
        (root / "pgbouncer.ini").write_text(config(cluster.port, port, root, version(program)))
        as_root = os.geteuid() == 0
        if as_root:
            shutil.chown(root, RUN_AS, RUN_AS)
        log = (root / "pgbouncer.log").open("wb")
        process = subprocess.Popen(
            [str(program), str(root / "pgbouncer.ini")],
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            user=RUN_AS if as_root else None,
            group=RUN_AS if as_root else None,
            extra_groups=[] if as_root else None,
        )
        log.close()
        bouncer = cls(root, port, process)
        try:
            bouncer._until_listening()
        except BaseException:
            bouncer.stop()
            raise
        return bouncer

    def _until_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"pgbouncer exited ({self.process.returncode}): {self.log()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"pgbouncer does not listen: {self.log()}")
            time.sleep(0.05)

    def log(self) -> str:
        """What PgBouncer said (its log goes to a file in its directory)."""
        try:
            return (self.root / "pgbouncer.log").read_text(errors="replace")
        except OSError:
            return ""

    def url(self, direct: str) -> str:
        """The URL of the database `direct` (a URL of the cluster) through this bouncer."""
        head, database = direct.rsplit("/", 1)
        return f"{head.rsplit(':', 1)[0]}:{self.port}/{database}"

    def admin(self, command: str) -> list[tuple[object, ...]]:
        """A `SHOW ...` of PgBouncer's console (the `pgbouncer` database), as rows."""
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.port}/pgbouncer", autocommit=True
        ) as conn:
            conn.prepare_threshold = None
            return conn.execute(command, prepare=False).fetchall()

    def stop(self) -> None:
        """Ended (at once if it does not end when asked) and every file removed."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.root, ignore_errors=True)


def version(program: Path) -> tuple[int, ...]:
    """`pgbouncer --version`'s first line, `PgBouncer 1.18.0`, as (1, 18, 0)."""
    said = subprocess.run([str(program), "--version"], capture_output=True, text=True, timeout=30)
    found = re.search(r"PgBouncer (\d+)\.(\d+)", said.stdout)
    if found is None:
        raise RuntimeError(f"{program} --version said {said.stdout!r}{said.stderr!r}")
    return tuple(map(int, found.groups()))


def config(server_port: int, port: int, root: Path, version: tuple[int, ...]) -> str:
    # PgBouncer 1.21+ can keep prepared statements across switched server connections; the
    # record and the hub must not need that (hosts may run an older one): off where it exists.
    prepared = "max_prepared_statements = 0\n" if version >= (1, 21) else ""
    return f"""\
[databases]
* = host=127.0.0.1 port={server_port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
pidfile = {root / PIDFILE}
auth_type = trust
auth_file = {root / "userlist.txt"}
admin_users = postgres
pool_mode = transaction
default_pool_size = {POOL_SIZE}
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = 200
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
{prepared}"""
