"""Every bad input to the public API is an InputError naming its field (issue 7's list, as
found by trying the API as a careless user would)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest

from mingshu import bazi, ziwei
from mingshu.errors import InputError

CHART = ziwei.chart("1987-05-16", "10:30", "female")


def field_of(call: Callable[[], object]) -> str:
    with pytest.raises(InputError) as error:
        call()
    assert len(str(error.value)) < 400  # never a huge value echoed back
    return error.value.field


CASES: list[tuple[str, Callable[[], object], str]] = [
    ("palace(12)", lambda: CHART.palace(12), "palace"),  # type: ignore[arg-type]
    ("palace(-1)", lambda: CHART.palace(-1), "palace"),  # type: ignore[arg-type]
    ("palace(None)", lambda: CHART.palace(None), "palace"),  # type: ignore[arg-type]
    ("palace_by_index(12)", lambda: CHART.palace_by_index(12), "palace"),
    ("palace_by_index(True)", lambda: CHART.palace_by_index(True), "palace"),
    ("palace_at(12)", lambda: CHART.palace_at(12), "palace"),  # type: ignore[arg-type]
    ("palace_named('zi')", lambda: CHART.palace_named("zi"), "palace"),
    ("star(None)", lambda: CHART.star(None), "star"),  # type: ignore[arg-type]
    ("palace_of(None)", lambda: CHART.palace_of(None), "star"),  # type: ignore[arg-type]
    ("ziwei.star(None)", lambda: ziwei.star(None), "star"),  # type: ignore[arg-type]
    ("years(None)", lambda: ziwei.years(CHART, None), "decade"),  # type: ignore[arg-type]
    ("years(3.0)", lambda: ziwei.years(CHART, 3.0), "decade"),  # type: ignore[arg-type]
    ("years(True)", lambda: ziwei.years(CHART, True), "decade"),
    ("months(leap=bogus)", lambda: ziwei.months(CHART, 2023, leap="bogus"), "leap"),
    ("months(year=None)", lambda: ziwei.months(CHART, None), "year"),  # type: ignore[arg-type]
    ("horoscope(None)", lambda: CHART.horoscope(None), "at"),
    ("mutagens 5", lambda: ziwei.ZiweiSettings(mutagens={"庚": 5}), "mutagens"),  # type: ignore[dict-item]
    (
        "mutagens repeated",
        lambda: ziwei.ZiweiSettings(mutagens={"丁": ["太阳", "太阳", "太阳", "太阳"]}),
        "mutagens",
    ),
    ("mutagens str", lambda: ziwei.ZiweiSettings(mutagens="庚"), "mutagens"),  # type: ignore[arg-type]
    ("brightness 5", lambda: ziwei.ZiweiSettings(brightness={"紫微": 5}), "brightness"),  # type: ignore[dict-item]
    (
        "late_rat_hour list",
        lambda: ziwei.ZiweiSettings(late_rat_hour=["same_day"]),  # type: ignore[arg-type]
        "late_rat_hour",
    ),
    ("from_iztro str", lambda: ziwei.ZiweiSettings.from_iztro("str"), "config"),  # type: ignore[arg-type]
    (
        "from_iztro brightness str",
        lambda: ziwei.ZiweiSettings.from_iztro({"brightness": "x"}),
        "brightness",
    ),
    ("true_solar_time str", lambda: ziwei.ZiweiSettings(true_solar_time="yes"), "true_solar_time"),  # type: ignore[arg-type]
    ("bazi tz None", lambda: bazi.chart("1990-05-15", "10:30", "male", tz=None), "tz"),
    (
        "bazi tz utc object",
        lambda: bazi.chart("1990-05-15", "10:30", "male", tz=dt.UTC),
        "tz",
    ),
    ("bazi fold 1.0", lambda: bazi.chart("1990-05-15", "10:30", "male", fold=1.0), "fold"),
    ("ziwei fold 1.0", lambda: ziwei.chart("1990-05-15", "10:30", "male", fold=1.0), "fold"),
    (
        "bazi settings None",
        lambda: bazi.chart("1990-05-15", "10:30", "male", settings=None),  # type: ignore[arg-type]
        "settings",
    ),
    (
        "ziwei settings None",
        lambda: ziwei.chart("1990-05-15", "10:30", "male", settings=None),  # type: ignore[arg-type]
        "settings",
    ),
    (
        "by_solar settings None",
        lambda: ziwei.by_solar("1990-05-15", "10:30", "male", None),  # type: ignore[arg-type]
        "settings",
    ),
    ("Birth(date, 13)", lambda: ziwei.Birth(dt.date(1990, 5, 15), 13, ziwei.Gender.MALE), "time"),
    (
        "Birth(str date)",
        lambda: ziwei.Birth("1990-05-15", 1, ziwei.Gender.MALE),  # type: ignore[arg-type]
        "date",
    ),
    ("Birth(gender x)", lambda: ziwei.Birth(dt.date(1990, 5, 15), 1, "x"), "gender"),  # type: ignore[arg-type]
    (
        "by_lunar leap='False'",
        lambda: ziwei.by_lunar("2023-2-20", "10:00", "male", leap="False"),
        "leap",
    ),
    (
        "chart leap without lunar",
        lambda: ziwei.chart("2023-2-20", "10:00", "male", leap=True),
        "leap",
    ),
    ("bazi detail x", lambda: bazi.chart_at(dt.datetime(1990, 5, 15), "m").detail("x"), "position"),
    ("bazi star None", lambda: bazi.chart_at(dt.datetime(1990, 5, 15), "m").star(None), "star"),  # type: ignore[arg-type]
    ("bazi chart_at str", lambda: bazi.chart_at("1990-05-15", "m"), "moment"),  # type: ignore[arg-type]
    ("bazi luck_steps", lambda: bazi.BaziSettings(luck_steps=1.5), "luck_steps"),  # type: ignore[arg-type]
    (
        "bazi star_variants twice",
        lambda: bazi.BaziSettings(star_variants=(("wen_chang", "w1"), ("wen_chang", "w2"))),
        "star_variants",
    ),
    ("tz huge", lambda: ziwei.chart("1990-05-15", "10:30", "male", tz="x" * 100_000), "tz"),
    (
        "longitude nan",
        lambda: ziwei.chart("1990-05-15", "10:30", "m", tz="Asia/Shanghai", longitude="nan"),
        "longitude",
    ),
]


@pytest.mark.parametrize(
    ("call", "field"), [(c, f) for _, c, f in CASES], ids=[n for n, _, _ in CASES]
)
def test_bad_input_names_its_field(call: Callable[[], object], field: str) -> None:
    assert field_of(call) == field


def test_huge_values_are_echoed_at_most_80_characters_long() -> None:
    for fill, call in (
        ("1", lambda: ziwei.chart("1" * 100_000, "10:30", "male")),
        ("9", lambda: ziwei.chart("1990-05-15", "9" * 100_000, "male")),
        ("é", lambda: ziwei.chart("1990-05-15", "10:30", "é" * 100_000)),
        ("z", lambda: ziwei.ZiweiSettings(late_rat_hour="z" * 100_000)),  # type: ignore[arg-type]
        ("p", lambda: CHART.palace("p" * 100_000)),
        ("s", lambda: CHART.star("s" * 100_000)),
        ("t", lambda: bazi.chart("1990-05-15", "10:30", "male", tz="t" * 100_000)),
        ("w", lambda: bazi.BaziSettings(star_variants={"w" * 100_000: "x"})),
    ):
        with pytest.raises(InputError) as error:
            call()
        runs = re.findall(f"{fill}+", error.value.message)
        assert runs and max(map(len, runs)) <= 80, error.value.message[:300]


def test_a_leap_flag_is_a_bool_or_an_error() -> None:
    leap = ziwei.by_lunar("2023-2-20", "10:00", "male", leap=True)
    plain = ziwei.by_lunar("2023-2-20", "10:00", "male", leap=False)
    assert leap.lunar_date.is_leap and not plain.lunar_date.is_leap


def test_a_horoscope_on_the_birth_day_before_the_birth_hour_is_refused() -> None:
    """The API and the CLI agree: the same day at an earlier 时辰 is before the birth."""
    with pytest.raises(InputError, match="before the birth") as error:
        CHART.horoscope("1987-05-16T08:00")  # 辰时; the birth was 10:30, 巳时
    assert error.value.field == "at"
    assert CHART.horoscope("1987-05-16T10:59").time_index == 5  # the birth hour itself
    assert CHART.horoscope("1987-05-16").date == dt.date(1987, 5, 16)  # a bare date: allowed


def test_one_stem_or_star_named_twice_under_two_names_is_an_error() -> None:
    rows = {"丁": ["太阴", "天同", "天机", "巨门"], "ding": ["天同", "太阴", "天机", "巨门"]}
    assert field_of(lambda: ziwei.ZiweiSettings(mutagens=rows)) == "mutagens"
    grades = ["庙"] * 12
    assert (
        field_of(lambda: ziwei.ZiweiSettings(brightness={"紫微": grades, "zi_wei": grades}))
        == "brightness"
    )
    twice = {"文昌贵人": "w1", "wen_chang": "w2"}
    assert field_of(lambda: bazi.BaziSettings(star_variants=twice)) == "star_variants"


def test_bazi_star_variants_take_any_name_of_the_star() -> None:
    by_name = bazi.BaziSettings(star_variants={"文昌贵人": "w2"})
    assert by_name == bazi.BaziSettings(star_variants={"wen_chang": "w2"})
    assert bazi.BaziSettings(late_rat_hour="current").late_rat_hour is bazi.LateRatHour.SAME_DAY


def test_from_iztro_refuses_an_option_it_does_not_know() -> None:
    with pytest.raises(InputError, match="unknown iztro option 'yeardivide'") as error:
        ziwei.ZiweiSettings.from_iztro({"yeardivide": "exact"})  # a typo: yearDivide
    assert error.value.field == "config"


def test_years_takes_a_period_that_decades_lists() -> None:
    listed = ziwei.decades(CHART)
    assert ziwei.years(CHART, listed[3]) == ziwei.years(CHART, 3)
    assert field_of(lambda: ziwei.years(CHART, ziwei.years(CHART, 0)[0])) == "decade"
