"""The rooms' wire: how a game process and the hub server talk over a local socket.

Each message is a 4-byte big-endian length and then that many bytes of UTF-8 JSON, one
object. Every frame is bounded before it is read (`MAX_REQUEST` from a game process,
`MAX_REPLY` from the server) and every field is checked into the `view` types on both
sides: what either end takes from the socket is hostile until it has been through here.
Anything else raises `WireError` (and nothing else), whose text says why; the server
then closes that connection. The frames themselves are in `frames`.

A game process sends requests `{"id": n, "op": "create", "args": {...}}`; the server
answers each with `{"id": n, "ok": RESULT}` (RESULT: null, `{"ticket": ...}`,
`{"rooms": [...]}`, `{"place": ...}` or `{"queue": ...}`) or `{"id": n, "refused":
"reason"}`, and for an `updates` request pushes `{"id": n, "room": {...}}` for each new view, then ends it with a reply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from tui_tictactoe.identity import displayable
from tui_tictactoe.rooms import codes
from tui_tictactoe.rooms.matching import Place, QueueState
from tui_tictactoe.rooms.operations import LARGEST, MAX_ID, OPERATIONS, SMALLEST, Arg
from tui_tictactoe.rooms.room import SIZES
from tui_tictactoe.rooms.socket import codec
from tui_tictactoe.rooms.socket.frames import FrameDecoder as FrameDecoder
from tui_tictactoe.rooms.socket.frames import WireError as WireError
from tui_tictactoe.rooms.socket.frames import decode_body as decode_body
from tui_tictactoe.rooms.socket.frames import encode as encode
from tui_tictactoe.rooms.view import (
    OFFERS,
    SEATS,
    OfferKind,
    Person,
    RoomSummary,
    RoomView,
    SeatName,
    Ticket,
)

ENV_VAR = "TUI_TICTACTOE_ROOM_HUB"
"""Where a game process finds the hub server's socket: `serve-ssh` sets it for its games."""
MAX_REQUEST = 16 * 1024
"""The largest frame a game process may send (a request is well under 1 KiB)."""
MAX_REPLY = 1024 * 1024
"""The largest frame the server may send: a lobby of `MAX_LISTED` rooms fits in it."""
MAX_LISTED = 1000
"""At most this many rooms in one `rooms` answer (the server sends the first ones)."""
MAX_CELL = LARGEST**2  # the last cell of the largest board
MAX_TYPED_CODE = 64  # a code as typed; the hub reads at most 32 characters of it
MAX_TOKEN = 64
MAX_KEY = 128  # a key's fingerprint ("SHA256:" and 43 characters)
MAX_ADDRESS = 64  # an IPv6 address with its zone
MAX_REASON = 400
MAX_WATCHERS = 1_000_000
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class Request(NamedTuple):
    """A checked request: `args` in the order of the `RoomHub` method's parameters."""

    id: int
    op: str
    args: tuple[Any, ...]


class Reply(NamedTuple):
    """The answer to request `id`: a value (None, a `Ticket`, a list of `RoomSummary`),
    or the hub's refusal as `refused`."""

    id: int
    value: Any = None
    refused: str | None = None


class Push(NamedTuple):
    """A new view of the room for the `updates` stream opened by request `id`."""

    id: int
    room: RoomView


# -- checks of one field ------------------------------------------------------------


