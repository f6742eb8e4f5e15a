"""iztro 2.6.0's own analysis tests, translated: our code, iztro's facts.

Every expectation of ../shared/iztro-tests/astro/analyzer.test.ts (MIT) is here, in the same
order, plus the query parts of astro.test.ts (isEmpty, has, star().palace(), the horoscope
questions) and palace.test.ts (fliesTo, notFlyTo, fliesOneOfTo, selfMutaged, mutagedPlaces).
iztro's ``palace(i)`` (a palace index, 寅 = 0) is ``chart.palace_by_index(i)``.
"""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.ziwei import NatalChart, Palace, PalaceName, ZiweiSettings, by_solar
from mingshu.ziwei import chart as ziwei_chart
from mingshu.ziwei.stars import Mutagen


def name(palace: Palace) -> str:
    """iztro's palace name: 命宫 keeps its 宫, the others drop it (官禄, 仆役 …)."""
    return palace.name.names.hans


@pytest.fixture(scope="module")
def c0815() -> NatalChart:
    return by_solar("2023-8-15", 0, "女")


@pytest.fixture(scope="module")
def c0816() -> NatalChart:
    return by_solar("2023-8-16", 2, "女")


@pytest.fixture(scope="module")
def c0821() -> NatalChart:
    return by_solar("2013-8-21", 4, "女")


# --------------------------------------------------------------- analyzer.test.ts


def test_get_palace(c0815: NatalChart) -> None:
    names = [
        "疾厄",
        "财帛",
        "子女",
        "夫妻",
        "兄弟",
        "命宫",
        "父母",
        "福德",
        "田宅",
        "官禄",
        "仆役",
        "迁移",
    ]
    for index, item in enumerate(names):
        assert name(c0815.palace_by_index(index)) == item
        assert name(c0815.palace(item)) == item
    assert name(c0815.palace("来因")) == "官禄"
    assert name(c0815.palace("身宫")) == "命宫"
    for bad in (-1, 12):
        with pytest.raises(InputError) as err:
            c0815.palace_by_index(bad)
        assert err.value.field == "palace"


def test_has_stars(c0815: NatalChart) -> None:
    p = c0815.palace_by_index
    assert p(1).has(["太阳"]) is False
    assert p(1).has(["天相"]) is True
    assert p(2).has(["天机", "天梁"]) is True
    assert p(3).has(["紫微", "天梁"]) is False
    assert p(4).has(["天喜", "天姚", "天官", "台辅"]) is True
    assert p(7).has(["廉贞", "破军", "左辅", "火星"]) is True
    assert p(9).has(["天府", "陀罗", "地空", "地劫", "天厨"]) is True
    assert c0815.palace("命宫").has(["武曲"]) is False
    assert c0815.palace("迁移").has(["武曲", "贪狼", "擎羊", "三台", "八座"]) is True
    assert c0815.palace("财帛").has(["天相"]) is True
    assert c0815.palace("子女").has(["天机", "天梁", "文曲", "天空", "阴煞"]) is True


def test_not_have_stars(c0815: NatalChart) -> None:
    p = c0815.palace_by_index
    assert p(1).not_have(["太阳"]) is True
    assert p(1).not_have(["天相"]) is False
    assert p(2).not_have(["天机", "天梁"]) is False
    assert p(3).not_have(["紫微", "天梁"]) is False
    assert p(4).not_have(["天喜", "天姚", "天官", "台辅"]) is False
    assert p(7).not_have(["廉贞", "破军", "左辅", "火星"]) is False
    assert p(9).not_have(["天府", "陀罗", "地空", "地劫", "天厨"]) is False
    assert c0815.palace("命宫").not_have(["武曲"]) is True
    assert c0815.palace("迁移").not_have(["武曲", "贪狼", "擎羊", "三台", "八座"]) is False
    assert c0815.palace("财帛").not_have(["天相"]) is False
    assert c0815.palace("子女").not_have(["天机", "天梁", "文曲", "天空", "阴煞"]) is False


