"""The rules the wire's codec (`rooms.socket.codec`) enforces on every field of a room's
view by its declared type, one test a rule. The fields and their types are read from
`view.RoomView`'s declaration (and the values nested in it), never listed here: a new
field is held to its type's rule by these tests as it is by the wire."""

from __future__ import annotations

import copy
import math
import types
from collections.abc import Iterator
from typing import Annotated, Any, Literal, NamedTuple, Union, get_args, get_origin, get_type_hints

import pytest

from tui_tictactoe.rooms.socket import codec, wire
from tui_tictactoe.rooms.view import Answer, Kind, Offer, Person, RoomView, SeatView

ANN = Person("ann", "SHA256:ann", "10.0.0.1")
FULL = RoomView(
    "ABCD",
    3,
    7,
    2,
    "X",
    (5, 1),
    (SeatView(ANN, True), SeatView(ANN._replace(name="bob"), False, 160.5)),
    (1, 0, 2),
    result="X",
    left_by="O",
    rematch=("X",),
    opener="X",
    offer=Offer("draw", "O"),
    deadline=130.25,
    cause="time",
    grace=60.0,
    aborted_by="O",
    answered=Answer("take_back", "X", False),
)
"""A view with every nested value present (seats' people, the offer, the answer)."""

Path = tuple[str | int, ...]


def _bare(hint: Any) -> tuple[Any, bool]:
    """The hint without `None` (and whether it allowed it)."""
    if get_origin(hint) in (Union, types.UnionType):
        others = [each for each in get_args(hint) if each is not type(None)]
        return others[0], True
    return hint, False


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields")


