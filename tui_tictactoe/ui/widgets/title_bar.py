"""The top line: the game's title and what is being played."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


class TitleBar(Static):
    """The app's title and the screen's subtitle, centred on one line.

    In place of Textual's `Header`, which is four widgets (icon, title, clock
    space) for the same line and ~30M instructions of the start-up, and which
    raised `NoMatches` for its title when a key typed ahead of the first frame
    closed the app before the header had composed (Textual 8.2.8).
    """

    def on_mount(self) -> None:
        self.watch(self.screen, "sub_title", self._show)

    def _show(self, sub_title: str) -> None:
        title = Content.styled(self.app.title, "bold")
        if sub_title:
            title = Content.assemble(title, " — ", (sub_title, "$text-muted"))
        self.update(title)
