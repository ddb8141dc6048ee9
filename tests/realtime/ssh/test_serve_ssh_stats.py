"""`ssh -p PORT HOST -- stats [--json]`: a player reads their own record over real SSH (issue 29).

Real parts: a `SshServer` on loopback with the test's data directory, rounds saved in
its record for two keys, asyncssh clients and the OpenSSH client without a pty, and the
`stats` process the server starts. Checked: each key reads its own record and only its
own (no option names another), a guest is told it has none, a play session still needs
a pty, and `--help` says what the command does.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import asyncssh
import pytest
import test_serve_ssh
from test_serve_ssh import STEP_TIMEOUT, connect

from tui_tictactoe.record import FinishedRound, Record

host = test_serve_ssh.host  # the fixture: a SshServer in the test's loop, with its log

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
ANN = ANN_KEY.get_fingerprint("sha256")
BOB = BOB_KEY.get_fingerprint("sha256")


def save_rounds() -> None:
    """3 rounds for ann's key, 1 for bob's, in the record the server's games use."""
    with Record.open() as record:
        for result in ("win", "win", "loss"):
            assert record.save_round(
                ANN,
                FinishedRound(
                    difficulty="easy", symbol="X", first="human", moves=[5], result=result
                ),
            )
        assert record.save_round(
            BOB, FinishedRound(difficulty="hard", symbol="O", first="ai", moves=[1], result="draw")
        )


class Ran(NamedTuple):
    """A command's end over SSH, its output as text (asyncssh's default encoding)."""

    exit_status: int | None
    stdout: str
    stderr: str


async def run(port: int, command: str, key: asyncssh.SSHKey | None) -> Ran:
    conn = await connect(port, key=key)
    async with conn:
        done = await asyncio.wait_for(conn.run(command, term_type=None), STEP_TIMEOUT)
    assert isinstance(done.stdout, str) and isinstance(done.stderr, str)
    return Ran(done.exit_status, done.stdout, done.stderr)


async def test_each_key_reads_its_own_record_and_a_guest_none(host: Any) -> None:
    hosted = await host()
    save_rounds()
    ann = await run(hosted.port, "stats --json", ANN_KEY)
    assert ann.exit_status == 0, ann.stderr
    record = json.loads(ann.stdout)
    assert (record["player"], record["rounds"]) == (ANN, 3)
    assert record["by_difficulty"]["easy"]["wins"] == 2
    bob = await run(hosted.port, "tui-tictactoe stats --json", BOB_KEY)
    assert (json.loads(bob.stdout)["player"], json.loads(bob.stdout)["rounds"]) == (BOB, 1)
    text = await run(hosted.port, "stats", ANN_KEY)
    assert text.exit_status == 0 and "3 rounds" in text.stdout
    guest = await run(hosted.port, "stats --json", None)
    assert guest.exit_status == 1 and guest.stdout == ""
    assert "a guest has no record" in guest.stderr
    # Nobody else's record: no option names another player.
    other = await run(hosted.port, f"stats --player {BOB}", ANN_KEY)
    assert other.exit_status == 2 and "unrecognized arguments" in other.stderr
    assert BOB not in other.stdout
    helped = await run(hosted.port, "stats --help", ANN_KEY)
    assert helped.exit_status == 0 and "your own record" in helped.stdout
    # A game still needs a pty.
    game = await run(hosted.port, "--difficulty easy", ANN_KEY)
    assert game.exit_status == 2 and "connect with ssh -t" in game.stderr
    await hosted.logged("printed stats, exit 0")
    await hosted.logged("refused: stats for a guest")


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client here")
async def test_the_openssh_client_reads_its_record_without_a_pty(host: Any, tmp_path: Path) -> None:
    hosted = await host()
    save_rounds()
    key = tmp_path / "ann_key"
    ANN_KEY.write_private_key(key)
    key.chmod(0o600)
    ssh = shutil.which("ssh")
    assert ssh is not None
    options = ("-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null")
    process = await asyncio.create_subprocess_exec(
        *(ssh, "-T", "-F", "/dev/null", "-p", str(hosted.port), *options, "-o", "LogLevel=ERROR"),
        *("-o", "IdentitiesOnly=yes", "-i", str(key), "-o", "BatchMode=yes"),
        *("-l", "ann", "127.0.0.1", "--", "stats", "--json"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"},
    )
    out, err = await asyncio.wait_for(process.communicate(), STEP_TIMEOUT)
    assert process.returncode == 0, err
    record = json.loads(out)
    assert (record["player"], record["rounds"]) == (ANN, 3)
