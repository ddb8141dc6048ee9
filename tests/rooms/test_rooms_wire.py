"""The rooms' wire (`rooms.wire`): every valid value round-trips, anything else is a
clean `WireError` (never another exception, never a buffer past one frame)."""

from __future__ import annotations

import json
import struct
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_tictactoe.identity import displayable
from tui_tictactoe.rooms import codes
from tui_tictactoe.rooms.operations import LARGEST, MAX_ID
from tui_tictactoe.rooms.socket import wire
from tui_tictactoe.rooms.view import (
    SEATS,
    Answer,
    Person,
    RoomSummary,
    RoomView,
    SeatView,
    Ticket,
)

# -- strategies for every valid value -----------------------------------------------------

names = st.text(max_size=40).map(displayable)
printable = st.text(st.characters(codec="utf-8"), max_size=20).filter(str.isprintable)
persons = st.builds(Person, names, printable, printable)
seat_names = st.sampled_from(SEATS)
room_codes = st.text(st.sampled_from(codes.ALPHABET), min_size=4, max_size=4)
tokens = st.text(st.sampled_from(sorted(wire._TOKEN_CHARS)), max_size=wire.MAX_TOKEN)
tickets = st.builds(Ticket, room_codes, st.none() | seat_names, tokens)
counts = st.integers(0, MAX_ID)
seat_views = st.builds(
    SeatView,
    st.none() | persons,
    st.booleans(),
    st.none() | st.floats(allow_nan=False, allow_infinity=False),
)


@st.composite
def room_views(draw: st.DrawFn) -> RoomView:
    size = draw(st.sampled_from([3, 4, 5]))
    moves = draw(st.permutations(range(1, size * size + 1)))
    return RoomView(
        code=draw(room_codes),
        size=size,
        generation=draw(counts),
        round=draw(st.integers(1, MAX_ID)),
        first=draw(seat_names),
        moves=tuple(moves[: draw(st.integers(0, size * size))]),
        seats=(draw(seat_views), draw(seat_views)),
        score=(draw(counts), draw(counts), draw(counts)),
        result=draw(st.sampled_from([None, "X", "O", "draw", "abandoned"])),
        left_by=draw(st.none() | seat_names),
        rematch=tuple(draw(st.lists(seat_names, max_size=2, unique=True))),
        watchers=draw(st.integers(0, wire.MAX_WATCHERS)),
        closed=draw(st.booleans()),
        round_key=draw(st.sampled_from(["", "6f1c2a34-9d1e-4b7a-8c3f-0e2d4a6b8c9d"])),
        unreachable=draw(st.booleans()),
        answered=draw(
            st.none()
            | st.builds(Answer, st.sampled_from(["draw", "take_back"]), seat_names, st.booleans())
        ),
    )


summaries = st.builds(
    RoomSummary,
    room_codes,
    st.sampled_from([3, 4, 5]),
    st.lists(names, max_size=2).map(tuple),
    st.integers(0, wire.MAX_WATCHERS),
)
ids = st.integers(0, MAX_ID)
requests = st.one_of(
    st.builds(
        lambda i, *a: wire.Request(i, "create", a),
        ids,
        persons,
        st.sampled_from([3, 4, 5]),
        seat_names,
        st.booleans(),
    ),
    st.builds(lambda i, *a: wire.Request(i, "set_public", a), ids, tickets, st.booleans()),
    st.builds(lambda i, *a: wire.Request(i, "set_watching", a), ids, tickets, st.booleans()),
    st.builds(lambda i, *a: wire.Request(i, "join", a), ids, printable, persons, tokens),
    st.builds(lambda i, *a: wire.Request(i, "watch", a), ids, printable, persons),
    st.builds(
        lambda i, *a: wire.Request(i, "move", a),
        ids,
        tickets,
        st.integers(1, LARGEST**2),  # the last cell of the largest board
        counts,
    ),
    *(
        st.builds(lambda i, t, op=op: wire.Request(i, op, (t,)), ids, tickets)
        for op in ("rematch", "leave", "drop", "updates")
    ),
    st.builds(lambda i: wire.Request(i, "rooms", ()), ids),
    st.builds(lambda i: wire.Request(i, "ping", ()), ids),
    st.builds(lambda i, s: wire.Request(i, "stop", (s,)), ids, ids),
)
reasons = st.text(min_size=1, max_size=wire.MAX_REASON).filter(str.isprintable)
replies = st.one_of(
    st.builds(lambda i: wire.Reply(i), ids),
    st.builds(lambda i, t: wire.Reply(i, t), ids, tickets),
    st.builds(lambda i, s: wire.Reply(i, s), ids, st.lists(summaries, max_size=5)),
    st.builds(lambda i, r: wire.Reply(i, refused=r), ids, reasons),
)
pushes = st.builds(wire.Push, ids, room_views())


def _decode_in_pieces(data: bytes, parse, limit: int, cuts: list[int]) -> list[object]:
    decoder = wire.FrameDecoder(parse, limit)
    out, start = [], 0
    for cut in [*sorted(set(cuts)), len(data)]:
        out += decoder.feed(data[start:cut])
        start = max(start, cut)
    assert not decoder.partial
    return out


