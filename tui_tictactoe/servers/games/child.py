"""A hosted game's process: takes its pseudo-terminal as controlling terminal, then plays.

The server starts this module with `start_new_session=True` (so the process is a
session leader and its own process group) and the pty on stdin, stdout and
stderr. Inherited descriptors do not make a controlling terminal, and without
one the kernel sends neither SIGWINCH on a window change nor SIGHUP on hang-up;
TIOCSCTTY is the one call that needs to run in the child, and doing it here
rather than in a `preexec_fn` keeps Python code out of the fork of a threaded server.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sys
import termios

GAME_NICENESS = 10
"""How much less CPU a game gets than the server when both want it. The server relays every
byte of every game and logs players in: at equal priority, 64 games starting at once left
the players who were logging in, and every game's keys, waiting seconds behind them."""


def lower_priority() -> None:
    """`GAME_NICENESS` below the server that started it (at most 19, the kernel's floor)."""
    with contextlib.suppress(OSError):
        os.nice(GAME_NICENESS)


def main(args: list[str] | None = None) -> int:
    """Take the terminal, step below the server's priority, then run the game as
    `tui-tictactoe play ARGS` does (the fork server's games have taken the terminal
    already: asking again is a no-op). SIGUSR1 (the server's drain, `servers.ops.drain`) is
    ignored until the game handles it, never fatal."""
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # not a terminal: the game's own check refuses
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    lower_priority()
    from tui_tictactoe.commands.play import main as play

    return play(sys.argv[1:] if args is None else args)


if __name__ == "__main__":
    sys.exit(main())
