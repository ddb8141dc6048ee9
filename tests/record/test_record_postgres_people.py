"""Rounds between people and their ratings on PostgreSQL, beyond the interface (which
test_record_people.py runs on both backends): the schema, many processes rating rounds of
the same people at once in both seat orders (no deadlock, the ratings a replay of the
rounds), a retried save, a failure between the two rating writes, a row held too long.

Against a real server (`pg_cluster.py`), a new database per test.
"""

from __future__ import annotations

from functools import partial

import psycopg
import pytest
from record_tools import rebuild_ratings, stored_ratings
from test_record import save
from test_record_people import DRAW, OLD_MATCH, match, planned
from test_record_postgres import column_types, query
from test_record_reliability import all_at_once

from tui_tictactoe.record import Record, Seat
from tui_tictactoe.record.postgres import connection as pg_connection
from tui_tictactoe.record.postgres import schema as pg_schema
from tui_tictactoe.record.postgres.schema import schema_version

PEOPLE = tuple(Seat(name, f"SHA256:{name * 6}") for name in ("ann", "bob", "cat", "dan", "eve"))
ANN, BOB, CAT = PEOPLE[:3]


# -- the schema ------------------------------------------------------------------------


def test_matches_and_ratings_have_their_types_checks_and_indexes(
    pg_record: Record, pg_url: str
) -> None:
    types = column_types(pg_url, "matches")
    assert types["ended_at"] == "timestamp with time zone" and types["moves"] == "ARRAY"
    assert types["round_key"] == "text" and types["rated"] == "boolean"  # any key check_match takes
    indexes = {name for (name,) in query(pg_url, "SELECT indexname FROM pg_indexes")}
    assert {"matches_by_x", "matches_by_o", "ratings_by_rating"} <= indexes
    bad = (
        "INSERT INTO matches (round_key, ended_at, kind, board_size, x_name, o_name, first,"
        " moves, result, left_by, rated, x_gain) VALUES"
        " (%s, now(), %s, 3, 'a', 'b', 'X', '{1}', %s, %s, %s, %s)"
    )
    for row in (
        ("k1", "lan", "X", None, False, 0),  # no such kind
        ("k2", "room", "abandoned", None, False, 0),  # abandoned, left by nobody
        ("k3", "room", "X", "O", False, 0),  # left a round that was won
        ("k4", "room", "X", None, False, 16),  # points from an unrated round
        ("", "room", "X", None, False, 0),
    ):
        with pytest.raises(psycopg.errors.CheckViolation):
            query(pg_url, bad, row)
    with pytest.raises(psycopg.errors.CheckViolation):
        query(pg_url, "INSERT INTO ratings VALUES ('p', 'p', 1200, -1)")


def test_a_schema_1_database_is_upgraded_and_keeps_its_rounds(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as old:
        old.setattr(pg_schema, "MIGRATIONS", pg_schema.MIGRATIONS[:1])
        with Record.open_url(pg_url) as first:
            assert save(first, "alice")
    assert query(pg_url, "SELECT to_regclass('matches')") == [(None,)]
    with Record.open_url(pg_url) as record:
        assert record.available and record.take_notice() is None
        assert record.people.save_match(match(ANN, BOB, "X"))
        assert record.stats("alice").by_difficulty["hard"].wins == 1
    assert query(pg_url, "SELECT version FROM schema_version") == [(schema_version(),)]
    assert stored_ratings(pg_url) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}


