"""One birth layer for both engines: time zones, daylight saving, folds, true solar time.

The outside authority here is the IANA time-zone database (tzdata): China kept daylight
saving from 1986 to 1991 (in 1990 from 15 April to 16 September; in 1988 the clocks went
from 02:00 to 03:00 on 17 April and back from 02:00 to 01:00 on 11 September)."""

from __future__ import annotations

import datetime as dt

import pytest

from mingshu import bazi, ziwei
from mingshu.errors import InputError


def _codes(notices: tuple[ziwei.Notice, ...]) -> list[str]:
    return [n.code for n in notices]


def _stars(chart: ziwei.NatalChart) -> list[tuple[str, str]]:
    return sorted((s.key, str(s.branch)) for p in chart.palaces for s in p.stars)


def test_zi_wei_removes_daylight_saving_like_bazi() -> None:
    dst = ziwei.chart("1990-05-15", "11:30", "female", tz="Asia/Shanghai")
    standard = ziwei.chart("1990-05-15", "10:30", "female")
    assert str(dst.hour) == "巳时" and dst.birth.time_index == 5
    assert dst.birth.clock_time == dt.time(10, 30)
    assert _stars(dst) == _stars(standard) and dst.life_branch == standard.life_branch
    assert _codes(dst.notices) == ["daylight_saving"]
    b = bazi.chart("1990-05-15", "11:30", "female", tz="Asia/Shanghai")
    assert b.pillars.hour == dst.pillars.hour  # the two engines read one hour
    assert "daylight_saving" in _codes(b.notices)


def test_without_a_zone_the_clock_is_taken_as_given_and_the_chart_says_so() -> None:
    raw = ziwei.chart("1990-05-15", "11:30", "female")
    assert str(raw.hour) == "午时"  # iztro's behaviour: the clock as given
    assert _codes(raw.notices) == ["clock_as_given"]
    assert ziwei.chart("1990-05-15", 6, "female").notices == ()  # a time index has no clock


def test_a_skipped_clock_time_is_an_error_in_both_engines() -> None:
    for make in (ziwei.chart, bazi.chart):
        with pytest.raises(InputError, match="does not exist in Asia/Shanghai") as error:
            make("1988-04-17", "02:30", "male", tz="Asia/Shanghai")
        assert error.value.field == "time"


def test_a_repeated_clock_time_is_read_by_fold_with_a_notice() -> None:
    first = ziwei.chart("1988-09-11", "01:30", "male", tz="Asia/Shanghai")
    second = ziwei.chart("1988-09-11", "01:30", "male", tz="Asia/Shanghai", fold=1)
    # The first 01:30 was daylight time: 00:30 standard, the early Rat hour.
    assert first.birth.time_index == 0 and second.birth.time_index == 1
    assert "ambiguous_time" in _codes(first.notices)
    assert "ambiguous_time" in _codes(second.notices)
    assert "pass fold=1" in first.notices[0].message


def test_a_time_zone_needs_a_clock_time() -> None:
    with pytest.raises(InputError) as error:
        ziwei.chart("1990-05-15", 5, "female", tz="Asia/Shanghai")
    assert error.value.field == "time"
    with pytest.raises(InputError) as error:
        ziwei.chart("1990-05-15", "10:30", "female", longitude=116.4)
    assert error.value.field == "tz"


def test_true_solar_time_for_zi_wei_moves_the_hour_as_in_bazi() -> None:
    urumqi = 87.6
    zs = ziwei.ZiweiSettings(true_solar_time=True)
    bs = bazi.BaziSettings(true_solar_time=True)
    z = ziwei.chart(
        "2000-06-15", "10:00", "male", tz="Asia/Shanghai", longitude=urumqi, settings=zs
    )
    b = bazi.chart("2000-06-15", "10:00", "male", tz="Asia/Shanghai", longitude=urumqi, settings=bs)
    assert str(z.pillars.hour.branch) == "辰" == str(b.pillars.hour.branch)  # ~07:50 solar
    assert "true_solar_time" in _codes(z.notices)
    # Crossing midnight backwards moves the day too.
    night = ziwei.chart(
        "2000-06-15", "01:00", "male", tz="Asia/Shanghai", longitude=urumqi, settings=zs
    )
    assert night.solar_date == dt.date(2000, 6, 14)


