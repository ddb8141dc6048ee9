"""`tui-tictactoe stats`: the player's record on standard output."""

from __future__ import annotations

import sys

from .play_options import PROG


def run_stats(as_json: bool) -> int:
    """`stats`: the current player's record and last rounds, as the stats screen shows
    them (`--json`: the record alone); 1 (the record's notice on stderr) if unusable."""
    from ..identity import current_identity
    from ..record import RECENT_ROUNDS, Record, format_stats, stats_json

    identity = current_identity()
    with Record.open() as record:
        stats = record.stats(identity.player, identity.name)
        rounds = [] if as_json else record.recent_rounds(identity.player, RECENT_ROUNDS)
        notice = record.take_notice()
        usable = record.available
    if notice:
        print(f"{PROG} stats: {notice}", file=sys.stderr)
    if not usable:
        return 1
    print(stats_json(stats) if as_json else format_stats(stats, rounds))
    return 0
