"""`@pytest.mark.solo` (tests/solo.py) under the suite's own xdist settings: a solo test,
first or last in the order, runs while no other test of the run does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parents[1]

SOLO = """
@pytest.mark.solo
def test_solo():
    note("solo", 1.5)
"""
OTHERS = """
@pytest.mark.parametrize("n", range(9))
def test_other(n):
    note(f"other{n}", 0.3)
"""
HEAD = """
import os, time
from pathlib import Path
import pytest
pytest_plugins = ["solo"]

def note(name, seconds):
    log = Path(os.environ["SOLO_LOG"])
    with log.open("a") as out:
        out.write(f"{name} start {time.monotonic()}\\n")
    time.sleep(seconds)
    with log.open("a") as out:
        out.write(f"{name} end {time.monotonic()}\\n")
"""


@pytest.mark.parametrize("solo_first", [True, False], ids=["solo first", "solo last"])
def test_a_solo_test_runs_beside_no_other(tmp_path: Path, solo_first: bool) -> None:
    (tmp_path / "conftest.py").write_text(HEAD)
    body = SOLO + OTHERS if solo_first else OTHERS + SOLO
    (tmp_path / "test_lock.py").write_text("import pytest\nfrom conftest import note\n" + body)
    log = tmp_path / "log"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "3", "-p", "no:cacheprovider",
         "-p", "no:randomly", "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PYTHONPATH": str(TESTS), "SOLO_LOG": str(log), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    spans: dict[str, list[float]] = {}
    for line in log.read_text().splitlines():
        name, _, at = line.split()
        spans.setdefault(name, []).append(float(at))
    assert len(spans) == 10
    start, end = spans.pop("solo")
    overlapping = [name for name, (s, e) in spans.items() if s < end and e > start]
    assert not overlapping, (start, end, spans)
    # and the others did run beside one another (three workers), so the lock is the cause
    starts = sorted(s for s, _ in spans.values())
    ends = sorted(e for _, e in spans.values())
    assert any(b < a for a, b in zip(ends, starts[1:], strict=False)), spans
