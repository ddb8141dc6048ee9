"""The real-time tests: real processes driven in real time (ptys, SSH and web sessions)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, see pyproject.toml) the tests in this folder run one after
    another on one worker, as they were written to, while the other workers take the rest:
    the suite's wall time was mostly these tests waiting on their processes."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("real-time"))
