"""`control_budget` on a fake clock: when a size goes to the game, and when a session is a flood."""

from __future__ import annotations

import asyncio
import time

from tui_tictactoe.servers.control_budget import (
    FLOOD,
    REQUEST_BURST,
    REQUEST_RATE,
    STALL,
    STALLS_KEPT,
    TICK,
    Flood,
    Resizes,
    no_stalls,
    watching,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_sizes_go_at_once_then_at_most_ten_a_second_and_replaced_ones_are_counted() -> None:
    """(10 a second here, the rate given; the servers' is `RESIZES`.)"""
    clock = Clock()
    resizes = Resizes(10, clock)
    assert resizes.delay() == 0
    resizes.applied()
    clock.now += 0.03
    assert abs(resizes.delay() - 0.07) < 1e-9  # the next one waits for its turn...
    resizes.replaced()  # ... and one more that came meanwhile takes its place
    assert resizes.report() == "resizes coalesced: 1 sent faster than 10 a second"
    clock.now += 0.07
    assert resizes.delay() == 0


def test_a_session_at_its_rate_goes_on_and_one_beyond_it_is_a_flood_until_its_end() -> None:
    clock = Clock()
    bucket = Flood(rate=20, burst=150, clock=clock)
    for _ in range(600):  # 20 a second for 30 s, with the burst untouched
        clock.now += 0.05
        assert bucket.take()
    taken = 0
    while bucket.take():  # all at once: the burst, and no more
        taken += 1
    assert 145 <= taken <= 150
    clock.now += 60  # a flood stays one: the session is being closed
    assert not bucket.take() and bucket.flooded
    ending = bucket.ending("window changes")
    assert ending.startswith(f"{FLOOD} (") and "at most 20 a second" in ending, ending


def test_a_window_dragged_by_hand_is_no_flood() -> None:
    """The servers' own bounds: a drag at 30 sizes a second goes on as long as it lasts, one
    at 60 a second for 5 s without a pause; a flood at 2,500 a second is one within 0.1 s."""
    clock = Clock()
    drag = Flood(clock=clock)
    for _ in range(30 * 120):  # two minutes of dragging at 30 a second
        clock.now += 1 / 30
        assert drag.take()
    fast, taken = Flood(clock=clock), 0
    while fast.take():
        clock.now += 1 / 60
        taken += 1
    assert 4.5 <= taken / 60 <= 5.5, taken / 60
    flood, sent = Flood(clock=clock), 0
    while flood.take():
        clock.now += 1 / 2500
        sent += 1
    assert sent / 2500 < 0.1 and sent > REQUEST_BURST


class Stalls:
    """A loop's stalls as `LoopWatch.stalled_since` gives them: (when it ended, seconds)."""

    def __init__(self) -> None:
        self.found: list[tuple[float, float]] = []

    def __call__(self, since: float) -> float:
        return sum(min(seconds, end - since) for end, seconds in self.found if end > since)


def test_a_page_at_its_rate_through_a_stall_is_no_flood_and_a_flood_still_is_one() -> None:
    """10 s of a page's 20 resizes a second, read at once after the server's loop stalled
    for those 10 s: 200 at once, past the burst. With the stall known, no flood; without it
    (the bucket as it was), one. A flood at 2,500 a second through the same stall gains the
    rate's share of it, no more."""
    for known, flooded in ((True, False), (False, True)):
        clock, stalls = Clock(), Stalls()
        page = Flood(clock=clock, stalls=stalls if known else no_stalls)
        clock.now += 10.0
        stalls.found.append((clock.now, 10.0))
        assert all([page.take() for _ in range(200)]) is not flooded, known
    clock, stalls = Clock(), Stalls()
    flood, sent = Flood(clock=clock, stalls=stalls), 0
    clock.now += 10.0
    stalls.found.append((clock.now, 10.0))
    while flood.take():
        clock.now += 1 / 2500
        sent += 1
    assert sent <= REQUEST_BURST + 10 * REQUEST_RATE + 5, sent
    clock.now += STALLS_KEPT + 10  # a minute on, the stall no longer counts: the burst again
    later = Flood(clock=clock, stalls=stalls)
    assert sum(later.take() for _ in range(400)) <= REQUEST_BURST


async def test_the_watch_tells_its_loops_stall_before_its_tick_does() -> None:
    """A real loop blocked (as by a slow disk): the stall is told to the reads that run
    first after it, then kept."""
    stalls = watching()
    await asyncio.sleep(2 * TICK)  # ticks on time
    before = time.monotonic()
    assert stalls(before) == 0
    time.sleep(STALL + 0.6)  # the loop blocked
    assert stalls(before) > STALL  # before the late tick has run
    await asyncio.sleep(2 * TICK)
    assert STALL < stalls(before) <= time.monotonic() - before
    assert watching() == stalls  # one watch for the loop
