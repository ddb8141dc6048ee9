"""What the app needs from the real terminal beyond Textual: knowing when it is gone, and
threads that never hold up a quit."""

from __future__ import annotations

import asyncio
import os
import select
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def hung_up(fd: int = 0) -> bool:
    """True once the terminal on `fd` is gone (its window closed, the SSH link dropped).

    Textual 8.2.8 does not notice: its input thread keeps reading nothing at 100% CPU and
    the app never exits, also when SIGHUP is ignored or never sent. A hung-up terminal
    polls as HUP, but only once the kernel has finished hanging it up, which it never
    does while a write to it is blocked (output nobody reads any more, as on a dropped
    link). The terminal's device node is gone either way: on Linux `/proc` then shows
    the open file as deleted.
    """
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if any(events & GONE for _, events in poller.poll(0)):
        return True
    try:
        return os.readlink(f"/proc/self/fd/{fd}").endswith(" (deleted)")
    except OSError:
        return False


class HangUpWatch:
    """Calls `on_hang_up` once the terminal on `fd` is gone, woken by the kernel, not a clock.

    An epoll set holding `fd` with no events asked for still reports EPOLLHUP and EPOLLERR
    (always reported), so its own descriptor, watched by the event loop, becomes readable
    only when the terminal hangs up: keys and output never wake it. It replaced a check
    every 0.2 s, which was what an idle game spent its CPU on (~0.3% of a core each: 300
    idle players, most of a core). SIGHUP (the app's handler) covers a terminal that
    hangs up while a write to it is blocked, which epoll sees only once the write ends.
    """

    def __init__(self, fd: int, on_hang_up: Callable[[], None]) -> None:
        self.fd = fd
        self.on_hang_up = on_hang_up
        self.epoll = select.epoll()
        self.epoll.register(fd, 0)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.add_reader(self.epoll.fileno(), self._woken, loop)

    def _woken(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.epoll.poll(0) or hung_up(self.fd):
            loop.remove_reader(self.epoll.fileno())
            self.on_hang_up()


def exit_soon(status: int, grace: float) -> None:
    """End the process with `status` after `grace` seconds if it is still running then.

    For a terminal that has gone: the app is asked to exit first, but restoring a
    terminal that no longer exists can block forever in a write (see `hung_up`), and
    nothing can unblock that thread.
    """
    timer = threading.Timer(grace, os._exit, (status,))
    timer.daemon = True
    timer.start()


class DaemonThreads(ThreadPoolExecutor):
    """The event loop's default executor, where Textual runs its thread workers.

    Each job runs in a daemon thread of its own, and shutting down waits for none. With
    asyncio's own pool a quit while the AI was thinking waited for the search to end
    (`asyncio.run` shuts its executor down with `wait=True`, and the interpreter joins
    pool threads at exit): a blank screen for as long as the search took. A reply that
    comes after a quit is dropped anyway.
    """

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="tui-tictactoe")

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)

        threading.Thread(target=run, name="tui-tictactoe-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: every thread is a daemon."""
