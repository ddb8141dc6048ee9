"""The type hints and the lint rules, checked on every run (pre-commit runs the same).

mypy reads its settings from pyproject.toml: strict for the layers below the UI, the
default elsewhere, every `type: ignore` naming its code. ruff checks the rules and the
formatting of the package, the tests, the benchmarks and the screenshot script alike.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_mypy_finds_no_error() -> None:
    result = run(sys.executable, "-m", "mypy", "--no-error-summary")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing_to_report() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "--quiet", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_would_reformat_nothing() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--check", "--quiet", ".")
    assert result.returncode == 0, result.stdout + result.stderr
