"""What the status line says, as pure functions of the game: testable without a UI."""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..engine.board import Cell
from .game import GameController
from .rounds import TakeBack
from .teaching import AnalysisFound

Tone = Literal["turn", "thinking", "win", "loss", "draw", "refused", "hint", "error", "question"]
TONES: tuple[Tone, ...] = (
    "turn",
    "thinking",
    "win",
    "loss",
    "draw",
    "refused",
    "hint",
    "error",
    "question",
)


class Status(NamedTuple):
    """One message for the player and its tone (the UI colours it by tone)."""

    text: str
    tone: Tone


def turn_status(game: GameController) -> Status:
    """Where the round stands: its result, the AI's failure, or whose turn it is."""
    over, result = game.check_game_over()
    if over:
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is None:
            tone: Tone = "draw"
        elif outcome.winner == game.human_symbol:
            tone = "win"
        else:
            tone = "loss"
        return Status(f"{result} Press r for a new round.", tone)
    if game.ai_error is not None:
        return Status(f"The AI failed ({game.ai_error}). Press r for a new round.", "error")
    if game.is_ai_turn:
        return Status("AI is thinking…", "thinking")
    your_turn = f"Your turn: you play {game.human_symbol}."
    moves = game.board.moves
    if moves and moves[-1] == game.last_ai_move:
        return Status(f"AI played {game.board.geometry.key(*moves[-1])}. {your_turn}", "turn")
    return Status(your_turn, "turn")


def refused(reason: str) -> Status:
    """A move or request that changed nothing, and why."""
    return Status(reason, "refused")


def hint_status(game: GameController, hint: Cell | None) -> Status:
    """The hint for the human, or why there is none now."""
    if hint is not None:
        return Status(f"Hint: cell {game.board.geometry.key(*hint)} is a best move.", "hint")
    if game.game_over:
        return refused("The round is over: press r for a new round.")
    if game.ai_error is not None:
        return refused(f"The AI failed ({game.ai_error}). Press r for a new round.")
    return refused("No hint now: it is the AI's turn.")


FINDING_HINT = Status("Finding a hint… (the game goes on; a move or r stops it)", "hint")
"""Said while a big board's hint is searched for, in a thread."""


def analysis_progress(found: AnalysisFound) -> Status:
    """How far the big board's overlay has got: its cells fill in as they are found."""
    if found.done:
        return Status("Analysis done: every empty cell has its verdict.", "hint")
    text = f"Analysing… {found.found} of {found.total} cells (the game goes on)."
    return Status(text, "hint")


def game_title(game: GameController, analysis: bool) -> str:
    """The title bar's subtitle: who plays what, the level, and whether analysis is on."""
    title = f"you {game.human_symbol} vs AI {game.ai_symbol} · {game.difficulty}"
    if game.player_name:  # hosted: the server says who is playing
        title = f"{game.player_name} · {title}"
    return f"{title} · analysis on" if analysis else title


def analysis_status(game: GameController, analysis: bool) -> Status | None:
    """What to say when the overlay is switched; None when the board shows it at once."""
    if game.is_human_turn:
        return None
    if not analysis:
        return Status("Analysis off.", "hint")
    if game.game_over:
        return Status("Analysis on: it shows in the next round (press r).", "hint")
    return Status("Analysis on: it shows on your turn.", "hint")


def take_back_status(game: GameController, result: TakeBack) -> Status:
    """What a take-back undid, or why it undid nothing."""
    if result.refused == "over":
        return refused("The round is over: nothing to take back. Press r for a new round.")
    if result.refused is not None:
        return refused("Nothing to take back: you have not moved this round.")
    key = game.board.geometry.key
    mine, *reply = reversed(result.undone)
    what = f"your {key(*mine)}" + (f" and the AI's {key(*reply[0])}" if reply else "")
    return Status(f"Took back {what}. Your turn: you play {game.human_symbol}.", "turn")


def info_status(on: bool, width: int, height: int) -> Status:
    """`i` where the AI info panel has no room: said, as the panel cannot show it."""
    if not on:
        return Status("AI info off.", "hint")
    return refused(f"AI info needs a terminal of {width}x{height}: it shows once there is room.")


QUIT_QUESTION = Status(
    "Quit in the middle of the round? It counts as abandoned. q, y or Exit quits;"
    " any other key plays on.",
    "question",
)
"""Asked once when `q`, Exit or the menu's Quit comes mid-round: a stray `q` must not end
a game in play. Open while the status line shows it (the tone `question` is its own)."""
