"""Shared helpers for the Zi Wei tests: real birth dates for every lunar day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from mingshu import calendar


def lunar_month_days(years: range) -> Iterator[tuple[calendar.LunarMonth, int, dt.date]]:
    """Every (lunar month, day, solar date) of the lunar years given, leap months included."""
    for year in years:
        for month in calendar.lunar_year_months(year):
            for day in range(1, month.days + 1):
                yield month, day, month.first_day + dt.timedelta(days=day - 1)


@pytest.fixture(scope="session")
def two_lunar_years() -> list[tuple[calendar.LunarMonth, int, dt.date]]:
    """Every day of lunar 2022 and 2023 (2023 has a leap second month): 30-day and
    29-day months, all twelve month numbers, a leap month."""
    return list(lunar_month_days(range(2022, 2024)))
