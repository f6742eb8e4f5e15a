"""Bad input never crashes and never changes meaning: each gets an error naming its field."""

from __future__ import annotations

import datetime as dt

import pytest

from mingshu import calendar
from mingshu.errors import InputError, OutOfRangeError
from mingshu.ziwei import Birth, Gender, ZiweiSettings, by_lunar, by_solar


def field_of(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError) as info:
        call()
    return info.value.field


@pytest.mark.parametrize(
    ("date", "time", "gender", "field"),
    [
        ("2030-02-30", "10:00", "male", "date"),  # iztro charts 2030-03-02 silently
        ("2023-13-01", "10:00", "male", "date"),
        ("2023-04-31", "10:00", "male", "date"),
        ("1987/5", "10:00", "male", "date"),
        ("yesterday", "10:00", "male", "date"),
        ("1582-12-31", "10:00", "male", "date"),
        ("1500-01-30", "10:00", "male", "date"),
        ("2651-01-01", "10:00", "male", "date"),
        ("1987-05-16", "24:00", "male", "time"),
        ("1987-05-16", "10:60", "male", "time"),
        ("1987-05-16", "ten", "male", "time"),
        ("1987-05-16", 13, "male", "time"),
        ("1987-05-16", -1, "male", "time"),
        ("1987-05-16", "10:30", "x", "gender"),
    ],
)
def test_bad_solar_input(date: str, time: object, gender: str, field: str) -> None:
    assert field_of(lambda: by_solar(date, time, gender)) == field


def test_out_of_range_is_its_own_error() -> None:
    with pytest.raises(OutOfRangeError, match=r"1583-01-01 \.\. 2650-12-31"):
        by_solar("1582-12-31", 0, "male")


def test_range_ends_chart() -> None:
    # lunar-python 1.4.8: 1583-01-01 is 一五八二年腊月初八, 2650-12-31 二六五〇年冬月十七.
    assert by_solar("1583-01-01", 0, "male").lunar_date.chinese() == "一五八二年腊月初八"
    assert by_solar("2650-12-31", 12, "female").lunar_date.chinese() == "二六五〇年冬月十七"
    assert by_solar("1900-01-31", 0, "male").lunar_date.chinese() == "一九〇〇年正月初一"


def test_bad_lunar_input() -> None:
    # Lunar 2023-3 has 29 days; 2023's leap month is the second; 2024 has none.
    assert calendar.month_days(2023, 3) == 29
    assert field_of(lambda: by_lunar("2023-3-30", 0, "male")) == "date"
    assert field_of(lambda: by_lunar("2023-3-1", 0, "male", leap=True)) == "leap"
    assert field_of(lambda: by_lunar("2024-3-1", 0, "male", leap=True)) == "leap"
    assert field_of(lambda: by_lunar("2023-0-1", 0, "male")) == "date"


# The leap-month day-30 dates iztro cannot chart by lunar input (its converter builds the
# regular month's date first, which has only 29 days).
LEAP_DAY_30 = [
    (1906, 4), (1914, 5), (1919, 7), (1925, 4), (1936, 3), (1938, 7), (1941, 6), (1944, 4),
    (1952, 5), (1955, 3), (2017, 6), (2036, 6), (2047, 5), (2050, 3), (2055, 6), (2058, 4),
    (2093, 6),
]  # fmt: skip


@pytest.mark.parametrize(("year", "month"), LEAP_DAY_30)
def test_leap_month_day_30_charts(year: int, month: int) -> None:
    assert calendar.leap_month(year) == month
    assert calendar.month_days(year, month, is_leap=True) == 30
    assert calendar.month_days(year, month) == 29
    chart = by_lunar(f"{year}-{month}-30", 4, "female", leap=True)
    assert tuple(chart.lunar_date) == (year, month, 30, True)
    same_day = by_solar(chart.solar_date, 4, "female")
    assert chart.palaces == same_day.palaces


def test_lunar_input_is_kept_on_the_birth() -> None:
    chart = by_lunar("1987-4-19", "10:30", "female")
    assert chart.birth.lunar_input == calendar.LunarDate(1987, 4, 19, False)
    assert chart.birth.clock_time == dt.time(10, 30)
    assert chart.palaces == by_solar(chart.solar_date, 5, "female").palaces


@pytest.mark.parametrize(
    ("clock", "index"),
    [("00:00", 0), ("00:59", 0), ("01:00", 1), ("02:59", 1), ("03:00", 2), ("10:30", 5),
     ("12:59", 6), ("21:00", 11), ("22:59", 11), ("23:00", 12), ("23:59", 12)],
)  # fmt: skip
def test_clock_time_maps_to_time_index(clock: str, index: int) -> None:
    birth = Birth.solar("1987-05-16", clock, "female")
    assert birth.time_index == index
    assert Birth.solar("1987-05-16", dt.time.fromisoformat(clock), "f").time_index == index


def test_gender_words() -> None:
    for word in ("male", "M", "男"):
        assert Gender.parse(word) is Gender.MALE
    for word in ("female", "f", "女"):
        assert Gender.parse(word) is Gender.FEMALE


