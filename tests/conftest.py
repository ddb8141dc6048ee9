"""Fixtures for the UI tests; what they hand out lives in `support.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support import FailingStrategy, GatedStrategy, ScriptedStrategy, SteadyMinimax, make_app


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
