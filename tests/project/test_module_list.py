"""docs/architecture.md's list of modules is what tools/module_list.py writes from the
modules' docstrings: a module added, moved or redocumented fails here until the page is
written again (`python tools/module_list.py`)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "module_list.py"


def module_list() -> ModuleType:
    spec = importlib.util.spec_from_file_location("module_list", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_architecture_page_lists_the_modules_as_the_script_writes_them() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_a_module_added_or_a_first_line_changed_makes_the_page_out_of_date(
    tmp_path: Path,
) -> None:
    """The check bites: on a copy of the package, the page written for it is current, and
    stops being so when a module is added or a docstring's first sentence changes."""
    tool = module_list()
    shutil.copytree(ROOT / "tui_tictactoe", tmp_path / "tui_tictactoe")
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert tool.written(page, tmp_path) == page

    added = tmp_path / "tui_tictactoe" / "engine" / "tally.py"
    added.write_text('"""A new module: what it is for."""\n', encoding="utf-8")
    assert "- `tui_tictactoe.engine.tally`: A new module: what it is for." in tool.written(
        page, tmp_path
    )
    added.unlink()

    board = tmp_path / "tui_tictactoe" / "engine" / "board.py"
    source = board.read_text(encoding="utf-8")
    first = '"""The board and the rules: who has won, what moves are left.'
    assert source.startswith(first)
    board.write_text(source.replace(first, '"""The board, redocumented.', 1), encoding="utf-8")
    changed = tool.written(page, tmp_path)
    assert changed != page and "- `tui_tictactoe.engine.board`: The board, redocumented." in changed
