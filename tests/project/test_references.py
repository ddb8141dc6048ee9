"""Docs that cannot drift: every backticked reference in the package's docstrings, in
docs/*.md, README.md and CONTRIBUTING.md names something that exists.

What is checked (markdown's fenced blocks are left out: they hold commands and output):

- a bare `name()` or `_private` name: the package binds it somewhere (a definition, an
  attribute, a parameter, an import) or it is a builtin;
- a dotted name, `servers.names`, `Room.offer`, `Room.offer()`, in the docstrings of the
  package's modules, classes and functions and in the strings under an assignment (an
  attribute's docstring), and in the docs;
- a file path, `servers/control_budget.py`, `tests/realtime/ssh/test_serve_ssh_flood.py`,
  optionally with `::name` parts (`tests/servers/test_names.py::test_x`), and a bare file
  name of the repository's sources (`.py`, `.md`, `.tcss`, `.toml`: `schema.py`); a
  segment with a dot must end in a file extension (`X.O/.X./..O` is a board, and
  `198.51.100.0/24` a network: neither is a path).

How a dotted name resolves (read with `ast`: no module of the package is imported, so
nothing starts; only the standard library and installed third-party modules are imported,
to look their attributes up). It resolves when any of these holds:

1. a module path with the rest names in it: absolute (`tui_tictactoe.record.names`),
   relative to `tui_tictactoe` (`record.moderation.NAMES_PER_KEY`), relative to the
   docstring's own module or one of its packages (`Room.offer` in `rooms/room.py`,
   `postgres.hub` in `rooms/`), or a module named by the end of its path (`drain.Drain`
   for `servers.ops.drain`); a name in a module is anything bound at its top level
   (definitions, assignments, imports, also under `if`/`try`); an imported name is
   followed to where it comes from;
2. `Class.attribute` where Class is any class of the package, by name (a name defined
   in two classes may resolve to either): its methods, nested classes, class attributes,
   annotated fields (dataclasses, NamedTuples), the instance attributes its methods
   assign (`self.x = ...`), and those of its bases (the package's by name, others
   imported and looked up); `self.x` in a class's docstrings names the class's own;
3. a name the docstring's module imports (else one any module of the package imports
   under its own name: an alias, `import rows as pg_rows`, is its module's own), then
   the rest: `App.run` where `App` is `textual.app.App`;
4. an absolute module of the standard library or an installed package with the rest
   its attributes: `asyncio.get_running_loop`;
5. SQL `table.column` where both are written in the package's schema code (every
   `CREATE TABLE` and `ALTER TABLE ... ADD COLUMN` in the package's strings: SQLite's
   record/schema.py and record/moderation.py, PostgreSQL's record/postgres/schema.py and
   rooms/postgres/schema.py);
6. a JSON log event the servers write: the name passed to `Event("...")` (or to a
   helper that hands its first argument on to `Event`), and the names of `KNOWN_LINES`
   (servers/ops/log_format.py);
7. it is in `ALLOWED` below, each entry with why.

A path resolves when it is a whole-segment ending of a tracked file or directory of the
repository (`servers/names.py`, `tests/README.md`), and each `::name` part is a class or
function defined in that file (nested in the one before).
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.util
import itertools
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tui_tictactoe"
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "CONTRIBUTING.md"]

ALLOWED = {
    # Names that look like references but name no code. Keep it short; each says why.
    "_total": "Prometheus' suffix for a counter's name (servers/ops/metrics.py)",
}

SPAN = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
EXTENSIONS = {
    *("py", "md", "toml", "tcss", "svg", "json", "txt", "cfg", "ini", "service", "conf"),
    *("sql", "html", "js", "css", "png", "log", "pem", "pub", "yaml", "yml", "lock", "sh"),
    *("csv", "sqlite3", "socket"),
}
BARE = re.compile(r"[A-Za-z_]\w*\(\)|_\w+")
SOURCES = {"py", "md", "tcss", "toml"}  # a bare file name with these is the repository's
SEGMENT = re.compile(rf"\.?[\w-]+(?:\.(?:{'|'.join(EXTENSIONS)}))?")
PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*/?(?:::\w+)*")


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    names: set[str] = field(default_factory=set)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted origin


@dataclass
class ClassInfo:
    module: Module
    node: ast.ClassDef
    attributes: set[str] = field(default_factory=set)
    bases: list[str] = field(default_factory=list)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a body, those under `if`, `try` and `with` included."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _top_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _top_level(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                yield from _top_level(handler.body)
        elif isinstance(node, ast.With):
            yield from _top_level(node.body)


def _targets(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            yield from _targets(element)


def _bound(node: ast.stmt) -> Iterator[str]:
    """The names a statement binds in its scope."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            yield from _targets(target)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        yield from _targets(node.target)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            yield (alias.asname or alias.name).split(".")[0]


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    if isinstance(node, ast.Subscript):  # Generic[T], NamedTuple bases and the like
        return _dotted(node.value)
    return None


