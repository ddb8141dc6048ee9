"""Rounds between people in the record (schema 3): kept once by their round key, rated by
Elo for both players in one transaction, schema 1 and 2 files upgraded, saves from several
processes at once. The tests of the interface run on both backends (`backend`, conftest.py);
PostgreSQL's own (many hosts at once, its failures) are in test_record_postgres_people.py.

Expected ratings come from hand-worked examples and from `rebuild_ratings`
(tests/record_tools.py), a replay of the kept rounds by an Elo written apart from the
package's.
"""

from __future__ import annotations

import multiprocessing
import random
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_tools import empty_record, rebuild_ratings, stored_ratings, where_kept
from test_record_boards import SCHEMA_1, dump

from tui_tictactoe.record import (
    DATABASE_NAME,
    Match,
    PeopleStanding,
    Record,
    Seat,
    new_round_key,
    people_round_cells,
    schema_version,
)
from tui_tictactoe.record import schema as record_schema
from tui_tictactoe.record.people import expected, gain
from tui_tictactoe.record.validation import check_match

SCHEMA_2 = Path(__file__).parent / "data" / "record-schema-2.sqlite3"
"""A record of 60 rounds written by the schema 2 program (`data/make_record_schema_2.py`)."""

ANN = Seat("ann", "SHA256:annannannannannann")
BOB = Seat("bob", "SHA256:bobbobbobbobbobbob")
CAT = Seat("cat", "SHA256:catcatcatcatcatcat")

# 3x3 games by the seat that starts: the starter wins, the other wins, a draw, left early.
STARTER_WINS = (1, 4, 2, 5, 3)
SECOND_WINS = (1, 4, 2, 5, 9, 6)
DRAW = (1, 2, 3, 5, 4, 6, 8, 7, 9)
LEFT = (5, 1)


def match(
    x: Seat = ANN,
    o: Seat = BOB,
    result: str = "X",
    *,
    kind: str = "room",
    first: str = "X",
    left_by: str | None = None,
    key: str | None = None,
    moves: tuple[int, ...] | None = None,
) -> Match:
    """A valid 3x3 round between `x` and `o` ending in `result`."""
    if moves is None:
        if result in ("X", "O"):
            moves = STARTER_WINS if result == first else SECOND_WINS
        else:
            moves = DRAW if result == "draw" else LEFT
    left_by = (left_by or "X") if result == "abandoned" else None
    return Match(x, o, kind, 3, first, moves, result, left_by, key or new_round_key())


def ratings_of(record: Record) -> dict[str, tuple[int, int]]:
    return {entry.player: (entry.rating, entry.games) for entry in record.people.ratings(100)}


# -- Elo, by hand ----------------------------------------------------------------------


def test_elo_points_worked_by_hand() -> None:
    assert expected(1200, 1200) == 0.5
    assert expected(1200, 1600) == pytest.approx(1 / 11)  # 10^(400/400) = 10
    assert gain(1200, 1200, 1.0) == 16 and gain(1200, 1200, 0.0) == -16
    assert gain(1200, 1200, 0.5) == 0
    assert gain(1200, 1600, 1.0) == 29  # 32 * 10/11 = 29.09
    assert gain(1600, 1200, 1.0) == 3  # 32 * 1/11 = 2.91
    assert gain(1600, 1200, 0.0) == -29
    # 1216 against 1184 expects 1 / (1 + 10^(-32/400)) = 0.54592: a draw is 32 * -0.04592
    assert gain(1216, 1184, 0.5) == -1
    assert gain(1216, 1184, 0.0) == -17  # 32 * -0.54592 = -17.47


def test_rated_rounds_move_both_ratings_by_hand_worked_points(backend: str) -> None:
    with Record.open() as record:
        assert record.people.save_match(match(ANN, BOB, "X"))  # ann wins: 1216 / 1184
        assert ratings_of(record) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}
        assert record.people.save_match(match(BOB, ANN, "draw"))  # bob, lower, gains 1.47 -> 1
        assert ratings_of(record) == {ANN.key: (1215, 2), BOB.key: (1185, 2)}
        # ann (1215) leaves against bob (1185): a loss, 32 * -0.5430 = -17.4 -> -17
        assert record.people.save_match(match(ANN, BOB, "abandoned", left_by="X"))
        assert ratings_of(record) == {ANN.key: (1198, 3), BOB.key: (1202, 3)}
        # bob leaves a round he started as O: a win for ann (1198 v 1202: 32 * 0.5058 -> 16)
        assert record.people.save_match(match(ANN, BOB, "abandoned", first="O", left_by="O"))
        assert ratings_of(record) == {ANN.key: (1214, 4), BOB.key: (1186, 4)}
        assert [entry.label for entry in record.people.ratings(1)] == ["ann (SHA256:annannan…)"]
        changes = [r.rating_change for r in record.people.rounds(ANN.key)]
        assert changes == [16, -17, -1, 16]  # newest first
        assert [r.rating_change for r in record.people.rounds(BOB.key)] == [-16, 17, 1, -16]


