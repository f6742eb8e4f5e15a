"""Shared set-up of the calendar tests, which compare mingshu.calendar with lunar-python 1.4.8.

lunar-python is a test dependency (extra ``[calendar]``), imported outright: a missing reference
must fail the suite, not skip it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest
from lunar_python import LunarYear


@pytest.fixture(autouse=True, scope="session")
def _lunar_year_cache() -> Iterator[None]:
    """Speed only: give lunar-python's ``LunarYear.fromYear`` a full cache.

    lunar-python keeps a one-entry cache, and ``Solar.getLunar()`` asks for two different years
    for every January/February date, so each such call recomputes two years of new moons (about
    6 ms each).  ``LunarYear(y)`` is a pure function of ``y``, so a full cache changes no result.
    """
    original = LunarYear.__dict__["fromYear"]
    LunarYear.fromYear = staticmethod(functools.cache(LunarYear))
    yield
    LunarYear.fromYear = original
