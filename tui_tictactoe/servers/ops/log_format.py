"""The servers' log lines as events: text for a person (as always), or JSON for a machine.

Every line the servers write goes through one callable, `ServerLog`. A line may be an
`Event`: a `str` (its text line, so everything that passes log lines along keeps working)
that also carries a stable event name and its fields. `--log-format json` writes one
object a line: `time`, `event`, then the fields; a plain line (from a library, the hub)
becomes `{"event": <name from KNOWN_LINES, else "message">, "message": text}`.

The server's metrics hear every line as an event too (`ServerEvents.heard`). The event names
and their fields are documented in docs/hosting.md ("Logs a machine reads"); they are an
interface: rename one only with a note there.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from tui_tictactoe.servers.arguments import LOG_FORMATS

KNOWN_LINES: tuple[tuple[str, str], ...] = (
    # (the start of a line from a module that logs text, the event it is)
    ("room hub: the database is out of reach", "hub.database_unreachable"),
    ("room hub: the database is back", "hub.database_reconnected"),
    ("room hub: refused a connection", "hub.connection_refused"),
    ("room hub: closed a connection", "hub.connection_closed"),
    ("room hub: ", "hub.error"),  # "<op> failed: <type>", an answer the wire does not carry
    ("fork server", "fork_server.lost"),
)
"""Lines from modules that log plain text (`rooms.postgres.tasks`, `rooms.socket.server`,
`servers.games.fork_server`), named by how they start: the first match wins.
`tests/realtime/ssh/test_serve_ssh_ops.py` checks that each start still occurs in its
module's source."""


SERVER_PREFIX = re.compile(r" serve-(?:ssh|web): ")
"""Where a server's own text line begins (after the time and the program's name)."""


class Event(str):
    """A log line (the text) with its event name and fields (for JSON and the metrics)."""

    name: str
    fields: dict[str, Any]

    def __new__(cls, name: str, text: str, **fields: Any) -> Event:
        line = super().__new__(cls, text)
        line.name = name
        line.fields = fields
        return line


def quoted(text: str) -> str:
    """A client's or an admin's text (a user name, a reason) as one field of a text line:
    in double quotes with `"` and `\\` escaped (JSON's string form, as logfmt reads it), so
    no text can end the field and seem to begin another (`bob key=SHA256:...`)."""
    return json.dumps(text, ensure_ascii=False)


def event_of(line: str) -> tuple[str, dict[str, Any]]:
    """The event name and fields of any line (`KNOWN_LINES` for plain ones)."""
    if isinstance(line, Event):
        return line.name, line.fields
    body = SERVER_PREFIX.split(line, maxsplit=1)[-1]
    for start, name in KNOWN_LINES:
        if body.startswith(start):
            return name, {"message": body}
    return "message", {"message": body}


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class ServerLog:
    """`log(line)`: write it in `format` on `stream` (default: stderr)."""

    def __init__(
        self,
        format: str = "text",
        stream: TextIO | None = None,
        clock: Callable[[], str] = _now,
    ) -> None:
        if format not in LOG_FORMATS:
            raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}")
        self.format = format
        self.stream = stream
        self.clock = clock

    def __call__(self, line: str) -> None:
        if self.format == "json":
            name, fields = event_of(line)
            record = {"time": self.clock(), "event": name, **fields}
            text = json.dumps(record, ensure_ascii=True, default=str)
        else:
            text = str(line)
        print(text, file=self.stream or sys.stderr, flush=True)