def _int(value: object, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise WireError(f"{what} must be a whole number from {low} to {high}.")
    return value


def _bool(value: object, what: str) -> bool:
    if type(value) is not bool:
        raise WireError(f"{what} must be true or false.")
    return value


def _text(value: object, limit: int, what: str) -> str:
    if type(value) is not str or len(value) > limit or not value.isprintable():
        raise WireError(f"{what} must be printable text of at most {limit} characters.")
    return value


def _seat(value: object, what: str = "a seat") -> SeatName:
    if value not in SEATS or type(value) is not str:
        raise WireError(f"{what} must be X or O.")
    return value


def _fields(value: object, names: tuple[str, ...], what: str) -> dict[str, Any]:
    """A JSON object with exactly these keys."""
    if type(value) is not dict or set(value) != set(names):
        raise WireError(f"{what} must be an object with exactly {', '.join(names)}.")
    return value


def _list(value: object, limit: int, what: str) -> list[Any]:
    if type(value) is not list or len(value) > limit:
        raise WireError(f"{what} must be a list of at most {limit}.")
    return value


def _code(value: object) -> str:
    """A room's code as the hub gives it: four letters of the codes' alphabet."""
    if (
        type(value) is not str
        or len(value) != codes.LENGTH
        or any(char not in codes.ALPHABET for char in value)
    ):
        raise WireError("A room code must be four letters of the codes' alphabet.")
    return value


def _token(value: object) -> str:
    if type(value) is not str or len(value) > MAX_TOKEN or not _TOKEN_CHARS.issuperset(value):
        raise WireError(f"A seat token must be at most {MAX_TOKEN} letters, digits, - or _.")
    return value


def _round_key(value: object) -> str:
    """A round's key in the record: a UUID as the hub makes them, or "" (none)."""
    if type(value) is not str or len(value) > MAX_TOKEN or not _TOKEN_CHARS.issuperset(value):
        raise WireError(f"A round key must be at most {MAX_TOKEN} letters, digits, - or _.")
    return value


def _name(value: object) -> str:
    """A name already made displayable: `identity.displayable` would leave it as it is."""
    if type(value) is not str or displayable(value) != value:
        raise WireError("A name must be displayable text (identity.displayable).")
    return value


# -- the view types: read and written from their declarations (`codec`) ------------------


def _moves(value: object, what: str) -> tuple[int, ...]:
    """Cells of the largest board, each once (`view_from_json` bounds them by the view's
    own size)."""
    moves = tuple(_int(cell, 1, MAX_CELL, "a move") for cell in _list(value, MAX_CELL, what))
    if len(set(moves)) != len(moves):
        raise WireError("No cell is played twice.")
    return moves


def _seats(value: object, what: str) -> tuple[SeatName, ...]:
    seats = tuple(_seat(seat, what) for seat in _list(value, len(SEATS), what))
    if len(set(seats)) != len(seats):
        raise WireError(f"{what} names each seat once.")
    return seats


KINDS: dict[str, Callable[[object, str], Any]] = {
    "code": lambda value, _: _code(value),
    "name": lambda value, _: _name(value),
    "key": lambda value, what: _text(value, MAX_KEY, what),
    "address": lambda value, what: _text(value, MAX_ADDRESS, what),
    "token": lambda value, _: _token(value),
    "round_key": lambda value, _: _round_key(value),
    "size": lambda value, what: _int(value, SMALLEST, LARGEST, what),
    "round": lambda value, what: _int(value, 1, MAX_ID, what),
    "watchers": lambda value, what: _int(value, 0, MAX_WATCHERS, what),
    "moves": _moves,
    "seats": _seats,
    "players": lambda value, what: tuple(_name(name) for name in _list(value, 2, what)),
}
"""The readers of the fields whose type bounds too little (`view.Kind`): what a value of
that kind may be, read off the wire."""

_read_person = codec.reader(Person, KINDS)
_read_ticket = codec.reader(Ticket, KINDS)
_read_view = codec.reader(RoomView, KINDS)
_read_summary = codec.reader(RoomSummary, KINDS)


def person_to_json(person: Person) -> dict[str, Any]:
    return codec.object_json(person)


def person_from_json(value: object) -> Person:
    return _read_person(value, "a person")


def ticket_to_json(ticket: Ticket) -> dict[str, Any]:
    return codec.object_json(ticket)


def ticket_from_json(value: object) -> Ticket:
    return _read_ticket(value, "a ticket")


def view_to_json(view: RoomView) -> dict[str, Any]:
    return codec.object_json(view)


def view_from_json(value: object) -> RoomView:
    """A room as its declaration says (`codec`), and its moves cells of its own board."""
    view = _read_view(value, "a room")
    if view.moves and max(view.moves) > view.size * view.size:
        raise WireError("A move is a cell of the room's board.")
    return view


def _offer_kind(value: object) -> OfferKind:
    for kind in OFFERS:
        if value == kind and type(value) is str:
            return kind
    raise WireError("An offer is one of " + ", ".join(OFFERS) + ".")


def summary_to_json(summary: RoomSummary) -> dict[str, Any]:
    return codec.object_json(summary)


def summary_from_json(value: object) -> RoomSummary:
    return _read_summary(value, "a room summary")


def place_to_json(place: Place) -> dict[str, Any]:
    return {"token": place.token, "size": place.size}


def place_from_json(value: object) -> Place:
    obj = _fields(value, ("token", "size"), "a queue place")
    return Place(_token(obj["token"]), _int(obj["size"], SMALLEST, LARGEST, "size"))


def queue_to_json(state: QueueState) -> dict[str, Any]:
    ticket = None if state.ticket is None else ticket_to_json(state.ticket)
    return {"waiting": list(state.waiting), "ticket": ticket}


def queue_from_json(value: object) -> QueueState:
    obj = _fields(value, ("waiting", "ticket"), "the queues")
    waiting = _list(obj["waiting"], len(SIZES), "waiting")
    if len(waiting) != len(SIZES):
        raise WireError(f"The queues are {len(SIZES)} counts, one a board.")
    ticket = None if obj["ticket"] is None else ticket_from_json(obj["ticket"])
    return QueueState(tuple(_int(n, 0, MAX_ID, "a count") for n in waiting), ticket)


# -- requests ------------------------------------------------------------------------


def _typed_code(value: object) -> str:
    """A code as a person typed it: the hub reads it and says what is wrong with it."""
    return _text(value, MAX_TYPED_CODE, "a typed room code")


_CHECKS: dict[str, Callable[[object, str], Any]] = {
    "person": lambda value, _: person_from_json(value),
    "ticket": lambda value, _: ticket_from_json(value),
    "typed_code": lambda value, _: _typed_code(value),
    "token": lambda value, _: _token(value),
    "seat": _seat,
    "bool": _bool,
    "offer": lambda value, _: _offer_kind(value),
    "place": lambda value, _: place_from_json(value),
}


def _check(arg: Arg) -> Callable[[object], Any]:
    """How argument `arg` is checked when it is read from the wire."""
    if arg.kind == "int":
        return lambda value: _int(value, arg.low, arg.high, arg.name)
    check = _CHECKS[arg.kind]
    return lambda value: check(value, arg.name)


OPS: dict[str, tuple[tuple[str, Callable[[object], Any]], ...]] = {
    **{op.name: tuple((arg.name, _check(arg)) for arg in op.args) for op in OPERATIONS.values()},
    "ping": (),
    "stop": (("stream", lambda v: _int(v, 0, MAX_ID, "stream")),),
}
"""Every request a game process may send and its arguments, each with its check: the
hub's operations (`operations.OPERATIONS`), and two of the wire's own: `ping` keeps an
idle connection open; `stop` ends the `updates` stream of request `stream` (a client
that stopped reading it)."""

_TO_JSON: dict[type, Callable[[Any], Any]] = {
    Person: person_to_json,
    Ticket: ticket_to_json,
    Place: place_to_json,
}


def request_to_json(request: Request) -> dict[str, Any]:
    """The request as JSON, checked as the server will check it (`WireError` if not)."""
    spec = OPS.get(request.op)
    if spec is None or len(spec) != len(request.args):
        raise WireError(f"No request {request.op!r} with {len(request.args)} arguments.")
    args = {
        name: _TO_JSON[type(arg)](arg) if type(arg) in _TO_JSON else arg
        for (name, _), arg in zip(spec, request.args, strict=True)
    }
    obj = {"id": request.id, "op": request.op, "args": args}
    request_from_json(obj)
    return obj


def request_from_json(value: object) -> Request:
    obj = _fields(value, ("id", "op", "args"), "a request")
    op = obj["op"]
    if type(op) is not str or op not in OPS:
        raise WireError("op must be one of " + ", ".join(OPS) + ".")
    spec = OPS[op]
    args = _fields(obj["args"], tuple(name for name, _ in spec), f"the arguments of {op}")
    return Request(
        _int(obj["id"], 0, MAX_ID, "id"), op, tuple(check(args[name]) for name, check in spec)
    )


# -- what the server sends -------------------------------------------------------------


def reply_to_json(reply: Reply) -> dict[str, Any]:
    """The reply as JSON, checked as a client will check it (`WireError` if not)."""
    if reply.refused is not None:
        obj: dict[str, Any] = {"id": reply.id, "refused": reply.refused}
    elif isinstance(reply.value, Ticket):
        obj = {"id": reply.id, "ok": {"ticket": ticket_to_json(reply.value)}}
    elif isinstance(reply.value, Place):
        obj = {"id": reply.id, "ok": {"place": place_to_json(reply.value)}}
    elif isinstance(reply.value, QueueState):
        obj = {"id": reply.id, "ok": {"queue": queue_to_json(reply.value)}}
    elif isinstance(reply.value, list):
        listed = [summary_to_json(summary) for summary in reply.value[:MAX_LISTED]]
        obj = {"id": reply.id, "ok": {"rooms": listed}}
    elif reply.value is None:
        obj = {"id": reply.id, "ok": None}
    else:
        raise WireError(f"No reply carries a {type(reply.value).__name__}.")
    server_message_from_json(obj)
    return obj


def push_to_json(push: Push) -> dict[str, Any]:
    obj = {"id": push.id, "room": view_to_json(push.room)}
    server_message_from_json(obj)
    return obj


def _ok_value(value: object) -> Any:
    if value is None:
        return None
    if type(value) is dict and set(value) == {"ticket"}:
        return ticket_from_json(value["ticket"])
    if type(value) is dict and set(value) == {"rooms"}:
        return [summary_from_json(item) for item in _list(value["rooms"], MAX_LISTED, "rooms")]
    if type(value) is dict and set(value) == {"place"}:
        return place_from_json(value["place"])
    if type(value) is dict and set(value) == {"queue"}:
        return queue_from_json(value["queue"])
    raise WireError("ok must be null, {ticket}, {rooms}, {place} or {queue}.")


def server_message_from_json(value: object) -> Reply | Push:
    if type(value) is not dict or "id" not in value or len(value) != 2:
        raise WireError("A message from the server is an object with id and one more key.")
    ident = _int(value["id"], 0, MAX_ID, "id")
    if "ok" in value:
        return Reply(ident, _ok_value(value["ok"]))
    if "refused" in value:
        reason = _text(value["refused"], MAX_REASON, "a reason")
        if not reason:
            raise WireError("A refusal gives its reason.")
        return Reply(ident, refused=reason)
    if "room" in value:
        return Push(ident, view_from_json(value["room"]))
    raise WireError("A message from the server has ok, refused or room.")
