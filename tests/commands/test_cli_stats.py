"""`tui-tictactoe stats [--json]`: the current player's record on the command line."""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from tui_tictactoe import cli
from tui_tictactoe.commands.stats import format_stats, stats_json
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import (
    DifficultyStats,
    FinishedRound,
    Match,
    Record,
    Seat,
    Stats,
    empty_stats,
)

RESULTS = ("win", "win", "draw", "loss", "abandoned")


def keep(player: str, difficulty: str = "medium") -> None:
    with Record.open() as record:
        for result in RESULTS:
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty=difficulty, symbol="X", first="human", moves=[5], result=result
                ),
            )


def test_stats_prints_the_table_of_the_current_player(
    capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    player = current_identity().player
    assert player is not None
    keep(player)
    assert cli.main(["stats"]) == 0
    out = capsys.readouterr().out
    with Record.open() as record:
        assert out.rstrip("\n") == format_stats(record.stats(player), record.recent_rounds(player))
    assert f"{len(RESULTS)} rounds" in out


def test_stats_lists_the_last_ten_rounds_newest_first_like_the_screen(
    capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    player = current_identity().player
    assert player is not None
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    levels, moves = ("easy", "medium", "hard"), (5, 1, 9, 3)
    with Record.open() as record:
        for minute in range(12):
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty=levels[minute % 3],
                    symbol="XO"[minute % 2],
                    first=("human", "ai")[minute % 2],
                    moves=moves[: 1 + minute % 4],
                    result=RESULTS[minute % 5],
                    took_back=minute == 10,
                    played_at=start + timedelta(minutes=minute),
                ),
            )
    assert cli.main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{current_identity().name}: 12 rounds"  # the table first, as before
    at = lines.index("Last rounds, newest first:")
    header, *rows = lines[at + 1 :]
    assert header.split() == ["When", "Game", "You", "Result", "Moves", "Undo"]
    assert len(rows) == 10
    for row, minute in zip(rows, range(11, 1, -1), strict=True):
        when = (start + timedelta(minutes=minute)).astimezone().strftime("%m-%d %H:%M")
        assert row.split() == [
            *when.split(),
            "3x3",
            levels[minute % 3],
            "XO"[minute % 2],
            ("1st", "2nd")[minute % 2],  # the player started, or the AI did
            RESULTS[minute % 5],
            str(1 + minute % 4),
            *(["yes"] if minute == 10 else []),
        ]
        game = header.index("Game")  # a table: every column starts under its heading
        assert row[game:].startswith(f"3x3 {levels[minute % 3]}")


