"""The record on PostgreSQL, beyond the interface (which test_record.py,
test_record_boards.py and test_record_people.py run on both backends; rounds between people
on PostgreSQL: test_record_postgres_people.py): the URL that picks it, the schema, many
processes at once, a retried save, hosts migrating together, a newer schema, and a
server that is stopped, restarted or cut off mid-game.

Every test runs against a real server (`pg_cluster.py`): a cluster of the worker's
own, a new database per test; the tests that stop the server make their own cluster.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from functools import partial
from typing import Any

import psycopg
import pytest
from pg_cluster import Cluster, free_port
from record_tools import rebuild_standings_pg
from test_record import oracle_stats, save
from test_record_reliability import all_at_once

from tui_tictactoe.record import (
    DATABASE_URL_ENV,
    FinishedRound,
    PostgresRecord,
    Record,
    empty_stats,
)
from tui_tictactoe.record.postgres import connection as pg_connection
from tui_tictactoe.record.postgres import schema as pg_schema
from tui_tictactoe.record.rounds import prepare_round

PROCESSES = 4
ROUNDS_EACH = 50
PLAYERS = ("alice", "bob", "carol")


def query(url: str, statement: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """A statement on a connection of its own, beside the record's."""
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def column_types(url: str, table: str) -> dict[str, str]:
    """Each column of `table` with its type, as information_schema names it."""
    return dict(
        query(
            url,
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s",
            (table,),
        )
    )


def standings(url: str) -> dict[str, list[tuple[object, ...]]]:
    return {
        table: query(url, f"SELECT * FROM {table} ORDER BY 1, 2, 3")
        for table in ("standings", "board_standings")
    }


@pytest.fixture
def record(pg_record: Record) -> Record:
    return pg_record


# -- choosing the backend ------------------------------------------------------------


def test_the_url_picks_postgresql_and_only_then_is_psycopg_loaded(pg_url: str) -> None:
    code = (
        "import sys; from tui_tictactoe.record import Record; r = Record.open(); "
        "print(type(r).__name__, r.available, 'psycopg' in sys.modules)"
    )
    env = {key: value for key, value in os.environ.items() if key != DATABASE_URL_ENV}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert plain.stdout.split() == ["Record", "True", "False"], plain.stderr
    env[DATABASE_URL_ENV] = pg_url
    shared = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert shared.stdout.split() == ["PostgresRecord", "True", "True"], shared.stderr


def test_a_url_of_another_kind_means_no_record_said_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DATABASE_URL_ENV, "mysql://somewhere/record")
    record = Record.open()
    assert not record.available
    assert "postgresql://" in (record.take_notice() or "")
    assert not save(record, "alice")
    assert record.take_notice() is None


# -- the schema ------------------------------------------------------------------------


def test_the_schema_has_identities_zoned_times_checks_and_a_round_key(
    record: Record, pg_url: str
) -> None:
    types = column_types(pg_url, "rounds")
    assert types["played_at"] == "timestamp with time zone"
    assert types["round_key"] == "uuid" and types["took_back"] == "boolean"
    assert types["moves"] == "ARRAY"
    assert query(
        pg_url,
        "SELECT is_identity, identity_generation FROM information_schema.columns"
        " WHERE table_name = 'rounds' AND column_name = 'id'",
    ) == [("YES", "ALWAYS")]
    assert query(pg_url, "SELECT version FROM schema_version") == [(pg_schema.schema_version(),)]
    bad = (
        "INSERT INTO rounds (round_key, played_at, player, display_name, board_size,"
        " difficulty, symbol, first, moves, result, took_back) VALUES"
        " (gen_random_uuid(), now(), 'a', 'a', 3, 'hard', %s, %s, '{}', %s, false)"
    )
    for symbol, first, result in (("Z", "ai", "win"), ("X", "nobody", "win"), ("X", "ai", "won")):
        with pytest.raises(psycopg.errors.CheckViolation):
            query(pg_url, bad, (symbol, first, result))
    with pytest.raises(psycopg.errors.CheckViolation):
        query(pg_url, "INSERT INTO schema_version (only_row, version) VALUES (false, 1)")


