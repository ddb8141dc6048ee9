"""The record per board: standings by board and level, take-backs counted, the leaderboard on
3x3, and schema 1 files (made by the schema 1 program) upgraded to them.

Expected numbers come from `oracle_stats` (a plain loop in test_record.py) over the
rounds themselves; `rebuild_standings` (tests/record_tools.py) recomputes the tables
from the rounds and must agree with what `save_round` keeps round by round.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_tools import empty_record, rebuild, rebuild_standings, run_sql
from test_record import PLAYERS, oracle_stats, save

from tui_tictactoe.engine.strategies import DIFFICULTIES
from tui_tictactoe.record import (
    DATABASE_NAME,
    RESULTS,
    DifficultyStats,
    Record,
    schema_version,
)
from tui_tictactoe.record import schema as record_schema

BOARDS = {"3x3": 3, "4x4": 4, "5x5": 5, "6x6": 6}
SCHEMA_1 = Path(__file__).parent / "data" / "record-schema-1.sqlite3"
"""A record of 60 rounds on every board, written by the schema 1 program (see
`tests/record/data/make_record_schema_1.py`)."""

Round = tuple[str, int, str, str, bool]  # player, board size, level, result, took back


def oracle_boards(rounds: list[Round], player: str) -> dict[str, dict[str, DifficultyStats]]:
    """Per board, `oracle_stats` of the player's rounds on it."""
    return {
        name: oracle_stats(
            (lvl, res, tb) for p, b, lvl, res, tb in rounds if (p, b) == (player, size)
        )
        for name, size in BOARDS.items()
    }


def oracle_levels(rounds: list[Round], player: str) -> dict[str, DifficultyStats]:
    """Per level on all boards together, streaks running across boards."""
    return oracle_stats((lvl, res, tb) for p, _, lvl, res, tb in rounds if p == player)


def kept_rounds(path: Path) -> list[Round]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT player, board_size, difficulty, result, took_back FROM rounds ORDER BY id"
        ).fetchall()
    return [(p, b, lvl, res, bool(tb)) for p, b, lvl, res, tb in rows]


def standings_rows(record: Record) -> list[list[tuple[object, ...]]]:
    """Both standings tables, row by row, in either backend."""
    return [
        run_sql(record, f"SELECT * FROM {table} ORDER BY 1, 2, 3")
        for table in ("standings", "board_standings")
    ]


def dump(path: Path, *tables: str) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}


# -- counted per board ---------------------------------------------------------------


def test_each_board_keeps_its_own_counts_and_streaks(backend: str) -> None:
    with Record.open() as record:
        save(record, "alice", "draw", board_size=3)
        save(record, "alice", "win", board_size=3)
        save(record, "alice", "loss", board_size=4)  # on 4x4: not the end of the 3x3 streak
        save(record, "alice", "win", board_size=4, took_back=True)
        save(record, "alice", "abandoned", board_size=5, difficulty="easy")
        save(record, "alice", "draw", board_size=3)
        save(record, "alice", "loss", board_size=6, difficulty="easy")
        stats = record.stats("alice")
    hard = stats.by_board["3x3"]["hard"]
    assert hard == DifficultyStats(wins=1, draws=2, streak=3, best_streak=3)
    assert stats.by_board["4x4"]["hard"] == DifficultyStats(wins=1, losses=1, take_backs=1)
    assert stats.by_board["5x5"]["easy"] == DifficultyStats(abandoned=1)
    assert stats.by_board["5x5"]["hard"] == DifficultyStats()
    # All boards together: the loss on 4x4 ended the streak there.
    assert stats.by_difficulty["hard"] == DifficultyStats(2, 1, 2, 0, 1, 1, 2)
    assert stats.by_board["6x6"]["easy"] == DifficultyStats(losses=1)
    assert stats.by_difficulty["easy"] == DifficultyStats(losses=1, abandoned=1)
    assert stats.rounds == 7
    assert list(stats.by_board) == ["3x3", "4x4", "5x5", "6x6"]
    assert all(list(levels) == list(DIFFICULTIES) for levels in stats.by_board.values())


def test_the_leaderboard_ranks_3x3_rounds_only(backend: str) -> None:
    with Record.open() as record:
        for _ in range(3):
            save(record, "bigboard", "win", board_size=4, difficulty="medium")
            save(record, "bigboard", "draw", board_size=5)
        save(record, "small", "win", difficulty="medium")
        save(record, "small", "draw")
        board = record.leaderboard()
        four = record.leaderboard(board_size=4)
    assert [(e.player, e.value) for e in board.medium_wins] == [("small", 1)]
    assert [(e.player, e.value) for e in board.hard_streaks] == [("small", 1)]
    assert [(e.player, e.value) for e in four.medium_wins] == [("bigboard", 3)]
    assert four.hard_streaks == []


rounds_strategy = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(tuple(BOARDS.values())),
        st.sampled_from(DIFFICULTIES),
        st.sampled_from(RESULTS),
        st.booleans(),
    ),
    max_size=50,
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rounds=rounds_strategy)
def test_per_board_stats_match_an_oracle_and_a_rebuild_from_the_rounds(
    backend: str, rounds: list[Round]
) -> None:
    with Record.open() as record:
        empty_record(record)  # one record for every example of the test
        for player, size, level, result, took_back in rounds:
            assert save(
                record, player, result, difficulty=level, board_size=size, took_back=took_back
            )
        kept = [record.stats(player) for player in PLAYERS]
        for player, stats in zip(PLAYERS, kept, strict=True):
            assert stats.by_board == oracle_boards(rounds, player)
            assert stats.by_difficulty == oracle_levels(rounds, player)
            assert stats.rounds == sum(1 for r in rounds if r[0] == player)
        leaders = record.leaderboard(limit=3)

        # Kept round by round, or recomputed from every round: the same rows, to the last
        # column (the leaderboard's clean wins included).
        before = standings_rows(record)
        rebuild(record)
        assert standings_rows(record) == before
        assert [record.stats(player) for player in PLAYERS] == kept
        assert record.leaderboard(limit=3) == leaders
    best = {p: oracle_boards(rounds, p)["3x3"]["hard"].best_streak for p in PLAYERS}
    ranked = sorted((-value, p) for p, value in best.items() if value)
    assert [(e.player, e.value) for e in leaders.hard_streaks] == [(p, -v) for v, p in ranked]


