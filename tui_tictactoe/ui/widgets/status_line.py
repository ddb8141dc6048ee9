"""The line that says whose turn it is, what happened and why a move was refused."""

from __future__ import annotations

from textual.widgets import Static

from ...controller import TONES, Status


class StatusLine(Static):
    """A single message at a time, coloured by its tone through a CSS class."""

    def __init__(self, *, id: str | None = None) -> None:
        # Born with the class of its first tone, so the first `say` restyles nothing.
        super().__init__("", id=id, markup=False, classes="-turn")
        self.status = Status("", "turn")

    @property
    def text(self) -> str:
        return self.status.text

    @property
    def tone(self) -> str:
        return self.status.tone

    def say(self, status: Status) -> None:
        self.status = status
        # Its size is fixed by CSS: no relayout of the screen, only this line repaints.
        self.update(status.text, layout=False)
        self.update_classes({f"-{tone}": tone == status.tone for tone in TONES})