def _fields(cls: type, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every field of `cls` and of the records nested in it: its path in the view's JSON
    and its declared type."""
    for name, hint in get_type_hints(cls, include_extras=True).items():
        yield (*path, name), hint
        bare, _ = _bare(hint)
        if _is_record(bare):
            yield from _fields(bare, (*path, name))
        elif get_origin(bare) is tuple and get_origin(bare) is not Annotated:
            for index, item in enumerate(get_args(bare)):
                if _is_record(item):
                    yield from _fields(item, (*path, name, index))


FIELDS = list(_fields(RoomView))


def _where(path: Path) -> str:
    return ".".join(map(str, path))


def _of(kind: Any) -> list[tuple[Path, Any]]:
    """The fields whose type (None aside) is `kind`, or passes the test `kind`."""
    found = []
    for path, hint in FIELDS:
        bare, _ = _bare(hint)
        if (bare is kind) if isinstance(kind, type) else kind(bare):
            found.append((path, hint))
    return found


def _with(path: Path, value: object) -> dict[str, Any]:
    obj = copy.deepcopy(wire.view_to_json(FULL))
    place: Any = obj
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return obj


def _without(path: Path) -> dict[str, Any]:
    obj = _with(path, None)
    place: Any = obj
    for step in path[:-1]:
        place = place[step]
    del place[path[-1]]
    return obj


def _refused(obj: dict[str, Any]) -> bool:
    try:
        wire.view_from_json(obj)
    except wire.WireError:
        return True
    return False


def _records() -> list[Path]:
    """Where a record (an object on the wire) sits in the view: the view itself too."""
    return [(), *(path for path, hint in FIELDS if _is_record(_bare(hint)[0]))]


def test_the_full_view_round_trips() -> None:
    assert wire.view_from_json(wire.view_to_json(FULL)) == FULL
    assert all(_bare(hint)[0] is not str for _, hint in FIELDS)  # a str always has a Kind


@pytest.mark.parametrize("path", _records(), ids=_where)
def test_an_object_with_a_field_more_is_refused(path: Path) -> None:
    obj = wire.view_to_json(FULL)
    place: Any = copy.deepcopy(obj)
    target = place
    for step in path:
        target = target[step]
    target["extra"] = False
    assert _refused(place)


@pytest.mark.parametrize(("path", "hint"), FIELDS, ids=[_where(p) for p, _ in FIELDS])
def test_a_missing_field_is_refused(path: Path, hint: Any) -> None:
    assert _refused(_without(path))


@pytest.mark.parametrize(("path", "hint"), FIELDS, ids=[_where(p) for p, _ in FIELDS])
def test_null_only_where_the_type_allows_it(path: Path, hint: Any) -> None:
    if _bare(hint)[1]:
        assert wire.view_from_json(_with(path, None)) is not None
    else:
        assert _refused(_with(path, None))


@pytest.mark.parametrize(("path", "hint"), _of(bool), ids=[_where(p) for p, _ in _of(bool)])
def test_a_bool_is_true_or_false_only(path: Path, hint: Any) -> None:
    wrong: object
    for wrong in (0, 1, "true", [], {}):
        assert _refused(_with(path, wrong)), wrong


@pytest.mark.parametrize(("path", "hint"), _of(int), ids=[_where(p) for p, _ in _of(int)])
def test_a_count_is_a_whole_number_from_0_to_the_largest_json_carries(
    path: Path, hint: Any
) -> None:
    wrong: object
    for wrong in (-1, codec.MAX_COUNT + 1, 1.0, True, "1", None if not _bare(hint)[1] else []):
        assert _refused(_with(path, wrong)), wrong
    assert not _refused(_with(path, codec.MAX_COUNT))


@pytest.mark.parametrize(("path", "hint"), _of(float), ids=[_where(p) for p, _ in _of(float)])
def test_a_number_is_finite(path: Path, hint: Any) -> None:
    wrong: object
    for wrong in (math.nan, math.inf, -math.inf, "1", True, []):
        assert _refused(_with(path, wrong)), wrong
    assert wire.view_from_json(_with(path, 7)) is not None  # a whole number is a number too


def _is_literal(hint: Any) -> bool:
    return get_origin(hint) is Literal


@pytest.mark.parametrize(
    ("path", "hint"), _of(_is_literal), ids=[_where(p) for p, _ in _of(_is_literal)]
)
def test_a_literal_is_one_of_its_values_of_their_type(path: Path, hint: Any) -> None:
    values = get_args(_bare(hint)[0])
    for wrong in (*(str(v).lower() + "?" for v in values), 1, True, [values[0]]):
        assert _refused(_with(path, wrong)), wrong
    for value in values:
        assert not _refused(_with(path, value))


def _is_fixed(hint: Any) -> bool:
    return get_origin(hint) is tuple and bool(get_args(hint)) and get_args(hint)[-1] is not ...


@pytest.mark.parametrize(
    ("path", "hint"), _of(_is_fixed), ids=[_where(p) for p, _ in _of(_is_fixed)]
)
def test_a_fixed_tuple_is_a_list_of_exactly_its_length(path: Path, hint: Any) -> None:
    items: Any = wire.view_to_json(FULL)
    for step in path:
        items = items[step]
    assert _refused(_with(path, items[:-1]))
    assert _refused(_with(path, [*items, items[-1]]))
    assert _refused(_with(path, {str(i): item for i, item in enumerate(items)}))


class _Str(NamedTuple):
    name: str


class _Many(NamedTuple):
    cells: tuple[int, ...]


class _Unknown(NamedTuple):
    code: Annotated[str, Kind("no such kind")]


class _Either(NamedTuple):
    value: int | bool


@pytest.mark.parametrize("cls", [_Str, _Many, _Unknown, _Either], ids=lambda cls: cls.__name__)
def test_a_declaration_the_codec_cannot_bound_is_refused(cls: type) -> None:
    """A field with no bound of its own and no `Kind` (or a kind with no reader) stops
    the reader from being made at all: nothing unbounded is ever read."""
    with pytest.raises(TypeError):
        codec.reader(cls, wire.KINDS)


class _New(NamedTuple):
    """A value declared with new fields, and no code for them anywhere."""

    seen: bool
    tally: int
    at: float | None
    by: Literal["X", "O"] | None
    pair: tuple[int, int]
    who: Person | None
    code: Annotated[str, Kind("code")] = "ABCD"


def test_a_new_field_needs_no_wire_code() -> None:
    read = codec.reader(_New, wire.KINDS)
    value = _New(True, 3, 1.5, "O", (1, 2), ANN)
    assert read(codec.object_json(value), "a new value") == value
    with pytest.raises(wire.WireError):
        read(codec.object_json(value._replace(tally=-1)), "a new value")
