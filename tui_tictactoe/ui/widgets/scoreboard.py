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
    abandoned: reactive[int] = reactive(0)
    round: reactive[int] = reactive(1)
    human_symbol: reactive[str] = reactive("X")
    ai_symbol: reactive[str] = reactive("O")

    def show(self, score: Score, round: int, human_symbol: str, ai_symbol: str) -> None:
        self.human, self.ai, self.draws = score.human, score.ai, score.draws
        self.abandoned = score.abandoned
        self.round = round
        self.human_symbol, self.ai_symbol = human_symbol, ai_symbol

    def render(self) -> Content:
        # Symbols, and the count of abandoned rounds when there are any, as room allows.
        wide = self.size.width >= 58 or not self.abandoned
        parts = [
            ("You ", "$text-muted"),
            (f"({self.human_symbol}) " if wide else "", "$text-muted"),
            (str(self.human), "bold"),
            ("   AI ", "$text-muted"),
            (f"({self.ai_symbol}) " if wide else "", "$text-muted"),
            (str(self.ai), "bold"),
            ("   Draws ", "$text-muted"),
            (str(self.draws), "bold"),
        ]
        if self.abandoned:
            parts += [("   Abandoned ", "$text-muted"), (str(self.abandoned), "bold")]
        parts += [("   Round ", "$text-muted"), (str(self.round), "bold")]
        return Content.assemble(*parts)