def test_a_longitude_far_from_the_zone_gets_a_notice() -> None:
    slip = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai", longitude=-116.4)
    assert "longitude_far" in _codes(slip.notices)
    fine = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai", longitude=116.4)
    assert "longitude_far" not in _codes(fine.notices)
    z = ziwei.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai", longitude=-116.4)
    assert "longitude_far" in _codes(z.notices)


def test_aware_datetimes_are_converted_never_stripped() -> None:
    utc = dt.datetime(1990, 5, 15, 2, 30, tzinfo=dt.UTC)  # a clock that read 02:30 UTC
    in_utc = bazi.chart("1990-05-15", "02:30", "male", tz="UTC")
    assert bazi.chart_at(utc, "male").pillars == in_utc.pillars
    assert bazi.chart_at(utc, "male").moment.beijing == dt.datetime(1990, 5, 15, 10, 30)
    zoned = ziwei.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai")
    at_utc = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)  # 10:00 in Shanghai
    assert zoned.horoscope(at_utc).hourly == zoned.horoscope("2026-11-29T10:00").hourly
    naive_chart = ziwei.chart("1987-05-16", "10:30", "female")
    with pytest.raises(InputError) as error:
        naive_chart.horoscope(at_utc)
    assert error.value.field == "at"


def test_one_birth_type_serves_both_engines() -> None:
    birth = ziwei.Birth.solar("1990-05-15", "11:30", "male", tz="Asia/Shanghai")
    assert bazi.Birth is ziwei.Birth
    z = ziwei.from_birth(birth)
    b = bazi.from_birth(birth)
    assert z.birth is birth and b.birth is birth
    assert z.pillars.hour == b.pillars.hour
    with pytest.raises(InputError) as error:  # BaZi compares the 节 in absolute time
        bazi.from_birth(ziwei.Birth.solar("1990-05-15", "11:30", "male"))
    assert error.value.field == "tz"


def test_a_datetime_as_the_date_must_not_hide_a_time_or_a_zone() -> None:
    aware = dt.datetime(1990, 5, 15, 11, 30, tzinfo=dt.UTC)
    for value in (aware, dt.datetime(1990, 5, 15, 11, 30)):
        with pytest.raises(InputError) as error:
            ziwei.chart(value, "11:30", "male")
        assert error.value.field == "date"
    midnight = ziwei.chart(dt.datetime(1990, 5, 15), "11:30", "male")
    assert midnight.solar_date == dt.date(1990, 5, 15)


def test_an_aware_datetime_is_read_like_the_same_birth_given_with_tz() -> None:
    from zoneinfo import ZoneInfo

    ny = ZoneInfo("America/New_York")
    at = bazi.chart_at(dt.datetime(1990, 5, 15, 11, 30, tzinfo=ny), "male")
    given = bazi.chart("1990-05-15", "11:30", "male", tz="America/New_York")
    assert at.pillars == given.pillars  # 10:30 standard time in New York, not Beijing's clock
    assert _codes(at.notices) == _codes(given.notices) == ["daylight_saving"]
    fixed = bazi.chart_at(
        dt.datetime(1990, 5, 15, 10, 30, tzinfo=dt.timezone(-dt.timedelta(hours=5))), "male"
    )
    assert fixed.pillars == given.pillars and _codes(fixed.notices) == ["fixed_offset"]


def test_a_horoscope_on_a_zoned_chart_reads_at_on_the_birth_clock() -> None:
    from zoneinfo import ZoneInfo

    c = ziwei.chart("1987-05-16", "10:30", "female", tz="Asia/Shanghai")
    naive = c.horoscope(dt.datetime(1990, 5, 15, 11, 30))
    aware = c.horoscope(dt.datetime(1990, 5, 15, 11, 30, tzinfo=ZoneInfo("Asia/Shanghai")))
    assert naive.time_index == aware.time_index == 5  # 10:30 standard time: 巳
    with pytest.raises(InputError) as error:  # the clocks skipped it
        c.horoscope("1988-04-17T02:30")
    assert error.value.field == "at"
    born = ziwei.chart("1990-05-15", "11:30", "male", tz="Asia/Shanghai")  # 10:30 standard
    with pytest.raises(InputError, match="before the birth"):
        born.horoscope("1990-05-15T09:30")  # 08:30 standard time: 辰, before the 巳 birth
    assert born.horoscope("1990-05-15T11:40").time_index == 5
