"""The game as the app plays it: turns, rounds, score, options, and every background job
(the AI's move, a hint, the big-board analysis) as a request and its reply. No UI."""

from tui_tictactoe.controller.ai_turn import AIReply, AIRequest
from tui_tictactoe.controller.game import GameController, MoveRefused
from tui_tictactoe.controller.game_options import CHOICES, SIDES, GameOptions, Side
from tui_tictactoe.controller.rounds import Score
from tui_tictactoe.controller.status import (
    TONES,
    Status,
    Tone,
    analysis_status,
    game_title,
    hint_status,
    refused,
    turn_status,
)
from tui_tictactoe.controller.teaching import (
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
