"""The server's host key when several hosts start at once on one shared file (issue 23:
`--host-key FILE` for every host behind one address): one key, made once, never read half
written."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from tui_tictactoe.servers.ssh.host_key import load_or_create

HOSTS = 6
TRIES = 15


def start_host(
    path: str, barrier: multiprocessing.synchronize.Barrier, out: multiprocessing.Queue[str]
) -> None:
    """One host starting: wait for the others, then read or make the key, as serve-ssh does."""
    barrier.wait()
    try:
        out.put(load_or_create(Path(path)).export_public_key().decode())
    except Exception as error:  # the bug: "cannot read the host key ...: Invalid private key"
        out.put(f"error: {error}")


def test_hosts_starting_together_share_one_whole_key(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    for attempt in range(TRIES):
        path = tmp_path / f"key{attempt}"
        barrier = context.Barrier(HOSTS)
        out: multiprocessing.Queue[str] = context.Queue()
        hosts = [
            context.Process(target=start_host, args=(str(path), barrier, out)) for _ in range(HOSTS)
        ]
        for host in hosts:
            host.start()
        keys = [out.get(timeout=60) for _ in hosts]
        for host in hosts:
            host.join(30)
        assert not [key for key in keys if key.startswith("error")], keys
        assert len(set(keys)) == 1  # every host serves the key that is in the file
        assert (os.stat(path).st_mode & 0o777) == 0o600
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(path.name)] == [path.name]
