"""deploy/: the systemd units and their configuration files, as a host would install them.

The units' own install steps are followed (`package_tools.install_as_the_units_say`: a fresh
venv from a copy of the tree, the wheel built and installed with its `postgres` extra), and
`systemd-analyze verify` checks each unit against the command they installed (it fails while
that command does not exist); without systemd-analyze these fail in CI (`CI=true`, `.ci/run`
installs Debian's systemd) and are skipped elsewhere, saying why. And
`systemd-analyze security --offline` rates its exposure, which must stay "OK" (at most 2.0 of
10); the unit's own ExecStart line, with the sample configuration file, is one the command
accepts (`--print-config` shows the file's settings in force).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from package_tools import INSTALL_DIR, Installed, run
from pty_terminal import command

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))
INSTALLED = f"{INSTALL_DIR}/bin/tui-tictactoe"  # where the units expect the command
EXPOSURE_LIMIT = 2.0

NO_SYSTEMD = (
    "NO SYSTEMD TESTS: systemd-analyze was not found; apt-get install systemd (.ci/run does)"
)


@pytest.fixture
def systemd_analyze() -> str:
    """systemd-analyze's path: a failure in CI, which must run these, a skip elsewhere."""
    found = shutil.which("systemd-analyze")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(NO_SYSTEMD, pytrace=False)
        pytest.skip(NO_SYSTEMD)
    return found


def exec_start(unit: Path) -> list[str]:
    line = next(line for line in unit.read_text().splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def here(unit: Path, tmp_path: Path, installed: Path | None = None) -> Path:
    """The unit with its command where this test's installation has it (verify checks that
    the command exists and can be run): `installed`, else the one on PATH."""
    on_path = shutil.which("tui-tictactoe") or shutil.which(
        "tui-tictactoe", path=str(Path(sys.executable).parent)
    )  # the test's own environment's, activated or not
    command = str(installed) if installed is not None else on_path
    assert command is not None
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace(INSTALLED, command))
    return copy


def test_there_is_a_unit_for_each_server() -> None:
    assert [unit.name for unit in UNITS] == [
        "tui-tictactoe-ssh.service",
        "tui-tictactoe-web.service",
    ]


@pytest.mark.xdist_group("package")  # the `installed` fixture's: built once, in one worker
@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_the_units_install_steps_give_the_command_systemd_verifies(
    unit: Path, installed: Installed, systemd_analyze: str, tmp_path: Path
) -> None:
    """`pip install 'tui-tictactoe[postgres]'`, as the units said, finds nothing: no index
    has the package. Their steps now build it from the clone; what they install is what
    ExecStart runs."""
    assert installed.command.is_file()
    words = [word.replace("${CONFIGURATION_DIRECTORY}", str(DEPLOY)) for word in exec_start(unit)]
    shown = run(installed.command, *words[1:], "--print-config", cwd=tmp_path)
    assert re.search(r"^port = \d+$", shown, re.MULTILINE), shown
    result = subprocess.run(
        [systemd_analyze, "verify", str(here(unit, tmp_path, installed.command))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_the_unit_is_hardened(unit: Path, systemd_analyze: str, tmp_path: Path) -> None:
    text = unit.read_text()
    for setting in (
        "DynamicUser=yes",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "MemoryMax=",
        "CPUQuota=",
        "Restart=",
        "StateDirectory=tui-tictactoe",
    ):
        assert setting in text, setting
    result = subprocess.run(
        [systemd_analyze, "security", "--offline=true", str(here(unit, tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= EXPOSURE_LIMIT, result.stdout


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_the_units_command_line_and_its_sample_file_are_accepted(unit: Path) -> None:
    words = [word.replace("${CONFIGURATION_DIRECTORY}", str(DEPLOY)) for word in exec_start(unit)]
    assert words[0] == INSTALLED
    result = subprocess.run(
        [*command(), *words[1:], "--print-config"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    sample = DEPLOY / Path(words[words.index("--config") + 1]).name
    for line in sample.read_text().splitlines():
        setting = line.split("#")[0].strip()
        if setting:
            key, value = (part.strip() for part in setting.split("=", 1))
            assert re.search(rf"^{re.escape(key)} = ", result.stdout, re.MULTILINE), key
            if value.isdigit():
                assert f"{key} = {value}" in result.stdout


@pytest.mark.parametrize("unit", ["tui-tictactoe-ssh.service", "tui-tictactoe-web.service"])
def test_reloading_a_unit_drains_and_it_comes_back(unit: str) -> None:
    """Both servers drain on SIGUSR1 (tests/realtime/ssh/test_serve_ssh_drain.py, test_serve_web_ops.py) and
    exit 0 after their last round: the unit's reload sends it, and only `Restart=always`
    starts the server again."""
    text = (DEPLOY / unit).read_text()
    assert "ExecReload=/bin/kill -USR1 $MAINPID" in text
    assert "Restart=always" in text
