"""One small swept space for the library tests: every chart of 2000 under each leap-month
setting (built once per session).  The check reports N from what it actually ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu.library.check import ensure_space, find_sources


@pytest.fixture(scope="session")
def space(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("library-space")
    ensure_space(folder, (2000, 2000), progress=False)
    return folder


@pytest.fixture(scope="session")
def sources() -> Path:
    found = find_sources()
    if found is None or not found.is_dir():
        pytest.skip("the classical transcriptions (shared/sources) are not here")
    return found