def test_settings_accept_words_and_iztro_terms() -> None:
    assert ZiweiSettings(late_rat_hour="current") == ZiweiSettings(late_rat_hour="same_day")
    assert ZiweiSettings(year_boundary="exact").year_boundary.value == "spring_begins"
    assert ZiweiSettings.from_iztro({"dayDivide": "current"}, fix_leap=False) == ZiweiSettings(
        late_rat_hour="same_day", leap_month="whole"
    )
    hash(ZiweiSettings(mutagens={"庚": ["太阳", "武曲", "天府", "天同"]}))


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"late_rat_hour": "tomorrow"}, "late_rat_hour"),
        ({"year_boundary": 1}, "year_boundary"),
        ({"algorithm": "sanhe"}, "algorithm"),
        ({"chart_type": "sky"}, "chart_type"),
        ({"mutagens": {"庚": ["太阳", "武曲"]}}, "mutagens"),
        ({"mutagens": {"X": ["太阳", "武曲", "天府", "天同"]}}, "mutagens"),
        ({"mutagens": {"庚": ["太阳", "武曲", "天府", "红鸾"]}}, "mutagens"),
        ({"brightness": {"紫微": ["庙"] * 11}}, "brightness"),
        ({"brightness": {"紫微": ["好"] * 12}}, "brightness"),
        ({"brightness": {"红鸾": ["庙"] * 12}}, "brightness"),
    ],
)
def test_bad_settings(kwargs: dict, field: str) -> None:
    assert field_of(lambda: ZiweiSettings(**kwargs)) == field


def test_mutagen_override_changes_the_natal_transformations() -> None:
    # 2000 is a 庚 year: 太阳禄 武曲权 太阴科 天同忌 by default.
    default = by_solar("2000-08-16", 2, "女")
    custom = by_solar(
        "2000-08-16", 2, "女", ZiweiSettings(mutagens={"庚": ["太阳", "武曲", "天府", "天同"]})
    )
    assert default.star("tai_yin").mutagen is not None and default.star("tian_fu").mutagen is None
    assert custom.star("tai_yin").mutagen is None and str(custom.star("tian_fu").mutagen) == "科"
    assert custom.star("tai_yang") == default.star("tai_yang")


def test_brightness_override_replaces_a_row() -> None:
    row = ["陷"] * 12
    chart = by_solar("2000-08-16", 2, "女", ZiweiSettings(brightness={"zi_wei": row, "左辅": row}))
    assert str(chart.star("zi_wei").brightness) == "陷"
    assert str(chart.star("zuo_fu").brightness) == "陷"  # minor stars may be given a grade
    assert str(by_solar("2000-08-16", 2, "女").star("zi_wei").brightness) == "庙"


class _LooksLikeText:
    """No date, clock or moment, though its str() reads as one."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def test_only_text_or_a_date_is_read_as_a_date() -> None:
    from mingshu import bazi, ziwei

    odd_date, odd_clock = _LooksLikeText("1990-05-15"), _LooksLikeText("10:30")
    assert field_of(lambda: by_solar(odd_date, "10:30", "male")) == "date"
    assert field_of(lambda: by_lunar(odd_date, "10:30", "male")) == "date"
    assert field_of(lambda: by_solar("1990-05-15", odd_clock, "male")) == "time"
    assert field_of(lambda: bazi.chart(odd_date, "10:30", "male")) == "date"
    chart = by_solar("1990-05-15", "10:30", "male")
    assert field_of(lambda: ziwei.horoscope(chart, _LooksLikeText("2026-01-01"))) == "at"
    assert field_of(lambda: chart.horoscope(_LooksLikeText("2026-01-01"))) == "at"
    # The real types and text are read as before.
    assert by_solar(dt.date(1990, 5, 15), dt.time(10, 30), "male") == chart
    assert chart.horoscope("2026-01-01") == chart.horoscope(dt.date(2026, 1, 1))


def test_horoscope_lists_at_the_ends_of_the_range() -> None:
    # 1583-01-01 is lunar 1582 腊月初八: 1582's months are read on days before the range, so
    # they are left out rather than refused or read on another day.
    from mingshu import ziwei

    first = by_solar("1583-01-01", 0, "male")
    assert ziwei.months(first, 1582) == ()
    # lunar-python: lunar 1583 has a leap 二月, so 13 months (the leap one split in halves).
    assert len({(p.month, p.is_leap) for p in ziwei.months(first, 1583)}) == 13
    # 2650-12-31 is lunar 2650 冬月十七: its 腊月 begins in 2651 and its first decade (ages 6-15,
    # lunar 2655-2664) lies wholly past the range, so both are left out.
    last = by_solar("2650-12-31", 12, "female")
    assert ziwei.decades(last)[0].ages == (6, 15)
    assert ziwei.years(last, 0) == ()
    assert [(p.month, p.years) for p in ziwei.months(last, 2650)][-1] == (11, (2650, 2650))
