"""The package installed once per session by the units' own steps (`package_tools`), for
`test_package.py` and `test_deploy.py` (one xdist group: one worker builds it)."""

from __future__ import annotations

import pytest
from package_tools import Installed, install_as_the_units_say


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return install_as_the_units_say(tmp_path_factory.mktemp("installed"))
