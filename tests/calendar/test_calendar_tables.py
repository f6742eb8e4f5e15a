"""The shipped tables equal lunar-python 1.4.8: every lunar month, leap month and solar term.

The whole range (lunar years 1582 .. 2650, term years 1581 .. 2651) is in the ``slow`` tier; the
loop checks a sample of years with both ends, the Gregorian switch's neighbourhood and the years
where other ports part from lunar-typescript (1925's 闰四月, 2057's 九月).
"""

from __future__ import annotations

from datetime import date, datetime

import pytest
from lunar_python import Lunar, LunarYear, Solar

from mingshu import calendar
from mingshu.calendar import SolarTerm
from mingshu.errors import OutOfRangeError

LUNAR_YEARS = range(1582, 2651)
TERM_YEARS = range(1581, 2652)
SAMPLE = (1581, 1582, 1583, 1584, 1700, 1811, 1899, 1900, 1925, 2057, 2100, 2101, 2400, 2649,
          2650, 2651)  # fmt: skip
LUNAR_SAMPLE = [y for y in SAMPLE if y in LUNAR_YEARS]
# lunar-python's keys of the 24 terms of a Gregorian year in Lunar.getJieQiTable(), 小寒 first
# (this year's 冬至 is keyed "DONG_ZHI"; "冬至" is the previous year's).
TERM_KEYS = Lunar.JIE_QI_IN_USE[2:26]
# Julian day number of proleptic Gregorian 0001-01-01 (date.toordinal() == 1).
JDN_OF_ORDINAL_1 = 1721426


def _solar_date(s: Solar) -> date:
    """The proleptic Gregorian date of a lunar-python Solar, read through its Julian day:
    lunar-python's Solar is a Julian-calendar date before 1582-10-15."""
    return date.fromordinal(int(s.getJulianDay() + 0.5) - JDN_OF_ORDINAL_1 + 1)


def _moment(s: Solar) -> datetime:
    """A lunar-python Solar to the second, its date read as by :func:`_solar_date`."""
    clock = datetime.min.time().replace(s.getHour(), s.getMinute(), s.getSecond())
    return datetime.combine(_solar_date(s), clock)


def test_julian_days_read_as_gregorian_dates() -> None:
    # 1582-10-15 (Gregorian) follows 1582-10-04 (Julian); lunar-python has both sides.
    assert _solar_date(Solar.fromYmd(1582, 10, 15)) == date(1582, 10, 15)
    assert _solar_date(Solar.fromYmd(1582, 10, 4)) == date(1582, 10, 14)
    assert _solar_date(Solar.fromYmd(2000, 1, 1)) == date(2000, 1, 1)


def check_lunar_months(years: list[int] | range) -> int:
    """Problems for every month of ``years`` (asserted empty); the month count."""
    problems: list[tuple[object, ...]] = []
    months = expected_months = 0
    for year in years:
        reference = LunarYear.fromYear(year)
        expected = [
            (abs(m.getMonth()), m.isLeap(), m.getDayCount(), _solar_date(Solar.fromJulianDay(
                m.getFirstJulianDay())))
            for m in reference.getMonthsInYear()
        ]  # fmt: skip
        ours = [(m.month, m.is_leap, m.days, m.first_day) for m in calendar.lunar_year_months(year)]
        expected_months += len(expected)
        if ours != expected:
            problems.append((year, ours, expected))
        if calendar.leap_month(year) != reference.getLeapMonth():
            problems.append((year, "leap", calendar.leap_month(year), reference.getLeapMonth()))
        for m in calendar.lunar_year_months(year):
            months += 1
            if calendar.month_days(year, m.month, m.is_leap) != m.days:
                problems.append((year, m, "month_days"))
    assert not problems, problems[:5]
    assert months == expected_months
    return months


def test_lunar_months_of_sample_years() -> None:
    check_lunar_months(LUNAR_SAMPLE)


@pytest.mark.slow
def test_every_lunar_month_start_length_and_leap() -> None:
    months = check_lunar_months(LUNAR_YEARS)
    # 1069 lunar years of 12 months and the leap months lunar-python counts in them.
    leaps = sum(LunarYear.fromYear(y).getLeapMonth() > 0 for y in LUNAR_YEARS)
    assert months == len(LUNAR_YEARS) * 12 + leaps


def check_month_boundaries(years: list[int] | range) -> None:
    """lunar→solar of day 1 and the last day of every month via ``Lunar.fromYmd``; a day
    outside the supported range must be refused, not answered."""
    problems: list[tuple[object, ...]] = []
    for year in years:
        for m in calendar.lunar_year_months(year):
            signed = -m.month if m.is_leap else m.month
            for day in (1, m.days):
                expected = _solar_date(Lunar.fromYmd(year, signed, day).getSolar())
                if not calendar.FIRST_DATE <= expected <= calendar.LAST_DATE:
                    with pytest.raises(OutOfRangeError):
                        calendar.lunar_to_solar(year, m.month, day, m.is_leap)
                    continue
                ours = calendar.lunar_to_solar(year, m.month, day, m.is_leap)
                if ours != expected:
                    problems.append((year, m.month, m.is_leap, day, ours, expected))
    assert not problems, problems[:5]


def test_month_first_and_last_days_of_sample_years() -> None:
    check_month_boundaries(LUNAR_SAMPLE)


@pytest.mark.slow
def test_every_month_first_and_last_day_through_the_lunar_api() -> None:
    check_month_boundaries(LUNAR_YEARS)


def check_terms(years: list[int] | range) -> None:
    """All 24 terms of each year equal ``Lunar.getJieQiTable()`` of a date in that year."""
    problems: list[tuple[object, ...]] = []
    for year in years:
        table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
        for term, key in zip(SolarTerm, TERM_KEYS, strict=True):
            expected = _moment(table[key])  # through the Julian day: Gregorian throughout
            ours = calendar.term_moment(year, term)
            if ours != expected:
                problems.append((year, term.name, ours, expected))
    assert not problems, problems[:5]


def test_solar_terms_of_sample_years() -> None:
    check_terms(SAMPLE)


@pytest.mark.slow
def test_every_solar_term_moment_to_the_second() -> None:
    check_terms(TERM_YEARS)


def test_term_table_agrees_with_neighbouring_years() -> None:
    """The 大雪/冬至 before and the 小寒 … 惊蛰 after a year, as that year's table holds them.

    lunar-python takes a date's terms from its own Gregorian year's table, which also holds
    these neighbours; they must equal the neighbouring years' own entries.
    """
    problems: list[tuple[object, ...]] = []
    for year in SAMPLE[1:-1]:
        table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
        neighbours = {
            "DA_XUE": (year - 1, SolarTerm.DA_XUE),
            "冬至": (year - 1, SolarTerm.DONG_ZHI),
            "XIAO_HAN": (year + 1, SolarTerm.XIAO_HAN),
            "DA_HAN": (year + 1, SolarTerm.DA_HAN),
            "LI_CHUN": (year + 1, SolarTerm.LI_CHUN),
            "YU_SHUI": (year + 1, SolarTerm.YU_SHUI),
            "JING_ZHE": (year + 1, SolarTerm.JING_ZHE),
        }
        for key, (y, term) in neighbours.items():
            if _moment(table[key]) != calendar.term_moment(y, term):
                problems.append((year, key))
    assert not problems, problems[:5]


def test_term_names_match_lunar_python() -> None:
    assert tuple(t.names.hans for t in SolarTerm) == Lunar.JIE_QI[1:] + Lunar.JIE_QI[:1]
    assert [t.key for t in SolarTerm][:3] == ["xiao_han", "da_han", "li_chun"]
