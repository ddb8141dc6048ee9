"""The record's API: rounds, statistics, settings, the leaderboard, migrations.

Statistics are checked against `oracle_stats`, a plain loop written here, on seeded
random sequences of rounds. The reliability tests (processes, kills, damaged files)
are in `test_record_reliability.py`.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_tools import empty_record, rebuild, run_sql

from tui_tictactoe.engine.strategies import DIFFICULTIES
from tui_tictactoe.options import CHOICES
from tui_tictactoe.record import (
    DATA_DIR_ENV,
    DATABASE_NAME,
    RESULTS,
    DifficultyStats,
    FinishedRound,
    Record,
    data_dir,
    database_path,
    empty_stats,
    schema_version,
)
from tui_tictactoe.record import schema as record_schema

PLAYERS = ("alice", "bob", "carol")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory of this test's own, through the environment as the app finds it."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def record(data: Path, backend: str) -> Iterable[Record]:
    """The record `Record.open()` finds, on each backend in turn (`backend`, conftest.py)."""
    with Record.open() as opened:
        assert opened.available, opened.notice
        yield opened


def save(record: Record, player: str | None, result: str = "win", **fields: object) -> bool:
    """`save_round` with every field the test does not care about filled in."""
    round_: dict[str, Any] = {
        "difficulty": "hard",
        "symbol": "X",
        "first": "human",
        "moves": [5, 1, 9],
        "result": result,
    }
    round_.update(fields)
    return record.save_round(player, FinishedRound(**round_))


def oracle_stats(rounds: Iterable[tuple[str, str, bool]]) -> dict[str, DifficultyStats]:
    """Per difficulty, from (difficulty, result, took_back) in the order played.

    Unbeaten: a win or a draw without a take-back; anything else ends the streak.
    """
    tally = {
        level: {"win": 0, "loss": 0, "draw": 0, "abandoned": 0, "undo": 0, "streak": 0, "best": 0}
        for level in DIFFICULTIES
    }
    for level, result, took_back in rounds:
        counts = tally[level]
        counts[result] += 1
        counts["undo"] += took_back
        if result in ("win", "draw") and not took_back:
            counts["streak"] += 1
            counts["best"] = max(counts["best"], counts["streak"])
        else:
            counts["streak"] = 0
    return {
        level: DifficultyStats(
            c["win"], c["loss"], c["draw"], c["abandoned"], c["undo"], c["streak"], c["best"]
        )
        for level, c in tally.items()
    }


# -- where the record lives --------------------------------------------------------


def test_the_environment_variable_chooses_the_data_directory(data: Path) -> None:
    assert data_dir() == data
    assert database_path() == data / DATABASE_NAME


def test_without_the_variable_the_platform_data_directory_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import platformdirs

    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    expected = Path(platformdirs.user_data_dir("tui-tictactoe", appauthor=False))
    assert database_path() == expected / DATABASE_NAME


def test_opening_creates_the_directory_and_a_wal_database_of_the_current_schema(
    data: Path,
) -> None:
    with Record.open() as record:
        assert record.available and record.notice is None
        assert record.path == data / DATABASE_NAME
    with sqlite3.connect(data / DATABASE_NAME) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- migrations --------------------------------------------------------------------

NOTE = (  # a made-up next step: a new column, then a step in Python that fills it
    "ALTER TABLE rounds ADD COLUMN note TEXT NOT NULL DEFAULT ''",
    lambda conn: conn.execute("UPDATE rounds SET note = 'before' WHERE result = 'win'"),
)


def everything(record: Record) -> tuple[object, ...]:
    """What a player can see of the record: alice's and bob's."""
    return tuple(
        (record.stats(player), record.recent_rounds(player, 100), record.settings(player))
        for player in ("alice", "bob")
    )


def schema_of(path: Path) -> tuple[int, list[str]]:
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        columns = [row[1] for row in conn.execute("PRAGMA table_info(rounds)")]
    return version, columns


def test_a_new_migration_step_upgrades_an_old_record_with_nothing_lost(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Record.open() as old:
        for number, result in enumerate(("win", "loss", "draw", "win", "abandoned")):
            assert save(old, "alice" if number % 2 else "bob", result, difficulty="medium")
        assert old.save_settings("alice", symbol="O", alternate=True, theme="nord")
        kept = everything(old)
    path = data / DATABASE_NAME
    assert schema_of(path)[0] == schema_version()
    monkeypatch.setattr(record_schema, "MIGRATIONS", (*record_schema.MIGRATIONS, NOTE))
    with Record.open() as new:
        assert new.available and new.take_notice() is None
        assert everything(new) == kept
        assert save(new, "alice", "win")  # and it goes on working
    version, columns = schema_of(path)
    assert version == len(record_schema.MIGRATIONS) and "note" in columns
    with sqlite3.connect(path) as conn:
        notes = conn.execute("SELECT result, note FROM rounds ORDER BY id").fetchall()
    assert notes[:5] == [
        (r, "before" if r == "win" else "") for r in ("win", "loss", "draw", "win", "abandoned")
    ]
    assert notes[5] == ("win", "")  # rounds saved after the step get the column's default


def test_a_program_that_knows_fewer_steps_leaves_the_upgraded_record_alone(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = record_schema.MIGRATIONS
    monkeypatch.setattr(record_schema, "MIGRATIONS", (*known, NOTE))
    with Record.open() as new:
        assert save(new, "alice", "win")
    path = data / DATABASE_NAME
    before = path.read_bytes()
    monkeypatch.setattr(record_schema, "MIGRATIONS", known)  # the older program
    with Record.open() as old:
        assert not old.available
        assert "newer" in (old.take_notice() or "")
        assert not save(old, "alice", "loss")
    assert path.read_bytes() == before
    assert schema_of(path)[0] == schema_version() + 1


def test_a_failing_migration_step_changes_nothing(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Record.open() as old:
        assert save(old, "alice", "win")
        kept = everything(old)
    broken = ("ALTER TABLE rounds ADD COLUMN note TEXT", "INSERT INTO no_such_table VALUES (1)")
    monkeypatch.setattr(record_schema, "MIGRATIONS", (*record_schema.MIGRATIONS, broken))
    with Record.open() as failed:
        assert not failed.available  # plays without a record, said once
        assert failed.take_notice()
    path = data / DATABASE_NAME
    version, columns = schema_of(path)
    assert version == schema_version() - 1  # the whole step was rolled back
    assert "note" not in columns
    monkeypatch.setattr(record_schema, "MIGRATIONS", record_schema.MIGRATIONS[:-1])
    with Record.open() as again:
        assert everything(again) == kept


def test_importing_the_module_loads_neither_sqlite_nor_platformdirs() -> None:
    """Start-up pays for them only when the record is opened (psycopg only with a URL)."""
    code = (
        "import sys, tui_tictactoe.record; "
        "print(sorted(m for m in ('sqlite3', 'platformdirs', 'json', 'datetime', 'psycopg')"
        " if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# -- rounds ------------------------------------------------------------------------


def test_a_saved_round_comes_back_with_every_field(record: Record) -> None:
    when = datetime(2026, 11, 23, 10, 15, 30, tzinfo=timezone(timedelta(hours=2)))
    assert record.save_round(
        "ssh:SHA256:abc",
        FinishedRound(
            display_name="alice",
            difficulty="medium",
            symbol="O",
            first="ai",
            moves=[5, 1, 9, 3],
            result="loss",
            took_back=True,
            played_at=when,
        ),
    )
    (saved,) = record.recent_rounds("ssh:SHA256:abc")
    assert saved._replace(id=0) == (
        0,
        "2026-11-23T08:15:30Z",
        "ssh:SHA256:abc",
        "alice",
        3,
        "medium",
        "O",
        "ai",
        (5, 1, 9, 3),
        "loss",
        True,
    )


def test_the_time_defaults_to_now_in_utc(record: Record) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    save(record, "alice")
    (saved,) = record.recent_rounds("alice")
    played = datetime.fromisoformat(saved.played_at.replace("Z", "+00:00"))
    assert before <= played <= datetime.now(UTC)


def test_recent_rounds_are_newest_first_and_limited(record: Record) -> None:
    for count in range(1, 13):
        save(record, "alice", moves=list(range(1, count % 9 + 1)))
    save(record, "bob")
    recent = record.recent_rounds("alice")
    assert len(recent) == 10
    assert [r.id for r in recent] == sorted((r.id for r in recent), reverse=True)
    assert {r.player for r in recent} == {"alice"}
    assert len(record.recent_rounds("alice", limit=3)) == 3
    assert record.recent_rounds("nobody") == []


def test_a_round_without_moves_is_kept(record: Record) -> None:
    assert save(record, "alice", result="abandoned", moves=[])
    assert record.recent_rounds("alice")[0].moves == ()


def test_guests_are_not_recorded(record: Record) -> None:
    assert not save(record, None)
    assert record.stats(None).rounds == 0
    assert record.recent_rounds(None) == []
    assert not record.save_settings(None, symbol="O")
    assert record.settings(None) == {}
    assert record.notice is None
    assert run_sql(record, "SELECT COUNT(*) FROM rounds") == [(0,)]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("difficulty", "impossible"),
        ("symbol", "Z"),
        ("first", "nobody"),
        ("result", "victory"),
        ("moves", [0]),
        ("moves", [10]),
        ("moves", ["5"]),
        ("board_size", 0),
        ("played_at", datetime(2026, 1, 1)),  # no time zone: ambiguous
    ],
)
def test_invalid_rounds_are_refused_as_the_callers_bug(
    record: Record,
    field: str,
    value: Any,  # of any type: what is refused
) -> None:
    with pytest.raises(ValueError):
        save(record, "alice", **{field: value})
    assert record.stats("alice").rounds == 0


def test_rounds_stay_across_reopening(data: Path, backend: str) -> None:
    with Record.open() as first:
        save(first, "alice", result="draw")
    with Record.open() as second:
        assert second.stats("alice").by_difficulty["hard"].draws == 1


def test_threads_may_share_one_record(record: Record) -> None:
    """The UI saves from a worker thread while the server's sessions read."""
    failures: list[str] = []

    def play(player: str) -> None:
        for _ in range(25):
            if not save(record, player):
                failures.append(player)
            record.stats(player)

    threads = [threading.Thread(target=play, args=(player,)) for player in PLAYERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert [record.stats(player).rounds for player in PLAYERS] == [25, 25, 25]


# -- statistics --------------------------------------------------------------------


def test_a_new_player_has_every_difficulty_at_zero(record: Record) -> None:
    stats = record.stats("alice")
    assert stats == empty_stats("alice")
    assert list(stats.by_difficulty) == list(DIFFICULTIES)


@pytest.mark.parametrize(
    ("results", "streak", "best"),
    [
        (["win", "draw", "win"], 3, 3),
        (["win", "win", "loss", "draw"], 1, 2),
        (["win", "win", "abandoned"], 0, 2),  # walking away from a round ends the streak
        (["draw", "loss", "win", "win", "win", "loss"], 0, 3),
    ],
)
def test_streaks_count_wins_and_draws_in_a_row(
    record: Record, results: list[str], streak: int, best: int
) -> None:
    for result in results:
        save(record, "alice", result=result)
    hard = record.stats("alice").by_difficulty["hard"]
    assert (hard.streak, hard.best_streak) == (streak, best)


def test_a_round_with_a_take_back_ends_the_streak_but_counts_its_result(
    record: Record,
) -> None:
    save(record, "alice", result="win")
    save(record, "alice", result="draw", took_back=True)
    save(record, "alice", result="win")
    hard = record.stats("alice").by_difficulty["hard"]
    assert (hard.wins, hard.draws, hard.streak, hard.best_streak) == (2, 1, 1, 1)


def test_rounds_at_other_difficulties_do_not_touch_a_streak(record: Record) -> None:
    save(record, "alice", result="win")
    save(record, "alice", result="loss", difficulty="easy")
    save(record, "alice", result="draw")
    stats = record.stats("alice")
    assert stats.by_difficulty["hard"].streak == 2
    assert stats.by_difficulty["easy"] == DifficultyStats(losses=1)
    assert stats.rounds == 3


rounds_strategy = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(DIFFICULTIES),
        st.sampled_from(RESULTS),
        st.booleans(),
    ),
    max_size=40,
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rounds=rounds_strategy)
def test_stats_and_the_leaderboard_match_an_oracle(
    record: Record, rounds: list[tuple[str, str, str, bool]]
) -> None:
    empty_record(record)  # one record for every example of the test
    for player, level, result, took_back in rounds:
        assert save(
            record,
            player,
            result=result,
            difficulty=level,
            took_back=took_back,
            display_name=player.title(),
        )
    expected = {
        player: oracle_stats((lvl, res, tb) for p, lvl, res, tb in rounds if p == player)
        for player in PLAYERS
    }
    for player in PLAYERS:
        stats = record.stats(player)
        assert stats.by_difficulty == expected[player]
        assert stats.rounds == sum(1 for p, *_ in rounds if p == player)

    # Kept round by round, or recomputed from every round: the same.
    rebuild(record)
    assert [record.stats(player).by_difficulty for player in PLAYERS] == [
        expected[player] for player in PLAYERS
    ]

    board = record.leaderboard(limit=2)
    streaks = sorted(
        ((-expected[p]["hard"].best_streak, p) for p in PLAYERS if expected[p]["hard"].best_streak),
    )[:2]
    assert [(e.player, e.display_name, e.value) for e in board.hard_streaks] == [
        (p, p.title(), -value) for value, p in streaks
    ]
    clean_wins = {
        p: sum(
            1
            for q, lvl, res, tb in rounds
            if q == p and lvl == "medium" and res == "win" and not tb
        )
        for p in PLAYERS
    }
    wins = sorted((-count, p) for p, count in clean_wins.items() if count)[:2]
    assert [(e.player, e.value) for e in board.medium_wins] == [(p, -c) for c, p in wins]


