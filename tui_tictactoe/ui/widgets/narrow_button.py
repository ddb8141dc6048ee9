"""Buttons that survive being squeezed to nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Button

if TYPE_CHECKING:
    from textual.app import RenderResult


class NarrowButton(Button):
    """A `Button` with a blank label when there is no room for one.

    Workaround for Textual 8.2.8 (with Rich 15.0): a Button pads each line of
    its label by `line-pad: 1`, and when its content is 2 cells wide or less,
    Textual wraps the label to width 0 and Rich's `chop_cells` raises
    `ValueError: range() arg 3 must not be zero`, which ends the app. A real
    terminal dragged to a few columns gets there (a frame can be drawn before
    the widgets hear of the new size); `Button("Reset")` styled `width: 2`
    shows it in one line (see `tests/ui/test_narrow_button.py`). Remove this
    class when that test passes with a plain `Button`.
    """

    def render(self) -> RenderResult:
        # `size` is the size this frame is drawn at: no race with a later Resize.
        if self.size.width <= 2 * self.styles.line_pad:
            return Content("")
        return super().render()
