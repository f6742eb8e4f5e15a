"""Horoscope layers and lists: the worked examples of docs/iztro-rules.md §10.5 and the
places where we differ from iztro on purpose (docs/iztro-differences.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from mingshu.cycles import Branch
from mingshu.errors import InputError
from mingshu.ziwei import ZiweiSettings, by_solar
from mingshu.ziwei.horoscope import decades, months, nominal_age, years


@pytest.fixture(scope="module")
def chart():  # type: ignore[no-untyped-def]
    return by_solar("2000-08-16", 2, "女")  # §10.1


def names(stars) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.names.hans for s in stars]


def test_six_layers(chart) -> None:  # type: ignore[no-untyped-def]
    h = chart.horoscope("2024-05-01", 6)
    assert h.lunar_date.chinese() == "二〇二四年三月廿三"
    assert h.nominal_age == 25
    expected = {
        "decadal": (2, "庚辰", "太阳 武曲 太阴 天同"),
        "age": (8, "丙戌", "天同 天机 文昌 廉贞"),
        "yearly": (2, "甲辰", "廉贞 破军 武曲 太阳"),
        "monthly": (0, "戊辰", "贪狼 太阴 右弼 天机"),
        "daily": (10, "乙丑", "天机 天梁 紫微 太阴"),
        "hourly": (4, "壬午", "天梁 紫微 左辅 武曲"),
    }
    for layer in h.layers:
        index, pillar, mutagens = expected[layer.scope.value]
        assert (layer.iztro_index, str(layer.pillar)) == (index, pillar), layer.scope
        assert " ".join(names(layer.mutagens)) == mutagens
    assert h.decadal.names.hans == "大限" and not h.is_childhood
    assert h.age.stars == ()


def test_flowing_stars(chart) -> None:  # type: ignore[no-untyped-def]
    h = chart.horoscope("2024-05-01", 6)
    decadal = {s.star.names.hans: str(s.branch) for s in h.decadal.stars}
    assert decadal == {"运禄": "申", "运羊": "酉", "运陀": "未", "运马": "寅", "运昌": "亥",
                       "运曲": "卯", "运魁": "丑", "运钺": "未", "运鸾": "亥", "运喜": "巳"}  # fmt: skip
    yearly = {s.star.names.hans: str(s.branch) for s in h.yearly.stars}
    assert yearly == {"流禄": "寅", "流羊": "卯", "流陀": "丑", "流马": "寅", "流昌": "巳",
                      "流曲": "酉", "流魁": "丑", "流钺": "未", "流鸾": "亥", "流喜": "巳",
                      "年解": "午"}  # fmt: skip
    assert len(h.monthly.stars) == len(h.daily.stars) == len(h.hourly.stars) == 10
    # Only the year carries 年解.
    assert all(s.star.key != "nian_jie" for s in h.decadal.stars + h.monthly.stars)


def test_yearly_gods(chart) -> None:  # type: ignore[no-untyped-def]
    gods = chart.horoscope("2024-05-01", 6).yearly_gods
    assert gods.sui_qian[(Branch.CHEN - 2) % 12].names.hans == "岁建"
    assert gods.jiang_qian[(Branch.ZI - 2) % 12].names.hans == "将星"


def test_layer_palace_names(chart) -> None:  # type: ignore[no-untyped-def]
    h = chart.horoscope("2024-05-01", 6)
    assert str(h.yearly.palace_name(Branch.CHEN)) == "命宫"
    # 寅, 卯, 辰: two before, one before (兄弟) and the layer's Life palace itself
    assert [str(n) for n in h.yearly.palace_names][:3] == ["夫妻", "兄弟", "命宫"]


def test_childhood_limit(chart) -> None:  # type: ignore[no-untyped-def]
    h = chart.horoscope("2001-01-01", 0)
    assert h.nominal_age == 1 and h.is_childhood
    assert h.decadal.names.hans == "童限"
    assert (h.decadal.iztro_index, str(h.decadal.pillar)) == (4, "壬午")
    assert h.age.iztro_index == 8


def test_time_from_the_moment(chart) -> None:  # type: ignore[no-untyped-def]
    by_index = chart.horoscope("2024-05-01", 6)
    assert chart.horoscope("2024-05-01T11:30").hourly == by_index.hourly
    assert chart.horoscope(dt.datetime(2024, 5, 1, 12, 59)).hourly == by_index.hourly
    assert chart.horoscope("2024-05-01", "11:00").hourly == by_index.hourly
    assert chart.horoscope("2024-05-01").time_index == 0


def test_birthday_age_count(chart) -> None:  # type: ignore[no-untyped-def]
    birthday = by_solar("2000-08-16", 2, "女", ZiweiSettings(age_count="birthday"))
    assert birthday.horoscope("2024-05-01").nominal_age == 24
    assert birthday.horoscope("2024-05-01").age.iztro_index == 9
    # Lunar 七月廿九 2024 is after the 七月十七 birthday: 25.  iztro says 24 (its bug).
    assert birthday.horoscope("2024-09-01").lunar_date.chinese() == "二〇二四年七月廿九"
    assert birthday.horoscope("2024-09-01").nominal_age == 25
    assert birthday.horoscope("2000-08-16").nominal_age == 1  # iztro says 0 on the day
    assert chart.horoscope("2024-09-01").nominal_age == 25  # 虚岁 by lunar year


def test_birthday_in_a_leap_month() -> None:
    chart = by_solar("2023-04-10", 5, "男", ZiweiSettings(age_count="birthday"))  # 闰二月二十
    born = chart.lunar_date
    assert born.is_leap
    before = chart.horoscope("2024-03-28").lunar_date  # 2024 二月十九: before the birthday
    assert nominal_age(chart, before, chart.settings.age_count) == 1
    after = chart.horoscope("2024-03-30").lunar_date  # 二月廿一: the month number is past
    assert (after.month, after.day) == (2, 21)
    assert nominal_age(chart, after, chart.settings.age_count) == 1  # a leap birthday comes later
    assert chart.horoscope("2024-04-09").nominal_age == 2  # 2024 三月初一


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("2000-08-10", "before the birth"),
        ("2030-02-30", "does not exist"),
        ("2651-01-01", "outside the supported range 1583-01-01 .. 2650-12-31"),
        ("noon", "not a date"),
    ],
)
def test_bad_moments(chart, at: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match=message) as info:
        chart.horoscope(at)
    assert info.value.field == "at"


def test_bad_time(chart) -> None:  # type: ignore[no-untyped-def]
    for time in (13, "25:00", "x"):
        with pytest.raises(InputError) as info:
            chart.horoscope("2024-05-01", time)
        assert info.value.field == "time"


def test_ages_past_the_small_limits() -> None:
    old = by_solar("1900-03-01", 3, "male")
    assert old.horoscope("2019-06-01").nominal_age == 120
    with pytest.raises(InputError, match="nominal age 121"):
        old.horoscope("2020-06-01")


def test_decade_list(chart) -> None:  # type: ignore[no-untyped-def]
    listed = decades(chart)
    assert len(listed) == 12
    first = listed[0]
    assert (first.ages, first.years, str(first.layer.pillar)) == ((3, 12), (2002, 2011), "壬午")
    assert str(chart.palace(first.layer.branch).name) == "命宫"
    assert " ".join(names(first.layer.mutagens)) == "天梁 紫微 左辅 武曲"
    assert [p.ages[0] for p in listed] == list(range(3, 123, 10))


def test_year_list(chart) -> None:  # type: ignore[no-untyped-def]
    listed = years(chart, 0)
    assert len(listed) == 10
    assert [(p.years[0], str(p.layer.pillar), p.layer.iztro_index) for p in listed[:3]] == [
        (2002, "壬午", 4), (2003, "癸未", 5), (2004, "甲申", 6)]  # fmt: skip
    assert years(chart, "命宫") == listed
    with pytest.raises(InputError):
        years(chart, 12)


def test_month_list(chart) -> None:  # type: ignore[no-untyped-def]
    listed = months(chart, 2023)
    assert len(listed) == 14  # 2023 has a leap second month, split in halves
    first = listed[0]
    assert (first.month, str(first.layer.pillar), first.layer.iztro_index) == (1, "甲寅", 9)
    leap = [p for p in listed if p.is_leap]
    assert [(p.part, str(p.layer.pillar), p.layer.iztro_index) for p in leap] == [
        ("first", "乙卯", 10), ("second", "丙辰", 11)]  # fmt: skip
    assert len(months(chart, 2023, "whole")) == 13
    assert len(months(chart, 2024)) == 12


def test_year_list_by_branch(chart) -> None:  # type: ignore[no-untyped-def]
    by_branch = years(chart, Branch.ZI)  # a Branch is an int, but means the palace here
    assert by_branch == years(chart, "子") != years(chart, 0)
    assert by_branch[0].ages == (63, 63)


def test_month_list_follows_the_leap_setting() -> None:
    whole = by_solar("2000-08-16", 2, "女", ZiweiSettings(leap_month="whole"))
    assert len(months(whole, 2023)) == 13
    assert len(months(whole, 2023, "split")) == 14


def test_star_lookup_errors(chart) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="no star is called 'zi_wie'") as error:
        chart.star("zi_wie")
    assert error.value.field == "star"
    with pytest.raises(InputError, match="not placed by the quanshu algorithm"):
        chart.star("jie_kong")
    # Any name form finds the star; none of them is a second lookup table to keep in step.
    for name in ("zi_wei", "紫微", "Zi Wei", "emperor", "ziweiMaj"):
        assert chart.star(name).star.key == "zi_wei"