@dataclass
class Index:
    modules: dict[str, Module]
    classes: dict[str, list[ClassInfo]]
    tables: dict[str, set[str]]
    events: set[str]
    files: set[str]  # tracked files and directories, relative to ROOT
    bound: set[str]  # every name the package binds anywhere, and the builtins

    @functools.cached_property
    def endings(self) -> dict[tuple[str, ...], list[str]]:
        """The ends of the modules' paths (`("ops", "drain")`), each with what comes before."""
        ends: dict[tuple[str, ...], list[str]] = {}
        for name in self.modules:
            parts = name.split(".")
            for cut in range(1, len(parts)):
                ends.setdefault(tuple(parts[cut:]), []).append(".".join(parts[:cut]))
        return ends

    def module(self, dotted: str) -> Module | None:
        return self.modules.get(dotted)

    # -- names ------------------------------------------------------------------------

    def in_package(self, dotted: str, seen: frozenset[str] = frozenset()) -> bool:
        """`dotted` (absolute, `tui_tictactoe...`) is a module or a name in one."""
        if dotted in seen:
            return False
        seen |= {dotted}
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            module = self.modules.get(".".join(parts[:cut]))
            if module is not None:
                return self.in_module(module, parts[cut:], seen)
        return False

    def in_module(self, module: Module, rest: list[str], seen: frozenset[str]) -> bool:
        if not rest:
            return True
        first, rest = rest[0], rest[1:]
        if first in module.imports:
            return self.anywhere(".".join([module.imports[first], *rest]), seen)
        if first not in module.names:
            return False
        if not rest:
            return True
        for info in self.classes.get(first, []):
            if info.module is module and self.in_class(info, rest, seen):
                return True
        return False

    def in_class(self, info: ClassInfo, rest: list[str], seen: frozenset[str]) -> bool:
        if not rest:
            return True
        first = rest[0]
        if first in info.attributes:
            if len(rest) == 1:
                return True
            return any(
                self.in_class(nested, rest[1:], seen)
                for nested in self.classes.get(first, [])
                if nested.module is info.module
            )
        for base in info.bases:
            head, _, tail = base.partition(".")
            if head in info.module.imports:
                origin = ".".join(filter(None, [info.module.imports[head], tail]))
            elif not tail and head in self.classes:
                if any(self.in_class(other, rest, seen) for other in self.classes[head]):
                    return True
                continue
            else:
                origin = base
            if self.anywhere(".".join([origin, *rest]), seen):
                return True
        return False

    def anywhere(self, dotted: str, seen: frozenset[str] = frozenset()) -> bool:
        """An absolute dotted name, in the package or outside it."""
        if dotted.split(".")[0] == PACKAGE:
            return self.in_package(dotted, seen)
        return outside(dotted)

    # -- a reference ------------------------------------------------------------------

    def resolves(self, ref: str, module: Module | None, klass: ClassInfo | None) -> bool:
        ref = ref.removesuffix("()")
        parts = ref.split(".")
        if ref in ALLOWED or ref in self.events:
            return True
        if len(parts) == 2 and parts[1] in self.tables.get(parts[0], set()):
            return True
        if parts[0] == "self":
            scopes = [klass] if klass is not None else [i for c in self.classes.values() for i in c]
            return any(self.in_class(info, parts[1:], frozenset()) for info in scopes)
        candidates = [ref if parts[0] == PACKAGE else f"{PACKAGE}.{ref}"]
        if module is not None:
            scope = module.name
            while scope:
                candidates.append(f"{scope}.{ref}")
                scope = scope.rpartition(".")[0]
        for length in range(1, len(parts) + 1):
            for prefix in self.endings.get(tuple(parts[:length]), []):
                candidates.append(".".join([prefix, *parts]))
        if any(self.in_package(candidate) for candidate in candidates):
            return True
        if any(
            self.in_class(info, parts[1:], frozenset()) for info in self.classes.get(parts[0], [])
        ):
            return True
        if module is not None and parts[0] in module.imports:
            origins = {module.imports[parts[0]]}
        else:  # an alias (`import rows as pg_rows`) is its module's own
            origins = {
                m.imports[parts[0]]
                for m in self.modules.values()
                if m.imports.get(parts[0], "").rpartition(".")[2] == parts[0]
            }
        if any(self.anywhere(".".join([origin, *parts[1:]])) for origin in origins):
            return True
        return parts[0] != PACKAGE and outside(ref)

    def path_exists(self, text: str) -> bool:
        path, *names = text.split("::")
        path = path.rstrip("/")
        found = [known for known in self.files if known == path or known.endswith("/" + path)]
        if not found:
            return False
        if not names:
            return True
        for known in found:
            if not known.endswith(".py") or not (ROOT / known).is_file():
                continue
            scope: list[ast.stmt] = _parsed(known).body
            for name in names:
                match = [
                    node
                    for node in ast.walk(ast.Module(body=scope, type_ignores=[]))
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    and node.name == name
                ]
                if not match:
                    break
                scope = match[0].body
            else:
                return True
        return False