def test_an_agreed_draw_is_kept_once_as_agreed_and_rated_as_a_draw(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as old:  # a database of schema 2, then upgraded to 3
        old.setattr(pg_schema, "MIGRATIONS", pg_schema.MIGRATIONS[:2])
        with Record.open_url(pg_url) as first:
            assert first.available
    old_match = OLD_MATCH.replace("?", "%s").replace("'1,4,2,5,3'", "'{1,4,2,5,3}'")
    query(pg_url, old_match.replace(", 1, 16)", ", true, 16)"), (ANN.key, BOB.key))
    agreed = match(ANN, BOB, "draw", moves=(5, 1))._replace(agreed=True)
    with Record.open_url(pg_url) as record:
        assert record.people.save_match(agreed) and record.people.save_match(agreed)
    assert query(pg_url, "SELECT version FROM schema_version") == [(schema_version(),)]
    assert query(pg_url, "SELECT result, agreed FROM matches ORDER BY id") == [  # the old kept
        ("X", False),
        ("draw", True),
    ]
    assert stored_ratings(pg_url) == {ANN.key: (1200, 1), BOB.key: (1200, 1)}
    with pytest.raises(psycopg.errors.CheckViolation):  # only a draw is agreed
        query(pg_url, "UPDATE matches SET agreed = true WHERE result = 'X'")


# -- many hosts at once ----------------------------------------------------------------

PROCESSES = 4
ROUNDS_EACH = 30
SHARED = 6
"""Rounds every process saves under the same keys, as both players' sessions do; the rounds
are `planned` with all five people, in random seats: two processes often rate the same two
people at once, one with them as X and O, the other as O and X."""


def test_many_processes_rating_the_same_people_at_once_never_deadlock(pg_url: str) -> None:
    with Record.open_url(pg_url):
        pass  # the schema made, so that every process starts saving at once

    def host(seed: int) -> int:
        record = Record.open_url(pg_url)
        saved = sum(
            record.people.save_match(one) for one in planned(seed, PEOPLE, ROUNDS_EACH, SHARED)
        )
        if record.notice:
            print(record.notice)  # a deadlock or a lock timeout: "busy (a deadlock)"
        return 0 if saved == ROUNDS_EACH + SHARED and record.notice is None else 1

    assert all_at_once([partial(host, seed) for seed in range(PROCESSES)]) == [0] * PROCESSES
    keys = [key for (key,) in query(pg_url, "SELECT round_key FROM matches")]
    assert len(keys) == len(set(keys)) == PROCESSES * ROUNDS_EACH + SHARED
    kept = stored_ratings(pg_url)
    # Replayed in the order of their ids, the rounds give the ratings kept: each round read
    # the ratings the rounds before it (of the same people) wrote.
    assert kept == rebuild_ratings(pg_url)
    assert sum(games for _, games in kept.values()) == 2 * len(keys)
    assert sum(rating for rating, _ in kept.values()) == 1200 * len(kept)


# -- kept once, and whole ---------------------------------------------------------------


def test_a_retried_save_counts_once_and_leaves_no_trace(pg_record: Record, pg_url: str) -> None:
    once = match(ANN, BOB, "X", key="room-ABCD-1")
    with Record.open_url(pg_url) as other_host:
        assert pg_record.people.save_match(once) and other_host.people.save_match(once)
        # The key decides: the same key with another player (cat, never rated) adds nothing,
        # not even the row the save locked for cat before it found the key kept.
        assert other_host.people.save_match(once._replace(x=CAT, result="draw", moves=DRAW))
    assert query(pg_url, "SELECT count(*) FROM matches") == [(1,)]
    assert stored_ratings(pg_url) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}
    assert pg_record.people.stats(CAT.key).rating is None and pg_record.take_notice() is None


REFUSE_BOB = f"""
CREATE FUNCTION refuse_bob() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF old.player = '{BOB.key}' AND new.rating <> old.rating THEN
        RAISE EXCEPTION 'bob may not change';
    END IF;
    RETURN new;
END $$;
CREATE TRIGGER refuse_bob BEFORE UPDATE ON ratings FOR EACH ROW EXECUTE FUNCTION refuse_bob();
"""


def test_a_failure_between_the_two_rating_writes_leaves_neither(pg_url: str) -> None:
    """A real failure (a trigger refusing bob's new rating) after X's rating was written:
    the round, X's rating and cat's first row go back with it."""
    with Record.open_url(pg_url) as record:
        assert record.people.save_match(match(ANN, BOB, "X"))
    before = stored_ratings(pg_url)
    query(pg_url, REFUSE_BOB)
    with Record.open_url(pg_url) as record:
        assert not record.people.save_match(match(CAT, BOB, "X"))  # cat is X: written first
        assert not record.people.save_match(match(ANN, BOB, "O"))
        notice = record.take_notice()
    assert notice and "bob may not change" in notice
    assert stored_ratings(pg_url) == before  # and no row for cat
    assert query(pg_url, "SELECT count(*) FROM matches") == [(1,)]
    query(pg_url, "DROP TRIGGER refuse_bob ON ratings")
    with Record.open_url(pg_url) as record:  # the same round goes in whole once allowed
        assert record.people.save_match(match(CAT, BOB, "X"))
    assert stored_ratings(pg_url) == rebuild_ratings(pg_url) != before


def test_a_rating_held_too_long_loses_that_round_only(
    pg_record: Record, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_connection, "LOCK_TIMEOUT_MS", 200)
    assert pg_record.people.save_match(match(ANN, BOB, "X"))
    with psycopg.connect(pg_url) as other, other.transaction():
        other.execute("SELECT * FROM ratings WHERE player = %s FOR UPDATE", (BOB.key,))
        assert not pg_record.people.save_match(match(CAT, BOB, "X"))  # another host holds bob's row
        assert "busy" in (pg_record.take_notice() or "")
        assert pg_record.people.save_match(match(CAT, ANN, "X"))  # other people never wait
    assert pg_record.available and pg_record.people.save_match(match(CAT, BOB, "X"))
    assert stored_ratings(pg_url) == rebuild_ratings(pg_url)
    assert BOB.key is not None and stored_ratings(pg_url)[BOB.key][1] == 2


def test_a_loss_on_time_is_kept_and_rated_on_postgresql(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as old:  # a database of schema 3, then upgraded
        old.setattr(pg_schema, "MIGRATIONS", pg_schema.MIGRATIONS[:3])
        with Record.open_url(pg_url) as first:
            assert first.available
    on_time = match(ANN, BOB, "X", moves=(5, 1, 9))._replace(cause="time", take_backs=1)
    with Record.open_url(pg_url) as record:
        assert record.people.save_match(on_time) and record.people.save_match(on_time)
    assert query(pg_url, "SELECT result, cause, take_backs FROM matches") == [("X", "time", 1)]
    assert stored_ratings(pg_url) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}
    with pytest.raises(psycopg.errors.CheckViolation):  # only a won round is lost on time
        query(pg_url, "UPDATE matches SET cause = 'time', result = 'draw'")