def test_has_one_of_stars(c0815: NatalChart) -> None:
    p = c0815.palace_by_index
    assert p(1).has_one_of(["太阳", "天相"]) is True
    assert p(2).has_one_of(["天机", "天梁"]) is True
    assert p(3).has_one_of(["紫微", "天梁"]) is True
    assert p(7).has_one_of(["天喜", "天姚", "天官", "台辅"]) is False
    assert p(9).has_one_of(["太阳", "天梁", "天官", "天姚", "天厨"]) is True
    assert c0815.palace("命宫").has_one_of(["武曲", "天贵"]) is True
    assert c0815.palace("父母").has_one_of(["月德", "天巫", "巨门"]) is True


def test_have_in_surrounded_palaces(c0815: NatalChart) -> None:
    s = c0815.surrounded("命宫")
    assert s.have(["武曲", "贪狼", "擎羊", "天相", "天魁", "天月", "地空", "地劫"]) is True
    assert s.have(["武曲", "擎羊", "天相", "天魁", "天月", "地空", "地劫", "太阴"]) is False
    assert (
        s.have(
            [
                "太阳",
                "巨门",
                "月德",
                "天巫",
                "天喜",
                "天姚",
                "天官",
                "台辅",
                "文昌",
                "铃星",
                "天才",
                "天寿",
                "天刑",
                "天使",
                "封诰",
            ]
        )
        is False
    )
    assert (
        s.have(
            [
                "天机",
                "天梁",
                "文曲",
                "天空",
                "阴煞",
                "旬空",
                "文昌",
                "铃星",
                "天才",
                "天寿",
                "月德",
                "天巫",
                "天同",
                "太阴",
                "禄存",
                "解神",
                "红鸾",
                "咸池",
                "天伤",
                "天德",
                "截空",
            ]
        )
        is False
    )


def test_surrounded_palaces_by_index(c0815: NatalChart) -> None:
    target, opposite, wealth, career = c0815.surrounded(c0815.palace_by_index(0))
    assert [name(target), name(opposite), name(wealth), name(career)] == [
        "疾厄",
        "父母",
        "田宅",
        "兄弟",
    ]


def test_surrounded_palaces_by_name(c0815: NatalChart) -> None:
    s = c0815.surrounded("命宫")
    assert [name(s.target), name(s.opposite), name(s.wealth), name(s.career)] == [
        "命宫",
        "迁移",
        "财帛",
        "官禄",
    ]


def test_flanking_palaces(c0815: NatalChart) -> None:
    f = c0815.flanking("命宫")
    assert (name(f.previous), name(f.next)) == ("兄弟", "父母")
    assert f.have(["天喜", "天巫"]) is True
    assert f.have_one_of(["月德", "紫微"]) is True
    assert f.not_have(["紫微", "天机"]) is True
    f0 = c0815.flanking(c0815.palace_by_index(0))
    assert (name(f0.previous), name(f0.next)) == ("迁移", "财帛")
    assert f0.has_mutagen("忌") is True
    assert f0.not_have_mutagen("科") is True
    f11 = c0815.flanking(c0815.palace_by_index(11))
    assert (name(f11.previous), name(f11.next)) == ("仆役", "疾厄")


def test_have_one_of_in_surrounded_palaces(c0816: NatalChart) -> None:
    s = c0816.surrounded("命宫")
    assert s.have_one_of(["太阳", "文曲"]) is True
    assert s.have_one_of(["天喜", "天钺"]) is True
    assert s.have_one_of(["天梁", "禄存"]) is True
    assert s.have_one_of(["左辅", "右弼"]) is True
    assert s.have_one_of(["地空", "地劫"]) is False
    s3 = c0816.surrounded(c0816.palace_by_index(3))
    assert s3.have_one_of(["武曲", "天马"]) is True
    assert s3.have_one_of(["火星", "贪狼"]) is True
    assert s3.have_one_of(["天空", "天官"]) is False