@functools.cache
def _parsed(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(), path)


@functools.cache
def outside(dotted: str) -> bool:
    """`dotted` names a module of the standard library or an installed package, or an
    attribute in one (dataclass fields and other annotations count)."""
    parts = dotted.split(".")
    if parts[0] == PACKAGE or "__main__" in parts or parts[0] in {"this", "antigravity"}:
        return False
    try:
        if importlib.util.find_spec(parts[0]) is None:
            return False
    except (ImportError, ValueError):
        return False
    for cut in range(len(parts), 0, -1):
        try:
            thing: object = importlib.import_module(".".join(parts[:cut]))
        except Exception:
            continue
        for name in parts[cut:]:
            if hasattr(thing, name):
                thing = getattr(thing, name)
                continue
            annotated = any(
                name in getattr(base, "__annotations__", {})
                for base in getattr(thing, "__mro__", [thing])
            )
            if not annotated:
                return False
            thing = None
        return True
    return False


def _imports(module: Module, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                module.imports[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                module.imports[top] = top
        return
    base = node.module or ""
    if node.level:
        package = module.name.split(".")
        if module.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([base] if base else [])])
    for alias in node.names:
        if alias.name != "*":
            module.imports[alias.asname or alias.name] = f"{base}.{alias.name}"


def _class_info(module: Module, node: ast.ClassDef) -> ClassInfo:
    info = ClassInfo(module, node, bases=[b for b in map(_dotted, node.bases) if b])
    for statement in _top_level(node.body):
        info.attributes.update(_bound(statement))
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(statement):
                targets: list[ast.expr] = []
                if isinstance(inner, ast.Assign):
                    targets = inner.targets
                elif isinstance(inner, (ast.AnnAssign, ast.AugAssign)):
                    targets = [inner.target]
                for target in targets:
                    for element in ast.walk(target):
                        if (
                            isinstance(element, ast.Attribute)
                            and isinstance(element.value, ast.Name)
                            and element.value.id in {"self", "cls"}
                        ):
                            info.attributes.add(element.attr)
    return info


