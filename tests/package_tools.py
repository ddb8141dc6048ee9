"""The package as a host installs it, for `tests/project/`: the tree copied (setuptools writes
beside the sources), commands run with a clean environment, and the install steps the
systemd units give (`deploy/*.service`), followed as written with another directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
INSTALL_DIR = "/opt/tui-tictactoe"
"""Where the units' steps install the package (their ExecStart runs its command)."""


def run(*command: str | Path, cwd: Path = ROOT) -> str:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(
        [str(word) for word in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def copy_of_the_tree(to: Path) -> Path:
    """The repository's files (tracked, and new ones git does not ignore) copied to `to`:
    setuptools writes its release tree, `build/` and the egg-info beside the sources, where
    the lint and type tests running at the same time would find them half made."""
    listed = run("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


def install_steps(unit: Path) -> list[str]:
    """The shell commands in a unit's header that make INSTALL_DIR (run from a clone)."""
    return [
        line.removeprefix("#").strip()
        for line in unit.read_text(encoding="utf-8").splitlines()
        if line.startswith("#   ") and INSTALL_DIR in line
    ]


class Installed(NamedTuple):
    """The package installed by the units' steps: the clone they ran in, the venv they
    made (INSTALL_DIR's stand-in), its command, and the wheel they built."""

    tree: Path
    venv: Path
    command: Path
    wheel: Path


def install_as_the_units_say(where: Path) -> Installed:
    """Follow the units' install steps (the same in each), INSTALL_DIR replaced by a
    directory of `where`, in a copy of the tree as the clone."""
    steps = {tuple(install_steps(unit)) for unit in sorted(DEPLOY.glob("*.service"))}
    assert len(steps) == 1, f"the units give different install steps: {steps}"
    (given,) = steps
    assert given, "the units give no install steps"
    tree = copy_of_the_tree(where / "clone")
    venv = where / "opt" / "tui-tictactoe"
    for step in given:
        run("bash", "-euc", step.replace(INSTALL_DIR, str(venv)), cwd=tree)
    (wheel,) = (tree / "dist").glob("tui_tictactoe-*.whl")
    return Installed(tree, venv, venv / "bin" / "tui-tictactoe", wheel)