# -- from schema 1 ---------------------------------------------------------------------


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    """A copy of the schema 1 record, where the record looks for it."""
    path = tmp_path / DATABASE_NAME
    shutil.copyfile(SCHEMA_1, path)
    return path


def schema_1_standings(path: Path) -> dict[tuple[str, str], tuple[int, ...]]:
    """What the schema 1 program kept per player and level (all boards together)."""
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        rows = conn.execute(
            "SELECT player, difficulty, wins, losses, draws, abandoned, streak, best_streak"
            " FROM standings"
        ).fetchall()
    return {(player, level): tuple(numbers) for player, level, *numbers in rows}


def test_a_schema_1_record_is_upgraded_with_standings_per_board(old_file: Path) -> None:
    rounds = kept_rounds(old_file)
    assert {size for _, size, *_ in rounds} == {3, 4, 5}
    assert any(tb for *_, tb in rounds) and any(r[3] == "abandoned" for r in rounds)
    players = sorted({r[0] for r in rounds})
    old_standings = schema_1_standings(old_file)
    untouched = dump(old_file, "rounds", "players", "settings")

    with Record.open(old_file) as record:
        assert record.available and record.take_notice() is None
        for player in players:
            stats = record.stats(player)
            assert stats.by_board == oracle_boards(rounds, player)
            assert stats.by_difficulty == oracle_levels(rounds, player)
            assert stats.rounds == sum(1 for r in rounds if r[0] == player)
            for level, numbers in stats.by_difficulty.items():  # as schema 1 counted them
                wins, losses, draws, abandoned, streak, best = old_standings.get(
                    (player, level), (0,) * 6
                )
                assert numbers._replace(take_backs=0) == DifficultyStats(
                    wins, losses, draws, abandoned, 0, streak, best
                )
        assert record.settings("alice") == {"symbol": "O", "board": "4", "theme": "nord"}
        assert record.stats(players[0]).display_name == "bob"  # the key's player, by name
        assert save(record, "alice", "win", board_size=4, difficulty="easy")  # and it goes on
        rounds.append(("alice", 4, "easy", "win", False))
        assert record.stats("alice").by_board == oracle_boards(rounds, "alice")

    with sqlite3.connect(old_file) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    after = dump(old_file, "rounds", "players", "settings")
    assert after["rounds"][:-1] == untouched["rounds"]
    assert (after["players"], after["settings"]) == (untouched["players"], untouched["settings"])
    standings = dump(old_file, "standings", "board_standings")
    rebuild_standings(old_file)  # what the step rebuilt is what the rounds say
    assert dump(old_file, "standings", "board_standings") == standings


def test_a_failed_upgrade_of_a_schema_1_record_leaves_it_as_it_was(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every step still to run is one transaction: a later step failing undoes step 2 too."""
    upgraded = old_file.with_name("upgraded.sqlite3")
    shutil.copyfile(old_file, upgraded)
    with Record.open(upgraded) as record:
        assert record.available
    assert new_tables(upgraded) == (True, True)  # what step 2 makes, when nothing fails

    before = old_file.read_bytes()
    broken = ("INSERT INTO no_such_table VALUES (1)",)
    monkeypatch.setattr(record_schema, "MIGRATIONS", (*record_schema.MIGRATIONS, broken))
    with Record.open(old_file) as failed:
        assert not failed.available and failed.take_notice()
    assert old_file.read_bytes() == before
    assert new_tables(old_file) == (False, False)
    assert schema_1_standings(old_file)  # still schema 1, its standings as they were


def new_tables(path: Path) -> tuple[bool, bool]:
    """Whether `board_standings`, and `standings.take_backs`, are there."""
    with sqlite3.connect(path) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        columns = {row[1] for row in conn.execute("PRAGMA table_info(standings)")}
    return "board_standings" in tables, "take_backs" in columns


def test_hand_edited_rounds_upgrade_without_an_error(old_file: Path) -> None:
    """A board or level this program does not offer counts in `rounds`, and nothing raises."""
    with sqlite3.connect(old_file) as conn:
        conn.executemany(
            "INSERT INTO rounds (played_at, player, display_name, board_size, difficulty,"
            " symbol, first, moves, result, took_back) VALUES ('?', 'alice', 'alice', ?, ?,"
            " 'X', 'human', 'x,y', 'win', 1)",
            [(7, "hard"), ("big", "hard"), (3, "impossible")],
        )
    rounds = kept_rounds(old_file)
    with Record.open(old_file) as record:
        assert record.available and record.take_notice() is None
        stats = record.stats("alice")
        assert stats.rounds == sum(1 for r in rounds if r[0] == "alice")
        assert stats.by_board["3x3"] == oracle_boards(rounds[:-3], "alice")["3x3"]
        assert len(record.recent_rounds("alice", 100)) == stats.rounds
