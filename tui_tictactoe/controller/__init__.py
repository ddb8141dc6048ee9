"""The game as the app plays it: turns, rounds, score, options and the AI's turn. No UI."""

from .ai_turn import AIReply, AIRequest
from .game import GameController, Score
from .options import CHOICES, SIDES, GameOptions, Side
from .status import (
    TONES,
    Status,
    Tone,
    analysis_status,
    game_title,
    hint_status,
    refused,
    turn_status,
)

__all__ = [
    "CHOICES",
    "SIDES",
    "TONES",
    "AIReply",
    "AIRequest",
    "GameController",
    "GameOptions",
    "Score",
    "Side",
    "Status",
    "Tone",
    "analysis_status",
    "game_title",
    "hint_status",
    "refused",
    "turn_status",
]