def test_a_retried_save_with_the_same_round_key_counts_once(
    record: PostgresRecord, pg_url: str
) -> None:
    """As when the commit's acknowledgement is lost and the save is tried again."""
    prepared = prepare_round("alice", FinishedRound("hard", "X", "human", [5, 1, 9], "win"))
    assert prepared is not None
    key = "6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f"
    assert record._save_round(prepared, key)
    assert record._save_round(prepared, key)  # kept already: True, and nothing counted
    assert query(pg_url, "SELECT count(*) FROM rounds") == [(1,)]
    hard = record.stats("alice").by_difficulty["hard"]
    assert (hard.wins, hard.streak, hard.best_streak) == (1, 1, 1)
    assert record._save_round(prepared)  # another key: another round
    assert record.stats("alice").by_difficulty["hard"].wins == 2


def test_a_dropped_connection_is_reopened_and_the_round_kept(record: Record, pg_url: str) -> None:
    assert save(record, "alice")
    (pid,) = query(
        pg_url,
        "SELECT pid FROM pg_stat_activity"
        " WHERE application_name = 'tui-tictactoe' AND datname = current_database()",
    )
    query(pg_url, "SELECT pg_terminate_backend(%s)", pid)
    assert save(record, "alice", "draw")  # on a new connection, said to nobody
    assert record.take_notice() is None
    hard = record.stats("alice").by_difficulty["hard"]
    assert (hard.wins, hard.draws, hard.streak) == (1, 1, 2)


def test_a_lock_held_too_long_loses_that_round_only(
    record: Record, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_connection, "LOCK_TIMEOUT_MS", 200)
    assert save(record, "alice")
    with psycopg.connect(pg_url) as other, other.transaction():
        other.execute("SELECT * FROM standings WHERE player = 'alice' FOR UPDATE")
        assert not save(record, "alice")  # another host holds alice's row: given up
        assert "busy" in (record.take_notice() or "")
        assert save(record, "bob")  # other players never wait
    assert record.available and save(record, "alice")
    assert record.stats("alice").by_difficulty["hard"].wins == 2


# -- many processes, many hosts --------------------------------------------------------


def planned(seed: int) -> list[tuple[str, str, str, bool]]:
    """What process `seed` saves: (player, difficulty, result, took_back); every process
    plays for every player, so their saves meet on the same rows."""
    rng = random.Random(seed)
    return [
        (
            PLAYERS[(seed + n) % len(PLAYERS)],
            rng.choice(("easy", "hard")),
            rng.choice(("win", "loss", "draw", "abandoned")),
            rng.random() < 0.1,
        )
        for n in range(ROUNDS_EACH)
    ]


def test_many_processes_save_at_once_and_the_standings_agree_with_the_rounds(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATABASE_URL_ENV, pg_url)

    def writer(seed: int) -> int:
        record = Record.open()  # all at once, on a database nobody has set up yet
        saved = sum(
            save(record, player, result, difficulty=level, took_back=took_back)
            for player, level, result, took_back in planned(seed)
        )
        if record.notice:
            print(record.notice)
        return 0 if saved == ROUNDS_EACH else 1

    writers = [partial(writer, seed) for seed in range(PROCESSES)]
    assert all_at_once(writers) == [0] * PROCESSES

    rows = query(pg_url, "SELECT player, difficulty, result, took_back FROM rounds ORDER BY id")
    assert sorted(rows) == sorted(r for s in range(PROCESSES) for r in planned(s))
    with Record.open() as record:
        for player in PLAYERS:
            own = [(lvl, res, tb) for p, lvl, res, tb in rows if p == player]
            stats = record.stats(player)
            assert stats.rounds == len(own)
            # The interleaving is the commits' order, and so is the id order.
            assert stats.by_difficulty == oracle_stats(own)
    before = standings(pg_url)
    rebuild_standings_pg(pg_url)
    assert standings(pg_url) == before


