"""Finding a learner's `MoveStrategy` by the name given on the local command line.

`--strategy` and `grade` take `FILE.py:CLASS` (a path), `MODULE:CLASS` (an importable
module), or the name of an installed strategy: a package registers one under the entry
point group tui_tictactoe.strategies (this package registers its own, `minimax` and
`random`, in pyproject.toml). The class is made with no arguments.

This runs the named code, so it is only ever called for the command line of the person at
this machine: the servers' parsers refuse `--strategy` (`play_arguments.add_play_options`)
and nothing a client sends reaches here.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TypeVar

from tui_tictactoe.commands.play_arguments import echo
from tui_tictactoe.engine.strategies import MoveStrategy

T = TypeVar("T")

SHOWN = 200  # characters of a strategy's name quoted in a message

GROUP = "tui_tictactoe.strategies"
"""The entry point group installed strategies are found in."""


class StrategyLoadError(Exception):
    """The named strategy cannot be made: one line saying why."""


def installed() -> list[EntryPoint]:
    """The strategies installed packages register, by name."""
    return sorted(entry_points(group=GROUP), key=lambda point: point.name)


def load_strategy(spec: str) -> MoveStrategy:
    """A new instance of the strategy `spec` names; StrategyLoadError if it cannot be made."""
    where, colon, class_name = spec.rpartition(":")
    if not colon:
        found = {point.name: point for point in installed()}
        point = found.get(spec)
        if point is None:
            names = ", ".join(found) or "none"
            raise StrategyLoadError(
                f"no strategy {echo(spec, SHOWN)}: give FILE.py:CLASS or MODULE:CLASS, "
                f"or an installed one ({names})"
            )
        target: object = _run(point.load, f"cannot load {point.value}")
        return _made(target, spec)
    if not where or not class_name.isidentifier():
        raise StrategyLoadError(f"{echo(spec, SHOWN)} is not FILE.py:CLASS or MODULE:CLASS")
    module = _module(where)
    target = getattr(module, class_name, None)
    if target is None:
        raise StrategyLoadError(f"{echo(where, SHOWN)} has no {class_name}")
    return _made(target, spec)


def _module(where: str) -> object:
    """The module at a path (ending in .py, or holding a /), else by its import name."""
    if where.endswith(".py") or "/" in where or "\\" in where:
        path = Path(where).expanduser()
        if not path.is_file():
            raise StrategyLoadError(f"no file {echo(where, SHOWN)}")
        name = f"tui_tictactoe_strategy_{abs(hash(str(path.resolve())))}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise StrategyLoadError(f"cannot load {echo(where, SHOWN)} as Python")
        module = importlib.util.module_from_spec(spec)
        folder = str(path.resolve().parent)
        if folder not in sys.path:
            sys.path.append(folder)  # its own helpers beside it can be imported
        sys.modules[name] = module  # dataclasses and pickling look their module up
        loader = spec.loader
        _run(lambda: loader.exec_module(module), f"cannot load {echo(where, SHOWN)}")
        return module
    return _run(lambda: importlib.import_module(where), f"cannot import {echo(where, SHOWN)}")


def _run(load: Callable[[], T], failure: str) -> T:
    """`load()`, any exception from the learner's code said as one line."""
    try:
        return load()
    except BaseException as error:  # SystemExit too: an import that exits is its failure
        if isinstance(error, KeyboardInterrupt):
            raise
        text = " ".join(str(error).split())
        text = text if len(text) <= 120 else text[:119] + "…"
        raise StrategyLoadError(f"{failure}: {type(error).__name__}: {text}") from None


def _made(target: object, spec: str) -> MoveStrategy:
    if not (isinstance(target, type) and issubclass(target, MoveStrategy)):
        raise StrategyLoadError(
            f"{echo(spec, SHOWN)} is not a MoveStrategy subclass "
            "(class MyStrategy(MoveStrategy): def find_best_move(self, board, player, cancelled))"
        )
    made: MoveStrategy = _run(target, f"cannot make {echo(spec, SHOWN)}() with no arguments")
    return made
