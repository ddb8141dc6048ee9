"""Fixtures for the UI tests; what they hand out lives in `support.py`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from support import FailingStrategy, GatedStrategy, ScriptedStrategy, SteadyMinimax, make_app

# pytest-xdist's workers have COLUMNS=80 and LINES=24 in their environment: every game
# the tests start in a pty (or behind a server) would take them over the pty's own size.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

REAL_TIME = ("test_pty_", "test_e2e", "test_cli_terminal", "test_serve_")
"""Test files that drive real processes in real time (ptys, SSH and web sessions)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, see pyproject.toml) the real-time tests run one after
    another on one worker, as they were written to, while the other workers take the rest:
    the suite's wall time was mostly these tests waiting on their processes."""
    for item in items:
        if item.path.name.startswith(REAL_TIME):
            item.add_marker(pytest.mark.xdist_group("real-time"))


@pytest.fixture(autouse=True)
def private_record(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test keeps its record (and settings) in a fresh directory of its own, never
    in the user's, and plays as the same local player (not as a serve-ssh player)."""
    monkeypatch.setenv("TUI_TICTACTOE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    monkeypatch.delenv("TUI_TICTACTOE_PLAYER", raising=False)
    monkeypatch.delenv("TUI_TICTACTOE_PLAYER_NAME", raising=False)


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
