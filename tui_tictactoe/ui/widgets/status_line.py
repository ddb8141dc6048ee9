"""The two lines under the board: the state of play, and a passing note below it."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from tui_tictactoe.controller import Status

TONE_STYLES = {
    "turn": "",
    "thinking": "italic $text-muted",
    "win": "bold $text-success",
    "loss": "bold $text-error",
    "draw": "bold $text-warning",
    "refused": "$text-warning",
    "hint": "$text-success",
    "error": "bold reverse $text-error",
    "question": "bold $text-warning",
}
"""Each tone's look, on its own line's characters: the state and the note differ in tone."""


class StatusLine(Widget):
    """The state of play (`show`) on the first line, always; a note (`say`) on the second.

    A note (a refused key, a hint, the quit question) never replaces the state: it shows
    under it, and goes when the position changes (`clear_note`). The state may take both
    lines while no note shows (only an AI failure's reason is that long); under a note it
    is cut to one, which begins with what to do.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = Status("", "turn")
        self.note: Status | None = None

    @property
    def asking(self) -> bool:
        """The quit question is up: it stays until answered, or until the player plays
        on (a key or a click: see `TicTacToeApp.on_event`) or the round ends."""
        return self.note is not None and self.note.tone == "question"

    def show(self, state: Status) -> None:
        """Show the state of play (the note, if any, stays under it)."""
        if state != self.state:
            self.state = state
            self.refresh()  # its size is fixed by CSS: only this widget repaints

    def say(self, note: Status, *, force: bool = False) -> None:
        """Show `note` under the state; while the quit question is up, only if `force` (a
        search's news would hide the question before it is answered)."""
        if self.asking and note.tone != "question" and not force:
            return
        if note != self.note:
            self.note = note
            self.refresh()

    def clear_note(self, *, keep_question: bool = False) -> None:
        """The position changed: the note is old news (the quit question, if kept, is not)."""
        if self.note is not None and not (keep_question and self.asking):
            self.note = None
            self.refresh()

    def render(self) -> Content:
        state = styled(self.state)
        if self.note is None:
            return state
        width = self.content_size.width
        lines: tuple[Content, ...] = (state, styled(self.note))
        if width:  # one line each, whatever the width (every note fits `NOTE_WIDTH`)
            lines = tuple(line.truncate(width, ellipsis=True) for line in lines)
        return Content("\n").join(lines)


def styled(status: Status) -> Content:
    """`status` in its tone's look; plain text, never read as markup."""
    return Content.styled(status.text, TONE_STYLES[status.tone])