def _strings(node: ast.AST) -> Iterator[str]:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            yield inner.value


TABLE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s*\(", re.I)
ADDED = re.compile(r"\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)\s+(.*)", re.I | re.S)
COLUMN = re.compile(r"\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
CONSTRAINT = {"primary", "unique", "check", "foreign", "constraint", "exclude"}


def _columns(body: str) -> Iterator[str]:
    """The column names of a `CREATE TABLE`'s parenthesised body."""
    depth, part = 0, ""
    for char in body:
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            yield from _column(part)
            part = ""
        else:
            part += char
    yield from _column(part)


def _column(part: str) -> Iterator[str]:
    words = part.split()
    if words and words[0].lower() not in CONSTRAINT:
        yield words[0].strip('"')


def _schema(trees: list[ast.Module]) -> dict[str, set[str]]:
    tables: dict[str, set[str]] = {}
    for tree in trees:
        for text in _strings(tree):
            for match in TABLE.finditer(text):
                tables.setdefault(match.group(1), set()).update(_columns(text[match.end() :]))
            for statement in text.split(";"):
                altered = ADDED.search(statement)
                if altered:
                    columns = COLUMN.findall(altered.group(2))
                    tables.setdefault(altered.group(1), set()).update(columns)
    return tables


def _events(trees: list[ast.Module]) -> set[str]:
    """The event names the servers log (see the module's docstring, point 6)."""
    helpers = {"Event"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.args:
                params = [a.arg for a in node.args.args if a.arg not in {"self", "cls"}]
                for call in ast.walk(node):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "Event"
                        and call.args
                        and isinstance(call.args[0], ast.Name)
                        and params
                        and call.args[0].id == params[0]
                    ):
                        helpers.add(node.name)
    events = {"message"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                name = _dotted(node.func)
                first = node.args[0]
                if (
                    name is not None
                    and name.split(".")[-1] in helpers
                    and isinstance(first, ast.Constant)
                    and isinstance(first.value, str)
                ):
                    events.add(first.value)
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id == "KNOWN_LINES"
                and node.value is not None
            ):
                for element in ast.walk(node.value):
                    if isinstance(element, ast.Tuple) and len(element.elts) == 2:
                        second = element.elts[1]
                        if isinstance(second, ast.Constant) and isinstance(second.value, str):
                            events.add(second.value)
    return events


@functools.cache
def index() -> Index:
    modules: dict[str, Module] = {}
    classes: dict[str, list[ClassInfo]] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        module = Module(_module_name(path), path, ast.parse(path.read_text(), str(path)))
        modules[module.name] = module
        for statement in _top_level(module.tree.body):
            module.names.update(_bound(statement))
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                _imports(module, statement)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(_class_info(module, node))
    sources = {m.name: m.path.read_text() for m in modules.values()}
    with_tables = [m.tree for m in modules.values() if "TABLE" in sources[m.name]]
    with_events = [m.tree for m in modules.values() if "Event(" in sources[m.name]]
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    files = set(listed)
    for name in listed:
        parts = name.split("/")
        files.update("/".join(parts[:cut]) for cut in range(1, len(parts)))
    bound = set(dir(builtins))
    for module in modules.values():
        bound |= module.names | set(module.imports)
        for node in ast.walk(module.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
    for infos in classes.values():
        for info in infos:
            bound |= info.attributes
    events = _events(with_events)
    return Index(modules, classes, _schema(with_tables), events, files, bound)


@dataclass(frozen=True)
class Reference:
    text: str
    where: str
    module: str | None = None
    klass: str | None = None  # the enclosing class's name, for `self.x`


def _spans(text: str) -> Iterator[tuple[int, str]]:
    """The backticked spans of a text and their line offsets, fenced blocks left out."""
    fenced = False
    for number, line in enumerate(text.splitlines()):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            for match in SPAN.finditer(line):
                yield number, match.group(1).strip()


def _docstrings(module: Module) -> Iterator[tuple[ast.AST, str, str | None]]:
    """Each docstring of a module (its own, its classes', its functions', an
    attribute's) with the node it documents and the enclosing class's name."""

    def walk(node: ast.AST, klass: str | None) -> Iterator[tuple[ast.AST, str, str | None]]:
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            return
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield body[0], doc, klass
        for before, after in itertools.pairwise(body):
            if (
                isinstance(before, (ast.Assign, ast.AnnAssign))
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                yield after, after.value.value, klass
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, child.name)
            elif isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.If, ast.Try, ast.With)
            ):
                yield from walk(child, klass)

    yield from walk(module.tree, None)


def references() -> Iterator[Reference]:
    for module in index().modules.values():
        place = module.path.relative_to(ROOT)
        for node, doc, klass in _docstrings(module):
            start = getattr(node, "lineno", 1)
            for offset, text in _spans(doc):
                yield Reference(text, f"{place}:{start + offset}", module.name, klass)
    for path in DOCS:
        for offset, text in _spans(path.read_text()):
            yield Reference(text, f"{path.relative_to(ROOT)}:{offset + 1}")


def kind(text: str) -> str | None:
    """ "path", "name", "bare" or None (not a reference: code, a command, a value)."""
    if text.startswith(("/", "~", "./", "..")) or any(c in text for c in "<>*{}$ "):
        return None
    head = text.split("::")[0].rstrip("/")
    segments = head.split("/")
    if "/" in text and PATH.fullmatch(text) and all(map(SEGMENT.fullmatch, segments)):
        return "path"
    stem, _, extension = head.rpartition(".")
    if "/" not in head and stem and extension in SOURCES:
        return "path"
    if DOTTED.fullmatch(text.removesuffix("()")) and extension not in EXTENSIONS:
        return "name"
    if BARE.fullmatch(text):
        return "bare"
    return None


def broken() -> list[str]:
    found = index()
    bad = []
    for reference in references():
        what = kind(reference.text)
        if what is None:
            continue
        if what == "path":
            ok = found.path_exists(reference.text)
        elif what == "bare":
            ok = reference.text in ALLOWED or reference.text.removesuffix("()") in found.bound
        else:
            module = found.module(reference.module) if reference.module else None
            klass = None
            if module is not None and reference.klass is not None:
                klass = next(
                    (
                        info
                        for info in found.classes.get(reference.klass, [])
                        if info.module is module
                    ),
                    None,
                )
            ok = found.resolves(reference.text, module, klass)
        if not ok:
            bad.append(f"{reference.where}: `{reference.text}`")
    return bad


def checked() -> int:
    return sum(1 for reference in references() if kind(reference.text) is not None)


def test_every_reference_in_the_docs_and_docstrings_resolves() -> None:
    bad = broken()
    assert not bad, f"{len(bad)} of {checked()} references resolve to nothing:\n" + "\n".join(bad)


def test_the_checker_finds_a_broken_reference() -> None:
    """The checker itself: what is renamed away fails, what exists passes."""
    found = index()
    room = found.module(f"{PACKAGE}.rooms.room")
    assert found.resolves("Room.offer", room, None)
    assert not found.resolves("Room.no_such_method", room, None)
    assert not found.resolves("servers.drain", None, None)
    assert found.resolves("asyncio.get_running_loop", None, None)
    assert found.path_exists("servers/control_budget.py")
    assert not found.path_exists("servers/no_such_module.py")


NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def test_the_docs_count_the_import_contracts_there_are() -> None:
    """docs/architecture.md says how many import-linter contracts check the layers (it said
    two when there were four)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    said = re.findall(r"(\w+) import-linter contracts", (ROOT / "docs/architecture.md").read_text())
    assert said, "docs/architecture.md no longer counts the import-linter contracts"
    assert [NUMBERS.index(word.lower()) for word in said] == [len(contracts["contracts"])] * len(
        said
    )


if __name__ == "__main__":
    print("\n".join(broken()))
    print(checked(), "references checked", file=sys.stderr)
