"""The real-time tests: real processes driven in real time (ptys, SSH and web sessions)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (`-n`, see pyproject.toml) the tests of each folder here (`pty/`,
    `ssh/`, `web/`) run one after another on one worker, as they were written to (no two
    SSH servers' tests, or two terminals' tests, at once); the three folders and the rest
    share the other workers. `tryfirst`: xdist reads the groups in this same hook."""
    for item in items:
        if HERE in item.path.parents:
            folder = item.path.relative_to(HERE).parts[0]
            item.add_marker(pytest.mark.xdist_group(f"real-time-{folder}"))