def test_the_leaderboard_shows_the_latest_display_name(record: Record) -> None:
    save(record, "key:1", display_name="al", result="win", difficulty="medium")
    save(record, "key:1", display_name="alice", result="draw", difficulty="medium")
    (entry,) = record.leaderboard().medium_wins
    assert (entry.player, entry.display_name, entry.value) == ("key:1", "alice", 1)
    assert record.stats("key:1").display_name == "alice"


ALICE_1 = "SHA256:q2mvG7Xh0YsN1bJ8c5t4RkD9wLzPaE3uFoIiT6gHjKs"
ALICE_2 = "SHA256:Zx8Vb2Nq4Lm6Jk0Hg9Fd7Sa5Pw3Oe1Ir2Ut4Yy6Qc8o"


def test_two_players_of_one_name_are_told_apart_by_their_key(record: Record) -> None:
    """SSH user names are whatever the client says: the key's fingerprint is the player."""
    save(record, ALICE_1, display_name="alice", result="win", difficulty="medium")
    save(record, ALICE_2, display_name="alice", result="win", difficulty="medium")
    save(record, ALICE_2, display_name="alice", result="win", difficulty="medium")
    save(record, "alice", result="win", difficulty="medium")  # the local user alice
    labels = [entry.label for entry in record.leaderboard().medium_wins]
    assert labels == ["alice (SHA256:Zx8Vb2Nq…)", "alice (SHA256:q2mvG7Xh…)", "alice"]