def test_not_have_in_surrounded_palaces(c0816: NatalChart) -> None:
    s = c0816.surrounded("命宫")
    assert s.not_have(["太阳", "文曲"]) is False
    assert s.not_have(["天喜", "天钺"]) is False
    assert s.not_have(["天梁", "禄存"]) is False
    assert s.not_have(["左辅", "右弼"]) is False
    assert s.not_have(["地空", "地劫"]) is True
    s3 = c0816.surrounded(c0816.palace_by_index(3))
    assert s3.not_have(["武曲", "天马"]) is False
    assert s3.not_have(["火星", "贪狼"]) is False
    assert s3.not_have(["天魁", "天官"]) is True


def test_has_mutagen_in_place(c0821: NatalChart) -> None:
    assert c0821.palace("迁移").has_mutagen("禄") is True
    assert c0821.palace("兄弟").has_mutagen("权") is True
    assert c0821.palace("子女").has_mutagen("科") is True
    assert c0821.palace("夫妻").has_mutagen("忌") is True
    assert c0821.palace("命宫").has_mutagen("忌") is False


def test_not_have_mutagen_in_place(c0821: NatalChart) -> None:
    assert c0821.palace("迁移").not_have_mutagen("禄") is False
    assert c0821.palace("兄弟").not_have_mutagen("权") is False
    assert c0821.palace("子女").not_have_mutagen("科") is False
    assert c0821.palace("夫妻").not_have_mutagen("忌") is False
    assert c0821.palace("命宫").not_have_mutagen("忌") is True


def test_has_mutagen_in_opposite_palace(c0821: NatalChart) -> None:
    assert c0821.surrounded("命宫").opposite.has_mutagen("禄") is True
    assert c0821.surrounded("官禄").opposite.has_mutagen("忌") is True
    assert c0821.surrounded("仆役").opposite.has_mutagen("权") is True
    assert c0821.surrounded("田宅").opposite.has_mutagen("科") is True
    assert c0821.surrounded("福德").opposite.has_mutagen("科") is False


def test_have_mutagen_in_surrounded_palace(c0821: NatalChart) -> None:
    assert c0821.surrounded("福德").has_mutagen("禄") is True
    assert c0821.surrounded("福德").has_mutagen("忌") is True
    assert c0821.surrounded("迁移").has_mutagen("禄") is True
    assert c0821.surrounded("迁移").has_mutagen("忌") is True
    assert c0821.surrounded("疾厄").has_mutagen("权") is True
    assert c0821.surrounded("财帛").has_mutagen("科") is False
    assert c0821.surrounded("身宫").has_mutagen("忌") is False


def test_with_mutagen(c0821: NatalChart) -> None:
    assert c0821.star("紫微").with_mutagen("禄") is False
    assert c0821.star("破军").with_mutagen("禄") is True
    assert c0821.star("巨门").with_mutagen("权") is True
    assert c0821.star("太阴").with_mutagen("科") is True
    assert c0821.star("贪狼").with_mutagen("忌") is True
    assert c0821.star("贪狼").with_mutagen(["忌", "权"]) is True
    assert c0821.star("贪狼").with_mutagen(["科", "权"]) is False


def test_with_brightness(c0821: NatalChart) -> None:
    assert c0821.star("紫微").with_brightness("庙") is False
    assert c0821.star("紫微").with_brightness(["庙", "得"]) is True
    assert c0821.star("巨门").with_brightness("庙") is True
    assert c0821.star("太阴").with_brightness(["不", "陷"]) is False
    assert c0821.star("贪狼").with_brightness("平") is True


