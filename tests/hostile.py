"""Names a hostile client might choose, and what a screen must show of each: shared by the
UI's tests and serve-ssh's."""

from __future__ import annotations

from tui_tictactoe.identity import NAME_LIMIT

HOSTILE: list[tuple[str, str | None]] = [
    # (the name the client chose, what the screen shows; None: nothing to show)
    ("[/]", "[/]"),
    ("[bold red]x", "[bold red]x"),
    ("[@click=app.quit]x[/]", "[@click=app.quit]x[/]"),
    ("[link=https://example.com]x[/]", "[link=https://example.com]x[/]"),
    ("[conceal]x", "[conceal]x"),
    ("[on red]", "[on red]"),
    ("[b]", "[b]"),
    ("\\[b]", "\\[b]"),
    ("[reverse]x[/reverse]", "[reverse]x[/reverse]"),
    ("$text-error $var", "$text-error $var"),
    ("[$accent]x", "[$accent]x"),
    (":smile: :thumbs_up:", ":smile: :thumbs_up:"),
    ("\x1b[31mred\x1b[0m", "red"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    ("\x1b]0;title\x07name", "name"),
    ("\x9b2Jc1\x9d0;t\x9c", "c1"),
    ("\u202eevil\u202c", "evil"),
    ("\u2066iso\u2069 \u200e\u200f\u061c", "iso"),
    ("z\u200dw\u200bj\u2060x\ufeff", "zwjx"),
    ("x" * 10_000, "x" * (NAME_LIMIT - 1) + "…"),
    ("日本" * 20, "日本" * 7 + "日…"),  # 31 columns and the ellipsis
    ("a\udcffb", "ab"),  # a byte that was not UTF-8 (os.environ's surrogate escape)
    ("nul\x00byte", "nulbyte"),
    ("", None),
    ("\x01\x07\x08\t\n\r\x1b\x7f\x85", None),
]
