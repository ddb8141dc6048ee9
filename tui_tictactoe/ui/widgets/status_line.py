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

    @property
    def asking(self) -> bool:
        """The quit question is up: it stays until answered, or until the player plays
        on (a key or a click: see `TicTacToeApp.on_event`) or the round ends."""
        return self.status.tone == "question"

    def say(self, status: Status, *, force: bool = False) -> None:
        """Show `status`; while the quit question is up, only if `force` (what the AI's
        reply or a search has to say would hide the question before it is answered)."""
        if self.asking and status.tone != "question" and not force:
            return
        self.status = status
        # Its size is fixed by CSS: no relayout of the screen, only this line repaints.
        self.update(status.text, layout=False)
        self.update_classes({f"-{tone}": tone == status.tone for tone in TONES})