@settings(max_examples=300)
@given(st.lists(requests, max_size=5), st.lists(st.integers(0, 4000), max_size=6))
def test_requests_round_trip_in_any_pieces(batch: list[wire.Request], cuts: list[int]) -> None:
    data = b"".join(wire.encode(wire.request_to_json(r), wire.MAX_REQUEST) for r in batch)
    assert _decode_in_pieces(data, wire.request_from_json, wire.MAX_REQUEST, cuts) == batch


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(replies | pushes, max_size=4), st.lists(st.integers(0, 4000), max_size=6))
def test_server_messages_round_trip(batch: list[wire.Reply | wire.Push], cuts: list[int]) -> None:
    def to_json(message):
        if isinstance(message, wire.Push):
            return wire.push_to_json(message)
        return wire.reply_to_json(message)

    data = b"".join(wire.encode(to_json(m), wire.MAX_REPLY) for m in batch)
    got = _decode_in_pieces(data, wire.server_message_from_json, wire.MAX_REPLY, cuts)
    assert got == batch


def _clean(data: bytes, parse, limit: int) -> None:
    """Feeding `data` gives checked messages or `WireError`, never another exception (the
    bound of one frame held is measured below, with frames at the limit)."""
    decoder = wire.FrameDecoder(parse, limit)
    try:
        for start in range(0, len(data), 7):
            for message in decoder.feed(data[start : start + 7]):
                assert isinstance(message, (wire.Request, wire.Reply, wire.Push))
    except wire.WireError:
        pass


@settings(max_examples=500)
@given(st.binary(max_size=300))
def test_any_bytes_are_messages_or_a_wire_error(data: bytes) -> None:
    _clean(data, wire.request_from_json, wire.MAX_REQUEST)
    _clean(data, wire.server_message_from_json, wire.MAX_REPLY)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
envelope_keys = st.sampled_from(["id", "op", "args", "ok", "refused", "room", "ticket", "x"])


@settings(max_examples=500)
@given(st.dictionaries(envelope_keys, json_values, max_size=4))
def test_any_json_object_is_a_message_or_a_wire_error(obj: dict[str, Any]) -> None:
    frame = wire.encode(obj, wire.MAX_REPLY) if _json_ok(obj) else b""
    _clean(frame, wire.request_from_json, wire.MAX_REQUEST)
    _clean(frame, wire.server_message_from_json, wire.MAX_REPLY)


def _json_ok(obj: object) -> bool:
    try:
        json.dumps(obj, allow_nan=False)
    except ValueError:
        return False
    return True


