"""Bad input names its field and says what is wrong; nothing outside the range gets an answer."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from mingshu import calendar
from mingshu.calendar import SolarTerm
from mingshu.errors import InputError, OutOfRangeError

RANGE = "1583-01-01 .. 2650-12-31"

# Leap months of 30 days whose regular month has 29 (iztro cannot reach their day 30).
LEAP_DAY_30 = [
    (1906, 4, date(1906, 6, 21)), (1914, 5, date(1914, 7, 22)), (1919, 7, date(1919, 9, 23)),
    (1925, 4, date(1925, 6, 20)), (1936, 3, date(1936, 5, 20)), (1938, 7, date(1938, 9, 23)),
    (1941, 6, date(1941, 8, 22)), (1944, 4, date(1944, 6, 20)), (1952, 5, date(1952, 7, 21)),
    (1955, 3, date(1955, 5, 21)), (2017, 6, date(2017, 8, 21)), (2036, 6, date(2036, 8, 21)),
    (2047, 5, date(2047, 7, 22)), (2050, 3, date(2050, 5, 20)), (2055, 6, date(2055, 8, 22)),
    (2058, 4, date(2058, 6, 20)), (2093, 6, date(2093, 8, 21)),
]  # fmt: skip


def test_impossible_solar_dates() -> None:
    with pytest.raises(InputError) as error:
        calendar.check_solar_date(2030, 2, 30)
    assert error.value.field == "date"
    assert error.value.message == "2030-02-30 does not exist (February 2030 has 28 days)"
    assert not isinstance(error.value, OutOfRangeError)

    with pytest.raises(InputError, match=r"2023-13-01 does not exist \(months run 1 to 12\)"):
        calendar.check_solar_date(2023, 13, 1)
    with pytest.raises(InputError, match="February 2024 has 29 days"):
        calendar.check_solar_date(2024, 2, 30)
    with pytest.raises(InputError, match="February 2100 has 28 days"):
        calendar.check_solar_date(2100, 2, 29)
    with pytest.raises(InputError, match="April 2000 has 30 days") as error:
        calendar.check_solar_date(2000, 4, 31, field="birth_date")
    assert error.value.field == "birth_date"
    assert calendar.check_solar_date(2000, 2, 29) == date(2000, 2, 29)


@pytest.mark.parametrize(
    ("ymd", "text"),
    [
        ((1582, 12, 31), "1582-12-31"),
        ((2651, 1, 1), "2651-01-01"),
        ((1500, 5, 1), "1500-05-01"),
        ((1, 1, 1), "0001-01-01"),
    ],
)
def test_solar_dates_out_of_range(ymd: tuple[int, int, int], text: str) -> None:
    with pytest.raises(OutOfRangeError) as error:
        calendar.check_solar_date(*ymd)
    assert error.value.field == "date"
    assert error.value.message == f"{text} is outside the supported range {RANGE}"


def test_edges_of_the_range_are_supported() -> None:
    assert calendar.check_solar_date(1583, 1, 1) == calendar.FIRST_DATE
    assert calendar.check_solar_date(2650, 12, 31) == calendar.LAST_DATE
    # lunar-python 1.4.8: Solar.fromYmd(1583, 1, 1).getLunar() is 一五八二年腊月初八 and
    # Solar.fromYmd(2650, 12, 31).getLunar() 二六五〇年冬月十七.
    assert calendar.solar_to_lunar(calendar.FIRST_DATE) == (1582, 12, 8, False)
    assert calendar.solar_to_lunar(calendar.LAST_DATE) == (2650, 11, 17, False)
    assert calendar.lunar_to_solar(1582, 12, 8) == calendar.FIRST_DATE
    assert calendar.lunar_to_solar(2650, 11, 17) == calendar.LAST_DATE


@pytest.mark.parametrize(
    "call",
    [
        lambda: calendar.solar_to_lunar(date(1582, 12, 31)),
        lambda: calendar.solar_to_lunar(date(2651, 1, 1)),
        lambda: calendar.lunar_from_ordinal(0),
        lambda: calendar.year_pillar_by_lichun_day(date(2651, 2, 4)),
        lambda: calendar.sign(date(1582, 8, 1)),
        lambda: calendar.year_pillar_exact(datetime(1582, 12, 31, 23, 59, 59)),
        lambda: calendar.month_pillar_exact(datetime(2651, 1, 1)),
        lambda: calendar.previous_jie(datetime(1582, 12, 31, 23, 59, 59)),
        lambda: calendar.next_jie(datetime(2651, 1, 1)),
    ],
)
def test_every_date_function_refuses_dates_out_of_range(call: object) -> None:
    with pytest.raises(OutOfRangeError, match=f"outside the supported range {RANGE}") as error:
        call()  # type: ignore[operator]
    assert error.value.field == "date"


def test_day_pillar_needs_no_table() -> None:
    # The sixty-day count is continuous, so it runs on past both ends of the tables
    # (values from lunar-python 1.4.8 getDayInGanZhi).
    assert str(calendar.day_pillar(date(1582, 12, 31))) == "辛卯"
    assert str(calendar.day_pillar(date(1583, 1, 1))) == "壬辰"
    assert str(calendar.day_pillar(date(2651, 1, 1))) == "辛亥"
    assert str(calendar.day_pillar_from_ordinal(date(2650, 12, 31).toordinal())) == "庚戌"


def test_lunar_years_out_of_range() -> None:
    lunar_range = "lunar 1582-12-8 .. 2650-11-17 (solar 1583-01-01 .. 2650-12-31)"
    with pytest.raises(OutOfRangeError) as error:
        calendar.lunar_to_solar(1581, 12, 1)
    assert error.value.message == f"lunar year 1581 is outside the supported range {lunar_range}"
    # Lunar 1582 is tabulated (1583-01-01 falls in its 腊月), but its days before 1583 are not
    # served: they are not in the range, whatever calendar they are read in.
    with pytest.raises(OutOfRangeError, match="lunar 1582-12-7 \\(solar 1582-12-31\\)"):
        calendar.lunar_to_solar(1582, 12, 7)
    with pytest.raises(OutOfRangeError, match="lunar 2650-11-18 \\(solar 2651-01-01\\)"):
        calendar.lunar_to_solar(2650, 11, 18)
    with pytest.raises(OutOfRangeError, match="lunar year 2651"):
        calendar.lunar_to_solar(2651, 1, 1)
    for call in (
        lambda: calendar.leap_month(1581),
        lambda: calendar.month_days(2651, 1),
        lambda: calendar.lunar_year_months(2651),
        lambda: calendar.year_pillar_of_lunar_year(1581),
    ):
        with pytest.raises(OutOfRangeError) as error:
            call()
        assert error.value.field == "year"
    with pytest.raises(OutOfRangeError, match=r"tabulated for the years 1581 \.\. 2651, not 2652"):
        calendar.term_moment(2652, SolarTerm.LI_CHUN)
    assert calendar.term_moment(1581, SolarTerm.XIAO_HAN).year == 1581
    assert calendar.term_moment(2651, SolarTerm.DONG_ZHI).year == 2651


def test_lunar_day_the_month_does_not_have() -> None:
    with pytest.raises(InputError) as error:
        calendar.lunar_to_solar(2023, 3, 30)
    assert error.value.field == "date"
    assert error.value.message == "lunar 2023-3-30 does not exist: month 3 of 2023 has 29 days"
    with pytest.raises(InputError, match="lunar 2023-闰2-30 does not exist: leap month 2 of 2023"):
        calendar.lunar_to_solar(2023, 2, 30, is_leap=True)
    with pytest.raises(InputError, match="lunar 2023-1-0 does not exist"):
        calendar.lunar_to_solar(2023, 1, 0)
    with pytest.raises(InputError, match=r"lunar month 13 does not exist \(months run 1 to 12\)"):
        calendar.lunar_to_solar(2023, 13, 1)


def test_leap_flag_on_a_month_that_is_not_leap() -> None:
    with pytest.raises(InputError) as error:
        calendar.lunar_to_solar(2023, 3, 1, is_leap=True)
    assert error.value.field == "leap"
    assert error.value.message == "2023 has no leap month 3 (its leap month is 2)"
    with pytest.raises(InputError) as error:
        calendar.lunar_to_solar(2024, 3, 1, is_leap=True)
    assert error.value.message == "2024 has no leap month 3 (it has no leap month)"
    with pytest.raises(InputError) as error:
        calendar.month_days(2024, 3, is_leap=True)
    assert error.value.field == "leap"
    with pytest.raises(InputError) as error:
        calendar.month_days(2024, 0)
    assert error.value.field == "month"


@pytest.mark.parametrize(("year", "month", "solar"), LEAP_DAY_30)
def test_day_30_of_a_30_day_leap_month(year: int, month: int, solar: date) -> None:
    assert calendar.month_days(year, month) == 29
    assert calendar.month_days(year, month, is_leap=True) == 30
    assert calendar.leap_month(year) == month
    assert calendar.lunar_to_solar(year, month, 30, is_leap=True) == solar
    assert calendar.solar_to_lunar(solar) == (year, month, 30, True)
    with pytest.raises(InputError, match=f"month {month} of {year} has 29 days"):
        calendar.lunar_to_solar(year, month, 30)


def test_the_leap_day_30_list_is_complete() -> None:
    found = [
        (m.year, m.month)
        for year in range(1900, 2101)
        for m in calendar.lunar_year_months(year)
        if m.is_leap and m.days == 30 and calendar.month_days(year, m.month) == 29
    ]
    assert found == [(y, m) for y, m, _ in LEAP_DAY_30]


def test_hour_out_of_range() -> None:
    for hour in (-1, 24):
        with pytest.raises(InputError) as error:
            calendar.hour_branch(hour)
        assert error.value.field == "time"
        assert error.value.message == f"hour {hour} does not exist (hours run 0 to 23)"


def test_error_text_reads_field_first() -> None:
    with pytest.raises(InputError) as error:
        calendar.lunar_to_solar(2023, 3, 30, field="birth")
    assert str(error.value) == "birth: lunar 2023-3-30 does not exist: month 3 of 2023 has 29 days"
