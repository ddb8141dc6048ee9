"""The package as others install it: `python -m build` makes an sdist and a wheel, and the
wheel, installed in a fresh virtual environment, knows its version and plays.

Slow (a build, and an install from the package index or pip's cache): one test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
PACKAGE_DATA = (
    "tui_tictactoe/py.typed",
    "tui_tictactoe/ui/help.md",
    "tui_tictactoe/ui/tictactoe.tcss",
    "tui_tictactoe/ui/few_colours.tcss",
    "tui_tictactoe/ui/screens/room_screen.tcss",
)


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


def test_the_built_wheel_installs_in_a_fresh_venv_and_plays(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    tree = copy_of_the_tree(tmp_path / "tree")
    run(sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", dist, tree)
    wheel = next(dist.glob("*.whl"))
    sdist = next(dist.glob("*.tar.gz"))
    assert wheel.name.startswith(f"tui_tictactoe-{VERSION}-")
    assert sdist.name == f"tui_tictactoe-{VERSION}.tar.gz"

    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert set(PACKAGE_DATA) <= in_wheel
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in in_wheel)
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", *PACKAGE_DATA} <= in_sdist

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel)
    # Run from elsewhere, so that the tree's own package cannot stand in for the wheel's.
    assert run(venv / "bin" / "tui-tictactoe", "--version", cwd=tmp_path).strip() == (
        f"tui-tictactoe {VERSION}"
    )
    verdicts = run(venv / "bin" / "tui-tictactoe", "analyse", "X.. .O. ...", cwd=tmp_path)
    assert "draw" in verdicts
