"""The top line: the game's title and what is being played."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget


class TitleBar(Widget):
    """The app's title and the screen's subtitle, centred on one line.

    In place of Textual's `Header`, which is four widgets (icon, title, clock
    space) for the same line and ~30M instructions of the start-up, and which
    raised `NoMatches` for its title when a key typed ahead of the first frame
    closed the app before the header had composed (Textual 8.2.8). Where the
    line is too narrow for both, the subtitle (who plays what) wins.

    The subtitle holds a hosted player's name (cleaned by `identity.displayable`):
    it is drawn as `Content` text, never read as markup.
    """

    sub_title: reactive[str] = reactive("")

    def on_mount(self) -> None:
        self.watch(self.screen, "sub_title", self._show)

    def _show(self, sub_title: str) -> None:
        self.sub_title = sub_title

    def render(self) -> Content:
        title = Content.styled(self.app.title, "bold")
        if not self.sub_title:
            return title
        sub_title = Content.styled(self.sub_title, "$text-muted")
        both = Content.assemble(title, " — ", sub_title)
        # Columns, not characters: a name of wide characters takes two a character.
        return both if both.cell_length <= self.size.width else sub_title
