"""The package as others install it: `python -m build` makes an sdist, the units' install
steps a wheel, and the wheel, installed in a fresh virtual environment, knows its version,
plays, and has its `postgres` extra.

Slow (a build, and an install from the package index or pip's cache): one test, and the
install made once per session (`conftest.py`'s `installed`, shared with `test_deploy.py`).
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from package_tools import VERSION, Installed, copy_of_the_tree, run

PACKAGE_DATA = (
    "tui_tictactoe/py.typed",
    "tui_tictactoe/ui/help.md",
    "tui_tictactoe/ui/tictactoe.tcss",
    "tui_tictactoe/ui/few_colours.tcss",
    "tui_tictactoe/ui/rooms/room_screen.tcss",
    # serve-web's page, its script and its icon
    "tui_tictactoe/servers/web/page/index.html",
    "tui_tictactoe/servers/web/page/tictactoe.js",
    "tui_tictactoe/servers/web/page/favicon.svg",
)


@pytest.mark.xdist_group("package")  # the `installed` fixture's: built once, in one worker
def test_the_built_wheel_installs_in_a_fresh_venv_and_plays(
    installed: Installed, tmp_path: Path
) -> None:
    """The wheel the units' install steps built (`pip wheel`) and installed with the
    `postgres` extra; the sdist built here by `python -m build`, as a packager would."""
    wheel = installed.wheel
    dist = tmp_path / "dist"
    run(
        sys.executable,
        "-m",
        "build",
        "--sdist",
        "--outdir",
        dist,
        copy_of_the_tree(tmp_path / "tree"),
    )
    sdist = next(dist.glob("*.tar.gz"))
    assert wheel.name.startswith(f"tui_tictactoe-{VERSION}-")
    assert sdist.name == f"tui_tictactoe-{VERSION}.tar.gz"

    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert set(PACKAGE_DATA) <= in_wheel
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in in_wheel)
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", *PACKAGE_DATA} <= in_sdist

    # Run from elsewhere, so that the tree's own package cannot stand in for the wheel's.
    assert run(installed.command, "--version", cwd=tmp_path).strip() == (f"tui-tictactoe {VERSION}")
    verdicts = run(installed.command, "analyse", "X.. .O. ...", cwd=tmp_path)
    assert "draw" in verdicts
    python = installed.venv / "bin" / "python"
    assert run(python, "-c", "import psycopg; print('ok')", cwd=tmp_path).strip() == "ok"