def test_a_key_without_a_name_shows_its_short_fingerprint(record: Record) -> None:
    save(record, ALICE_1, result="draw")  # display name: the player, the fingerprint itself
    (entry,) = record.leaderboard().hard_streaks
    assert entry.label == "SHA256:q2mvG7Xh…"


# -- settings ----------------------------------------------------------------------


def test_settings_come_back_typed_and_merge_per_player(record: Record) -> None:
    assert record.settings("alice") == {}
    assert record.save_settings("alice", symbol="O", first="ai", alternate=True)
    assert record.save_settings("alice", difficulty="easy", theme="nord", alternate=False)
    assert record.save_settings("bob", theme="gruvbox")
    assert record.settings("alice") == {
        "symbol": "O",
        "first": "ai",
        "difficulty": "easy",
        "alternate": False,
        "theme": "nord",
    }
    assert record.settings("bob") == {"theme": "gruvbox"}


@pytest.mark.parametrize(
    "values",
    [
        {"symbol": "Z"},
        {"first": "x"},
        {"difficulty": "hardest"},
        {"alternate": "yes"},
        {"theme": ""},
    ],
)
def test_invalid_settings_are_refused(record: Record, values: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        record.save_settings("alice", **values)  # type: ignore[arg-type]


def test_the_record_accepts_exactly_the_values_of_the_option_table(
    record: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`options.CHOICES` is the one list: a value added there is accepted and read back,
    a value taken out is refused by every write and ignored when read."""
    assert record.save_settings("alice", first="ai")
    monkeypatch.setitem(CHOICES, "board", (*CHOICES["board"], "6"))
    monkeypatch.setitem(CHOICES, "first", ("human",))
    assert record.save_settings("alice", board="6")
    assert record.settings("alice") == {"board": "6"}  # "ai" is no longer a choice
    with pytest.raises(ValueError, match="first must be one of human"):
        record.save_settings("alice", first="ai")
    with pytest.raises(ValueError, match="first must be one of human"):
        save(record, "alice", first="ai")


def test_stored_settings_this_version_does_not_understand_are_ignored(record: Record) -> None:
    """A hand edit or another version's value must not reach the game's options."""
    for name, value in [("symbol", "Q"), ("difficulty", "hard"), ("alternate", "maybe")]:
        run_sql(record, "INSERT INTO settings VALUES ('alice', ?, ?)", (name, value))
    run_sql(record, "INSERT INTO settings VALUES ('alice', 'volume', '11')")
    assert record.settings("alice") == {"difficulty": "hard"}


# -- without a record ----------------------------------------------------------------


def test_a_disabled_record_reads_nothing_and_writes_nothing(data: Path) -> None:
    record = Record.disabled()
    assert not record.available
    assert not save(record, "alice")
    assert not record.save_settings("alice", symbol="O")
    assert record.stats("alice") == empty_stats("alice")
    assert record.recent_rounds("alice") == []
    assert record.settings("alice") == {}
    assert record.leaderboard() == ([], [])
    assert record.take_notice() is None
    assert not data.exists()


def test_a_notice_is_taken_once(data: Path) -> None:
    record = Record.disabled("playing without a record")
    assert record.take_notice() == "playing without a record"
    assert record.take_notice() is None
    assert record.notice is None
