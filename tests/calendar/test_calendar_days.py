"""Every day of the supported range against lunar-python 1.4.8's ``Solar.getLunar()``.

One test per decade (so ``pytest -n`` spreads them); each collects all mismatches and shows
the first few.  The whole sweep of 1583 .. 2650 takes about a minute on one core.
"""

from __future__ import annotations

from datetime import date

import pytest
from lunar_python import Lunar, Solar

from mingshu import calendar
from mingshu.calendar import LunarDate

FIRST, LAST = calendar.FIRST_DATE.toordinal(), calendar.LAST_DATE.toordinal()
DECADES = [
    (max(FIRST, date(y, 1, 1).toordinal()), min(LAST, date(y + 9, 12, 31).toordinal()))
    for y in range(1580, 2651, 10)
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "last"), DECADES, ids=[str(date.fromordinal(a).year) for a, _ in DECADES]
)
def test_every_day_matches_lunar_python(first: int, last: int) -> None:
    problems: list[tuple[object, ...]] = []
    for ordinal in range(first, last + 1):
        d = date.fromordinal(ordinal)
        solar = Solar.fromYmd(d.year, d.month, d.day)
        ref = solar.getLunar()
        expected = LunarDate(ref.getYear(), abs(ref.getMonth()), ref.getDay(), ref.getMonth() < 0)

        ours = calendar.solar_to_lunar(d)
        if ours != expected or calendar.lunar_from_ordinal(ordinal) != expected:
            problems.append((d, "lunar", ours, expected))
        if ours.chinese() != ref.toString():
            problems.append((d, "chinese", ours.chinese(), ref.toString()))
        if calendar.lunar_to_solar(*ours) != d:
            problems.append((d, "lunar_to_solar", calendar.lunar_to_solar(*ours)))

        pillar = calendar.day_pillar(d)
        if (pillar.stem, pillar.branch) != (ref.getDayGanIndex(), ref.getDayZhiIndex()):
            problems.append((d, "day pillar", pillar, ref.getDayInGanZhi()))
        pillar = calendar.year_pillar_by_lichun_day(d)
        if (pillar.stem, pillar.branch) != (
            ref.getYearGanIndexByLiChun(),
            ref.getYearZhiIndexByLiChun(),
        ):
            problems.append((d, "year by 立春 day", pillar, ref.getYearInGanZhiByLiChun()))
        pillar = calendar.year_pillar_of_lunar_year(ours.year)
        if (pillar.stem, pillar.branch) != (ref.getYearGanIndex(), ref.getYearZhiIndex()):
            problems.append((d, "lunar year pillar", pillar, ref.getYearInGanZhi()))
        if calendar.sign(d).hans != solar.getXingZuo() + "座":
            problems.append((d, "sign", calendar.sign(d), solar.getXingZuo()))
    assert not problems, problems[:10]


def test_lunar_to_solar_through_lunar_python_every_211th_day() -> None:
    """``Lunar.fromYmd(...).getSolar()`` (lunar-python's own lunar→solar path) on a sample of
    about 1,850 days spread over the range (every day in the slow tier)."""
    problems: list[tuple[object, ...]] = []
    for ordinal in range(FIRST, LAST + 1, 211):
        lunar = calendar.lunar_from_ordinal(ordinal)
        month = -lunar.month if lunar.is_leap else lunar.month
        s = Lunar.fromYmd(lunar.year, month, lunar.day).getSolar()
        expected = date(s.getYear(), s.getMonth(), s.getDay())
        if calendar.lunar_to_solar(*lunar) != expected or expected.toordinal() != ordinal:
            problems.append((lunar, expected))
    assert not problems, problems[:10]
