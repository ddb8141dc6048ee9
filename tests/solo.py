"""`@pytest.mark.solo`: a test that compares times against a control runs with no other test
running on any xdist worker.

Why: on CI's 2 shared cores the three workers' other tests (a pip install, mypy, the pty
chaos) took the cores from a flood test's measured login in one half of its rounds and not
the other; its medians then measured the neighbours, not the server (stop 41: 2.3x against
a 2x bound, the same code 1.4x alone). A control in the same run covers the load a test
makes itself; this covers the load the suite makes beside it.

Two `flock`s in the run's temporary directory, shared by the workers (a lock is let go when
its process dies, so a crashed worker blocks nobody): every test holds `busy` shared while
it runs (set-up and tear-down too); a solo test holds it exclusive. The `turn` lock gives a
waiting solo test its turn: every test passes through it before it starts, and a solo test
keeps it while it waits and runs, so the workers finish what they are running and wait,
instead of starting new tests forever and the solo test never getting `busy`.
Without xdist (`-p no:xdist`, `-n 0`) there is nothing beside a test and no lock is taken.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Generator, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

import pytest

MARK = "solo"


def _lock_dir() -> Path | None:
    """The directory every worker of this run shares; None outside xdist."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    folder = Path(tempfile.gettempdir()) / f"tui-tictactoe-solo-{run}"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def _locked(path: Path, kind: int) -> Iterator[IO[bytes]]:
    with path.open("ab") as file:
        fcntl.flock(file, kind)
        try:
            yield file
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


@contextmanager
def turn_for(solo: bool) -> Iterator[None]:
    """Hold the run's locks for one test: alone if `solo`, beside the others if not."""
    folder = _lock_dir()
    if folder is None:
        yield
        return
    with ExitStack() as held:
        turn = held.enter_context(_locked(folder / "turn", fcntl.LOCK_EX))
        held.enter_context(_locked(folder / "busy", fcntl.LOCK_EX if solo else fcntl.LOCK_SH))
        if not solo:  # through the turnstile: the next test, solo or not, may go
            fcntl.flock(turn, fcntl.LOCK_UN)
        yield


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{MARK}: compares times against a control; runs with no other test beside it"
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    with turn_for(item.get_closest_marker(MARK) is not None):
        return (yield)
