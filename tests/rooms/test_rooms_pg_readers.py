"""`Readers.wait`, the re-read task's pause: a cancel that lands as the wait ends must
end the task (Python 3.11's `asyncio.wait_for` lost it, and a host's shutdown then
waited for its re-read task for ever: a full-suite run hung in a fixture's teardown)."""

from __future__ import annotations

import asyncio

from tui_tictactoe.rooms.postgres.readers import Readers


async def test_a_cancel_landing_as_the_wait_ends_is_never_lost() -> None:
    for _ in range(50):
        readers = Readers()
        waiting = asyncio.create_task(readers.wait(10))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the task waits on the wake-up event now
        readers.all_due()  # a missed notification wakes it ...
        waiting.cancel()  # ... and the cancel lands before the task has run again
        try:
            await waiting
        except asyncio.CancelledError:
            continue
        raise AssertionError("the cancel was lost: the wait returned as if woken")


async def test_the_wait_ends_when_woken_or_after_its_timeout() -> None:
    readers = Readers()
    await asyncio.wait_for(readers.wait(0.01), 5)  # the timeout: no error
    waiting = asyncio.create_task(readers.wait(10))
    await asyncio.sleep(0)
    readers.all_due()
    await asyncio.wait_for(waiting, 5)
