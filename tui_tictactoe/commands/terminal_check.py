"""Whether this process's terminal can show the game, checked before Textual is imported,
so a refusal is as fast as `--help`."""

from __future__ import annotations

import codecs
import os
import sys

from tui_tictactoe.commands.play_arguments import echo

STREAMS = ((0, "standard input"), (1, "standard output"), (2, "standard error"))


def terminal_problem() -> str | None:
    """Why the game cannot run in this process's terminal, in one line; None if it can.

    Checked before Textual is imported, so a refusal is as fast as `--help`.
    """
    # TEXTUAL_DRIVER picks a driver other than the terminal's: textual-serve and
    # textual-web set it and talk to the app through pipes, so none of this applies.
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    # All three standard streams must be the terminal, because Textual 8 uses all
    # three: it reads keys from stdin (a pipe or /dev/null there makes its input
    # thread spin at 100% CPU forever, even after an SSH client has gone), draws
    # the screen on stderr (`2>/dev/null` blanks it, `2>log` fills the log with
    # escape codes), and takes the window size from stdout (redirected, the app is
    # drawn 80x24 whatever the window's size, and resizes are never seen).
    missing = [name for fd, name in STREAMS if not os.isatty(fd)]
    if missing:
        if len(missing) == 1:
            what = f"{missing[0]} is not a terminal"
        else:
            what = f"{', '.join(missing[:-1])} and {missing[-1]} are not terminals"
        return f"the game needs a terminal: {what} (over SSH use ssh -t)"
    # Textual never reads TERM to decide whether it may take over the screen: on a
    # dumb terminal (Emacs' shell, some IDE consoles) or with TERM unset or empty it
    # writes full-screen escape codes anyway, which show up as garbage. (On Windows
    # TERM is usually unset and Textual drives the console through its own API.)
    term = os.environ.get("TERM")
    if sys.platform != "win32" and not full_screen(term):
        what = "TERM is not set" if term is None else f"TERM is {term!r}"
        return (
            f"the game needs a full-screen terminal, but {what}: play line by line with "
            "tui-tictactoe --plain, made for it (or run it in a terminal emulator, or set "
            "TERM, e.g. TERM=xterm-256color)"
        )
    # Textual writes the screen as text to sys.__stderr__, which Python encodes in
    # its own encoding with errors="backslashreplace": with an ASCII or Latin-1
    # encoding every border comes out as the literal text `\u2502`. Only the user
    # knows whether the terminal itself could show UTF-8 (a misconfigured locale)
    # or not (a real Latin-1 terminal, where forcing UTF-8 would print mojibake),
    # and Textual has no ASCII mode, so refuse and say what to change. A plain
    # `LANG=C` or `LC_ALL=C` is fine: Python then runs in UTF-8 mode (PEP 538/540).
    encoding = _stream_encoding(sys.__stderr__)
    if encoding != "utf-8":
        hint = (
            f"PYTHONIOENCODING is {echo(os.environ['PYTHONIOENCODING'])}: unset it"
            if os.environ.get("PYTHONIOENCODING")
            else "use a UTF-8 locale, e.g. LANG=C.UTF-8"
        )
        return (
            f"the game needs a UTF-8 terminal, but the output encoding is {encoding} "
            f"({hint}, in a terminal that shows UTF-8)"
        )
    return None


def full_screen(term: str | None) -> bool:
    """Whether a TERM lets the game take over the screen (not unset, empty or dumb): the
    game's own check, and serve-ssh's before it draws its first frame for the game."""
    return term is not None and term.strip().lower() not in ("", "dumb")


def _stream_encoding(stream: object) -> str:
    """The codec's canonical name ("utf-8", "ascii", "iso8859-1"...), or "unknown"."""
    try:
        return codecs.lookup(stream.encoding).name  # type: ignore[attr-defined]
    except (AttributeError, LookupError, TypeError):
        return "unknown"
