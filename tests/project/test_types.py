"""The type hints and the lint rules, checked on every run (pre-commit runs the same).

mypy reads its settings from pyproject.toml: the package as `mypy --strict` would, every
`type: ignore` naming its code; then the tests, strict but for the annotations of their own
functions' parameters (`TESTS`). ruff checks the rules and the formatting of the package,
the tests, the benchmarks and the screenshot script alike.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The tests under `--strict` too, but for three flags: a test's parameters are pytest's
# fixtures and hypothesis' examples, named by the framework and not annotated here, and a
# test calls such functions. Everything else (Optional values, generics, what a module
# exports, unused ignores) is checked as in the package. The package's own modules are
# read for their types only (`silent`): the first run checks them, under their own flags.
# A cache of its own, since these flags differ from the package's: both stay warm.
TESTS = (
    "--allow-untyped-defs",
    "--allow-incomplete-defs",
    "--allow-untyped-calls",
    "--follow-imports=silent",
    "--cache-dir=.mypy_cache/tests",
    # The programs of schema 1 and 2 made the record files in tests/record/data/ with the
    # API of their day, which these scripts call: kept as they ran, not checked against today's.
    "--exclude=tests/record/data/",
    "tests",
)


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_mypy_finds_no_error_in_the_package() -> None:
    result = run(sys.executable, "-m", "mypy", "--no-error-summary")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_no_error_in_the_tests() -> None:
    result = run(sys.executable, "-m", "mypy", "--no-error-summary", *TESTS)
    assert result.returncode == 0, result.stdout + result.stderr


# Folders of tests that are no base: they hold a conftest.py beside tests/conftest.py
# (read as `project.conftest`, `realtime.conftest`) and tests nobody imports, or only
# scripts that make the record's data files (`data.make_record_schema_1`).
NOT_BASES = {"tests/project", "tests/realtime", "tests/record/data"}


def test_mypy_reads_every_folder_of_tests_as_pytest_imports_it() -> None:
    """A new folder of tests is a base in `mypy_path`, else mypy reads its files under
    another name than the bare one their neighbours import them by."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = {str(path.parent.relative_to(ROOT)) for path in (ROOT / "tests").rglob("*.py")}
    assert folders - NOT_BASES == set(config["tool"]["mypy"]["mypy_path"])


def test_ruff_finds_nothing_to_report() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "--quiet", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_would_reformat_nothing() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--check", "--quiet", ".")
    assert result.returncode == 0, result.stdout + result.stderr
