"""`tui-tictactoe stats [--json]`: the current player's record on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from tui_tictactoe import cli
from tui_tictactoe.commands.stats import format_stats, stats_json
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import DifficultyStats, Record, Stats

RESULTS = ("win", "win", "draw", "loss", "abandoned")


def keep(player: str, difficulty: str = "medium") -> None:
    with Record.open() as record:
        for result in RESULTS:
            assert record.save_round(
                player, difficulty=difficulty, symbol="X", first="human", moves=[5], result=result
            )


def test_stats_prints_the_table_of_the_current_player(capsys: pytest.CaptureFixture[str]) -> None:
    player = current_identity().player
    assert player is not None
    keep(player)
    assert cli.main(["stats"]) == 0
    out = capsys.readouterr().out
    with Record.open() as record:
        assert out.rstrip("\n") == format_stats(record.stats(player), record.recent_rounds(player))
    assert f"{len(RESULTS)} rounds" in out


def test_stats_lists_the_last_ten_rounds_newest_first_like_the_screen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    player = current_identity().player
    assert player is not None
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    levels, moves = ("easy", "medium", "hard"), (5, 1, 9, 3)
    with Record.open() as record:
        for minute in range(12):
            assert record.save_round(
                player,
                difficulty=levels[minute % 3],
                symbol="XO"[minute % 2],
                first=("human", "ai")[minute % 2],
                moves=moves[: 1 + minute % 4],
                result=RESULTS[minute % 5],
                took_back=minute == 10,
                played_at=start + timedelta(minutes=minute),
            )
    assert cli.main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{current_identity().name}: 12 rounds"  # the table first, as before
    at = lines.index("Last rounds, newest first:")
    header, *rows = lines[at + 1 :]
    assert header.split() == ["When", "Level", "You", "First", "Result", "Moves", "Undo"]
    assert len(rows) == 10
    for row, minute in zip(rows, range(11, 1, -1), strict=True):
        when = (start + timedelta(minutes=minute)).astimezone().strftime("%m-%d %H:%M")
        assert row.split() == [
            *when.split(),
            levels[minute % 3],
            "XO"[minute % 2],
            ("you", "AI")[minute % 2],
            RESULTS[minute % 5],
            str(1 + minute % 4),
            *(["yes"] if minute == 10 else []),
        ]
        level = header.index("Level")  # a table: every column starts under its heading
        assert row[level:].startswith(levels[minute % 3])


def test_stats_without_rounds_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["stats"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "No rounds kept yet."


def test_stats_json_counts_from_the_players_side(capsys: pytest.CaptureFixture[str]) -> None:
    player = current_identity().player
    assert player is not None
    keep(player, "easy")
    keep("someone else", "easy")
    assert cli.main(["stats", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["player"] == player
    assert shown["rounds"] == len(RESULTS)
    easy = shown["by_difficulty"]["easy"]
    assert (easy["wins"], easy["losses"], easy["draws"]) == tuple(
        RESULTS.count(result) for result in ("win", "loss", "draw")
    )
    assert set(shown["by_difficulty"]) == {"easy", "medium", "hard"}


def test_stats_under_serve_ssh_is_the_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", "SHA256:carol")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", "carol")
    keep("SHA256:carol")
    assert cli.main(["stats", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["player"], shown["rounds"]) == ("SHA256:carol", len(RESULTS))


def test_stats_with_an_unusable_record_says_why_and_exits_1(
    tmp_path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    monkeypatch.setenv("TUI_TICTACTOE_DATA_DIR", str(blocker))
    assert cli.main(["stats", "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("tui-tictactoe stats: ") and "without a record" in line


def test_stats_in_a_real_process_needs_no_terminal() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui_tictactoe", "stats", "--json"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rounds"] == 0


def test_no_record_and_the_play_options_reach_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    monkeypatch.setattr(cli, "run_play", lambda args: seen.append(args.record) or 0)
    assert cli.main(["--no-record"]) == 0
    assert cli.main(["play", "--no-record"]) == 0
    assert cli.main([]) == 0
    assert seen == [False, False, True]


# -- the text and the JSON, from the values -------------------------------------------


def test_stats_json_has_exactly_the_documented_shape() -> None:
    keep("alice")
    with Record.open() as record:
        stats = record.stats("alice")
    decoded = json.loads(stats_json(stats))
    assert list(decoded) == ["player", "rounds", "by_difficulty"]
    assert decoded["player"] == "alice"
    assert decoded["rounds"] == stats.rounds
    assert list(decoded["by_difficulty"]) == ["easy", "medium", "hard"]
    for level, numbers in stats.by_difficulty.items():
        assert decoded["by_difficulty"][level] == {
            "wins": numbers.wins,
            "losses": numbers.losses,
            "draws": numbers.draws,
            "streak": numbers.streak,
            "best_streak": numbers.best_streak,
        }
    assert "\n" not in stats_json(stats)


def test_format_stats_prints_one_row_per_difficulty() -> None:
    stats = Stats(
        "alice",
        "Alice",
        21,
        {
            "easy": DifficultyStats(1, 2, 3, 4, 5, 6),
            "medium": DifficultyStats(),
            "hard": DifficultyStats(0, 0, 5, 0, 5, 5),
        },
    )
    lines = format_stats(stats).splitlines()
    assert lines[0] == "Alice: 21 rounds"
    assert lines[1].split() == [
        "difficulty",
        "wins",
        "losses",
        "draws",
        "abandoned",
        "streak",
        "best",
        "streak",
    ]
    assert [line.split() for line in lines[2:5]] == [
        ["easy", "1", "2", "3", "4", "5", "6"],
        ["medium", "0", "0", "0", "0", "0", "0"],
        ["hard", "0", "0", "5", "0", "5", "5"],
    ]
    assert len({len(line) for line in lines[1:5]}) == 1  # the columns line up
    assert lines[5:] == ["", "No rounds kept yet."]  # no rounds given
