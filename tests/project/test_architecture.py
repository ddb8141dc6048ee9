"""The house rules that code review alone would let slip: layers, no import circles, docs
that name every module.

The layers are import-linter's contracts in pyproject.toml (run here, so the README's test
command checks them); the circles are found with grimp, which import-linter is built on and
which sees every import, also those under `if TYPE_CHECKING:` and inside functions.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tui_tictactoe"


def test_the_layer_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def import_circles() -> list[list[str]]:
    """Groups of modules that reach each other through imports (strongly connected)."""
    graph = grimp.build_graph(
        PACKAGE, include_external_packages=False, exclude_type_checking_imports=False
    )
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return circles


def test_no_import_circles_in_the_package_type_only_imports_included() -> None:
    assert import_circles() == []


def package_modules() -> list[str]:
    names = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def test_the_architecture_document_names_every_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(tui_tictactoe(?:\.\w+)*)`", text))
    missing = [name for name in package_modules() if name not in named]
    assert not missing, f"docs/architecture.md does not name: {missing}"
    gone = sorted(name for name in named if name not in package_modules())
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"


def test_the_tests_map_names_every_test_file_under_its_folder() -> None:
    """tests/README.md is the map of the suite: each file under the heading of its folder,
    and the package's subpackages mirrored by a folder of tests."""
    text = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    text = text.split("## What each file covers", 1)[1].split("\n## ", 1)[0]
    wrapped = [line for line in text.splitlines() if line.startswith("  ")]
    assert not wrapped, f"tests/README.md: one line per file, these go on: {wrapped[:3]}"
    sections = re.split(r"^### `tests/([\w/]*?)/?`", text, flags=re.M)
    listed = {
        name: folder
        for folder, body in zip(sections[1::2], sections[2::2], strict=True)
        for name in re.findall(r"^- `(test_\w+\.py)`", body, flags=re.M)
    }
    tests = ROOT / "tests"
    found = {path.name: str(path.parent.relative_to(tests)) for path in tests.rglob("test_*.py")}
    wrong = {
        name: (listed.get(name), folder)
        for name, folder in found.items()
        if listed.get(name) != folder
    }
    assert not wrong, (
        f"tests/README.md lists these elsewhere or not at all (listed, actual): {wrong}"
    )
    assert not set(listed) - set(found), (
        f"tests/README.md lists gone files: {set(listed) - set(found)}"
    )
    assert not list(tests.glob("test_*.py")), "a test file sits in tests/ itself: give it a folder"
    for path in tests.rglob("test_*.py"):
        for imported in re.findall(r"^\s*(?:from|import) (test_\w+)", path.read_text(), re.M):
            assert (path.parent / f"{imported}.py").exists(), (
                f"{path.relative_to(tests)} imports {imported} from another folder: "
                "move what they share into a helper in tests/"
            )
    for layer in ("engine", "controller", "record", "rooms", "ui", "commands", "servers"):
        assert (tests / layer).is_dir(), f"no tests/{layer}/ mirrors tui_tictactoe.{layer}"


def test_no_function_is_graded_d_or_worse_by_radon() -> None:
    """Cyclomatic complexity 21 and up (radon's D-F): a function nobody can hold in mind."""
    from radon.complexity import cc_rank, cc_visit  # type: ignore[import-untyped]  # no stubs

    graded = [
        f"{path.relative_to(ROOT)}:{block.lineno} {block.name} {cc_rank(block.complexity)}"
        f" ({block.complexity})"
        for path in sorted((ROOT / PACKAGE).rglob("*.py"))
        for block in cc_visit(path.read_text(encoding="utf-8"))
        if cc_rank(block.complexity) in "DEF"
    ]
    assert not graded, graded


def test_the_app_asks_the_board_screen_never_which_kind_it_is() -> None:
    """Issue 30: the game and a room share `BoardScreen`, and the app speaks to whichever
    is up through it; a branch on the concrete screen would be the two screens again."""
    import ast

    source = (ROOT / PACKAGE / "ui" / "app.py").read_text(encoding="utf-8")
    branches = [
        ast.unparse(node)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and {"GameScreen", "RoomScreen"} & {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    ]
    # One lookup stays: `TicTacToeApp.game`, the game screen for the record's saved settings.
    assert branches == ["isinstance(screen, GameScreen)"], branches
