"""Reading the player's lines with a bound: every byte typed is hostile.

A line is read at most `LINE_LIMIT` bytes at a time; a longer one is skipped to its end
in bounded chunks (never held whole) and reported as `TOO_LONG`, so that it changes
nothing. Bytes that are not UTF-8 are replaced, never passed on.
"""

from __future__ import annotations

from typing import BinaryIO, Final, Literal

LINE_LIMIT: Final = 256
"""Bytes of one line, its newline excluded: the longest command is a few characters."""
SKIP_CHUNK: Final = 4096
"""Bytes read at a time while skipping the rest of an over-long line."""

TooLong = Literal["too long"]
TOO_LONG: TooLong = "too long"


class LineReader:
    """Lines of a binary stream (standard input: a pipe, a pty, a file), each at most
    `limit` bytes; `read` gives None at the end of input."""

    def __init__(self, stream: BinaryIO, limit: int = LINE_LIMIT) -> None:
        self.stream = stream
        self.limit = limit

    def read(self) -> str | TooLong | None:
        """The next line without its newline and outer blanks, `TOO_LONG` for a line over
        the limit (skipped to its end), None at the end of input."""
        line = self.stream.readline(self.limit + 1)
        if not line:
            return None
        if len(line) > self.limit and not line.endswith(b"\n"):
            while True:  # the rest of the line, a chunk at a time, dropped
                rest = self.stream.readline(SKIP_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            return TOO_LONG
        return line.decode("utf-8", "replace").strip()