def test_unrated_rounds_are_kept_and_move_no_rating(backend: str) -> None:
    guest = Seat("guest", None)
    with Record.open() as record:
        assert record.people.save_match(match(ANN, ANN, "X", kind="hotseat"))  # one person
        assert record.people.save_match(match(ANN, guest, "X"))  # a guest: never rated
        assert record.people.save_match(match(ANN, ANN, "O"))  # one key in both seats of a room
        assert record.people.save_match(match(ANN, BOB, "abandoned", moves=()))  # no move played
        assert record.people.ratings() == []
        assert len(record.people.rounds(ANN.key, 100)) == 4
        stats = record.people.stats(ANN.key)
        assert stats.rating is None and stats.rated == 0 and stats.rounds == 4
        assert stats.hot_seat["3x3"].x_wins == 1
        # one key in both seats counts from X's side
        assert stats.rooms["3x3"] == PeopleStanding(wins=1, losses=1, abandoned=1, left=1)
        assert rebuild_ratings(where_kept(record)) == {}


def test_people_stats_count_from_each_players_side_per_board(backend: str) -> None:
    on_4x4 = Match(BOB, ANN, "room", 4, "X", (1, 5, 2, 6, 3, 7, 4), "X", None, "four")
    # 6x6: five in a row on the long diagonal (1, 8, 15, 22, 29) won by O, who started.
    on_6x6 = Match(BOB, ANN, "room", 6, "O", (1, 2, 8, 3, 15, 4, 22, 5, 29), "O", None, "six")
    with Record.open() as record:
        for one in (
            match(ANN, BOB, "X"),
            match(BOB, ANN, "X"),
            match(BOB, ANN, "draw"),
            match(ANN, BOB, "abandoned", left_by="O"),
            match(CAT, ANN, "abandoned", left_by="O"),
            on_4x4,
            on_6x6,
        ):
            assert record.people.save_match(one)
        ann, bob = record.people.stats(ANN.key), record.people.stats(BOB.key)
        guest = record.people.stats(None)
    assert ann.rooms["3x3"] == PeopleStanding(wins=1, losses=1, draws=1, abandoned=2, left=1)
    assert bob.rooms["3x3"] == PeopleStanding(wins=1, losses=1, draws=1, abandoned=1, left=1)
    assert ann.rooms["4x4"] == PeopleStanding(losses=1)
    assert bob.rooms["4x4"] == PeopleStanding(wins=1) and bob.rooms["5x5"] == PeopleStanding()
    assert ann.rooms["6x6"] == PeopleStanding(wins=1) and bob.rooms["6x6"] == PeopleStanding(
        losses=1
    )
    assert (ann.rated, bob.rated) == (7, 6)
    assert guest.rounds == 0 and guest.rating is None


def test_people_rounds_are_told_from_the_players_side(backend: str) -> None:
    with Record.open() as record:
        assert record.people.save_match(match(ANN, BOB, "O", first="O", key="one"))
        assert record.people.save_match(match(ANN, ANN, "draw", kind="hotseat", key="two"))
        ann, bob = record.people.rounds(ANN.key), record.people.rounds(BOB.key)
    assert [(r.kind, r.symbol, r.opponent, r.result) for r in ann] == [
        ("hotseat", "X", "ann", "draw"),
        ("room", "X", "bob", "loss"),
    ]
    assert [(r.symbol, r.first, r.opponent, r.opponent_key, r.result) for r in bob] == [
        ("O", "O", "ann", ANN.key, "win")
    ]
    assert bob[0].moves == STARTER_WINS and bob[0].ended_at.endswith("Z")


# -- kept once -------------------------------------------------------------------------


