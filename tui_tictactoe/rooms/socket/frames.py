"""Frames of the rooms' wire: a 4-byte big-endian length, then that many bytes of JSON.

Apart from what the messages say (`wire`): a frame is bounded before its body is read,
its body must be UTF-8 JSON holding one object (no NaN, no nesting deeper than the JSON
reader goes), and a stream of bytes in pieces of any size gives whole frames or
`WireError`, never another exception and never more than one frame held.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any, Generic, TypeVar

_HEADER = struct.Struct(">I")
T = TypeVar("T")


class WireError(Exception):
    """A frame or message that is not what the wire allows; the text says why (a
    sentence: a client shows it as the reason its call was refused)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason[:1].upper() + reason[1:])


def _no_constant(name: str) -> None:
    raise WireError(f"{name} is not a number the wire carries.")


def encode(obj: dict[str, Any], limit: int) -> bytes:
    """One frame: the length, then the compact JSON (`WireError` past `limit` bytes)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        body = text.encode()
    except (TypeError, ValueError) as error:  # not JSON, or a lone surrogate
        raise WireError(f"Not JSON: {type(error).__name__}.") from None
    if len(body) > limit:
        raise WireError(f"A frame of {len(body)} bytes is over the limit of {limit}.")
    return _HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> object:
    """The JSON object of one frame's body; `WireError` for anything else."""
    try:
        obj = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except WireError:
        raise
    except (ValueError, RecursionError) as error:  # bad UTF-8, bad JSON, too deep
        raise WireError(f"Not JSON: {type(error).__name__}.") from None
    if type(obj) is not dict:
        raise WireError("A frame holds one JSON object.")
    return obj


class FrameDecoder(Generic[T]):
    """Frames out of a byte stream, fed in pieces of any size, each checked by `parse`.

    It holds at most one unfinished frame (`limit` bytes and its header) beyond the
    piece being fed; a length over `limit` is refused before its body is waited for.
    After a `WireError` the stream is out of step: the caller closes the connection.
    """

    def __init__(self, parse: Callable[[object], T], limit: int) -> None:
        self._parse = parse
        self._limit = limit
        self._buffer = bytearray()
        self._need: int | None = None  # the body length once its header is in

    @property
    def partial(self) -> bool:
        """Whether part of a frame has arrived (the server times its remainder)."""
        return bool(self._buffer) or self._need is not None

    def feed(self, data: bytes) -> list[T]:
        self._buffer += data
        out: list[T] = []
        while True:
            if self._need is None:
                if len(self._buffer) < _HEADER.size:
                    return out
                (need,) = _HEADER.unpack_from(self._buffer)
                del self._buffer[: _HEADER.size]
                if not 0 < need <= self._limit:
                    self._buffer.clear()
                    raise WireError(f"A frame of {need} bytes: the limit is {self._limit}.")
                self._need = need
            if len(self._buffer) < self._need:
                return out
            body = bytes(self._buffer[: self._need])
            del self._buffer[: self._need]
            self._need = None
            out.append(self._parse(decode_body(body)))
