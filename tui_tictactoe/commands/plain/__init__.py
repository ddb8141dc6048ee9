"""`tui-tictactoe --plain`: the game line by line on standard input and output, for screen
readers, dumb terminals, sessions without a pty and scripts.

No Textual, no Rich, no escape codes: the board as rows of text with the cells' numbers,
the status line's own words (`controller.status`), one prompt per turn, one command per
line. The same controller, record, difficulties and boards as the full-screen game.
Modules: `lines` (reading a line with a bound), `text` (what is printed), `game` (the loop).
"""

from __future__ import annotations

from tui_tictactoe.commands.plain.game import run_plain

__all__ = ["run_plain"]
