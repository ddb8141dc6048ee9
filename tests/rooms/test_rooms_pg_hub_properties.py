"""`PostgresHub` against `MemoryHub`, the reference: the random sessions of
test_rooms_hub_properties.py played step by step on both hubs, each on a clock of its own
moved alike and the same seed. After every step both pass the consistency checks, have
given out the same tickets (codes and tokens), and hold the same room, view for view
(generations included). A real database, emptied before each example.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import replace

import psycopg
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pg_rooms_tools import HostTimings
from test_rooms_hub_properties import (
    MOVE_TIME,
    OPS,
    PEOPLE,
    STALL,
    Clock,
    Step,
    World,
    act,
    check,
    look,
)

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.postgres.hub import PostgresHub

LIMITS = replace(UNTIMED, max_spectators=2, move_time=MOVE_TIME)
QUIET: HostTimings = {"heartbeat": 3600.0, "reread": 3600.0, "listen": False}
"""No sweep of its own between steps: graces run out when a call or `expire` says, as in
`MemoryHub` (the sweep is the same `expire`, tested in test_rooms_pg_hosts.py)."""


async def run_both(url: str, steps: list[Step], seed: int) -> None:
    memory_clock, pg_clock = Clock(), Clock()
    pg_keys, memory_keys = itertools.count(), itertools.count()  # round keys dealt alike
    pg_hub = PostgresHub(
        url,
        LIMITS,
        clock=pg_clock,
        rng=random.Random(seed),
        round_keys=lambda: f"round-{next(pg_keys)}",
        **QUIET,
    )
    await pg_hub.start()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("TRUNCATE rooms, room_seats, room_watchers, room_wrong_codes")
    memory = World(
        MemoryHub(
            LIMITS,
            clock=memory_clock,
            rng=random.Random(seed),
            round_keys=lambda: f"round-{next(memory_keys)}",
        ),
        memory_clock,
    )
    shared = World(pg_hub, pg_clock)
    try:
        for step in steps:
            await act(memory, step)
            await act(shared, step)
            await check(memory)
            await check(shared)
            assert shared.tickets == memory.tickets
            assert shared.code == memory.code
            assert await pg_hub.rooms() == await memory.hub.rooms()
            if memory.code:
                assert await look(pg_hub, shared.code) == await look(memory.hub, memory.code)
    finally:
        for world in (memory, shared):
            for _, task, _ in world.followers:
                task.cancel()
            await asyncio.gather(*(task for _, task, _ in world.followers), return_exceptions=True)
        await pg_hub.shutdown()


MORE_OFTEN = ("drop", "drop", "join", "join", "leave", "advance", "subscribe", "watch")
"""What happens between hosts (links dropping, people coming back, graces) more often
than in the one-hub sequences, so fewer examples cover it."""
STEPS = st.lists(
    st.tuples(
        st.sampled_from(OPS + MORE_OFTEN),
        st.integers(0, len(PEOPLE) - 1),
        st.integers(0, 70),
    ),
    max_size=40,
)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@example([("drop", 1, 0), ("advance", 1, 59), ("join", 1, 1), ("drop", 0, 0)], 5)
@example([("move", 0, 1), ("drop", 0, 0), ("advance", 0, 60), ("expire", 0, 0)], 6)
@example(STALL, 1)
@given(STEPS, st.integers(0, 2**32))
def test_postgres_hub_does_what_memory_hub_does(pg_url: str, steps: list[Step], seed: int) -> None:
    asyncio.run(run_both(pg_url, [("create", 0, 0), ("join", 1, 0), *steps], seed))
