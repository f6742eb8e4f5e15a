"""The shipped tables equal lunar-python 1.4.8: every lunar month, leap month and solar term."""

from __future__ import annotations

from datetime import date, datetime

from lunar_python import Lunar, LunarYear, Solar

from mingshu import calendar
from mingshu.calendar import SolarTerm

LUNAR_YEARS = range(1900, 2101)
TERM_YEARS = range(1899, 2102)
# lunar-python's keys of the 24 terms of a Gregorian year in Lunar.getJieQiTable(), 小寒 first
# (this year's 冬至 is keyed "DONG_ZHI"; "冬至" is the previous year's).
TERM_KEYS = Lunar.JIE_QI_IN_USE[2:26]


def _solar_date(s: Solar) -> date:
    return date(s.getYear(), s.getMonth(), s.getDay())


def test_every_lunar_month_start_length_and_leap() -> None:
    problems: list[tuple[object, ...]] = []
    months = expected_months = 0
    for year in LUNAR_YEARS:
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
    assert months == expected_months == 201 * 12 + 74  # 1900 .. 2100, 74 leap months


def test_month_first_and_last_days_through_the_lunar_api() -> None:
    """lunar→solar of day 1 and the last day of every month via ``Lunar.fromYmd``."""
    problems: list[tuple[object, ...]] = []
    for year in LUNAR_YEARS:
        for m in calendar.lunar_year_months(year):
            signed = -m.month if m.is_leap else m.month
            for day in (1, m.days):
                if (year, m.month, day) == (2100, 12, 29):
                    continue  # solar 2101-01-28: beyond the supported range
                expected = _solar_date(Lunar.fromYmd(year, signed, day).getSolar())
                ours = calendar.lunar_to_solar(year, m.month, day, m.is_leap)
                if ours != expected:
                    problems.append((year, m.month, m.is_leap, day, ours, expected))
    assert not problems, problems[:5]


def test_every_solar_term_moment_to_the_second() -> None:
    """All 24 terms of 1899 .. 2101 equal ``Lunar.getJieQiTable()`` of a date in that year."""
    problems: list[tuple[object, ...]] = []
    for year in TERM_YEARS:
        table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
        for term, key in zip(SolarTerm, TERM_KEYS, strict=True):
            s = table[key]
            expected = datetime(
                s.getYear(), s.getMonth(), s.getDay(), s.getHour(), s.getMinute(), s.getSecond()
            )
            ours = calendar.term_moment(year, term)
            if ours != expected:
                problems.append((year, term.name, ours, expected))
    assert not problems, problems[:5]


def test_term_table_agrees_with_neighbouring_years() -> None:
    """The 大雪/冬至 before and the 小寒 … 惊蛰 after a year, as that year's table holds them.

    lunar-python takes a date's terms from its own Gregorian year's table, which also holds
    these neighbours; they must equal the neighbouring years' own entries.
    """
    problems: list[tuple[object, ...]] = []
    for year in range(1900, 2101):
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
            if table[key].toYmdHms() != str(calendar.term_moment(y, term)):
                problems.append((year, key))
    assert not problems, problems[:5]


def test_term_names_match_lunar_python() -> None:
    assert tuple(t.names.hans for t in SolarTerm) == Lunar.JIE_QI[1:] + Lunar.JIE_QI[:1]
    assert [t.key for t in SolarTerm][:3] == ["xiao_han", "da_han", "li_chun"]
