"""Steps shared by the Pilot tests: press keys and let the AI answer."""

from __future__ import annotations

from textual.pilot import Pilot

SIZE = (80, 24)


async def settle(pilot: Pilot) -> None:
    """Let the AI worker finish and its reply be applied."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def press(pilot: Pilot, *keys: str) -> None:
    """Press keys one at a time, letting the AI answer after each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)