def test_a_round_saved_again_by_its_key_is_kept_and_rated_once(backend: str) -> None:
    once = match(ANN, BOB, "X", key="room-ABCD-1")
    with Record.open() as record:
        assert record.people.save_match(once) and record.people.save_match(once)
    with Record.open() as another:  # the retry of another process, after a lost answer
        assert another.people.save_match(once)
        assert another.people.save_match(
            once._replace(result="draw", moves=DRAW)
        )  # the key decides
        assert ratings_of(another) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}
        assert len(another.people.rounds(ANN.key)) == 1
        assert another.take_notice() is None


@pytest.mark.parametrize(
    "change",
    [
        {"result": "O"},  # not how the moves end
        {"result": "draw"},
        {"result": "abandoned", "left_by": "X"},  # the game was over
        {"left_by": "O"},  # only an abandoned round was left
        {"moves": (1, 1, 2)},  # a cell taken twice
        {"moves": (1, 4, 2, 5, 3, 6)},  # a move after the end
        {"moves": (0, 4)},
        {"moves": (1, 4, 2, 5, True)},
        {"board_size": 6},
        {"kind": "lan"},
        {"first": "human"},
        {"round_key": ""},
        {"round_key": "a b"},
        {"round_key": "k" * 101},
        {"x": ("ann", 5)},
        {"x": "ann"},
        {"o": ("bob", "k" * 1001)},
        {"o": (None, "key")},
        {"ended_at": "2026-11-21"},
        {"ended_at": datetime(2026, 11, 21, 9, 0)},  # no time zone
        {"o": ("bob", "")},
    ],
)
def test_an_invalid_round_is_refused_before_anything_is_written(
    backend: str,
    change: dict[str, Any],  # values of any type: what is refused
) -> None:
    with Record.open() as record:
        with pytest.raises(ValueError):
            record.people.save_match(match(ANN, BOB, "X")._replace(**change))
        assert record.people.rounds(ANN.key) == [] and record.people.ratings() == []


def test_a_name_too_long_to_keep_is_cut_and_an_error_is_short(backend: str) -> None:
    with Record.open() as record:
        assert record.people.save_match(match(Seat("n" * 5000, ANN.key), BOB))
        assert record.people.rounds(BOB.key)[0].opponent == "n" * 1000
        with pytest.raises(ValueError) as error:
            record.people.save_match(match(ANN, BOB)._replace(round_key="\x1b" * 5000))
    assert len(str(error.value)) < 200


def test_names_are_stored_as_given(backend: str) -> None:
    hostile = Seat("[b]boss[/b]\x1b[2J\n", "SHA256:hostilehostilehostile")
    with Record.open() as record:
        assert record.people.save_match(match(hostile, BOB, "O"))
        assert record.people.rounds(BOB.key)[0].opponent == hostile.name
        assert {e.display_name for e in record.people.ratings()} == {hostile.name, "bob"}
        shown = next(e.label for e in record.people.ratings() if e.player == hostile.key)
    assert shown == "[b]boss[/b] (SHA256:hostileh…)"  # control characters never shown


# -- one transaction -------------------------------------------------------------------


def test_a_failure_after_one_rating_moved_leaves_neither_moved(tmp_path: Path) -> None:
    """A real constraint failure (a trigger refusing bob's rating) in the middle of the
    save: the round and ann's new rating, already written, are rolled back with it."""
    path = tmp_path / DATABASE_NAME
    with Record.open(path) as record:
        assert record.people.save_match(match(ANN, BOB, "X"))
    before = stored_ratings(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TRIGGER refuse_bob BEFORE UPDATE ON ratings"
            " WHEN old.player = ? AND new.rating <> old.rating"
            " BEGIN SELECT RAISE(ABORT, 'bob may not change'); END".replace("?", f"'{BOB.key}'")
        )
    with Record.open(path) as record:
        assert not record.people.save_match(match(ANN, BOB, "O"))  # ann is X: written first
        notice = record.take_notice()
    assert notice and "bob may not change" in notice
    assert stored_ratings(path) == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)
        conn.execute("DROP TRIGGER refuse_bob")
    with Record.open(path) as record:  # and the same round goes in whole once allowed
        assert record.people.save_match(match(ANN, BOB, "O"))
    assert stored_ratings(path) == rebuild_ratings(path) != before


# -- properties ------------------------------------------------------------------------

PEOPLE = (ANN, BOB, CAT, Seat("dan", "SHA256:dandandandandandan"), Seat("guest", None))

