"""Write docs/architecture.md's list of modules from each module's docstring.

The list (between the two `MARKERS` lines of the page) holds every module of the package,
by dotted name, with the first sentence of its docstring, grouped by layer and subpackage;
the rest of the page (the layers, a move's trip) is written by hand. Run it after adding,
moving or redocumenting a module; tests/project/test_module_list.py fails while the page is
not what this would write. `--check` only says whether it is.

    python tools/module_list.py [--check]

It reads the sources with `ast` and imports nothing of the package. It lives in tools/, not
benchmarks/: it measures nothing, and the suite runs it.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tui_tictactoe"
PAGE = Path("docs") / "architecture.md"
MARKERS = (
    "<!-- modules: written by tools/module_list.py from each module's docstring -->",
    "<!-- modules: end -->",
)
WIDTH = 100

# The groups, bottom layer first (pyproject's layers contract), each a title and the
# subpackages (or top-level modules) it holds; a top-level module named nowhere sits at
# the bottom.
GROUPS = [
    ("The engine (pure Python: no Textual, no I/O)", ["engine"]),
    ("The controller (no UI)", ["controller"]),
    ("The record", ["record"]),
    ("The rooms (no UI)", ["rooms"]),
    ("The user interface (Textual)", ["ui"]),
    ("Commands and the command line", ["cli", "commands"]),
    ("The servers (never import the UI)", ["servers"]),
]
BOTTOM = "At the bottom"


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under `root`, by dotted name (a package by its own)."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def summary(path: Path) -> str:
    """The first sentence of the module's docstring, on one line."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraph = " ".join(docstring.split("\n\n", 1)[0].split())
    if not paragraph:
        raise SystemExit(f"{path}: no docstring to say what the module is for")
    return re.split(r"(?<=[.!?])\s+(?=[A-Z`])", paragraph, maxsplit=1)[0]


def entry(name: str, path: Path) -> str:
    return textwrap.fill(
        f"- `{name}`: {summary(path)}",
        width=WIDTH,
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def place(name: str, packages: set[str]) -> tuple[int, str]:
    """Where a module is listed: its group's index (0 at the bottom), and the subpackage
    (`rooms.postgres`) under whose heading it sits, '' for none."""
    parts = name.split(".")[1:]
    for index, (_, heads) in enumerate(GROUPS, start=1):
        if parts and parts[0] in heads:
            sub = ".".join(parts[:2])
            return index, sub if f"{PACKAGE}.{sub}" in packages and len(parts) > 1 else ""
    return 0, ""


def section(root: Path) -> str:
    """The list as the page holds it between the markers."""
    found = modules(root)
    packages = {name for name, path in found.items() if path.name == "__init__.py"}
    titles = [BOTTOM, *(title for title, _ in GROUPS)]
    placed: dict[tuple[int, str], list[str]] = {}
    for name in found:
        placed.setdefault(place(name, packages), []).append(name)
    lines: list[str] = []
    for (index, sub), names in sorted(placed.items()):
        lines += ["", f"#### `{sub}`" if sub else f"### {titles[index]}", ""]
        lines += [entry(name, found[name]) for name in names]
    return "\n".join([MARKERS[0], *lines, "", MARKERS[1]])


def written(page: str, root: Path) -> str:
    """`page` with its list as this script writes it."""
    start, end = page.index(MARKERS[0]), page.index(MARKERS[1]) + len(MARKERS[1])
    return page[:start] + section(root) + page[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args(argv)
    page = (ROOT / PAGE).read_text(encoding="utf-8")
    new = written(page, ROOT)
    if args.check:
        if new != page:
            print(f"{PAGE} is out of date: run python tools/module_list.py", file=sys.stderr)
            return 1
        return 0
    (ROOT / PAGE).write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
