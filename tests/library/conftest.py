"""One small swept space for the library tests: every chart of 2000 under each leap-month
setting (built once per session).  The check reports N from what it actually ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu.library.check import ensure_space

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def space(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("library-space")
    ensure_space(folder, (2000, 2000), progress=False)
    return folder


@pytest.fixture(scope="session")
def sources() -> Path:
    """The cited lines of the classical transcriptions, shipped with the repository (kept
    equal to the full files of ../shared/sources by test_sources.py)."""
    return ROOT / "sources"
