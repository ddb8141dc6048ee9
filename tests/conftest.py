"""Fixtures for the UI tests (what they hand out lives in `support.py`), a real
PostgreSQL for the record's (`pg_cluster.py`), and a real PgBouncer in front of it
(`pgbouncer.py`)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings
from pg_cluster import SEARCHED, Cluster, binaries
from pgbouncer import SEARCHED as BOUNCER_SEARCHED
from pgbouncer import Bouncer
from pgbouncer import binary as bouncer_binary
from support import FailingStrategy, GatedStrategy, ScriptedStrategy, SteadyMinimax, make_app

# `@pytest.mark.solo`: timing comparisons run with no other test beside them (solo.py).
pytest_plugins = ["solo"]

# No property test here asks how fast the machine is: hypothesis' 200 ms deadline per example
# failed on a loaded 2-core machine (317 ms, `test_rooms_codes.py`), so none has one; a test's
# own @settings start from this profile.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# pytest-xdist's workers have COLUMNS=80 and LINES=24 in their environment: every game
# the tests start in a pty (or behind a server) would take them over the pty's own size.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)


@pytest.fixture(autouse=True)
def private_record(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test keeps its record (and settings) in a fresh directory of its own, never
    in the user's, and plays as the same local player (not as a serve-ssh player), on the
    SQLite file unless the test asks for PostgreSQL."""
    monkeypatch.setenv("TUI_TICTACTOE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    monkeypatch.delenv("TUI_TICTACTOE_PLAYER", raising=False)
    monkeypatch.delenv("TUI_TICTACTOE_PLAYER_NAME", raising=False)
    monkeypatch.delenv("TUI_TICTACTOE_DATABASE_URL", raising=False)  # `backend` sets it


@pytest.fixture(name="make_app")
def make_app_fixture() -> Callable[..., Any]:
    return make_app


@pytest.fixture
def scripted() -> type[ScriptedStrategy]:
    return ScriptedStrategy


@pytest.fixture
def gated() -> type[GatedStrategy]:
    return GatedStrategy


@pytest.fixture
def failing() -> type[FailingStrategy]:
    return FailingStrategy


@pytest.fixture
def steady() -> type[SteadyMinimax]:
    return SteadyMinimax


# -- PostgreSQL ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of this worker's own (each pytest-xdist worker has a session),
    made on first use and removed at the end, the tests passed or not.

    Without the binaries (or psycopg) the PostgreSQL tests fail in CI (`CI=true`), which
    must run them, and are skipped elsewhere, saying why.
    """
    bin_dir = binaries()
    missing = None
    if bin_dir is None:
        missing = f"PostgreSQL's initdb and pg_ctl were not found ({SEARCHED})"
    elif importlib.util.find_spec("psycopg") is None:
        missing = 'psycopg is not installed (pip install -e ".[test]")'
    if missing is not None:
        why = f"NO POSTGRESQL TESTS: {missing}; apt-get install postgresql (.ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    assert bin_dir is not None
    cluster = Cluster.create(bin_dir)
    try:
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def own_cluster(pg_cluster: Cluster) -> Iterator[Cluster]:
    """A PostgreSQL server of the test's own, to stop and start (the worker's is shared)."""
    cluster = Cluster.create(pg_cluster.bin_dir)
    try:
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> Iterator[str]:
    """A new, empty database on the worker's cluster, dropped after the test."""
    url = pg_cluster.new_database()
    yield url
    pg_cluster.drop_database(url)


@pytest.fixture
def pgbouncer(pg_cluster: Cluster) -> Iterator[Bouncer]:
    """A PgBouncer of the test's own in transaction mode, with a pool of 2 server
    connections, in front of the worker's cluster (`bouncer.url(pg_url)`); stopped and
    removed after the test. Without the binary: a failure in CI (`CI=true`), which must
    run these tests, a skip elsewhere, saying why."""
    program = bouncer_binary()
    if program is None:
        why = (
            f"NO PGBOUNCER TESTS: pgbouncer was not found ({BOUNCER_SEARCHED});"
            " apt-get install pgbouncer (.ci/run does)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    bouncer = Bouncer.start(program, pg_cluster)
    try:
        yield bouncer
    finally:
        bouncer.stop()


@pytest.fixture
def pg_record(pg_url: str) -> Iterator[Any]:
    """A `PostgresRecord` on a new database, open and in use."""
    from tui_tictactoe.record import PostgresRecord, Record

    with Record.open_url(pg_url) as opened:
        assert isinstance(opened, PostgresRecord) and opened.available, opened.notice
        yield opened


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test runs against each backend: for `postgres`, `TUI_TICTACTOE_DATABASE_URL`
    names a new database, so `Record.open()` (without a path) picks PostgreSQL."""
    if request.param == "postgres":
        monkeypatch.setenv("TUI_TICTACTOE_DATABASE_URL", request.getfixturevalue("pg_url"))
    return str(request.param)