def test_stats_without_rounds_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["stats"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "No rounds kept yet."


def test_stats_json_counts_from_the_players_side(
    capsys: pytest.CaptureFixture[str], backend: str
) -> None:
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


def test_a_host_reads_any_players_record_by_key_or_name(
    capsys: pytest.CaptureFixture[str], backend: str
) -> None:
    """Issue 29: `stats --player KEY|NAME` on the server's data (over SSH, players read only
    their own: test_serve_ssh_stats.py)."""
    with Record.open() as record:
        for player, name, result in (
            ("SHA256:carol", "carol", "win"),
            ("SHA256:bob1", "bob", "loss"),
            ("SHA256:bob2", "bob", "draw"),
        ):
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty="easy",
                    symbol="X",
                    first="human",
                    moves=[5],
                    result=result,
                    display_name=name,
                ),
            )
    for named in ("SHA256:carol", "carol"):
        assert cli.main(["stats", "--json", "--player", named]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert (shown["player"], shown["rounds"]) == ("SHA256:carol", 1)
    assert cli.main(["stats", "--player", "SHA256:bob2"]) == 0
    assert capsys.readouterr().out.startswith("bob: 1 round")
    assert cli.main(["stats", "--player", "bob"]) == 1
    err = capsys.readouterr().err
    assert "several players are shown as 'bob'" in err and "SHA256:bob1, SHA256:bob2" in err
    assert cli.main(["stats", "--json", "--player", "nobody"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no player 'nobody' in this record" in captured.err


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


def test_stats_with_a_database_out_of_reach_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "no rounds kept yet": the rounds are there, on a server not reached now."""
    with socket.socket() as listener:  # a port taken and never answered
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
    monkeypatch.setenv("TUI_TICTACTOE_DATABASE_URL", f"postgresql://u@127.0.0.1:{port}/db")
    assert cli.main(["stats", "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("tui-tictactoe stats: ") and "cannot be reached" in line


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

    def run_play(args: argparse.Namespace) -> int:
        seen.append(args.record)
        return 0

    monkeypatch.setattr(cli, "run_play", run_play)
    assert cli.main(["--no-record"]) == 0
    assert cli.main(["play", "--no-record"]) == 0
    assert cli.main([]) == 0
    assert seen == [False, False, True]


# -- the text and the JSON, from the values -------------------------------------------


def test_stats_json_has_exactly_the_documented_shape() -> None:
    keep("alice")
    with Record.open() as record:
        assert record.save_round(
            "alice",
            FinishedRound(
                difficulty="hard",
                symbol="O",
                first="ai",
                moves=[1],
                result="loss",
                took_back=True,
                board_size=4,
            ),
        )
        stats = record.stats("alice")
    decoded = json.loads(stats_json(stats))
    assert list(decoded) == ["player", "rounds", "by_board", "by_difficulty", "people"]
    assert decoded["player"] == "alice"
    assert decoded["rounds"] == stats.rounds == len(RESULTS) + 1
    assert list(decoded["by_board"]) == ["3x3", "4x4", "5x5", "6x6"]  # every board, played or not
    fields = ["wins", "losses", "draws", "abandoned", "take_backs", "streak", "best_streak"]
    for board, levels in decoded["by_board"].items():
        assert list(levels) == ["easy", "medium", "hard"]
        for level, numbers in levels.items():
            assert list(numbers) == fields
            assert tuple(numbers.values()) == stats.by_board[board][level]
    assert decoded["by_board"]["3x3"]["medium"] == {
        "wins": 2,
        "losses": 1,
        "draws": 1,
        "abandoned": 1,
        "take_backs": 0,
        "streak": 0,
        "best_streak": 3,
    }
    assert decoded["by_board"]["4x4"]["hard"]["take_backs"] == 1
    assert list(decoded["by_difficulty"]) == ["easy", "medium", "hard"]
    for level, numbers in decoded["by_difficulty"].items():  # every board together
        assert list(numbers) == fields
        assert tuple(numbers.values()) == stats.by_difficulty[level]
    assert decoded["by_difficulty"]["hard"]["losses"] == 1
    # Every round is in exactly one board's numbers: abandoned ones included.
    counted = sum(
        sum(numbers[field] for field in ("wins", "losses", "draws", "abandoned"))
        for levels in decoded["by_board"].values()
        for numbers in levels.values()
    )
    assert counted == decoded["rounds"]
    assert "\n" not in stats_json(stats)


def test_format_stats_prints_a_table_per_board_played_a_row_per_level_played() -> None:
    no_rounds = DifficultyStats()
    stats = Stats(
        "alice",
        "Alice",
        21,
        {"easy": DifficultyStats(1, 2, 3, 4, 5, 6, 7), "medium": no_rounds, "hard": no_rounds},
        {
            "3x3": {
                "easy": DifficultyStats(1, 2, 3, 4, 5, 6, 7),
                "medium": no_rounds,
                "hard": DifficultyStats(0, 0, 5, 0, 0, 5, 5),
            },
            "4x4": {"easy": no_rounds, "medium": no_rounds, "hard": no_rounds},
            "5x5": {"easy": no_rounds, "medium": DifficultyStats(abandoned=1), "hard": no_rounds},
        },
    )
    lines = format_stats(stats).splitlines()
    assert lines[0] == "Alice: 21 rounds"
    heading = ["won", "lost", "drawn", "abandoned", "undo", "streak", "best"]
    assert [line.split() for line in lines[1:6]] == [
        ["3x3", *heading],
        ["easy", "1", "2", "3", "4", "5", "6", "7"],
        ["hard", "0", "0", "5", "0", "0", "5", "5"],
        ["5x5", *heading],
        ["medium", "0", "0", "0", "1", "0", "0", "0"],
    ]
    assert len({len(line) for line in lines[1:6]}) == 1  # the columns line up, board to board
    assert lines[6:] == ["", "No rounds kept yet."]  # no rounds given


def test_a_player_without_rounds_gets_no_table() -> None:
    lines = format_stats(empty_stats("alice", "Alice")).splitlines()
    assert lines == ["Alice: 0 rounds", "", "No rounds kept yet."]


def test_stats_fits_60_columns_with_every_board_and_level_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The narrowest terminal the game is laid out for: no line wraps there."""
    player = current_identity().player
    with Record.open() as record:
        for number in range(12):
            assert record.save_round(
                player,
                FinishedRound(
                    difficulty=("easy", "medium", "hard")[number % 3],
                    symbol="X",
                    first="ai",
                    moves=range(1, 10),
                    result="abandoned",
                    took_back=True,
                    board_size=(3, 4, 5)[number // 4 % 3],
                ),
            )
    assert cli.main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 60, "\n".join(lines)
    levels = ["easy", "medium", "hard"]
    assert [line.split()[0] for line in lines[1:13]] == [
        *("3x3", *levels),
        *("4x4", *levels),
        *("5x5", *levels),
    ]
    assert len(lines) == 13 + 2 + 11  # a blank line, the title and the heading of the rounds


# -- rounds against people ---------------------------------------------------------------

ANN = Seat("ann", "SHA256:annannannannannann")


def keep_people(player: str) -> None:
    """Against ann in rooms: a win, a loss left by ann; on 4x4 a round the player left;
    a hot seat round won by O."""
    me = Seat(player, player)
    with Record.open() as record:
        for match in (
            Match(me, ANN, "room", 3, "X", (1, 4, 2, 5, 3), "X", None, "r1"),
            Match(ANN, me, "room", 3, "X", (5, 1), "abandoned", "X", "r2"),
            Match(me, ANN, "room", 4, "O", (1, 2), "abandoned", "X", "r3"),
            Match(me, me, "hotseat", 3, "X", (1, 4, 2, 5, 9, 6), "O", None, "r4"),
        ):
            assert record.people.save_match(match)


def test_stats_json_has_the_people_part_as_documented(capsys: pytest.CaptureFixture[str]) -> None:
    player = current_identity().player
    assert player is not None
    keep_people(player)
    assert cli.main(["stats", "--json"]) == 0
    decoded = json.loads(capsys.readouterr().out)
    assert decoded["rounds"] == 0  # against the AI
    people = decoded["people"]
    assert list(people) == ["rounds", "rating", "rated", "rooms", "hot_seat"]
    # 1200 beats 1200: +16; 1216 v 1184, ann leaves: +15 (32 * 0.4541); then I leave at
    # 1231 v 1169: -19 (32 * -0.5886).
    assert (people["rounds"], people["rating"], people["rated"]) == (4, 1212, 3)
    assert list(people["rooms"]) == list(people["hot_seat"]) == ["3x3", "4x4", "5x5", "6x6"]
    assert people["rooms"]["3x3"] == {"wins": 1, "losses": 0, "draws": 0, "abandoned": 1, "left": 0}
    assert people["rooms"]["4x4"] == {"wins": 0, "losses": 0, "draws": 0, "abandoned": 1, "left": 1}
    assert people["hot_seat"]["3x3"] == {"x_wins": 0, "o_wins": 1, "draws": 0, "abandoned": 0}


def test_stats_without_people_has_an_empty_people_part() -> None:
    decoded = json.loads(stats_json(empty_stats("alice")))
    assert decoded["people"]["rounds"] == 0 and decoded["people"]["rating"] is None
    assert "against people" not in format_stats(empty_stats("alice"))


def test_stats_text_lists_rounds_against_people_apart(capsys: pytest.CaptureFixture[str]) -> None:
    player = current_identity().player
    assert player is not None
    keep_people(player)
    assert cli.main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Issue 36: it opened "0 rounds" and "No rounds kept yet.", then 4 against people.
    assert lines[0].endswith(": 0 rounds against the AI") and "No rounds kept yet." not in lines
    assert "No rounds against the AI yet." in lines
    at = lines.index("4 rounds against people. Elo rating 1212 (3 rated rounds).")
    assert lines[at + 1 :] == [
        "rooms  won  lost  drawn  abandoned  left",
        "3x3      1     0      0          1     0",
        "4x4      0     0      0          1     1",
        "hot seat  x won  o won  drawn  abandoned",
        "3x3           0      1      0          0",
        "Last rounds against people, newest first:",
        *[line for line in lines[at + 7 :]],
    ]
    rounds = [line.split("  ") for line in lines[at + 8 :]]
    assert [[cell.strip() for cell in row if cell.strip()][1:] for row in rounds] == [
        ["3x3", "(hot seat)", "both", "O won"],
        ["4x4", "ann", "X 2nd", "you left", "-19"],
        ["3x3", "ann", "O 2nd", "they left", "+15"],
        ["3x3", "ann", "X 1st", "win", "+16"],
    ]
    assert max(map(len, lines)) <= 60