@settings(max_examples=300)
@given(requests, st.integers(0, 10**6), st.integers(0, 255))
def test_a_changed_byte_is_still_a_message_or_a_wire_error(request, where, byte) -> None:
    frame = bytearray(wire.encode(wire.request_to_json(request), wire.MAX_REQUEST))
    frame[where % len(frame)] = byte
    _clean(bytes(frame), wire.request_from_json, wire.MAX_REQUEST)


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5_000 + b"]" * 5_000,  # deeper than the JSON reader goes, within the limit
        b'{"id": ' + b"9" * 5000 + b', "op": "ping", "args": {}}',  # too many digits
        b'{"id": NaN, "op": "ping", "args": {}}',
        b'{"id": 1, "op": "ping", "args": {}, "id": Infinity}',
        b'{"id": 1e999, "op": "ping", "args": {}}',
        b'{"id": true, "op": "ping", "args": {}}',
        b'{"id": -1, "op": "ping", "args": {}}',
        b'{"id": 1, "op": "__class__", "args": {}}',
        b'{"id": 1, "op": "ping", "args": {"x": 1}}',
        b'{"id": 1, "op": "ping"}',
        b"\xff\xfe",
        b"[1, 2]",
        b'"text"',
    ],
    ids=lambda body: repr(body[:24]),
)
def test_hostile_bodies_are_wire_errors(body: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.FrameDecoder(wire.request_from_json, wire.MAX_REQUEST).feed(_frame(body))


class _Held:
    """What a decoder holds, measured from outside (tracemalloc): the bytes allocated since
    the measure began and still alive, and the most at any moment. The data fed is made
    before the measure starts, so only what the decoder keeps (and the feed's own
    temporaries, in the peak) is counted."""

    def __enter__(self) -> _Held:
        tracemalloc.start()
        self.base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        return self

    @property
    def now(self) -> int:
        return tracemalloc.get_traced_memory()[0] - self.base

    @property
    def peak(self) -> int:
        return tracemalloc.get_traced_memory()[1] - self.base

    def __exit__(self, *exc: object) -> None:
        tracemalloc.stop()


SLACK = 8 * 1024  # a bytearray's spare capacity and the interpreter's own small objects


@pytest.mark.parametrize("length", [0, wire.MAX_REQUEST + 1, 2**32 - 1])
def test_a_length_out_of_bounds_is_refused_from_its_header(length: int) -> None:
    decoder = wire.FrameDecoder(wire.request_from_json, wire.MAX_REQUEST)
    junk = struct.pack(">I", length) + b"x" * (64 * 1024)  # the body it claims, and more
    with _Held() as held:
        with pytest.raises(wire.WireError):
            decoder.feed(junk)
        assert held.now < SLACK  # the refused stream is not kept
    assert not decoder.partial


def test_a_frame_at_the_limit_is_held_whole_and_no_more() -> None:
    decoder = wire.FrameDecoder(wire.request_from_json, wire.MAX_REQUEST)
    almost = struct.pack(">I", wire.MAX_REQUEST) + b" " * (wire.MAX_REQUEST - 1)
    with _Held() as held:
        assert decoder.feed(almost) == []
        assert wire.MAX_REQUEST - 1 <= held.now < wire.MAX_REQUEST + SLACK
    assert decoder.partial
    with pytest.raises(wire.WireError):  # all spaces: not JSON
        decoder.feed(b" ")


def test_a_stream_of_frames_at_the_limit_holds_one_frame_at_a_time() -> None:
    """40 frames of `limit` bytes each, fed in 1,000-byte pieces (each frame spans pieces):
    at no moment more than a few frames' worth (the one unfinished, the body being parsed,
    the parsed object), and once all are read, nothing of them."""
    limit = wire.MAX_REQUEST
    ping = json.dumps({"id": 1, "op": "ping", "args": {}}).encode()
    frame = _frame(ping + b" " * (limit - len(ping)))
    data = frame * 40
    pieces = [data[start : start + 1000] for start in range(0, len(data), 1000)]
    decoder = wire.FrameDecoder(wire.request_from_json, limit)
    got = 0
    with _Held() as held:
        for piece in pieces:
            got += len(decoder.feed(piece))
        assert held.peak < 6 * limit
        assert held.now < limit
    assert got == 40 and not decoder.partial


VIEW = RoomView("ABCD", 3, 1, 1, "X", (), (SeatView(), SeatView()), (0, 0, 0))
WRONG: list[object] = [None, True, -1, 2**60, 1.5, "", "x" * 500, [], {}, "\x1b[31m", "\ud800"]


@pytest.mark.parametrize("field", RoomView._fields)
def test_every_field_of_a_view_is_checked(field: str) -> None:
    """Exhaustive over the fields and a list of wrong values: each is refused unless
    it happens to be a valid value of that field."""
    for wrong in WRONG:
        obj: dict[str, Any] = {"id": 1, "room": wire.view_to_json(VIEW)}
        obj["room"][field] = wrong
        try:
            message = wire.server_message_from_json(obj)
        except wire.WireError:
            continue
        assert isinstance(message, wire.Push)  # accepted: then it is valid and round-trips
        assert wire.view_from_json(wire.view_to_json(message.room)) == message.room


@pytest.mark.parametrize(
    "request_",
    [
        wire.Request(1, "create", (Person("ann"), 7, "X", False)),
        wire.Request(1, "create", (Person("ann"), 3, "Z", False)),
        wire.Request(1, "create", (Person("\x1b]0;pwned\x07"), 3, "X", False)),
        wire.Request(1, "create", (Person(""), 3, "X", False)),
        wire.Request(1, "create", (("ann", "", ""), 3, "X", False)),
        wire.Request(1, "move", (Ticket("ABCD", "X", "t"), 0, 1)),
        wire.Request(1, "move", (Ticket("ABCI", "X", "t"), 1, 1)),  # I is not in codes
        wire.Request(1, "move", (Ticket("ABCD", "X", "t!"), 1, 1)),
        wire.Request(1, "join", ("A" * 100, Person("ann"), "")),
        wire.Request(1, "create", (Person("ann"), 3, "X", 1)),  # public is true or false
        wire.Request(1, "set_watching", (Ticket("ABCD", "X", "t"), "no")),
        wire.Request(1, "launch", ()),
        wire.Request(-1, "ping", ()),
    ],
)
def test_a_client_cannot_encode_what_the_server_would_refuse(request_: wire.Request) -> None:
    with pytest.raises(wire.WireError):
        wire.request_to_json(request_)


def test_moves_on_a_view_are_cells_of_its_board_each_once() -> None:
    for moves in ([10], [0], [1, 1], list(range(1, 11))):
        obj = {"id": 1, "room": wire.view_to_json(VIEW) | {"moves": moves}}
        with pytest.raises(wire.WireError):
            wire.server_message_from_json(obj)


def test_a_rooms_list_is_cut_to_what_the_wire_carries() -> None:
    many = [RoomSummary("ABCD", 5, ("a" * 32, "b" * 32), 8)] * (wire.MAX_LISTED + 50)
    frame = wire.encode(wire.reply_to_json(wire.Reply(3, many)), wire.MAX_REPLY)
    (reply,) = wire.FrameDecoder(wire.server_message_from_json, wire.MAX_REPLY).feed(frame)
    assert isinstance(reply, wire.Reply) and reply.value == many[: wire.MAX_LISTED]