rounds_strategy = st.lists(
    st.tuples(
        st.sampled_from(PEOPLE),
        st.sampled_from(PEOPLE),
        st.sampled_from(("X", "O", "draw", "abandoned")),
        st.sampled_from(("X", "O")),  # first
        st.sampled_from(("X", "O")),  # left by, if abandoned
        st.sampled_from(("room", "room", "room", "hotseat")),
    ),
    max_size=30,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rounds=rounds_strategy)
def test_ratings_are_conserved_and_equal_a_rebuild_from_the_rounds(
    backend: str, rounds: list[tuple[Seat, Seat, str, str, str, str]]
) -> None:
    with Record.open() as record:
        empty_record(record)  # one record for every example of the test
        for x, o, result, first, left_by, kind in rounds:
            one = match(x, o, result, kind=kind, first=first, left_by=left_by)
            assert record.people.save_match(one)
        kept = ratings_of(record)
        for player, (_, games) in kept.items():
            changes = [r.rating_change for r in record.people.rounds(player, 100)]
            assert sum(1 for c in changes if c) <= games
        # Each rated round moves equal and opposite amounts: the sum is 1200 for each rated player.
        assert kept == rebuild_ratings(where_kept(record)) == stored_ratings(where_kept(record))
    assert sum(rating for rating, _ in kept.values()) == 1200 * len(kept)
    rated = [
        r for r in rounds if r[5] == "room" and None not in (r[0].key, r[1].key) and r[0] != r[1]
    ]
    assert sum(games for _, games in kept.values()) == 2 * len(rated)


# -- several processes -----------------------------------------------------------------

PROCESSES = 4
ROUNDS_EACH = 25
SHARED = 10
"""Rounds every process saves under the same keys (as retries would): each kept once."""


def planned(
    seed: int,
    keyed: tuple[Seat, ...] = PEOPLE[:4],
    each: int = ROUNDS_EACH,
    shared_rounds: int = SHARED,
) -> list[Match]:
    """Process `seed`'s rounds: random pairs of `keyed` in random seats (so two processes often
    rate the same two people at once, in opposite seats), and the rounds every process saves
    under the same keys, in an order of its own."""
    rng = random.Random(seed)
    plan = []
    for number in range(each):
        x, o = rng.sample(keyed, 2)
        result = rng.choice(("X", "O", "draw", "abandoned"))
        plan.append(match(x, o, result, left_by=rng.choice("XO"), key=f"p{seed}-{number}"))
    shared = random.Random(99)
    for number in range(shared_rounds):
        x, o = shared.sample(keyed, 2)
        plan.append(match(x, o, shared.choice(("X", "O", "draw")), key=f"shared-{number}"))
    rng.shuffle(plan)
    return plan


def writer(path: str, seed: int, start: multiprocessing.synchronize.Barrier) -> int:
    start.wait()
    with Record.open(path) as record:
        saved = sum(record.people.save_match(one) for one in planned(seed))
        return saved if record.notice is None else -1


def test_several_processes_saving_at_once_keep_every_round_once(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        start = manager.Barrier(PROCESSES)
        with context.Pool(PROCESSES) as pool:
            saved = pool.starmap(writer, [(str(path), seed, start) for seed in range(PROCESSES)])
    assert saved == [ROUNDS_EACH + SHARED] * PROCESSES
    with sqlite3.connect(path) as conn:
        keys = [key for (key,) in conn.execute("SELECT round_key FROM matches")]
    assert len(keys) == len(set(keys)) == PROCESSES * ROUNDS_EACH + SHARED
    kept = stored_ratings(path)
    assert kept == rebuild_ratings(path)  # in the order committed
    assert sum(games for _, games in kept.values()) == 2 * len(keys)
    assert sum(rating for rating, _ in kept.values()) == 1200 * len(kept)


# -- schema 3 --------------------------------------------------------------------------


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}


def test_a_new_record_has_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    with Record.open(path) as record:
        assert record.available
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    assert {"matches", "ratings", "rounds", "board_standings", "name_owners"} <= tables(path)


@pytest.mark.parametrize("old", [SCHEMA_1, SCHEMA_2], ids=["schema-1", "schema-2"])
def test_an_older_record_is_upgraded_to_the_latest_schema_with_nothing_lost(
    tmp_path: Path, old: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    shutil.copyfile(old, path)
    kept = ("rounds", "players", "settings", "standings")
    before = dump(path, *kept)
    with Record.open(path) as record:
        assert record.available and record.take_notice() is None
        stats = record.stats("alice")
        assert stats.rounds > 0
        assert record.people.save_match(match(ANN, BOB, "X"))
        assert ratings_of(record) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}
        assert record.stats("alice") == stats
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    after = dump(path, *kept)
    if old == SCHEMA_2:
        assert after == before
    else:  # step 2 adds standings.take_backs; rounds, players and settings stay as they were
        assert {t: after[t] for t in kept[:3]} == {t: before[t] for t in kept[:3]}


