"""The running score: you, the AI, draws, and the round being played."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ...controller import Score


class Scoreboard(Static):
    """One line of counters; each is reactive so the line redraws when any changes."""

    human: reactive[int] = reactive(0)
    ai: reactive[int] = reactive(0)
    draws: reactive[int] = reactive(0)
    round: reactive[int] = reactive(1)
    human_symbol: reactive[str] = reactive("X")
    ai_symbol: reactive[str] = reactive("O")

    def show(self, score: Score, round: int, human_symbol: str, ai_symbol: str) -> None:
        self.human, self.ai, self.draws = score.human, score.ai, score.draws
        self.round = round
        self.human_symbol, self.ai_symbol = human_symbol, ai_symbol

    def render(self) -> Content:
        return Content.assemble(
            ("You ", "$text-muted"),
            (f"({self.human_symbol}) ", "$text-muted"),
            (str(self.human), "bold"),
            ("   AI ", "$text-muted"),
            (f"({self.ai_symbol}) ", "$text-muted"),
            (str(self.ai), "bold"),
            ("   Draws ", "$text-muted"),
            (str(self.draws), "bold"),
            ("   Round ", "$text-muted"),
            (str(self.round), "bold"),
        )
