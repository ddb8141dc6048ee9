"""The record under stress: many writers, a writer killed mid-write, damaged files,
an unusable directory, a full disk. The game must never crash, never lose a round
it reported as saved, and never destroy what was there.

Writers are forked from the test process (no interpreter start-up per writer), so
the kill test fits 60 kills into a few seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from test_record import oracle_stats, save

from tui_tictactoe.record import DATA_DIR_ENV, DATABASE_NAME, Record, schema_version
from tui_tictactoe.record.failures import Failure, classify
from tui_tictactoe.record.schema import check_version

KILLS = 60
PROCESSES, ROUNDS_EACH = 8, 200


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    return tmp_path / "data"


def fork(child: Callable[[], int]) -> int:
    """Run `child` in a forked process that exits with its return value; its pid."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns into pytest
        code = 1
        try:
            code = child()
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def exit_code(pid: int) -> int:
    status = os.waitpid(pid, 0)[1]
    return os.waitstatus_to_exitcode(status)


def all_at_once(children: Sequence[Callable[[], int]]) -> list[int]:
    """Fork every child, let them all start together (they wait on a pipe until every one
    is forked), and return their exit codes."""
    start_read, start_write = os.pipe()

    def started(child: Callable[[], int]) -> int:
        os.close(start_write)
        os.read(start_read, 1)
        return child()

    pids = [fork(partial(started, child)) for child in children]
    os.close(start_read)
    os.write(start_write, b"go" * len(children))
    os.close(start_write)
    return [exit_code(pid) for pid in pids]


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        verdict: str = conn.execute("PRAGMA integrity_check").fetchone()[0]
        return verdict


def round_rows(path: Path, player: str | None = None) -> list[tuple[Any, ...]]:
    """(id, player, display_name, difficulty, result, took_back) in the order saved."""
    query = "SELECT id, player, display_name, difficulty, result, took_back FROM rounds"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        if conn.execute("PRAGMA user_version").fetchone()[0] == 0:
            return []  # killed before the schema was made: no round was saved either
        if player is None:
            return conn.execute(query + " ORDER BY id").fetchall()
        return conn.execute(query + " WHERE player = ? ORDER BY id", (player,)).fetchall()


def moved_aside(data: Path) -> list[Path]:
    return sorted(
        p for p in data.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))
    )


# -- many writers ------------------------------------------------------------------


def planned_rounds(seed: int) -> list[tuple[str, str, str, bool]]:
    """What writer `seed` records: (player, difficulty, result, took_back)."""
    rng = random.Random(seed)
    return [
        (
            f"writer-{seed}" if n % 2 else "shared",
            rng.choice(("easy", "medium", "hard")),
            rng.choice(("win", "loss", "draw", "abandoned")),
            rng.random() < 0.1,
        )
        for n in range(ROUNDS_EACH)
    ]


def test_eight_processes_record_1600_rounds_at_once_and_lose_none(data: Path) -> None:
    def writer(seed: int) -> int:
        record = Record.open()  # all at once, on a database nobody has created yet
        saved = 0
        for player, level, result, took_back in planned_rounds(seed):
            saved += save(record, player, result=result, difficulty=level, took_back=took_back)
        if record.notice:
            print(record.notice)
        return 0 if saved == ROUNDS_EACH else 1

    writers = [partial(writer, seed) for seed in range(PROCESSES)]
    assert all_at_once(writers) == [0] * PROCESSES

    path = data / DATABASE_NAME
    assert integrity(path) == "ok"
    rows = round_rows(path)
    assert len(rows) == PROCESSES * ROUNDS_EACH
    with Record.open() as record:
        for seed in range(PROCESSES):
            own = [r for r in planned_rounds(seed) if r[0] != "shared"]
            stats = record.stats(f"writer-{seed}")
            assert stats.rounds == len(own)
            assert stats.by_difficulty == oracle_stats((lvl, res, tb) for _, lvl, res, tb in own)
        # The shared player's rounds interleave; its streaks follow the order committed.
        shared = [(lvl, res, bool(tb)) for _, p, _, lvl, res, tb in rows if p == "shared"]
        assert sorted(shared) == sorted(
            (lvl, res, tb)
            for s in range(PROCESSES)
            for p, lvl, res, tb in planned_rounds(s)
            if p == "shared"
        )
        assert record.stats("shared").by_difficulty == oracle_stats(shared)


