"""Every worked example of docs/bazi-rules.md §6 (values produced by lunar-python 1.4.8 and
cross-checked with tyme4py 1.5.0), as tests.

Spec "S1"/"S2" are lunar-python sects: S1 = ``LateRatHour.NEXT_DAY``, S2 = ``LateRatHour.SPLIT``.
Luck starts: lunar-python ``getYun(g, 1)`` = ``StartAge.DAYS_SHICHEN``, ``getYun(g, 2)`` =
``StartAge.MINUTES``, tyme4py's default = ``StartAge.SECONDS``, its China95 = ``CHINA95``.
Times are Beijing civil time, so the charts are built with ``chart_at``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import pytest

from mingshu import bazi
from mingshu.errors import InputError

S1 = bazi.LateRatHour.NEXT_DAY
S2 = bazi.LateRatHour.SPLIT


@dataclass(frozen=True)
class Side:
    """What one sect gives for one example."""

    pillars: str
    gods: str = ""  # ten gods of the year, month and hour stems
    hidden: str = ""  # hidden stems per branch, "|"-separated
    hidden_gods: str = ""  # their ten gods, "|" between branches, " " within
    nayin: str = ""
    stages: str = ""  # 星运: Day Master on each branch
    void: str = ""
    tai_xi: str = ""


@dataclass(frozen=True)
class Example:
    name: str
    moment: datetime
    prev_jie: tuple[str, str]
    next_jie: tuple[str, str]
    s1: Side
    s2: Side
    tai_yuan: str
    ming_gong: str
    shen_gong: str
    # (gender, method) -> (years, months, days, hours, minutes) and optionally start moment
    starts: dict[tuple[str, bazi.StartAge], tuple[tuple[int, ...], str]] = field(
        default_factory=dict
    )
    # gender -> first luck pillars "pillar@age(year)"
    luck: dict[str, list[str]] = field(default_factory=dict)


D, M, SEC, C95 = (
    bazi.StartAge.DAYS_SHICHEN,
    bazi.StartAge.MINUTES,
    bazi.StartAge.SECONDS,
    bazi.StartAge.CHINA95,
)

EX1_SIDE = Side(
    pillars="庚午 辛巳 庚辰 辛巳",
    gods="比肩 劫财 劫财",
    hidden="丁己|丙庚戊|戊乙癸|丙庚戊",
    hidden_gods="正官 正印|七杀 比肩 偏印|偏印 正财 伤官|七杀 比肩 偏印",
    nayin="路旁土 白蜡金 白蜡金 白蜡金",
    stages="沐浴 长生 养 长生",
    void="戌亥 申酉 申酉 申酉",
    tai_xi="乙酉",
)
EX2_S1 = Side(
    pillars="己卯 丙子 己未 甲子",
    gods="比肩 正印 正官",
    hidden="乙|癸|己丁乙|癸",
    hidden_gods="七杀|偏财|比肩 偏印 七杀|偏财",
    nayin="城头土 涧下水 天上火 海中金",
    stages="病 绝 冠带 绝",
    void="申酉 申酉 子丑 戌亥",
    tai_xi="甲午",
)
EX2_S2 = Side(
    pillars="己卯 丙子 戊午 甲子",
    gods="劫财 偏印 七杀",
    hidden="乙|癸|丁己|癸",
    hidden_gods="正官|正财|正印 劫财|正财",
    nayin="城头土 涧下水 天上火 海中金",
    stages="沐浴 胎 帝旺 胎",
    void="申酉 申酉 子丑 戌亥",
    tai_xi="癸未",
)
EX4_SIDE = Side(
    pillars="癸卯 乙丑 戊戌 庚申",
    gods="正财 正官 食神",
    hidden="乙|己癸辛|戊辛丁|庚壬戊",
    hidden_gods="正官|劫财 正财 伤官|比肩 伤官 正印|食神 偏财 比肩",
    nayin="金箔金 海中金 平地木 石榴木",
    stages="沐浴 养 墓 病",
    void="辰巳 戌亥 辰巳 子丑",
    tai_xi="癸卯",
)
EX5_SIDE = Side(
    pillars="甲辰 丙寅 戊戌 庚申",
    gods="七杀 偏印 食神",
    hidden="戊乙癸|甲丙戊|戊辛丁|庚壬戊",
    hidden_gods="比肩 正官 正财|七杀 偏印 比肩|比肩 伤官 正印|食神 偏财 比肩",
    nayin="覆灯火 炉中火 平地木 石榴木",
    stages="冠带 长生 墓 病",
    void="寅卯 戌亥 辰巳 子丑",
    tai_xi="癸卯",
)
EX6_S1 = Side(
    pillars="戊辰 甲子 辛酉 戊子",
    gods="正印 正财 正印",
    nayin="大林木 海中金 石榴木 霹雳火",
    stages="墓 长生 临官 长生",
    tai_xi="丙辰",
)
EX6_S2 = Side(
    pillars="戊辰 甲子 庚申 戊子",
    gods="偏印 偏财 偏印",
    nayin="大林木 海中金 石榴木 霹雳火",
    stages="养 死 临官 死",
    tai_xi="乙巳",
)
EX7_SIDE = Side(
    pillars="乙亥 甲申 辛未 壬辰",
    gods="偏财 正财 伤官",
    hidden="壬甲|庚壬戊|己丁乙|戊乙癸",
    hidden_gods="伤官 正财|劫财 伤官 正印|偏印 七杀 偏财|正印 偏财 食神",
    nayin="山头火 泉中水 路旁土 长流水",
    stages="沐浴 帝旺 衰 墓",
    void="申酉 午未 戌亥 午未",
    tai_xi="丙午",
)

EXAMPLES = [
    Example(
        "Ex1 1990-05-15 10:30",
        datetime(1990, 5, 15, 10, 30),
        ("立夏", "1990-05-06 02:35:26"),
        ("芒种", "1990-06-06 06:46:18"),
        EX1_SIDE,
        EX1_SIDE,
        tai_yuan="壬申",
        ming_gong="癸未",
        shen_gong="丁亥",
        starts={
            ("male", D): ((7, 3, 10, 0, 0), "1997-08-25"),
            ("male", M): ((7, 3, 11, 8, 0), "1997-08-26 18:30"),
            ("male", SEC): ((7, 3, 11, 8, 36), ""),
            ("female", D): ((3, 1, 10, 0, 0), "1993-06-25"),
            ("female", M): ((3, 1, 9, 14, 0), ""),
        },
        luck={
            "male": ["壬午@8(1997)", "癸未@18(2007)", "甲申@28(2017)", "乙酉@38(2027)"],
            "female": ["庚辰@4(1993)", "己卯@14(2003)", "戊寅@24(2013)"],
        },
    ),
    Example(
        "Ex2 2000-01-01 23:30 (late Rat)",
        datetime(2000, 1, 1, 23, 30),
        ("大雪", "1999-12-07 21:47:27"),
        ("小寒", "2000-01-06 09:00:42"),
        EX2_S1,
        EX2_S2,
        tai_yuan="丁卯",
        ming_gong="己巳",
        shen_gong="丁丑",
        starts={
            ("male", D): ((8, 4, 0, 0, 0), "2008-05-01 23:30"),
            ("male", M): ((8, 4, 8, 14, 0), ""),
            ("male", SEC): ((8, 4, 8, 13, 6), ""),
            ("female", D): ((1, 6, 0, 0, 0), ""),
            ("female", M): ((1, 5, 17, 12, 0), ""),
        },
        luck={
            "male": ["乙亥@9(2008)", "甲戌@19(2018)", "癸酉@29(2028)"],
            "female": ["丁丑@2(2001)", "戊寅@12(2011)"],
        },
    ),
    Example(
        "Ex3 2000-01-02 00:30 (early Rat)",
        datetime(2000, 1, 2, 0, 30),
        ("大雪", "1999-12-07 21:47:27"),
        ("小寒", "2000-01-06 09:00:42"),
        EX2_S1,
        EX2_S1,
        tai_yuan="丁卯",
        ming_gong="己巳",
        shen_gong="丁丑",
        starts={
            ("male", D): ((8, 4, 10, 0, 0), "2008-05-12"),
            ("male", M): ((8, 4, 13, 14, 0), ""),
            ("female", D): ((1, 5, 20, 0, 0), ""),
            ("female", M): ((1, 5, 12, 12, 0), ""),
        },
    ),
    Example(
        "Ex4 2024-02-04 16:00 (before 立春)",
        datetime(2024, 2, 4, 16, 0),
        ("小寒", "2024-01-06 04:49:22"),
        ("立春", "2024-02-04 16:27:07"),
        EX4_SIDE,
        EX4_SIDE,
        tai_yuan="丙辰",
        ming_gong="庚申",
        shen_gong="壬戌",
        starts={
            ("male", D): ((9, 10, 0, 0, 0), ""),
            ("male", M): ((9, 9, 25, 22, 0), ""),
            ("female", D): ((0, 0, 0, 0, 0), ""),
            ("female", M): ((0, 0, 2, 6, 0), ""),
        },
        luck={
            "male": ["甲子@10(2033)", "癸亥@20(2043)"],
            "female": ["丙寅@1(2024)", "丁卯@11(2034)"],
        },
    ),
    Example(
        "Ex5 2024-02-04 16:50 (after 立春)",
        datetime(2024, 2, 4, 16, 50),
        ("立春", "2024-02-04 16:27:07"),
        ("惊蛰", "2024-03-05 10:22:45"),
        EX5_SIDE,
        EX5_SIDE,
        tai_yuan="丁巳",
        ming_gong="辛未",
        shen_gong="乙亥",
        starts={
            ("male", D): ((9, 11, 0, 0, 0), "2034-01-04"),
            ("male", M): ((9, 10, 27, 16, 0), ""),
            ("male", C95): ((9, 10, 27, 0, 0), "2033-12-31"),
            ("female", D): ((0, 0, 0, 0, 0), ""),
            ("female", M): ((0, 0, 1, 22, 0), ""),
        },
        luck={
            "male": ["丁卯@11(2034)", "戊辰@21(2044)"],
            "female": ["乙丑@1(2024)", "甲子@11(2034)"],
        },
    ),
    Example(
        "Ex6 1988-12-31 23:45 (late Rat at year end)",
        datetime(1988, 12, 31, 23, 45),
        ("大雪", "1988-12-07 05:34:28"),  # lunar-python getPrevJie (not in the spec)
        ("小寒", "1989-01-05 16:45:55"),
        EX6_S1,
        EX6_S2,
        tai_yuan="乙卯",
        ming_gong="丁巳",
        shen_gong="乙丑",
        starts={
            ("male", D): ((1, 7, 0, 0, 0), "1990-07-31"),
            ("male", M): ((1, 6, 25, 0, 0), "1990-07-25"),  # lunar-python clamps month ends
            ("male", C95): ((1, 6, 25, 0, 0), "1990-07-26"),  # tyme4py carries the days
        },
        luck={"male": ["乙丑@3(1990)", "丙寅@13(2000)"]},
    ),
    Example(
        "Ex7 1995-08-08 08:08 (16 min after 立秋)",
        datetime(1995, 8, 8, 8, 8),
        ("立秋", "1995-08-08 07:51:44"),
        ("白露", "1995-09-08 10:48:34"),
        EX7_SIDE,
        EX7_SIDE,
        tai_yuan="乙亥",
        ming_gong="辛巳",
        shen_gong="己丑",
        starts={
            ("male", D): ((0, 0, 0, 0, 0), ""),
            ("male", M): ((0, 0, 1, 10, 0), ""),
            ("female", D): ((10, 4, 10, 0, 0), "2005-12-18"),
        },
        luck={"male": ["癸未@1(1995)"], "female": ["乙酉@11(2005)", "丙戌@21(2015)"]},
    ),
]

IDS = [e.name for e in EXAMPLES]


def _check_side(c: bazi.Chart, side: Side) -> None:
    assert str(c.pillars) == side.pillars
    year, month, day, hour = c.details
    assert day.ten_god is None  # the Day Master itself (日主)
    if side.gods:
        assert " ".join(str(d.ten_god) for d in (year, month, hour)) == side.gods
    if side.hidden:
        assert "|".join("".join(str(h.stem) for h in d.hidden) for d in c.details) == side.hidden
    if side.hidden_gods:
        got = "|".join(" ".join(str(h.ten_god) for h in d.hidden) for d in c.details)
        assert got == side.hidden_gods
    if side.nayin:
        assert " ".join(str(d.nayin) for d in c.details) == side.nayin
    if side.stages:
        assert " ".join(str(d.stage) for d in c.details) == side.stages
    if side.void:
        assert " ".join("".join(map(str, d.void)) for d in c.details) == side.void
    if side.tai_xi:
        assert str(c.tai_xi) == side.tai_xi


@pytest.mark.parametrize("ex", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("late_rat", [S1, S2], ids=["S1", "S2"])
def test_pillars_and_derived_items(ex: Example, late_rat: bazi.LateRatHour) -> None:
    c = bazi.chart_at(ex.moment, "male", bazi.BaziSettings(late_rat_hour=late_rat))
    _check_side(c, ex.s1 if late_rat is S1 else ex.s2)
    # Unaffected by the sect: 胎元, 命宫, 身宫, and the 节 around the birth.
    assert str(c.tai_yuan) == ex.tai_yuan
    assert str(c.ming_gong) == ex.ming_gong
    assert str(c.shen_gong) == ex.shen_gong
    assert (str(c.previous_jie[0]), f"{c.previous_jie[1]:%Y-%m-%d %H:%M:%S}") == ex.prev_jie
    assert (str(c.next_jie[0]), f"{c.next_jie[1]:%Y-%m-%d %H:%M:%S}") == ex.next_jie


def test_hidden_stem_roles_follow_main_middle_residual() -> None:
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male")
    month = c.details[1]  # 巳: 丙 本气, 庚 中气, 戊 余气
    assert [(str(h.stem), h.role.key, str(h.role)) for h in month.hidden] == [
        ("丙", "main", "本气"),
        ("庚", "middle", "中气"),
        ("戊", "residual", "余气"),
    ]


START_CASES = [
    (ex, gender, method, span, start)
    for ex in EXAMPLES
    for (gender, method), (span, start) in ex.starts.items()
]


@pytest.mark.parametrize(
    ("ex", "gender", "method", "span", "start"),
    START_CASES,
    ids=[f"{c[0].name[:3]}-{c[1]}-{c[2].value}" for c in START_CASES],
)
def test_luck_start_per_method(
    ex: Example, gender: str, method: bazi.StartAge, span: tuple[int, ...], start: str
) -> None:
    # The start does not depend on the sect (docs/bazi-rules.md §1.6); check under both.
    for late_rat in (S1, S2):
        c = bazi.chart_at(
            ex.moment, gender, bazi.BaziSettings(late_rat_hour=late_rat, start_age=method)
        )
        assert tuple(c.luck.start) == span
        if start:
            fmt = "%Y-%m-%d %H:%M" if " " in start else "%Y-%m-%d"
            assert f"{c.luck.start_moment:{fmt}}" == start


LUCK_CASES = [(ex, g, seq) for ex in EXAMPLES for g, seq in ex.luck.items()]


@pytest.mark.parametrize(
    ("ex", "gender", "sequence"), LUCK_CASES, ids=[f"{c[0].name[:3]}-{c[1]}" for c in LUCK_CASES]
)
def test_luck_pillars(ex: Example, gender: str, sequence: list[str]) -> None:
    # The spec's ages and years are from lunar-python getYun(g, 1).
    c = bazi.chart_at(ex.moment, gender, bazi.BaziSettings(start_age=D))
    got = [f"{s.pillar}@{s.start_age}({s.start_year})" for s in c.luck.steps[: len(sequence)]]
    assert got == sequence
    assert len(c.luck.steps) >= 10
    for a, b in zip(c.luck.steps, c.luck.steps[1:], strict=False):
        assert b.start_year == a.start_year + 10 and b.start_age == a.start_age + 10
        assert b.pillar == a.pillar.next(1 if c.luck.forward else -1)


def test_luck_direction() -> None:
    # 庚 (yang) year: men forward, women backward; 己 (yin) year: the reverse.
    assert bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male").luck.forward
    assert not bazi.chart_at(datetime(1990, 5, 15, 10, 30), "female").luck.forward
    assert not bazi.chart_at(datetime(2000, 1, 1, 23, 30), "male").luck.forward
    assert bazi.chart_at(datetime(2000, 1, 1, 23, 30), "female").luck.forward


def test_annual_pillars_and_xiao_yun_ex1() -> None:
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male", bazi.BaziSettings(start_age=D))
    assert [str(c.annual(y).pillar) for y in (1997, 1998, 1999)] == ["丁丑", "戊寅", "己卯"]
    assert c.annual(1997).age == 8
    assert c.annual(1997).luck is not None and str(c.annual(1997).luck.pillar) == "壬午"
    assert c.annual(1996).luck is None  # before the first luck pillar
    # 小运: the hour pillar 辛巳 moved forward by the nominal age.
    assert [str(c.annual(y).xiao_yun) for y in (1990, 1991, 1992)] == ["壬午", "癸未", "甲申"]
    # Far past the listed luck pillars the luck pillar is still computed.
    late = c.annual(1990 + 120)
    assert late.luck is not None and late.luck.number == 12


def test_annual_rejects_years_before_birth() -> None:
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male")
    with pytest.raises(InputError) as e:
        c.annual(1989)
    assert e.value.field == "year"


# Ex 1 star vectors, computed by hand in docs/bazi-rules.md §6 from §4 (defaults V2/W1/K1/R1/H1,
# basis pillar included).  Each entry: star key -> "position:target" hits (empty = none).
EX1_STARS = {
    "tian_yi": ["year:午"],
    "wen_chang": [],
    "lu_shen": [],
    "yang_ren": [],
    "yue_de": ["year:庚", "day:庚"],
    "tian_de": ["month:辛", "hour:辛"],
    "guo_yin": ["day:辰"],
    "xue_tang": ["month:巳", "hour:巳"],
    "kui_gang": ["day:庚辰"],
    "shi_e_da_bai": ["day:庚辰"],
    "yuan_chen": [],
    "gou_jiao": [],
}
# By year branch 午 and day branch 辰: (star, basis) -> hits.
EX1_BRANCH_STARS = {
    ("wang_shen", "year_branch"): ["month:巳", "hour:巳"],
    ("jiang_xing", "year_branch"): ["year:午"],  # the basis pillar itself
    ("gua_su", "year_branch"): ["day:辰"],
    ("jie_sha", "day_branch"): ["month:巳", "hour:巳"],
    ("zai_sha", "day_branch"): ["year:午"],
    ("hua_gai", "day_branch"): ["day:辰"],  # the basis pillar itself
}


def _hits(result: bazi.StarResult, basis: str | None = None) -> list[str]:
    return [f"{h.position.key}:{h.target}" for h in result.hits if basis in (None, h.basis)]


def test_ex1_star_vectors() -> None:
    # The spec's vectors are for 天乙 V2 by the day stem (the default is now V1 by day and
    # year stem, docs/bazi-rules.md §4 corrections).
    settings = bazi.BaziSettings(
        include_basis_pillar=True, star_bases={"tian_yi": "day_stem"}
    ).with_variants(tian_yi="v2")
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male", settings)
    for key, expected in EX1_STARS.items():
        assert _hits(c.star(key)) == expected, key
    for (key, basis), expected in EX1_BRANCH_STARS.items():
        assert _hits(c.star(key), basis) == expected, (key, basis)
    tian_luo = c.star("tian_luo_di_wang")
    assert {h.role.key for h in tian_luo.hits if h.role} == {"di_wang"}
    assert tian_luo.found
    # V1 gives 庚 → 丑未: no Heavenly Nobleman.
    v1 = bazi.chart_at(c.moment.beijing, "male", settings.with_variants(tian_yi="v1"))
    assert not v1.star("tian_yi").found
    # V2 by day and year stem: 庚 day and 庚 year each find 午 in the year branch.
    both = bazi.chart_at(
        c.moment.beijing, "male", settings.with_bases(tian_yi="day_stem+year_stem")
    )
    assert [h.basis for h in both.star("tian_yi").hits] == ["day_stem", "year_stem"]


def test_ex1_basis_pillar_excluded_by_default() -> None:
    c = bazi.chart_at(datetime(1990, 5, 15, 10, 30), "male")
    assert _hits(c.star("jiang_xing"), "year_branch") == []
    assert _hits(c.star("hua_gai"), "day_branch") == []
    assert _hits(c.star("wang_shen"), "year_branch") == ["month:巳", "hour:巳"]


def test_start_by_method_lists_every_method_as_the_charts_give_it() -> None:
    for ex in EXAMPLES:
        for gender in ("male", "female"):
            c = bazi.chart_at(ex.moment, gender)
            listed = {m: (span, at) for m, span, at in c.luck.start_by_method()}
            assert set(listed) == set(bazi.StartAge)
            for method in bazi.StartAge:
                other = bazi.chart_at(ex.moment, gender, bazi.BaziSettings(start_age=method)).luck
                assert listed[method] == (other.start, other.start_moment)
