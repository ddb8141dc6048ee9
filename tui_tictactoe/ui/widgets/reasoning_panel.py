"""The "how the AI decided" panel: what its last search found and what it cost."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.strategies import Decision


def format_seconds(seconds: float) -> str:
    """Microseconds or milliseconds: a table lookup and a full search differ by 1000x."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 node", "2 nodes", "1 ply", "2 plies"."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


VALUE_WIDTH = 18
"""Columns a line has in the panel (its width less border and padding)."""

INLINE = ("Proof", "Line")
"""Rows drawn on one line ("Line: 5, 1, 9"), not as a label over its value: the panel must
fit 80x20 whole (tests/ui/test_fit.py)."""


def line_value(line: tuple[int, ...], width: int = VALUE_WIDTH) -> str:
    """A line of play by cell numbers ("5, 1, 9"), cut with "…" to fit one panel line."""
    cells = [str(cell + 1) for cell in line]
    text = ", ".join(cells)
    while len(text) > width and len(cells) > 1:
        cells.pop()
        text = ", ".join(cells) + "…"
    return text


def describe(decision: Decision, geometry: Geometry) -> list[tuple[str, str]]:
    """(label, value) rows for one decision. A move by a pairing or a line of fours (6x6)
    searched nothing: it says what proves it, and looks ahead no further than its proof."""
    row, col = decision.move
    if decision.proof == "pairing":
        searched = "0 (pairing kept)"
        depth = "not needed"
    elif decision.proof == "fours":
        searched = "0 (line of fours)"
        depth = plural(len(decision.line), "ply", "plies")
    else:
        depth = "to the end" if decision.depth is None else plural(decision.depth, "ply", "plies")
        if decision.positions_searched == 0:
            searched = "0 (memo table)"  # short: the panel's lines must not wrap
        else:
            searched = plural(decision.positions_searched, "position")
    rows = [
        ("Played", f"cell {geometry.key(row, col)}"),
        ("Row, column", f"{row + 1}, {col + 1}"),
        ("Verdict", str(decision.verdict)),
    ]
    if decision.proof == "pairing":
        rows.append(("Proof", plural(len(decision.pairs), "pair")))
    # The line last: where the panel is short (80x20) it is the row cut, not the costs.
    line = (
        [("Line", line_value(decision.line, VALUE_WIDTH - len("Line: ")))] if decision.line else []
    )
    return [
        *rows,
        ("Searched", searched),
        ("Time", format_seconds(decision.seconds)),
        # A shortsighted level is compared with plain minimax as shortsighted as it.
        (
            "Plain minimax" if decision.depth is None else "Plain, same depth",
            # None where that tree is too big to count (a perfect search on 4x4, 5x5).
            "too big to count"
            if decision.plain_nodes is None
            else plural(decision.plain_nodes, "node"),
        ),
        ("Looks ahead", depth),
        *line,
    ]


class ReasoningPanel(Static):
    """Shows the AI's last `Decision`; hidden until toggled on."""

    DEFAULT_CSS = """
    ReasoningPanel {
        display: none;
        width: 22;
        height: 1fr;
        margin-left: 1;
        border: round $primary;
        border-title-color: $text-primary;
        padding: 0 1;

        &.-visible {
            display: block;
        }
    }
    """

    BORDER_TITLE = "AI info"

    def show(self, decision: Decision | None, geometry: Geometry, explains: bool = True) -> None:
        """`explains` is False for strategies that keep no record of their search."""
        if not explains:
            self.update("This AI does not report how it chose its moves.")
        elif decision is None:
            self.update("The AI has not moved yet this round.")
        else:
            lines = [
                Content.assemble((f"{label}: ", "$text-muted"), (value, "bold"))
                if label in INLINE
                else Content.assemble((f"{label}\n", "$text-muted"), (f"  {value}", "bold"))
                for label, value in describe(decision, geometry)
            ]
            self.update(Content("\n").join(lines))
