"""The running score: you, the AI, draws, and the round being played (between people: X's
wins, O's wins, draws)."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from tui_tictactoe.controller import Score


class Scoreboard(Static):
    """One line of counters; each is reactive so the line redraws when any changes."""

    human: reactive[int] = reactive(0)
    ai: reactive[int] = reactive(0)
    draws: reactive[int] = reactive(0)
    abandoned: reactive[int] = reactive(0)
    take_backs: reactive[int] = reactive(0)
    round: reactive[int] = reactive(1)
    human_symbol: reactive[str] = reactive("X")
    ai_symbol: reactive[str] = reactive("O")
    people: reactive[bool] = reactive(False)  # a game between people: X's and O's wins
    x: reactive[int] = reactive(0)
    o: reactive[int] = reactive(0)

    def show(
        self, score: Score, round: int, human_symbol: str, ai_symbol: str, *, people: bool = False
    ) -> None:
        self.people = people
        self.human, self.ai, self.draws = score.human, score.ai, score.draws
        self.x, self.o = score.x, score.o
        self.abandoned, self.take_backs = score.abandoned, score.take_backs
        self.round = round
        self.human_symbol, self.ai_symbol = human_symbol, ai_symbol

    def render(self) -> Content:
        # The longest form that fits: symbols first (the title bar names them too),
        # then the gaps narrow. At the game's minimum width (60) even the longest
        # score line, with abandoned rounds and take-backs, fits whole.
        forms = ((True, "   "), (False, "   "), (False, "  "), (False, " "))
        for symbols, gap in forms:
            parts = self._parts(symbols, gap)
            if sum(len(text) for text, _ in parts) <= self.size.width:
                break
        return Content.assemble(*parts)

    def _parts(self, symbols: bool, gap: str) -> list[tuple[str, str]]:
        if self.people:  # "X 2   O 1": the seats are their symbols
            parts = [("X ", "$text-muted"), (str(self.x), "bold")]
            parts += [(f"{gap}O ", "$text-muted"), (str(self.o), "bold")]
        else:
            parts = [
                ("You ", "$text-muted"),
                (f"({self.human_symbol}) " if symbols else "", "$text-muted"),
                (str(self.human), "bold"),
                (f"{gap}AI ", "$text-muted"),
                (f"({self.ai_symbol}) " if symbols else "", "$text-muted"),
                (str(self.ai), "bold"),
            ]
        parts += [
            (f"{gap}Draws ", "$text-muted"),
            (str(self.draws), "bold"),
        ]
        if self.abandoned:
            parts += [(f"{gap}Abandoned ", "$text-muted"), (str(self.abandoned), "bold")]
        if self.take_backs:
            parts += [(f"{gap}Take-backs ", "$text-muted"), (str(self.take_backs), "bold")]
        parts += [(f"{gap}Round ", "$text-muted"), (str(self.round), "bold")]
        return parts