def test_star_opposite_palace(c0821: NatalChart) -> None:
    def opposite(star: str) -> Palace:
        return c0821.surrounded(c0821.star(star).branch).opposite

    assert name(opposite("紫微")) == "迁移"
    assert name(opposite("天同")) == "父母"
    assert name(opposite("巨门")) == "仆役"
    assert name(opposite("太阴")) == "田宅"
    assert name(opposite("贪狼")) == "官禄"
    assert opposite("廉贞").has_mutagen("忌") is True
    assert opposite("天相").has_mutagen("禄") is True
    assert opposite("火星").has_mutagen("科") is True
    assert opposite("天才").has_mutagen("权") is True
    assert opposite("文昌").has_mutagen("禄") is False


def test_star_surrounded_palaces(c0821: NatalChart) -> None:
    xian_chi = c0821.surrounded(c0821.palace_of("咸池"))
    assert name(xian_chi.target) == "福德"
    assert xian_chi.target.branch.names.hans == "午"
    assert xian_chi.has_mutagen("禄") is True
    assert c0821.surrounded(c0821.palace_of("左辅")).has_mutagen("忌") is True
    assert c0821.surrounded(c0821.palace_of("紫微")).has_mutagen("忌") is False


# ------------------------------------------------------------------ palace.test.ts


def test_flies_to_and_self_mutaged() -> None:
    chart = by_solar("2017-12-4", 12, "male")
    assert chart.flies("命宫").to("兄弟", "忌")
    assert chart.flies("命宫").not_to("兄弟", "科")
    assert chart.flies("田宅").to("福德", ["禄", "科"])
    assert not chart.flies("田宅").not_to("福德", ["禄", "科"])
    assert not chart.flies("兄弟").to("夫妻", ["权", "科"])
    assert chart.flies("兄弟").one_of_to("夫妻", ["权", "科"])
    assert not chart.flies("兄弟").one_of_to("夫妻", ["权", "禄"])
    assert not chart.flies("兄弟").not_to("夫妻", ["权", "科"])
    friends = chart.flies("仆役")
    assert friends.self_mutaged("科")
    assert not friends.self_mutaged(["科", "权"])
    assert friends.self_mutaged_one_of(["科", "权"])
    assert friends.self_mutaged_one_of()
    assert not friends.self_mutaged("权")
    assert not friends.not_self_mutaged()
    assert friends.not_self_mutaged("权")
    assert not friends.not_self_mutaged(["权", "科"])
    assert [name(p) for p in chart.flies("命宫").palaces] == ["命宫", "迁移", "仆役", "兄弟"]
    assert chart.self_mutagens("仆役") == (Mutagen.KE,)


# ------------------------------------------------------------------- astro.test.ts


def test_is_empty() -> None:
    chart = by_solar("2000-8-16", 2, "女")
    assert chart.palace("父母").is_empty()
    assert not chart.palace("父母").is_empty(["陀罗"])
    assert not chart.palace("命宫").is_empty()
    assert chart.palace("父母").is_empty(["文昌", "文曲"])


@pytest.mark.parametrize("time", [0, 12])
def test_day_divide_current_queries(time: int) -> None:
    chart = by_solar("1987-9-23", time, "female", ZiweiSettings(late_rat_hour="current"))
    assert chart.palace("命宫").iztro_index == 7
    assert chart.palace("命宫").is_empty()
    assert chart.palace("命宫").has(["火星", "天钺"])
    assert chart.palace("迁移").has(["太阳", "天梁", "右弼", "八座", "天贵", "空亡", "天哭"])


@pytest.mark.parametrize(
    ("date", "fix_leap", "palace"),
    [("2023-4-10", True, "迁移"), ("2023-4-10", False, "命宫")],
)
def test_star_palace_fix_leap(date: str, fix_leap: bool, palace: str) -> None:
    chart = by_solar(date, 4, "女", ZiweiSettings(leap_month=fix_leap))
    assert name(chart.palace_of("紫微")) == palace


