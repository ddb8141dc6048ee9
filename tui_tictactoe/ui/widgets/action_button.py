"""The app's command buttons (Reset, New game, Exit, and the dialog's Start and Cancel)."""

from __future__ import annotations

from typing import TypeVar

from textual.widgets import Button

B = TypeVar("B", bound=type[Button])


def matched_as_button(cls: B) -> B:
    """Keep `Button` among the CSS type names of a button class made with `inherit_css=False`.

    `inherit_css=False` drops the base classes' CSS and their names too, so
    `app.query(Button)` and `Button` selectors would no longer find it.
    """
    cls._css_type_names = cls._css_type_names | {Button.__name__}
    return cls


@matched_as_button
class ActionButton(Button, inherit_css=False):
    """A `Button` styled by the few rules the game uses rather than by Button's CSS.

    Button's own CSS covers four variants in two styles, flat and ANSI (~7,000
    characters), and Textual parses it before the first frame: it was the
    largest single cost the game added to a bare app's start-up. This is the
    default look (a bar with a light top edge and a dark bottom edge) and the
    primary variant.
    """

    DEFAULT_CSS = """
    ActionButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        text-style: bold;
        color: $button-foreground;
        background: $surface;
        border-top: tall $surface-lighten-1;
        border-bottom: tall $surface-darken-1;

        &:focus {
            text-style: $button-focus-text-style;
            background-tint: $foreground 5%;
        }
        &:hover {
            border-top: tall $surface;
            background: $surface-darken-1;
        }
        &.-active {
            background: $surface;
            border-bottom: tall $surface-lighten-1;
            border-top: tall $surface-darken-1;
            tint: $background 30%;
        }
        &:disabled {
            text-opacity: 0.6;
            pointer: not-allowed;
        }
        &.-primary {
            color: $button-color-foreground;
            background: $primary;
            border-top: tall $primary-lighten-3;
            border-bottom: tall $primary-darken-3;

            &:hover {
                background: $primary-darken-2;
                border-top: tall $primary;
            }
        }
    }
    """
