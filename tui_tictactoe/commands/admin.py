"""`tui-tictactoe admin`: the host's moderation of running `serve-ssh` servers, through the record.

Run on the host with the servers' data directory (the SQLite record), or `--database-url`
(the PostgreSQL database every host shares). The servers publish their live sessions there
and take the orders left for them (`servers.moderation`), so `list`, `end` and `drain` reach
every host sharing the record, and `deny` and `rename` apply on each at its next look (a
second or so). Every action is kept in the record's `admin_actions` with who ran it (the
OS user) and why (`--reason`), and each server writes it to its log.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui_tictactoe.commands.play_arguments import PROG

if TYPE_CHECKING:
    from datetime import datetime, timedelta

    from tui_tictactoe.record import Record
    from tui_tictactoe.record.moderation import LiveSession

FRESH = 30.0  # seconds: a host seen since is live (`servers.moderation.FRESH`)
WAIT = 15.0  # seconds `end` and `drain` wait for each host to take the order
REASON_LIMIT = 200
_SESSION = r"[0-9a-f]{8}"  # patterns, compiled on first use (`re`'s cache): the parser's
_ROOM = r"[A-Z]{4}"  # every build imports this module
_DURATION = r"(\d{1,6})([smhdw])"
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
LONGEST = 520 * 7 * 86400
"""Seconds a `--for` may last at most (520w, ten years: longer is "until removed")."""


def duration(text: str) -> timedelta:
    """`--for`: a number and a unit, s m h d or w (`30m`, `12h`, `7d`)."""
    from datetime import timedelta

    found = re.fullmatch(_DURATION, text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(
            f"not a duration: {text[:20]!r} (a number and s, m, h, d or w: 30m, 12h, 7d)"
        )
    seconds = int(found.group(1)) * _UNITS[found.group(2)]
    if seconds > LONGEST:
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is longer than 520w (ten years): leave out --for to deny until removed"
        )
    return timedelta(seconds=seconds)


def reason(text: str) -> str:
    from tui_tictactoe.identity import displayable

    shown = displayable(text, REASON_LIMIT, empty="")
    if not shown:
        raise argparse.ArgumentTypeError("a reason says why, in words")
    return shown


def add_admin_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="the PostgreSQL database the servers share (default: $TUI_TICTACTOE_DATABASE_URL, "
        "else the record in the data directory)",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the live hosts and sessions")
    listing.add_argument("--json", action="store_true", help="one JSON object")
    end = actions.add_parser("end", help="end a session (its id) or every session in a room")
    end.add_argument("target", metavar="SESSION|ROOM", help="a session's id or a room's code")
    deny = actions.add_parser(
        "deny", help="deny a key, an address, a network or name:PATTERN on every host"
    )
    deny.add_argument("value", metavar="KEY|ADDRESS|NETWORK|name:PATTERN")
    deny.add_argument(
        "--for",
        dest="lasting",
        type=duration,
        metavar="DURATION",
        help="for this long (30m, 12h, 7d; default: until removed from the file)",
    )
    deny.add_argument(
        "--file",
        metavar="FILE",
        help="the deny file to append to (default: the --deny FILE of each live "
        "server on this machine)",
    )
    rename = actions.add_parser("rename", help="give a player's key another display name")
    rename.add_argument("key", metavar="KEY", help="the key's fingerprint, SHA256:...")
    rename.add_argument("name", metavar="NEWNAME")
    drain = actions.add_parser("drain", help="drain a server: no new sessions, rounds end")
    drain.add_argument(
        "host",
        metavar="HOST",
        nargs="?",
        help="the host, as `list` shows it (default: every server on this machine)",
    )
    for each in (end, deny, rename, drain):
        each.add_argument("--reason", type=reason, required=True, help="why (kept and logged)")
    for each in (listing, end, deny, rename, drain):  # also after the action's words
        each.add_argument(
            "--database-url", metavar="URL", default=argparse.SUPPRESS, help="as above"
        )


class AdminError(Exception):
    """What stops an action: one line, status 1."""


def run_admin(args: argparse.Namespace) -> int:
    from tui_tictactoe.record import Record

    url = args.database_url
    record = Record.open_url(url) if url else Record.open()
    with record:
        if not record.available:
            print(f"{PROG} admin: {record.take_notice() or 'no record'}", file=sys.stderr)
            return 1
        try:
            ACTIONS[args.action](record, args)
        except AdminError as error:
            print(f"{PROG} admin: {error}", file=sys.stderr)
            return 1
        notice = record.take_notice()
    if notice:
        print(f"{PROG} admin: {notice}", file=sys.stderr)
        return 1
    return 0


def _who() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no user name anywhere (a container without a passwd entry)
        return "?"


def _since() -> str:
    from datetime import UTC, datetime, timedelta

    when = datetime.now(UTC) - timedelta(seconds=FRESH)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def _done(record: Record, action: str, target: str, why: str, outcome: str) -> None:
    record.moderation.log_action(_who(), action, target, why, outcome)
    print(f"{action} {target}: {outcome}")


# -- the actions ---------------------------------------------------------------------------


def list_live(record: Record, args: argparse.Namespace) -> None:
    hosts, sessions = record.moderation.live(_since())
    sessions = _held_once(sessions)
    rooms: dict[str, list[str]] = {}  # code -> its sessions, on every host
    for session in sessions:
        for code in session.rooms.split():
            rooms.setdefault(code, []).append(session.session)
    if args.json:
        import json

        listing = {
            "hosts": [host._asdict() for host in hosts],
            "rooms": rooms,
            "sessions": [session._asdict() for session in sessions],
        }
        print(json.dumps(listing))
        return
    servers = [(host.host, str(host.pid), host.deny_file or "-", host.seen_at) for host in hosts]
    print(_table(("HOST", "PID", "DENY FILE", "SEEN"), servers) if hosts else "no live servers")
    if rooms:
        print()
        named = {  # a seat held for a player away (`RoomService.held_seats`) says so
            session.session: _session_row(session)[1] + (" (away)" * (session.kind == "away"))
            for session in sessions
        }
        held = [(code, ", ".join(named[each] for each in ids)) for code, ids in rooms.items()]
        print(_table(("ROOM", "SESSIONS (PLAYERS AND SPECTATORS)"), sorted(held)))
    print()
    header = ("SESSION", "NAME", "KEY", "ADDRESS", "ROOMS", "KIND", "HOST", "SINCE")
    print(
        _table(header, [_session_row(each) for each in sessions])
        if sessions
        else "no live sessions"
    )


def _held_once(sessions: Sequence[LiveSession]) -> list[LiveSession]:
    """On PostgreSQL every host publishes every held seat (`RoomService.held_seats`): each
    listed once, as the first host has it."""
    seen: set[str] = set()
    kept = []
    for each in sessions:
        if each.kind == "away":
            if each.session in seen:
                continue
            seen.add(each.session)
        kept.append(each)
    return kept


def _session_row(session: LiveSession) -> tuple[str, ...]:
    from tui_tictactoe.identity import displayable

    return (
        session.session,
        displayable(session.name),
        session.player or "(guest)",
        session.address,
        session.rooms or "-",
        session.kind,
        session.host,
        session.started_at,
    )


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(row[n]) for row in [header, *rows]) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    )


def end(record: Record, args: argparse.Namespace) -> None:
    target = args.target.strip()
    is_room = re.fullmatch(_ROOM, target.upper()) is not None
    target = target.upper() if is_room else target.lower()
    if not (re.fullmatch(_SESSION, target) or is_room):
        raise AdminError(f"not a session's id (8 hex digits) nor a room's code: {target[:20]!r}")
    _, sessions = record.moderation.live(_since())
    hosts = sorted({s.host for s in sessions if s.session == target or target in s.rooms.split()})
    if not hosts:
        _done(record, "end", target, args.reason, "no live session or room")
        raise AdminError(f"no live session or room {target} (see: {PROG} admin list)")
    message = (
        f"the host closed room {target}: {args.reason}"
        if is_room
        else f"the host ended this session: {args.reason}"
    )
    _ordered(record, "end", target, args.reason, {host: (target, message) for host in hosts})


def drain(record: Record, args: argparse.Namespace) -> None:
    import socket

    hosts, _ = record.moderation.live(_since())
    if args.host is not None:
        chosen = [host for host in hosts if host.host == args.host]
        if not chosen:
            raise AdminError(f"no live host {args.host[:60]!r} (see: {PROG} admin list)")
    else:
        chosen = [host for host in hosts if host.machine == socket.gethostname()]
        if not chosen:
            raise AdminError(f"no live server on this machine (see: {PROG} admin list)")
    named = " ".join(host.host for host in chosen)
    _ordered(record, "drain", named, args.reason, {host.host: ("", "") for host in chosen})


def _ordered(
    record: Record, action: str, target: str, why: str, orders: dict[str, tuple[str, str]]
) -> None:
    """Log the action (first: a server writes it to its log at the look that takes the
    order), leave each host its order, and wait for each to take it."""
    record.moderation.log_action(_who(), action, target, why, f"ordered to {len(orders)} hosts")
    made = {
        host: record.moderation.add_order(host, action, each, message)
        for host, (each, message) in orders.items()
    }
    print(f"{action} {target}: {_waited(record, made)}")


def _waited(record: Record, orders: dict[str, int | None]) -> str:
    """Wait for each host to take its order; what came of it, in words."""
    import time

    if any(order is None for order in orders.values()):
        raise AdminError("the order could not be written to the record")
    deadline = time.monotonic() + WAIT
    left = dict(orders)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {
            host: order
            for host, order in left.items()
            if not record.moderation.order_taken(order or 0)
        }
    taken = len(orders) - len(left)
    outcome = f"taken by {taken} of {len(orders)} hosts"
    return outcome + (f" (not yet: {', '.join(left)})" if left else "")


def deny(record: Record, args: argparse.Namespace) -> None:
    from datetime import UTC, datetime

    from tui_tictactoe.record.deny_list import entry_for

    now = datetime.now(UTC).replace(microsecond=0)  # the line says whole seconds
    until = now + args.lasting if args.lasting is not None else None
    try:  # the line is what every server reads back: the parser's own check
        line = entry_for(args.value, until, args.reason).line()
    except ValueError as error:
        raise AdminError(str(error)) from None
    files = _deny_files(record, args.file)
    for path in files:
        _append(path, line)
    if not record.moderation.add_denied(line):
        raise AdminError("the entry could not be kept in the record")
    record.moderation.forget_denied(_expired(record.moderation.denied_entries(), datetime.now(UTC)))
    where = ", ".join(map(str, files)) or "the record only (no deny file)"
    _done(record, "deny", line, args.reason, f"every host's list, and {where}")


def _expired(lines: list[str], now: datetime) -> list[str]:
    """The shared entries past their expiry (they deny nothing: the table need not keep them)."""
    from tui_tictactoe.record.deny_list import parse_entry

    expired = []
    for line in lines:
        try:
            entry = parse_entry(line)
        except ValueError:
            continue
        if entry is not None and not entry.applies(now):
            expired.append(line)
    return expired


def _deny_files(record: Record, named: str | None) -> list[Path]:
    import socket

    if named is not None:
        return [Path(named)]
    hosts, _ = record.moderation.live(_since())
    return sorted(
        {Path(h.deny_file) for h in hosts if h.deny_file and h.machine == socket.gethostname()}
    )


def _append(path: Path, line: str) -> None:
    try:
        with path.open("a+b") as file:
            file.seek(0, 2)
            ends_line = file.tell() == 0
            if not ends_line:
                file.seek(-1, 2)
                ends_line = file.read(1) == b"\n"
            file.write(("" if ends_line else "\n").encode() + line.encode() + b"\n")
    except OSError as error:
        raise AdminError(f"cannot append to {path}: {error.strerror or error}") from None


def rename(record: Record, args: argparse.Namespace) -> None:
    from tui_tictactoe.identity import NAME_LIMIT, displayable
    from tui_tictactoe.record.deny_list import parse_value

    try:
        kind = parse_value(args.key.strip())[0]
    except ValueError:
        kind = ""
    if kind != "key":
        raise AdminError("KEY is a key's fingerprint: SHA256: and 43 characters")
    name = args.name.strip()
    if not name or displayable(name, empty="") != name or len(name) > NAME_LIMIT:
        raise AdminError(f"a name is 1 to {NAME_LIMIT} visible characters, no escapes")
    if not record.moderation.rename(args.key.strip(), name):
        raise AdminError("the name could not be changed")
    _done(record, "rename", args.key.strip(), args.reason, f"now called {name!r}")


ACTIONS: dict[str, Callable[[Record, argparse.Namespace], None]] = {
    "list": list_live,
    "end": end,
    "deny": deny,
    "rename": rename,
    "drain": drain,
}
