"""The game as the app plays it: turns, rounds, score, options, and every background job
(the AI's move, a hint, the big-board analysis) as a request and its reply. No UI."""

from .ai_turn import AIReply, AIRequest
from .game import GameController, MoveRefused
from .options import CHOICES, SIDES, GameOptions, Side
from .rounds import Score
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
from .teaching import (
    AnalysisFound,
    AnalysisRequest,
    CellScores,
    HintReply,
    HintRequest,
    Reply,
    Request,
)

__all__ = [
    "CHOICES",
    "SIDES",
    "TONES",
    "AIReply",
    "AIRequest",
    "AnalysisFound",
    "AnalysisRequest",
    "CellScores",
    "GameController",
    "GameOptions",
    "HintReply",
    "HintRequest",
    "MoveRefused",
    "Reply",
    "Request",
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
