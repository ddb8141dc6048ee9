"""Input that arrives while the AI thinks, kept in order until its reply has landed."""

from __future__ import annotations

import inspect
from collections import deque
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, TypeVar

from tui_tictactoe.controller.status import refused

LIMIT = 32
"""Steps kept at most; a longer burst (a paste) loses the rest, and the player is told."""

TOO_MANY = "Too many keys while the AI thought: the rest were lost."

F = TypeVar("F", bound=Callable[..., Any])


class TypeAhead:
    """A bounded queue of held steps (an action and its arguments), oldest first."""

    def __init__(self) -> None:
        self._steps: deque[Callable[[], Any]] = deque()

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def hold(self, step: Callable[[], Any]) -> bool:
        """Keep `step` for later; False (dropping it) when the queue is full."""
        if len(self._steps) >= LIMIT:
            return False
        self._steps.append(step)
        return True

    def clear(self) -> None:
        self._steps.clear()

    async def replay(self, until: Callable[[], bool]) -> None:
        """Run held steps in order, stopping (keeping the rest) as soon as `until()` holds."""
        while self._steps and not until():
            result = self._steps.popleft()()
            if inspect.isawaitable(result):
                await result


def after_the_ai(action: F) -> F:
    """Run a screen action now, or, while the AI thinks (or older steps still wait),
    after its reply: keys in a burst then act exactly like the same keys typed slowly."""

    @wraps(action)
    def run(screen: Any, *args: Any) -> Awaitable[None] | None:
        if screen.controller.is_ai_turn or screen.type_ahead:
            if not screen.type_ahead.hold(lambda: action(screen, *args)):
                screen.status.say(refused(TOO_MANY))
            return None
        done: Awaitable[None] | None = action(screen, *args)
        return done

    return run  # type: ignore[return-value]
