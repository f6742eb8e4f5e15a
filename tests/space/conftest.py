"""One swept year, shared by the tests of the package (each xdist worker sweeps it once).

1990 is the year with the most default-settings solar records in the iztro fixtures (five),
and it has a leap month (闰五月), so the leap-month columns are exercised.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mingshu import space, ziwei

YEAR = 1990


@pytest.fixture(scope="session")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("space") / "charts"
    # One process: a pool's start-up costs more than it saves on a single year.
    report = space.sweep_ziwei(out, YEAR, YEAR, ziwei.ZiweiSettings(), workers=1, progress=False)
    assert report.years_written == (YEAR,)
    return out


@pytest.fixture(scope="session")
def bazi_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The BaZi space of 1990 (default settings)."""
    from mingshu import bazi

    out = tmp_path_factory.mktemp("bazi") / "pillars"
    report = space.sweep_bazi(out, YEAR, YEAR, bazi.DEFAULT, workers=1, progress=False)
    assert report.years_written == (YEAR,)
    return out
