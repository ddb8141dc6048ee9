"""The line that says whose turn it is, what happened and why a move was refused."""

from __future__ import annotations

from typing import Literal

from textual.widgets import Static

Tone = Literal["turn", "thinking", "win", "loss", "draw", "refused", "hint", "error"]
TONES: tuple[Tone, ...] = ("turn", "thinking", "win", "loss", "draw", "refused", "hint", "error")


class StatusLine(Static):
    """A single message at a time, coloured by its tone through a CSS class."""

    def __init__(self, *, id: str | None = None) -> None:
        # Born with the class of its first tone, so the first `say` restyles nothing.
        super().__init__("", id=id, markup=False, classes="-turn")
        self.text = ""
        self.tone: Tone = "turn"

    def say(self, text: str, tone: Tone = "turn") -> None:
        self.text, self.tone = text, tone
        # Its size is fixed by CSS: no relayout of the screen, only this line repaints.
        self.update(text, layout=False)
        # One restyle for the whole swap (set_class would restyle twice).
        self.update_classes({f"-{name}": name == tone for name in TONES})