def test_horoscope_queries() -> None:
    h = by_solar("2000-8-16", 2, "女").horoscope("2023-8-19T03:12")
    stars = ["流陀", "流曲", "运昌"]
    assert h.has_stars("疾厄", "decadal", stars) is True
    assert h.has_stars("财帛", "yearly", stars) is True
    assert h.has_stars("迁移", "monthly", stars) is True
    assert h.has_stars("田宅", "daily", stars) is True
    assert h.not_have_stars("疾厄", "decadal", stars) is False
    assert h.not_have_stars("疾厄", "decadal", ["流陀", "流鸾", "运昌"]) is False
    assert h.not_have_stars("疾厄", "decadal", ["流喜", "流鸾", "流魁"]) is True
    assert h.has_one_of_stars("疾厄", "decadal", stars) is True
    assert h.has_one_of_stars("疾厄", "decadal", ["流喜", "流鸾", "流魁"]) is False
    expected = {
        "decadal": ["兄弟", "夫妻", "疾厄", "子女"],
        "yearly": ["仆役", "夫妻", "财帛", "子女"],
        "monthly": ["夫妻", "子女", "迁移", "财帛"],
        "daily": ["迁移", "官禄", "疾厄", "夫妻"],
    }
    for scope, palaces in expected.items():
        for mutagen, palace in zip("禄权科忌", palaces, strict=True):
            assert h.has_mutagen(palace, scope, mutagen) is True, (scope, mutagen)

    def described(p: Palace) -> tuple[str, str, str]:
        return name(p), p.stem.names.hans, p.branch.names.hans

    assert described(h.age_palace) == ("仆役", "丁", "亥")
    assert described(h.palace("命宫", "origin")) == ("命宫", "壬", "午")
    assert described(h.palace("命宫", "decadal")) == ("夫妻", "庚", "辰")
    d = h.surrounded("命宫", "decadal")
    assert described(d.target) == ("夫妻", "庚", "辰")
    assert described(d.opposite) == ("官禄", "丙", "戌")
    assert described(d.career) == ("福德", "甲", "申")
    assert described(d.wealth) == ("迁移", "戊", "子")
    assert h.surrounded("夫妻", "origin") == d
    assert described(h.palace("命宫", "yearly")) == ("子女", "己", "卯")
    assert described(h.palace("命宫", "monthly")) == ("兄弟", "辛", "巳")
    assert described(h.palace("命宫", "daily")) == ("福德", "甲", "申")
    assert described(h.palace("命宫", "hourly")) == ("官禄", "丙", "戌")

    h2 = by_solar("2000-8-16", 2, "女").horoscope("2023-10-19T03:12")
    assert described(h2.age_palace) == ("仆役", "丁", "亥")


# --------------------------------------------------------------- our own additions


def test_every_name_form(c0821: NatalChart) -> None:
    """Keys, 简, 繁, pinyin, English and iztro keys name the same star and palace."""
    forms = ["tan_lang", "贪狼", "貪狼", "Tan Lang", "tanlangMaj"]
    assert all(c0821.star(f).with_mutagen("ji") for f in forms)
    assert c0821.palace("spouse") == c0821.palace("夫妻") == c0821.palace(PalaceName.SPOUSE)
    assert c0821.palace("spouse").has_mutagen(Mutagen.JI)
    assert c0821.palace("spouse").has_mutagen("Obstacle")


def test_bad_names_raise(c0821: NatalChart) -> None:
    cases = [
        (lambda: c0821.palace("命宫").has(["紫薇星"]), "stars"),
        (lambda: c0821.surrounded("nowhere"), "palace"),
        (lambda: c0821.palace("命宫").has_mutagen("福"), "mutagen"),
        (lambda: c0821.star("紫微").with_brightness("亮"), "brightness"),
        (lambda: c0821.flies("命宫").to("兄弟", []), "mutagen"),
        (lambda: c0821.palace("命宫").has([]), "stars"),
        (lambda: c0821.horoscope("2020-1-1").has_stars("命宫", "yearly", ["紫微"]), "stars"),
        (lambda: c0821.horoscope("2020-1-1").palace("命宫", "weekly"), "scope"),
        (lambda: c0821.horoscope("2020-1-1").has_mutagen("命宫", "origin", "禄"), "scope"),
    ]
    for call, field in cases:
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == field