# -- a writer killed at random moments -------------------------------------------


def test_a_writer_killed_at_random_never_corrupts_or_loses_a_saved_round(data: Path) -> None:
    """SIGKILL during opening, migrating, writing rounds and settings, reading.

    The writer reports a round's token on a pipe only after `save_round` returned
    True; every reported token must be in the database after the kill.
    """
    rng = random.Random(11)
    path = data / DATABASE_NAME
    reported: set[str] = set()
    for run in range(KILLS):
        report_read, report_write = os.pipe()

        def writer(run: int = run, report_write: int = report_write) -> int:
            record = Record.open()
            for n in range(10_000):
                token = f"{run}-{n}"
                if save(
                    record, "killed", display_name=token, result=("win", "draw", "loss")[n % 3]
                ):
                    os.write(report_write, f"{token}\n".encode())
                if n % 7 == 0:
                    record.save_settings("killed", theme=token)
                if n % 5 == 0:
                    record.stats("killed")
            return 0

        pid = fork(writer)
        os.close(report_write)
        output = b""
        if run % 4:  # in the middle of saving: wait for the first save, then a random moment
            if select.select([report_read], [], [], 10)[0]:
                output += os.read(report_read, 65536)
            time.sleep(rng.uniform(0, 0.015))
        else:  # while opening (creating, migrating, recovering the WAL)
            time.sleep(rng.uniform(0, 0.004))
        os.kill(pid, signal.SIGKILL)
        assert exit_code(pid) == -signal.SIGKILL
        while chunk := os.read(report_read, 65536):
            output += chunk
        os.close(report_read)
        reported.update(line for line in output.decode().split("\n")[:-1])  # whole lines only

        if path.exists():
            assert integrity(path) == "ok", f"after kill {run}"
            rows = round_rows(path)
            present = {name for _, _, name, *_ in rows}
            assert reported <= present, f"after kill {run}: lost {sorted(reported - present)[:5]}"
            with Record.open() as record:  # the statistics moved with the rounds, or not at all
                expected = oracle_stats((lvl, res, bool(tb)) for *_, lvl, res, tb in rows)
                assert record.stats("killed").by_difficulty == expected, f"after kill {run}"
                assert record.notice is None
        else:
            assert not reported
        assert moved_aside(data) == [], "a killed writer must not look like a damaged file"
    assert len(reported) >= KILLS * 3 // 4  # three kills in four came after saves


# -- damaged files -----------------------------------------------------------------


def make_record(path: Path, rounds: int = 40) -> None:
    with Record.open(path) as record:
        for n in range(rounds):
            assert save(record, "alice", result=("win", "loss", "draw")[n % 3])
        record.save_settings("alice", theme="nord")


def truncated(path: Path, keep: Callable[[int], int]) -> None:
    make_record(path, rounds=300)
    size = path.stat().st_size
    with open(path, "r+b") as file:
        file.truncate(keep(size))


def damage_empty_file(path: Path) -> None:
    """Harmless alone, but SQLite making it a database in place races other processes."""
    path.write_bytes(b"")


def damage_truncated_half(path: Path) -> None:
    truncated(path, lambda size: size // 2)


def damage_truncated_off_page(path: Path) -> None:
    truncated(path, lambda size: size - 100)


def damage_truncated_header(path: Path) -> None:
    truncated(path, lambda size: 50)


def damage_random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(3).randbytes(20_000))


def damage_text_file(path: Path) -> None:
    path.write_text("my notes\nnot a database at all\n")


