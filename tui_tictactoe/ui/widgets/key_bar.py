"""The keys of the game screen at its foot: every key a player needs, none cut.

In place of Textual's `Footer`, which keeps to one line and cuts what does not fit
(at 50 columns it ended at "? Help", without "q Quit"): the game has a dozen keys,
so the bar wraps them, whole, onto as many lines as its width needs (two at the
game's minimum size and at 80 columns, one from about 110). A click on a key
presses it, as on Textual's footer.
"""

from __future__ import annotations

from typing import NamedTuple

from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from tui_tictactoe.ui.key_table import bar_commands


class KeyHint(NamedTuple):
    """One entry: the key(s) as shown, what they do, and the key a click presses."""

    keys: str
    label: str
    press: str | None = None  # None: shown only (the arrows, the digits)


def game_keys(
    side: int, analysis: bool, *, people: bool = False, over: bool = False
) -> tuple[KeyHint, ...]:
    """The game screen's keys on a `side` x `side` board, from the command table (1-9
    play cells on 3x3, elsewhere Enter plays the cursor's cell; `w` on 6x6, instead of
    `s`). `analysis`: whether the overlay is on, which the `a` entry says. `people`: a
    game between people, where the keys that teach with the AI do nothing (they are left
    out; pressed, they say why). `over`: the round is over, where `v` reviews it in the
    hint's place."""
    states = {"show_analysis": analysis}
    return tuple(
        KeyHint(command.bar or "", command.bar_label(states), command.press)
        for command in bar_commands(side, over, people)
    )


def hint_width(hint: KeyHint) -> int:
    return len(hint.keys) + 1 + len(hint.label)


def wrap_hints(hints: tuple[KeyHint, ...], width: int) -> tuple[list[list[KeyHint]], int]:
    """(lines, gap): the hints in as few lines of `width` as possible, whole, in order;
    two spaces between them where that costs no extra line, else one."""
    best: tuple[list[list[KeyHint]], int] | None = None
    for gap in (2, 1):
        lines: list[list[KeyHint]] = [[]]
        used = 0
        for hint in hints:
            size = hint_width(hint)
            if lines[-1] and used + gap + size > width:
                lines.append([])
                used = 0
            used += (gap if lines[-1] else 0) + size
            lines[-1].append(hint)
        if best is None or len(lines) < len(best[0]):
            best = (lines, gap)
    assert best is not None
    return best


class KeyBar(Widget):
    """The keys, wrapped to the width; `hints` is set by the screen as its state changes."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: auto;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    """

    hints: reactive[tuple[KeyHint, ...]] = reactive((), layout=True)

    def __init__(self, hints: tuple[KeyHint, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(KeyBar.hints, hints)
        self._spans: list[tuple[int, int, int, str]] = []  # (line, first column, end, key)

    def lines(self, width: int) -> list[str]:
        """The bar's text at `width`, line by line (what the player reads)."""
        lines, gap = wrap_hints(self.hints, max(width, 1))
        return [(" " * gap).join(f"{hint.keys} {hint.label}" for hint in line) for line in lines]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(wrap_hints(self.hints, max(width, 1))[0])

    def render(self) -> Content:
        lines, gap = wrap_hints(self.hints, max(self.size.width, 1))
        parts: list[tuple[str, str] | str] = []
        self._spans = []
        for y, line in enumerate(lines):
            x = 0
            for index, hint in enumerate(line):
                if index:
                    parts.append(" " * gap)
                    x += gap
                parts += [(hint.keys, "bold $footer-key-foreground"), f" {hint.label}"]
                if hint.press is not None:
                    self._spans.append((y, x, x + hint_width(hint), hint.press))
                x += hint_width(hint)
            if y < len(lines) - 1:
                parts.append("\n")
        return Content.assemble(*parts)

    def key_at(self, x: int, y: int) -> str | None:
        """The key a click at (`x`, `y`) in the bar presses, if any."""
        for line, start, end, key in self._spans:
            if line == y and start <= x < end:
                return key
        return None

    def on_click(self, event: events.Click) -> None:
        key = self.key_at(event.x, event.y)
        if key is not None:
            self.app.simulate_key(key)