def test_monthly_stars_count() -> None:
    """The stars of the month, day and hour layers count too (iztro looks only at the
    decade's and the year's): each 月X star is found where the month layer put it."""
    h = by_solar("2000-8-16", 2, "女").horoscope("2023-8-19T03:12")
    for placed in h.monthly.stars:
        palace = h.chart.palace_at(placed.branch)
        assert h.has_stars(palace.name, "origin", [placed.star.names.hans])


# ------------------------------------------------------------------ plugin.test.ts

# iztro's plugin test sets astro.config({mutagens: {庚: 太阳 武曲 天同 天相}, brightness:
# {贪狼: 旺 × 12}}) for the whole file; the questions below are asked under it.
PLUGIN_CONFIG = ZiweiSettings.from_iztro(
    {"mutagens": {"庚": ["太阳", "武曲", "天同", "天相"]}, "brightness": {"贪狼": ["旺"] * 12}}
)


def test_plugin_changed_configuration() -> None:
    chart = by_solar("2010-10-18", 4, "female", PLUGIN_CONFIG)
    assert not chart.palace("命宫").has_mutagen("忌")
    assert chart.palace("夫妻").has_mutagen("忌")
    assert chart.star("贪狼").with_brightness("旺")


def test_plugin_not_changed_configuration() -> None:
    chart = by_solar("2011-10-18", 4, "female", PLUGIN_CONFIG)
    assert chart.palace("命宫").has_mutagen("权")
    assert chart.palace("命宫").has_mutagen("忌")
    assert chart.palace("福德").has_mutagen("科")
    assert not chart.palace("田宅").has_mutagen("禄")
    assert chart.flies("财帛").to("夫妻", "科")
    assert chart.flies("财帛").to("仆役", "忌")
    assert chart.star("紫微").with_brightness("旺")
    # The Wealth palace's stem is 庚: its flights follow the replaced row, not the book's.
    assert str(chart.palace("财帛").stem) == "庚"
    book = by_solar("2011-10-18", 4, "female")
    assert not book.flies("财帛").to("夫妻", "科")


@pytest.mark.parametrize(
    ("lunar", "expected"), [(False, ["七杀"]), (True, ["太阳", "太阴"])], ids=["solar", "lunar"]
)
def test_plugin_major_star(lunar: bool, expected: list[str]) -> None:
    """iztro's plugin reads the Life palace's majors, or the Travel palace's when it is empty."""
    chart = ziwei_chart("2023-10-18", 4, "female", lunar=lunar, settings=PLUGIN_CONFIG)
    palace = chart.palace("命宫")
    if palace.is_empty():
        palace = chart.palace("迁移")
    assert [s.star.names.hans for s in palace.major_stars] == expected
    assert str(chart.five_elements_class) == "火六局"


def test_flights_by_mutagen_and_palaces_of_other_charts(c0821: NatalChart) -> None:
    flights = c0821.flies("命宫")
    assert flights["忌"] is flights.ji is flights.palaces[3]
    assert flights[Mutagen.LU] is flights.lu and flights["quan"] is flights.quan
    assert flights.source is c0821.palace("命宫")
    # A palace of this chart works as an argument; one of another chart does not.
    assert c0821.surrounded(c0821.palace("命宫")).target is c0821.palace("命宫")
    other = by_solar("2000-8-16", 2, "女").palace("命宫")
    with pytest.raises(InputError) as err:
        c0821.surrounded(other)
    assert err.value.field == "palace"
    with pytest.raises(InputError):
        c0821.palace(3)  # type: ignore[arg-type]  # a number could be a branch or an index