def damage_foreign_database(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        conn.execute("INSERT INTO invoices (amount) VALUES (12.5)")
        conn.commit()


def damage_middle_page(path: Path) -> None:
    """A valid header over garbage pages: only SQLite, reading, can tell."""
    make_record(path, rounds=300)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with open(path, "r+b") as file:
        for page in range(1, pages):  # every page but the first (the header)
            file.seek(page * page_size)
            file.write(random.Random(page).randbytes(page_size))


DAMAGES = {
    "an empty file": damage_empty_file,
    "truncated in half": damage_truncated_half,
    "truncated off a page boundary": damage_truncated_off_page,
    "truncated inside the header": damage_truncated_header,
    "random bytes": damage_random_bytes,
    "a text file": damage_text_file,
    "another program's database": damage_foreign_database,
    "garbage pages behind a good header": damage_middle_page,
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=list(DAMAGES))
def test_a_damaged_file_is_moved_aside_intact_and_a_new_record_started(
    data: Path, damage: Callable[[Path], None]
) -> None:
    path = data / DATABASE_NAME
    damage(path)
    original = path.read_bytes()

    record = Record.open()
    # The damage may only show when the file is read: ask for something.
    stats = record.stats("alice")
    assert stats.rounds == 0
    assert record.available
    notice = record.take_notice()
    assert notice is not None and "unusable" in notice and "moved aside" in notice
    (aside,) = moved_aside(data)
    assert aside.name in notice
    assert aside.read_bytes() == original
    assert save(record, "alice") and record.stats("alice").rounds == 1
    assert record.take_notice() is None  # said once
    record.close()
    assert integrity(path) == "ok"


def test_a_directory_in_the_files_place_is_moved_aside(data: Path) -> None:
    path = data / DATABASE_NAME
    path.mkdir()
    (path / "keep.txt").write_text("mine")
    record = Record.open()
    assert save(record, "alice")
    assert "a directory is in its place" in (record.notice or "")
    (aside,) = moved_aside(data)
    assert (aside / "keep.txt").read_text() == "mine"
    record.close()


def test_damage_found_while_playing_moves_the_file_aside_and_keeps_the_round(
    data: Path,
) -> None:
    path = data / DATABASE_NAME
    make_record(path, rounds=300)
    record = Record.open()
    assert record.notice is None  # the header is fine: nothing to see yet
    damage_middle_page_in_place(path)
    assert save(record, "alice", result="draw")  # written to the new record
    assert "moved aside" in (record.take_notice() or "")
    assert len(moved_aside(data)) == 1
    assert record.stats("alice").by_difficulty["hard"].draws == 1
    record.close()


def damage_middle_page_in_place(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with open(path, "r+b") as file:
        for page in range(1, pages):
            file.seek(page * page_size)
            file.write(b"\xff" * page_size)


def test_a_newer_schema_is_refused_and_left_untouched(data: Path) -> None:
    path = data / DATABASE_NAME
    make_record(path)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {schema_version() + 1}")
        conn.commit()
    original = path.read_bytes()

    record = Record.open()
    assert not record.available
    notice = record.take_notice() or ""
    assert "newer" in notice and "untouched" in notice
    assert not save(record, "alice")
    assert not record.save_settings("alice", theme="x")
    assert record.stats("alice").rounds == 0
    assert record.settings("alice") == {}
    record.close()
    assert path.read_bytes() == original
    assert moved_aside(data) == []


def test_a_busy_record_loses_only_that_round_and_stays_on(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui_tictactoe.record.sqlite_file.BUSY_TIMEOUT", 0.05)
    record = Record.open()
    with contextlib.closing(sqlite3.connect(data / DATABASE_NAME, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than the timeout
        assert not save(record, "alice")
        assert "busy" in (record.take_notice() or "")
        assert record.available
        assert record.stats("alice").rounds == 0  # readers are not blocked in WAL mode
        other.execute("COMMIT")
    assert save(record, "alice")
    assert record.stats("alice").rounds == 1
    record.close()


def test_a_half_built_database_of_a_killed_creator_is_cleaned_up(data: Path) -> None:
    pid = fork(lambda: 0)
    exit_code(pid)  # gone: its pid is free
    leftover = data / f"{DATABASE_NAME}.new-{pid}-1"
    leftover.write_bytes(b"half")
    with Record.open() as record:
        assert save(record, "alice")
    assert not leftover.exists()
    assert sorted(p.name for p in data.iterdir() if ".new-" in p.name) == []


def test_a_newer_version_migrating_the_file_meanwhile_stops_the_writes(data: Path) -> None:
    path = data / DATABASE_NAME
    record = Record.open()
    assert save(record, "alice")
    with contextlib.closing(sqlite3.connect(path)) as newer:
        newer.execute(f"PRAGMA user_version = {schema_version() + 1}")
        newer.commit()
    assert not save(record, "alice")
    assert "newer" in (record.take_notice() or "")
    assert not record.available
    record.close()
    assert len(round_rows_any_version(path)) == 1


def round_rows_any_version(path: Path) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT * FROM rounds").fetchall()


# -- an unusable place ---------------------------------------------------------------


def check_no_record(record: Record) -> None:
    """Playing without a record: said once, writes refused, reads empty, no exception."""
    assert not record.available
    assert "playing without a record" in (record.take_notice() or "")
    assert not save(record, "alice")
    assert record.stats("alice").rounds == 0
    assert record.recent_rounds("alice") == []
    assert record.leaderboard() == ([], [])
    assert record.take_notice() is None


def test_a_data_directory_that_cannot_be_created_means_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv(DATA_DIR_ENV, str(blocker / "data"))
    check_no_record(Record.open())
    assert blocker.read_text() == "in the way"


@contextlib.contextmanager
def shared_directory() -> Iterator[Path]:
    """A directory outside pytest's private tmp (mode 700), so another user can reach it."""
    top = Path(tempfile.mkdtemp(prefix="record-test-"))
    try:
        top.chmod(0o755)
        yield top
    finally:
        for path in top.rglob("*"):
            with contextlib.suppress(OSError):
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(top)


def unprivileged(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`check()` as a user file permissions apply to.

    Root ignores permissions, so under root `check` runs in a forked child that
    has dropped to `nobody` (the test process's modules are already loaded: no new
    interpreter, which `nobody` could not start here); otherwise it runs here.
    """
    if os.geteuid() != 0:
        return check()
    result_read, result_write = os.pipe()

    def child() -> int:
        os.setgid(65534)
        os.setgroups([])
        os.setuid(65534)
        os.write(result_write, json.dumps(check()).encode())
        return 0

    pid = fork(child)
    os.close(result_write)
    select.select([result_read], [], [], 30)
    output = b""
    while chunk := os.read(result_read, 65536):
        output += chunk
    os.close(result_read)
    assert exit_code(pid) == 0
    checked: dict[str, Any] = json.loads(output)
    return checked


def open_and_report(path: Path) -> dict[str, Any]:
    record = Record.open(path)
    report = {
        "available": record.available,
        "notice": record.notice,
        "saved": save(record, "alice"),
        "rounds": record.stats("alice").rounds,
        "left": record.take_notice(),
        "again": record.take_notice(),
    }
    record.close()
    return report


def test_a_read_only_data_directory_means_no_record_and_no_change() -> None:
    with shared_directory() as top:
        path = top / DATABASE_NAME
        make_record(path)
        original = path.read_bytes()
        top.chmod(0o555)  # read-only for anyone but root
        report = unprivileged(lambda: open_and_report(path))
        assert report["available"] is False
        assert "read-only" in report["notice"] and "playing without a record" in report["notice"]
        assert (report["saved"], report["rounds"], report["again"]) == (False, 0, None)
        assert path.read_bytes() == original
        assert sorted(p.name for p in top.iterdir()) == [DATABASE_NAME]


def test_an_unreadable_file_is_moved_aside_and_a_new_record_started() -> None:
    with shared_directory() as top:
        top.chmod(0o777)
        path = top / DATABASE_NAME
        make_record(path)
        original = path.read_bytes()
        path.chmod(0o000)
        report = unprivileged(lambda: open_and_report(path))
        assert report["available"] is True
        assert "unreadable" in report["notice"] and "moved aside" in report["notice"]
        assert (report["saved"], report["rounds"]) == (True, 1)
        (aside,) = [p for p in top.iterdir() if ".corrupt-" in p.name]
        aside.chmod(0o644)
        assert aside.read_bytes() == original


def test_a_full_disk_loses_the_new_round_only_and_says_so(data: Path) -> None:
    path = data / DATABASE_NAME
    make_record(path, rounds=20)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    before = round_rows(path)

    record = Record.open(max_pages=pages)  # the database may not grow: the disk is full
    results = [save(record, "alice", moves=list(range(1, 10))) for _ in range(300)]
    assert not all(results)
    notice = record.take_notice() or ""
    assert "full" in notice and "not recorded" in notice
    assert record.available  # a full disk may be freed: the next round tries again
    assert record.stats("alice").rounds == 20 + sum(results)
    assert not record.save_settings("alice", theme="x" * 20_000)
    assert "full" in (record.take_notice() or "")
    record.close()

    assert integrity(path) == "ok"
    assert round_rows(path)[: len(before)] == before
    with Record.open() as roomy:
        assert save(roomy, "alice")
    assert moved_aside(data) == []


# -- what each failure means ---------------------------------------------------------


def _full(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("PRAGMA max_page_count = 2")
        conn.execute("INSERT INTO t VALUES (zeroblob(100000))")


def _not_a_database(path: Path) -> None:
    path.write_bytes(b"not a database, " * 512)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("SELECT * FROM sqlite_master")


def _busy(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        with contextlib.closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")


def _no_such_table(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("SELECT * FROM nowhere")


def _disk_full(path: Path) -> None:
    with open("/dev/full", "wb") as device:  # every write: ENOSPC
        device.write(b"x")
        device.flush()


def _missing_directory(path: Path) -> None:
    (path.parent / "gone" / "record").read_bytes()


def _foreign(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE their_table (x)")
        check_version(conn)


def _newer(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {schema_version() + 1}")
        check_version(conn)


def _a_bug(path: Path) -> None:
    int("not a number")


@pytest.mark.parametrize(
    ("cause", "expected"),
    [
        (_full, Failure.FULL),
        (_not_a_database, Failure.DAMAGED),
        (_foreign, Failure.DAMAGED),
        (_busy, Failure.BUSY),
        (_newer, Failure.NEWER),
        (_no_such_table, Failure.OTHER),
        (_disk_full, Failure.FULL),
        (_missing_directory, Failure.OTHER),
        (_a_bug, None),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)).strip("_"),
)
def test_each_real_failure_is_classified_by_what_the_record_does_about_it(
    tmp_path: Path, cause: Callable[[Path], None], expected: Failure | None
) -> None:
    """From real SQLite and file-system errors: a bug (None) is not the file's fault."""
    with pytest.raises(Exception) as caught:
        cause(tmp_path / "db")
    assert classify(caught.value) is expected


def test_a_second_record_opened_in_one_process_leaves_the_first_its_locks(data: Path) -> None:
    """POSIX locks are the process's: closing any descriptor of the file drops them all,
    SQLite's too. A second record opened beside a first (its header read and closed, as
    a test beside the in-loop server does) left the first unlocked; another process's
    connection, closing, took itself for the last, deleted the WAL and its -shm, and the
    first then failed ("disk I/O error"). The other process is a real one."""
    first = Record.open()
    assert save(first, "ann")
    with Record.open() as second:
        assert save(second, "bob")
    other = (
        "from tui_tictactoe.record import Record\n"
        "from tui_tictactoe.record import FinishedRound\n"
        "with Record.open() as record:\n"
        "    assert record.save_round('carol', FinishedRound(difficulty='hard', symbol='X',"
        " first='human', moves=[5, 1, 9], result='win'))\n"
    )
    subprocess.run([sys.executable, "-c", other], check=True, timeout=60)
    assert (data / f"{DATABASE_NAME}-shm").exists()  # the first's connection still open
    assert save(first, "dave"), first.take_notice()
    first.close()
    assert [row[1] for row in round_rows(data / DATABASE_NAME)] == ["ann", "bob", "carol", "dave"]
