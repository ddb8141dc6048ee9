"""Snapshots of rounds against people: the people screen (`s` then `p`) and the leaderboard's
Elo table, from a fixed record, in UTC, as fixed players.

Plain `def`: `snap_compare` runs the app itself. Look at the SVG before accepting it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from record_tools import ANN, BOB, people_rounds
from support import SIZE, play
from test_snapshots_record import keep as keep_ai_rounds

from tui_tictactoe.record import Record, Seat

ADA = Seat("ada", "ada")


def keep(me: Seat) -> None:
    start = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
    with Record.open() as record:
        for minute, match in enumerate(people_rounds(me)):
            assert record.people.save_match(
                match._replace(ended_at=start + timedelta(minutes=9 * minute))
            )


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", [SIZE, (60, 18)], ids=["80x24", "60x18"])
def test_people_screen(snap_compare, make_app, monkeypatch, utc, size) -> None:
    """The rating, rooms (3x3, 4x4) and hot seat per board, the five rounds newest first."""
    monkeypatch.setenv("LOGNAME", "ada")
    keep(ADA)
    assert snap_compare(make_app(), terminal_size=size, run_before=play("s", "p"))


def test_leaderboard_with_people(snap_compare, make_app, monkeypatch, utc) -> None:
    """Under serve-ssh: the AI's two tables, then people by Elo with their fingerprints."""
    me = Seat("ada", "SHA256:adaadaadaadaadaada")
    keep(me)
    keep_ai_rounds((("hard", "human", (5, 1, 9, 3, 2, 8, 4, 6, 7), "draw", False),), 3)
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", me.key or "")
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", me.name)
    assert (ANN.key, BOB.key) != (me.key, me.key)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("s", "l"))
