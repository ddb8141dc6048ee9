"""A `NamedTuple`'s JSON, read and written from its declaration, strictly.

A value is written as an object of its fields (a tuple as a list), and read back by a
reader made from the class's type hints: exactly its fields (none missing, none more),
`bool` a JSON true or false, `int` a whole number from 0 to `MAX_COUNT` (never a bool or
a float), `float` a finite number, a `Literal` one of its values (of its own type), `None`
only where the hint allows it, a fixed `tuple[A, B]` a list of exactly that many, and a
nested `NamedTuple` by the same rules. What a type cannot bound (a `str`, a `tuple[X,
...]`) must say its `view.Kind`, whose reader the wire gives (`KINDS`): a declaration
without one is refused when its reader is made, never let through unbounded. So a new
field of `view.RoomView` is one line there; the wire needs nothing unless it is of a new kind.

Our own, not msgspec or cattrs: msgspec writes a `NamedTuple` as an array and bounds
fields by its own `Struct`s (the hubs and screens use `RoomView` as a tuple, its _replace
included), cattrs converts leniently ("5" and 5.7 to 5) unless each type gets a hook; and
neither knows a displayable name or a room code, which stay the wire's kinds either way.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from tui_tictactoe.rooms.socket.frames import WireError
from tui_tictactoe.rooms.view import Kind

T = TypeVar("T")
Reader = Callable[[object, str], Any]
"""Reads one JSON value (`what` names it in the error), or raises `WireError`."""
MAX_COUNT = 2**53 - 1
"""A plain `int` field's largest value: the largest whole number JSON carries exactly."""


def object_json(value: tuple[Any, ...]) -> dict[str, Any]:
    """A `NamedTuple` as the JSON object of its fields (`to_json`)."""
    return {name: to_json(getattr(value, name)) for name in value._fields}  # type: ignore[attr-defined]  # a NamedTuple's


def to_json(value: object) -> Any:
    """`value` as JSON: a `NamedTuple` as an object of its fields, a tuple as a list."""
    fields = getattr(value, "_fields", None)
    if isinstance(value, tuple) and fields is not None:
        return {name: to_json(getattr(value, name)) for name in fields}
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    return value


def reader(cls: type[T], kinds: Mapping[str, Reader]) -> Callable[[object, str], T]:
    """The strict reader of `cls` (a `NamedTuple`); `TypeError` for a declaration that
    leaves a field unbounded, or names a kind `kinds` does not have."""
    hints = get_type_hints(cls, include_extras=True)
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]  # a NamedTuple's
    read = {name: _reader(hints[name], kinds, f"{cls.__name__}.{name}") for name in fields}
    listed = ", ".join(fields)

    def parse(value: object, what: str) -> T:
        if type(value) is not dict or value.keys() != read.keys():
            raise WireError(f"{what} must be an object with exactly {listed}.")
        return cls(*(check(value[name], name) for name, check in read.items()))

    return parse


def _reader(hint: Any, kinds: Mapping[str, Reader], where: str) -> Reader:
    if get_origin(hint) is Annotated:
        kind = next((each for each in hint.__metadata__ if isinstance(each, Kind)), None)
        if kind is None or kind.name not in kinds:
            raise TypeError(f"{where}: no reader for {hint!r}")
        return kinds[kind.name]
    if hint in (bool, int, float):
        return _PLAIN[hint]
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        return reader(hint, kinds)
    return _composite(hint, kinds, where)


def _composite(hint: Any, kinds: Mapping[str, Reader], where: str) -> Reader:
    """A reader for `X | None`, a `Literal`, a fixed tuple; `TypeError` for anything else."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        others = [each for each in args if each is not type(None)]
        if len(others) != 1 or len(args) != 2:
            raise TypeError(f"{where}: a union is one type or None, not {hint!r}")
        inner = _reader(others[0], kinds, where)
        return lambda value, what: None if value is None else inner(value, what)
    if origin is Literal:
        return _one_of(args)
    if origin is tuple and args and args[-1] is not Ellipsis:
        return _fixed([_reader(each, kinds, where) for each in args])
    raise TypeError(f"{where}: {hint!r} has no bound of its own: give it a view.Kind")


def _bool(value: object, what: str) -> bool:
    if type(value) is not bool:
        raise WireError(f"{what} must be true or false.")
    return value


def _count(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise WireError(f"{what} must be a whole number from 0 to {MAX_COUNT}.")
    return value


def _number(value: object, what: str) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise WireError(f"{what} must be a finite number.")
    return float(value)  # type: ignore[arg-type]


_PLAIN: dict[type, Reader] = {bool: _bool, int: _count, float: _number}


def _one_of(choices: tuple[Any, ...]) -> Reader:
    said = ", ".join(map(str, choices))

    def parse(value: object, what: str) -> Any:
        for choice in choices:
            if type(value) is type(choice) and value == choice:
                return choice
        raise WireError(f"{what} must be one of {said}.")

    return parse


def _fixed(items: list[Reader]) -> Reader:
    def parse(value: object, what: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(items):
            raise WireError(f"{what} must be a list of exactly {len(items)}.")
        return tuple(check(item, what) for check, item in zip(items, value, strict=True))

    return parse
