"""Buttons squeezed below their line padding draw blank instead of ending the app."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button

from tui_tictactoe.ui.screens.new_game_screen import DialogButton
from tui_tictactoe.ui.widgets import ControlButton, GameCell


class Squeezed(App[None]):
    CSS = "Button { width: 2; min-width: 0; }"

    def __init__(self, button: Button) -> None:
        super().__init__()
        self.button = button

    def compose(self) -> ComposeResult:
        yield self.button


def test_a_plain_button_still_crashes_at_width_2() -> None:
    """The Textual bug the workaround is for: when this fails, drop `NarrowButton`."""

    async def run() -> None:
        async with Squeezed(Button("Reset")).run_test(size=(20, 6)) as pilot:
            await pilot.pause()

    with pytest.raises(ValueError, match="must not be zero"):
        asyncio.run(run())


@pytest.mark.parametrize(
    "make",
    [
        lambda: DialogButton("Start"),
        lambda: ControlButton("Reset", id="reset", action="reset"),
        lambda: GameCell(0, 0, 1),
    ],
)
async def test_our_buttons_draw_blank_when_squeezed(make) -> None:
    button = make()
    button.label = "Reset"  # a label wider than the room, as a cell's mark would be
    app = Squeezed(button)
    async with app.run_test(size=(20, 6)) as pilot:
        await pilot.pause()
        assert button.size.width == 2
        assert app.is_running
        assert "Reset" not in "".join(
            segment.text for y in range(button.size.height) for segment in button.render_line(y)
        )
        await pilot.resize_terminal(30, 6)  # room again: the label comes back
        app.stylesheet.add_source("Button { width: 12; }")
        app.refresh_css()
        await pilot.pause()
        text = "".join(
            segment.text for y in range(button.size.height) for segment in button.render_line(y)
        )
        label = str(button.label).strip()  # a cell redraws its label for its size: "1"
        assert label and label in text