# -- a draw agreed mid-round (schema 4) -------------------------------------------------

AGREED = (5, 1)  # a round under way: two moves, then both players took a draw


def test_an_agreed_draw_is_kept_once_and_rated_as_a_draw(tmp_path: Path) -> None:
    agreed = match(result="draw", moves=AGREED)._replace(agreed=True)
    with Record.open(tmp_path / DATABASE_NAME) as record:
        assert record.people.save_match(agreed) and record.people.save_match(
            agreed
        )  # the other player's
        assert ratings_of(record) == {ANN.key: (1200, 1), BOB.key: (1200, 1)}
    with sqlite3.connect(tmp_path / DATABASE_NAME) as conn:
        rows = conn.execute("SELECT result, agreed, moves FROM matches").fetchall()
    assert rows == [("draw", 1, "5,1")]


@pytest.mark.parametrize(
    ("result", "moves"),
    [("draw", ()), ("draw", STARTER_WINS), ("X", AGREED), ("abandoned", AGREED)],
    ids=["no-move", "won-already", "a-win", "abandoned"],
)
def test_only_a_round_under_way_ends_in_an_agreed_draw(result: str, moves: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        check_match(match(result=result, moves=moves)._replace(agreed=True))


OLD_MATCH = (
    "INSERT INTO matches (round_key, ended_at, kind, board_size, x_player, x_name, o_player,"
    " o_name, first, moves, result, left_by, rated, x_gain) VALUES ('old', '2026-11-01T10:00:00Z',"
    " 'room', 3, ?, 'ann', ?, 'bob', 'X', '1,4,2,5,3', 'X', NULL, 1, 16)"
)


def test_a_schema_3_record_is_upgraded_to_4_keeping_its_rounds_between_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / DATABASE_NAME
    with monkeypatch.context() as old:
        old.setattr(record_schema, "MIGRATIONS", record_schema.MIGRATIONS[:3])
        with Record.open(path) as record:
            assert record.available
    with sqlite3.connect(path) as conn:  # a round kept by the schema 3 program
        conn.execute(OLD_MATCH, (ANN.key, BOB.key))
    before = dump(path, "matches", "ratings")
    with Record.open(path) as record:
        assert record.available and record.take_notice() is None
        assert record.people.save_match(match(result="draw", moves=AGREED)._replace(agreed=True))
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
        agreed = conn.execute("SELECT agreed FROM matches ORDER BY id").fetchall()
        with pytest.raises(sqlite3.IntegrityError):  # only a draw is agreed
            conn.execute("UPDATE matches SET agreed = 1 WHERE result = 'X'")
    assert agreed == [(0,), (1,)]
    assert len(dump(path, "matches")["matches"]) == len(before["matches"]) + 1


def test_a_failed_upgrade_of_a_schema_2_record_leaves_it_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / DATABASE_NAME
    shutil.copyfile(SCHEMA_2, path)
    before = path.read_bytes()
    broken = ("INSERT INTO no_such_table VALUES (1)",)
    monkeypatch.setattr(record_schema, "MIGRATIONS", (*record_schema.MIGRATIONS, broken))
    with Record.open(path) as failed:
        assert not failed.available and failed.take_notice()
        assert not failed.people.save_match(match())
    assert path.read_bytes() == before
    assert "matches" not in tables(path)


def test_a_record_of_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    with Record.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {schema_version() + 1}")
    before = path.read_bytes()
    with Record.open(path) as record:
        assert not record.people.save_match(match())
        assert record.people.stats(ANN.key).rounds == 0 and record.people.ratings() == []
        assert "newer" in (record.take_notice() or "")
    assert path.read_bytes() == before


# -- a round lost on time, one claimed, take-backs (schema 5) -----------------------------

ON_TIME = (5, 1, 9)  # X played 9, O's time ran out: X wins on time, the board not over


def test_a_loss_on_time_and_a_claimed_round_are_kept_as_such_and_rated(tmp_path: Path) -> None:
    on_time = match(result="X", moves=ON_TIME)._replace(cause="time", take_backs=2)
    claimed = match(result="abandoned", moves=AGREED, left_by="O", key="c")
    claimed = claimed._replace(cause="claimed")
    with Record.open(tmp_path / DATABASE_NAME) as record:
        assert record.people.save_match(on_time) and record.people.save_match(
            on_time
        )  # both players'
        assert ratings_of(record) == {ANN.key: (1216, 1), BOB.key: (1184, 1)}  # a win
        assert record.people.save_match(claimed)  # bob left: a loss for him, as when the grace ends
        assert ratings_of(record) == {ANN.key: (1231, 2), BOB.key: (1169, 2)}
    with sqlite3.connect(tmp_path / DATABASE_NAME) as conn:
        rows = conn.execute("SELECT result, cause, take_backs FROM matches ORDER BY id").fetchall()
        with pytest.raises(sqlite3.IntegrityError):  # only a won round is lost on time
            conn.execute("UPDATE matches SET cause = 'time' WHERE result = 'abandoned'")
    assert rows == [("X", "time", 2), ("abandoned", "claimed", 0)]


@pytest.mark.parametrize(
    ("result", "moves", "cause", "left_by"),
    [
        ("X", (5, 1), "time", None),  # X was to move: X ran out, X cannot win on time
        ("X", (), "time", None),  # no move played
        ("X", STARTER_WINS, "time", None),  # the board was over already
        ("draw", AGREED, "time", None),
        ("O", AGREED, "claimed", None),
        ("X", ON_TIME, "late", None),
    ],
    ids=["the-mover-wins", "no-move", "won-already", "a-draw", "claimed-win", "no-such-cause"],
)
def test_only_the_movers_opponent_wins_on_time(
    result: str, moves: tuple[int, ...], cause: str, left_by: str | None
) -> None:
    with pytest.raises(ValueError):
        check_match(match(result=result, moves=moves, left_by=left_by)._replace(cause=cause))
    with pytest.raises(ValueError):
        check_match(match(moves=STARTER_WINS)._replace(take_backs=-1))


def test_a_schema_4_record_is_upgraded_keeping_its_rounds_between_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / DATABASE_NAME
    with monkeypatch.context() as old:
        old.setattr(record_schema, "MIGRATIONS", record_schema.MIGRATIONS[:4])
        with Record.open(path) as record:
            assert record.available
    with sqlite3.connect(path) as conn:
        conn.execute(OLD_MATCH, (ANN.key, BOB.key))
    with Record.open(path) as record:
        assert record.people.save_match(match(result="X", moves=ON_TIME)._replace(cause="time"))
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema_version()
        rows = conn.execute("SELECT cause, take_backs FROM matches ORDER BY id").fetchall()
    assert rows == [(None, 0), ("time", 0)]


def test_a_loss_on_time_and_a_claim_are_listed_as_such(tmp_path: Path) -> None:
    """The stats' list of rounds against people: 'win (time)', 'loss (time)', and for
    the one who claimed the round of a player who left, 'win (claimed)'."""
    on_time = match(result="X", moves=ON_TIME)._replace(cause="time")
    claimed = match(result="abandoned", moves=AGREED, left_by="O", key="c")._replace(
        cause="claimed"
    )
    with Record.open(tmp_path / DATABASE_NAME) as record:
        assert record.people.save_match(on_time) and record.people.save_match(claimed)
        ann = [people_round_cells(r)[4] for r in record.people.rounds(ANN.key)]
        bob = [people_round_cells(r)[4] for r in record.people.rounds(BOB.key)]
    assert ann == ["win (claimed)", "win (time)"] and bob == ["you left", "loss (time)"]


def test_a_claimed_round_counts_as_the_win_it_is(tmp_path: Path) -> None:
    """Issue 36: a claimed round moved Elo as a win, but the claimer's stats counted it
    abandoned (fails before: wins 0, abandoned 1). The one who left: abandoned, left."""
    claimed = match(result="abandoned", moves=AGREED, left_by="O", key="c")._replace(
        cause="claimed"
    )
    with Record.open(tmp_path / DATABASE_NAME) as record:
        assert record.people.save_match(claimed)
        ann = record.people.stats(ANN.key).rooms["3x3"]
        bob = record.people.stats(BOB.key).rooms["3x3"]
    assert (ann.wins, ann.abandoned, ann.left) == (1, 0, 0)
    assert (bob.wins, bob.losses, bob.abandoned, bob.left) == (0, 0, 1, 1)
