"""Birth input: time zones and daylight saving, true solar time, the near-节 flag, settings,
and every bad input raising an error that names its field."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, time, timedelta

import pytest

from mingshu import bazi, calendar
from mingshu.bazi.pillars import jie_index
from mingshu.errors import InputError, OutOfRangeError


def test_china_daylight_saving_is_removed() -> None:
    c = bazi.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai")
    assert c.moment.dst_minutes == 60
    assert c.moment.beijing == datetime(1990, 5, 15, 9, 30)
    assert c.moment.clock == datetime(1990, 5, 15, 9, 30)
    assert [n.code for n in c.notices] == ["daylight_saving"]
    assert c.pillars == bazi.chart_at(datetime(1990, 5, 15, 9, 30), "male").pillars
    # Outside the DST years the same clock time is Beijing time as it stands.
    c = bazi.chart("1985-05-15", "10:30", "male", tz="Asia/Shanghai")
    assert c.moment.beijing == datetime(1985, 5, 15, 10, 30) and c.notices == ()


def test_dst_changes_the_hour_pillar_when_it_crosses_a_boundary() -> None:
    # 1988-07-01 11:30 CDT is 10:30 standard time: 巳 hour, not 午.
    c = bazi.chart("1988-07-01", "11:30", "female", tz="Asia/Shanghai")
    assert str(c.pillars.hour.branch) == "巳"
    fixed = bazi.chart("1988-07-01", "11:30", "female", tz="Etc/GMT-8")  # UTC+8, no DST
    assert str(fixed.pillars.hour.branch) == "午"


def test_skipped_local_time_is_an_error() -> None:
    with pytest.raises(InputError) as e:
        bazi.chart("1988-04-17", "02:30", "male", tz="Asia/Shanghai")
    assert e.value.field == "time"
    assert "does not exist" in str(e.value)


def test_repeated_local_time_uses_fold_and_says_so() -> None:
    first = bazi.chart("1988-09-11", "01:30", "male", tz="Asia/Shanghai")
    second = bazi.chart("1988-09-11", "01:30", "male", tz="Asia/Shanghai", fold=1)
    assert first.moment.beijing == datetime(1988, 9, 11, 0, 30)
    assert second.moment.beijing == datetime(1988, 9, 11, 1, 30)
    assert str(first.pillars.hour.branch) == "子" and str(second.pillars.hour.branch) == "丑"
    for c, word in ((first, "first"), (second, "second")):
        notice = next(n for n in c.notices if n.code == "ambiguous_time")
        assert notice.field == "time" and word in notice.message


def test_foreign_zone_compares_terms_in_beijing_time() -> None:
    # 03:00 EST = 08:00 UTC = 16:00 Beijing, 27 minutes before 立春 2024.
    c = bazi.chart("2024-02-04", "03:00", "male", tz="America/New_York")
    assert c.moment.beijing == datetime(2024, 2, 4, 16, 0)
    assert (str(c.pillars.year), str(c.pillars.month)) == ("癸卯", "乙丑")
    # Day and hour follow the local standard clock at the birthplace.
    assert c.pillars.day == calendar.day_pillar(date(2024, 2, 4))
    assert str(c.pillars.hour.branch) == "寅"
    later = bazi.chart("2024-02-04", "03:30", "male", tz="America/New_York")  # 16:30 Beijing
    assert (str(later.pillars.year), str(later.pillars.month)) == ("甲辰", "丙寅")


def test_near_jie_margin_grows_where_the_clock_time_of_a_jie_is_a_prediction() -> None:
    # By JPL DE440 with skyfield's ΔT, the 节 of the 2090s fall up to 92 s from the tables'
    # (tests/calendar/test_solar_terms_de440.py): a birth 90 s after 立春 2095 is flagged.
    li_chun = jie_index().moments[(2095 - 1581) * 12 + 1]
    assert li_chun.year == 2095 and li_chun.month == 2
    (notice,) = bazi.chart_at(li_chun + timedelta(seconds=90), "male").notices
    assert notice.code == "near_jie" and "立春" in notice.message and "ΔT" in notice.message
    # In 1811 the two ΔT reconstructions agree within 5 s: the one-minute margin stands.
    li_chun = jie_index().moments[(1811 - 1581) * 12 + 1]
    assert li_chun.year == 1811 and li_chun.month == 2
    (notice,) = bazi.chart_at(li_chun + timedelta(seconds=60), "male").notices
    assert "ephemerides differ by up to tens of seconds" in notice.message
    assert bazi.chart_at(li_chun + timedelta(seconds=61), "male").notices == ()


def test_near_jie_flag_within_a_minute() -> None:
    li_chun = datetime(2024, 2, 4, 16, 27, 7)
    before = bazi.chart_at(li_chun - timedelta(seconds=37), "male")
    (notice,) = before.notices
    assert notice.code == "near_jie" and "立春" in notice.message and "甲辰 丙寅" in notice.message
    after = bazi.chart_at(li_chun + timedelta(seconds=60), "male")
    (notice,) = after.notices
    assert "癸卯 乙丑" in notice.message
    assert bazi.chart_at(li_chun - timedelta(seconds=61), "male").notices == ()
    assert bazi.chart_at(li_chun + timedelta(seconds=61), "male").notices == ()
    # Another 节 changes only the month: 惊蛰 2024-03-05 10:22:45.
    (notice,) = bazi.chart_at(datetime(2024, 3, 5, 10, 22, 30), "male").notices
    assert "month pillar" in notice.message and "year" not in notice.message.split("could")[1]
    assert "丁卯" in notice.message


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(2023, 2, 11), -14.2),
        (date(2023, 11, 3), 16.4),
        (date(2023, 7, 26), -6.5),
        (date(2023, 4, 15), 0.0),
        (date(2023, 9, 1), 0.0),
    ],
)
def test_equation_of_time_near_known_values(day: date, expected: float) -> None:
    got = bazi.equation_of_time(datetime.combine(day, time(12)))
    assert abs(got - expected) < 0.8


def test_true_solar_time_moves_day_and_hour_only() -> None:
    urumqi = 87.6
    s = bazi.BaziSettings(true_solar_time=True)
    c = bazi.chart("2000-06-15", "10:00", "male", tz="Asia/Shanghai", longitude=urumqi, settings=s)
    b = c.moment
    assert b.longitude_minutes == pytest.approx((urumqi - 120) * 4)
    assert b.eot_minutes is not None
    expected = b.beijing + timedelta(minutes=(urumqi - 120) * 4 + b.eot_minutes)
    assert abs((b.clock - expected).total_seconds()) <= 1
    assert b.clock_kind == "apparent_solar"
    assert str(c.pillars.hour.branch) == "辰"  # about 07:50 solar time; civil 10:00 is 巳
    civil = bazi.chart("2000-06-15", "10:00", "male", tz="Asia/Shanghai", longitude=urumqi)
    assert str(civil.pillars.hour.branch) == "巳" and civil.moment.solar == b.solar
    # Crossing midnight backwards: the day pillar moves, year and month do not.
    night = bazi.chart(
        "2000-06-15", "01:00", "male", tz="Asia/Shanghai", longitude=urumqi, settings=s
    )
    assert night.moment.clock.date() == date(2000, 6, 14)
    assert night.pillars.day == calendar.day_pillar(date(2000, 6, 14))
    plain = bazi.chart_at(datetime(2000, 6, 15, 1, 0), "male")
    assert (night.pillars.year, night.pillars.month) == (plain.pillars.year, plain.pillars.month)


def test_mean_solar_time_without_equation_of_time() -> None:
    s = bazi.BaziSettings(true_solar_time=True, equation_of_time=False)
    c = bazi.chart("2000-06-15", "12:00", "male", tz="Asia/Shanghai", longitude=121.5, settings=s)
    assert c.moment.clock == datetime(2000, 6, 15, 12, 6)  # +1.5° × 4 min
    assert c.moment.eot_minutes is None and c.moment.clock_kind == "mean_solar"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"birth_date": "2030-02-30"}, "date"),
        ({"birth_date": "1990-13-01"}, "date"),
        ({"birth_date": "15/05/1990"}, "date"),
        ({"birth_date": "1582-12-31"}, "date"),
        ({"birth_date": "2651-01-01"}, "date"),
        ({"birth_time": "25:00"}, "time"),
        ({"birth_time": "10:60"}, "time"),
        ({"birth_time": "10h30"}, "time"),
        ({"tz": "Mars/Olympus_Mons"}, "tz"),
        ({"tz": "../etc/passwd"}, "tz"),
        ({"longitude": 200}, "longitude"),
        ({"longitude": -180.5}, "longitude"),
        ({"longitude": "east"}, "longitude"),
        ({"longitude": float("nan")}, "longitude"),
        ({"gender": "x"}, "gender"),
        ({"fold": 2}, "fold"),
        ({"settings": bazi.BaziSettings(true_solar_time=True)}, "longitude"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"birth_date": "1990-05-15", "birth_time": "10:30", "gender": "male"}
    args.update(kwargs)
    with pytest.raises(InputError) as e:
        bazi.chart(**args)  # type: ignore[arg-type]
    assert e.value.field == field
    assert str(e.value).startswith(f"{field}: ")


def test_years_outside_the_range_are_out_of_range_errors() -> None:
    with pytest.raises(OutOfRangeError, match=r"1583-01-01 \.\. 2650-12-31"):
        bazi.chart("1582-12-31", "12:00", "male")
    # A valid local date whose Beijing moment falls outside the range.
    with pytest.raises(OutOfRangeError) as e:
        bazi.chart("2650-12-31", "20:00", "male", tz="America/Los_Angeles")
    assert e.value.field == "date"
    # The first and last supported days work (Etc/GMT-8 is UTC+8; tzdata gives Asia/Shanghai
    # its local mean time, UTC+08:05:43, before 1901, which puts 00:00 on 1582-12-31 Beijing).
    # Pillars from lunar-python 1.4.8 EightChar: 1583-01-01 00:00 壬午 壬子 壬辰 庚子,
    # 2650-12-31 23:59 庚午 戊子 庚戌 戊子 (setSect(2), our SPLIT: the late Rat takes the
    # hour stem of 2651-01-01, past the last date, and keeps the day).
    first = bazi.chart("1583-01-01", "00:00", "male", tz="Etc/GMT-8").pillars
    assert str(first) == "壬午 壬子 壬辰 庚子"
    with pytest.raises(OutOfRangeError):
        bazi.chart("1583-01-01", "00:00", "male", tz="Asia/Shanghai")
    split = bazi.BaziSettings(late_rat_hour="split")
    last = bazi.chart("2650-12-31", "23:59", "female", tz="Etc/GMT-8", settings=split)
    assert str(last.pillars) == "庚午 戊子 庚戌 戊子"


def test_settings_are_immutable_hashable_values() -> None:
    s = bazi.BaziSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.late_rat_hour = bazi.LateRatHour.SPLIT  # type: ignore[misc]
    assert hash(s) == hash(bazi.BaziSettings()) and s == bazi.DEFAULT
    t = s.with_variants(wen_chang="w2")
    assert t.variant_of("wen_chang") == "w2" and s.variant_of("wen_chang") == "w1"
    assert t != s and t == bazi.BaziSettings(star_variants=(("wen_chang", "w2"),))
    assert bazi.BaziSettings(late_rat_hour="split").late_rat_hour is bazi.LateRatHour.SPLIT
    assert s.replace(luck_steps=12).luck_steps == 12


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"late_rat_hour": "midnight"}, "late_rat_hour"),
        ({"start_age": "weeks"}, "start_age"),
        ({"stage_earth": "metal"}, "stage_earth"),
        ({"stage_yin": "sideways"}, "stage_yin"),
        ({"star_variants": (("wen_chang", "w9"),)}, "star_variants"),
        ({"star_variants": (("no_such_star", "x"),)}, "star_variants"),
        ({"luck_steps": 0}, "luck_steps"),
        ({"include_basis_pillar": "yes"}, "include_basis_pillar"),
    ],
)
def test_bad_settings_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        bazi.BaziSettings(**kwargs)  # type: ignore[arg-type]
    assert e.value.field == field


def test_luck_steps_setting() -> None:
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male", bazi.BaziSettings(luck_steps=12))
    assert len(c.luck.steps) == 12
