"""The AI's turn in tests and benchmarks, by the app's own path: no Textual, no shortcut.

The app asks `controller.ai_request()`, runs `request.compute()` in a worker and hands
the `AIReply` to `controller.apply()`, the one place a reply is judged stale. These
steps do the same on one thread, so a test cannot pass through a door the app never
uses (the package has no AI-move method of its own for tests).
"""

from __future__ import annotations

from tui_tictactoe.controller import AIReply, AIRequest, GameController


def requested(controller: GameController) -> AIRequest:
    """The AI's request for the position now (it must be the AI's turn)."""
    request = controller.ai_request()
    assert request is not None, "not the AI's turn"
    return request


def ai_reply(controller: GameController) -> AIReply:
    """The AI's answer to the position now, computed; the controller is not changed."""
    return requested(controller).compute()


def ai_moves(controller: GameController) -> AIReply:
    """Play the AI's turn as the app does: ask, compute, apply. The move must land."""
    reply = ai_reply(controller)
    assert controller.apply(reply), f"dropped: {reply}"
    assert controller.ai_error is None, controller.ai_error
    return reply