NOTE = (  # a made-up next step, which counts its runs
    "CREATE TABLE step_runs (n serial PRIMARY KEY)",
    "INSERT INTO step_runs DEFAULT VALUES",
)


def test_hosts_starting_together_migrate_once(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with Record.open_url(pg_url) as first:  # schema 1 made, a round kept
        assert save(first, "alice")
    monkeypatch.setattr(pg_schema, "MIGRATIONS", (*pg_schema.MIGRATIONS, NOTE))

    def host() -> int:
        record = Record.open_url(pg_url)
        return 0 if record.available and record.notice is None and save(record, "bob") else 1

    assert all_at_once([host] * PROCESSES) == [0] * PROCESSES
    assert query(pg_url, "SELECT count(*) FROM step_runs") == [(1,)]
    assert query(pg_url, "SELECT version FROM schema_version") == [(len(pg_schema.MIGRATIONS),)]
    assert query(pg_url, "SELECT player, count(*) FROM rounds GROUP BY 1 ORDER BY 1") == [
        ("alice", 1),
        ("bob", PROCESSES),
    ]


def test_a_failing_migration_changes_nothing(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with Record.open_url(pg_url) as old:
        assert save(old, "alice")
    broken = ("ALTER TABLE rounds ADD COLUMN note text", "INSERT INTO no_such_table VALUES (1)")
    monkeypatch.setattr(pg_schema, "MIGRATIONS", (*pg_schema.MIGRATIONS, broken))
    failed = Record.open_url(pg_url)
    assert not failed.available
    assert "no_such_table" in (failed.take_notice() or "")
    columns = query(
        pg_url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'rounds'"
    )
    assert ("note",) not in columns
    assert query(pg_url, "SELECT version FROM schema_version") == [(len(pg_schema.MIGRATIONS) - 1,)]


def test_a_newer_schema_is_refused_and_left_untouched(pg_url: str) -> None:
    with Record.open_url(pg_url) as current:
        assert save(current, "alice")
    query(pg_url, "UPDATE schema_version SET version = version + 1")
    before = standings(pg_url), query(pg_url, "SELECT * FROM rounds")
    record = Record.open_url(pg_url)
    assert not record.available
    notice = record.take_notice() or ""
    assert "newer" in notice and f"schema {pg_schema.schema_version() + 1}" in notice
    assert not save(record, "alice")
    assert record.stats("alice") == empty_stats("alice")
    assert (standings(pg_url), query(pg_url, "SELECT * FROM rounds")) == before


# -- the server gone ----------------------------------------------------------------------


def test_a_server_that_cannot_be_reached_loses_rounds_said_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DATABASE_URL_ENV, f"postgresql://nobody:secret@127.0.0.1:{free_port()}/x")
    record = Record.open()
    assert not record.available  # for now: the next operation tries again
    notice = record.take_notice() or ""
    assert "cannot be reached" in notice and "127.0.0.1" in notice
    assert "secret" not in notice
    assert not save(record, "alice")
    assert record.take_notice() is None  # said once
    assert record.stats("alice") == empty_stats("alice")


def test_a_server_stopped_mid_game_and_started_again_loses_nothing_kept(
    own_cluster: Cluster,
) -> None:
    url = own_cluster.new_database()
    with Record.open_url(url) as record:
        assert save(record, "alice", "win") and save(record, "alice", "draw")
        own_cluster.stop()
        assert not save(record, "alice", "win")  # the game goes on, this round unkept
        notice = record.take_notice() or ""
        assert "cannot be reached" in notice and "game plays on" in notice
        assert not save(record, "alice", "loss")
        assert record.take_notice() is None  # said once
        assert not record.available
        own_cluster.start()
        assert save(record, "alice", "win")
        assert "back" in (record.take_notice() or "") and record.available
        hard = record.stats("alice").by_difficulty["hard"]
        assert (hard.wins, hard.draws, hard.losses, hard.streak) == (2, 1, 0, 3)
    assert query(url, "SELECT result FROM rounds ORDER BY id") == [("win",), ("draw",), ("win",)]
    before = standings(url)
    rebuild_standings_pg(url)
    assert standings(url) == before
