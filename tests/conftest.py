"""Fixtures for the UI tests; what they hand out lives in `support.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support import FailingStrategy, GatedStrategy, ScriptedStrategy, SteadyMinimax, make_app


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
