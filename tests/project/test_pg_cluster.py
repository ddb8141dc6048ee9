"""The PostgreSQL fixture itself: CI never skips the PostgreSQL tests, and a cluster leaves
nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
from pg_cluster import BIN_ENV, Cluster, sweep_orphans

TESTS = Path(__file__).parents[1]


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


def run_without_binaries(ci: str | None) -> subprocess.CompletedProcess[str]:
    """One PostgreSQL test, its binaries said to be missing."""
    test = "record/test_record_postgres.py::test_the_schema_has_identities_zoned_times_checks_and_a_round_key"
    return run_without(BIN_ENV, "/nonexistent", test, ci)


def test_without_postgresql_ci_fails_loudly() -> None:
    done = run_without_binaries("true")
    assert done.returncode == 1, done.stdout
    assert "NO POSTGRESQL TESTS" in done.stdout and "1 error" in done.stdout


def test_without_postgresql_elsewhere_the_tests_are_skipped_saying_why() -> None:
    done = run_without_binaries(None)
    assert done.returncode == 0, done.stdout
    assert "SKIPPED" in done.stdout and "NO POSTGRESQL TESTS" in done.stdout
    assert "1 skipped" in done.stdout


def test_a_cluster_runs_unprivileged_and_leaves_nothing_behind(pg_cluster: Cluster) -> None:
    cluster = Cluster.create(pg_cluster.bin_dir)
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            row = conn.execute("SELECT current_user, current_setting('is_superuser')").fetchone()
        assert row == ("postgres", "on")
        owner = cluster.data.stat().st_uid
        assert owner != 0 or os.geteuid() != 0  # as root, the server is not root's
        server = int((cluster.data / "postmaster.pid").read_text().split()[0])
    finally:
        cluster.destroy()
    assert not cluster.root.exists()
    assert not running(server)


MAKE_AND_HANG = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from pg_cluster import Cluster
cluster = Cluster.create(Path(sys.argv[2]))
print(cluster.root, int((cluster.data / "postmaster.pid").read_text().split()[0]), flush=True)
time.sleep(600)
"""


def test_a_cluster_left_by_a_killed_test_process_is_swept_by_the_next(pg_cluster: Cluster) -> None:
    """A SIGKILLed xdist worker never runs its teardown: its server must not outlive it."""
    maker = subprocess.Popen(
        [sys.executable, "-c", MAKE_AND_HANG, str(TESTS), str(pg_cluster.bin_dir)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert maker.stdout is not None
        root_text, server_text = maker.stdout.readline().split()
    finally:
        maker.kill()
        maker.wait()
    root, server = Path(root_text), int(server_text)
    assert running(server)  # the killed maker left it behind
    swept = sweep_orphans(pg_cluster.bin_dir)
    assert root in swept
    assert pg_cluster.root not in swept  # this process's own cluster stays
    assert not root.exists()
    assert not running(server)
    assert (pg_cluster.data / "postmaster.pid").exists()


def running(pid: int) -> bool:
    """The process is alive (a zombie, waiting for whoever adopted it to reap it, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")
