"""The book beside the engine: every placement rule of 紫微斗数全书 卷二 against real charts.

Each rule of ``tools/book_rules.py`` (written from the verse, never importing the engine's
placement code) is compared with charts the engine draws over the whole space the rule
depends on: every year stem and branch (60 lunar years), month, hour, gender × year
polarity, every day of the 紫微 tables, every day of every leap month 1900–2100, every
flowing year for 斗君.  Per rule it counts the points of that space and the points where
the engine agrees; a point whose verse is unclear or corrupt is counted apart.

    .venv/bin/python tools/book_conformance.py            # print the tables
    .venv/bin/python tools/book_conformance.py --write    # regenerate the page and the record

``--write`` writes docs/book-conformance.md and the machine-readable record the library
article ZW-BK-01 prints its tables from (``src/mingshu/library/articles/_conformance.json``:
shipped code cannot import tools/).  The test tests/book/test_book_conformance.py runs the
same comparison and checks that both are in sync.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import book_rules as book
from mingshu import calendar, ziwei
from mingshu.files import replacing

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "book-conformance.md"
RECORD = ROOT / "src" / "mingshu" / "library" / "articles" / "_conformance.json"
F = "F"  # ../shared/sources/ziwei-quanshu.juan2.newdu-full.txt

SCHOOLS = ("iztro", "quanshu")


def settings_for(school: str) -> ziwei.ZiweiSettings:
    if school == "iztro":
        return ziwei.ZiweiSettings()
    return ziwei.ZiweiSettings(school=school)  # type: ignore[call-arg]


def school_available(school: str) -> bool:
    try:
        settings_for(school)
    except TypeError:
        return False
    return True


class Sample(NamedTuple):
    """One real chart and the plain inputs the book's rules read."""

    chart: Any
    male: bool
    month: int  # the birth month after the book's leap rule (1..12)
    lunar_month: int
    is_leap: bool
    day: int
    hour: int
    year_stem: int
    year_branch: int
    pillar: int  # the year's place in the sixty (甲子 = 0)
    stars: dict[str, set[int]]  # star name (简体) and key → branches (see ``where``)


def _sample(chart: Any, male: bool) -> Sample:
    lunar = chart.lunar_date
    year = chart.god_year
    return Sample(
        chart,
        male,
        book.book_month(lunar.month, lunar.is_leap),
        lunar.month,
        lunar.is_leap,
        lunar.day,
        chart.birth.time_index % 12,
        int(year.stem),
        int(year.branch),
        year.index,
        where(chart),
    )


def _chart(
    settings: Any, year: int, month: int, day: int, hour: int, male: bool, leap: bool
) -> Any:
    return ziwei.by_lunar(
        f"{year}-{month:02d}-{day:02d}",
        hour,
        "male" if male else "female",
        leap=leap,
        settings=settings,
    )


@cache
def grid(school: str, name: str) -> tuple[Sample, ...]:
    """The charts of one grid under one school (built once per run)."""
    s = settings_for(school)
    out: list[Sample] = []
    if name == "base":  # 60 years × 12 months × 12 hours × 2 genders, day 1
        for year in range(1984, 2044):
            for month in range(1, 13):
                for hour in range(12):
                    for male in (True, False):
                        out.append(_sample(_chart(s, year, month, 1, hour, male, False), male))
    elif name == "days":  # 10 year stems × 12 months × every day, 子 hour
        for year in range(1984, 1994):
            for m in calendar.lunar_year_months(year):
                if m.is_leap:
                    continue
                for day in range(1, m.days + 1):
                    out.append(_sample(_chart(s, year, m.month, day, 0, True, False), True))
    elif name == "leap":  # every leap month number × day × hour that occurs 1900–2100, once
        seen: set[tuple[int, int]] = set()
        for year in range(1900, 2101):
            for m in calendar.lunar_year_months(year):
                for day in range(1, m.days + 1 if m.is_leap else 0):
                    if (m.month, day) in seen:
                        continue
                    seen.add((m.month, day))
                    for hour in range(12):
                        out.append(_sample(_chart(s, year, m.month, day, hour, True, True), True))
    else:
        raise ValueError(name)
    return tuple(out)


# ------------------------------------------------------------------ engine side (public API)
def where(chart: Any) -> dict[str, set[int]]:
    """Star key → the branches holding it."""
    out: dict[str, set[int]] = {}
    for palace in chart.palaces:
        br = int(palace.branch)
        for group in (palace.major_stars, palace.minor_stars, palace.adjective_stars):
            for placed in group:
                out.setdefault(placed.star.key, set()).add(br)
    return out


def named(chart: Any, name: str) -> set[int]:
    """The branches holding a star shown as ``name`` (简体); a name may sit in two palaces."""
    return {
        int(p.branch) for p in chart.palaces for s in p.adjective_stars if s.star.names.hans == name
    }


def at(chart: Any, branch: int) -> Any:
    return chart.palace_at(book.B[branch])


Point = tuple[Hashable, bool, bool]  # (point of the space, agrees, the verse is clear there)
Check = Callable[[Sample], Iterable[Point]]


@dataclass
class Rule:
    key: str
    title: str
    lines: str
    space: str
    size: int
    grid: str
    check: Check
    note: str = ""
    placed: bool = True  # False: the engine has no such star under the default school


@dataclass
class Tally:
    rule: Rule
    agree: set[Hashable] = field(default_factory=set)
    disagree: set[Hashable] = field(default_factory=set)
    unclear: set[Hashable] = field(default_factory=set)  # disagreements where the text is unclear
    example: str = ""

    @property
    def points(self) -> int:
        return len(self.agree | self.disagree)

    @property
    def agreeing(self) -> int:
        return len(self.agree - self.disagree)


# ------------------------------------------------------------------ the rules
def _one(point: Hashable, ok: bool, clear: bool = True) -> Iterator[Point]:
    yield point, ok, clear


def c_life_body(x: Sample) -> Iterable[Point]:
    life, body = book.life_body(x.month, x.hour)
    ok = int(x.chart.life_branch) == life and int(x.chart.body_branch) == body
    return _one((x.month, x.hour), ok)


def c_leap(x: Sample) -> Iterable[Point]:
    life, body = book.life_body(x.month, x.hour)
    ok = int(x.chart.life_branch) == life and int(x.chart.body_branch) == body
    return _one((x.lunar_month, x.day, x.hour), ok)


def c_palaces(x: Sample) -> Iterable[Point]:
    names = book.palace_names(int(x.chart.life_branch))
    engine = {
        int(p.branch): p.name.names.hans.removesuffix("宫").replace("仆役", "奴仆")
        for p in x.chart.palaces
    }
    alias = {"命宫": "命", "妻妾": "夫妻", "官禄": "官禄"}
    ok = all(engine[br].startswith(alias.get(n, n).removesuffix("宫")) for br, n in names.items())
    return _one(int(x.chart.life_branch), ok)


def c_stems(x: Sample) -> Iterable[Point]:
    ok = all(int(p.stem) == book.palace_stem(x.year_stem, int(p.branch)) for p in x.chart.palaces)
    return _one(x.year_stem, ok)


def c_nayin(x: Sample) -> Iterable[Point]:
    life = int(x.chart.life_branch)
    stem = book.palace_stem(x.year_stem, life)
    ok = int(x.chart.five_elements_class) == book.five_elements_class(x.year_stem, life)
    return _one((stem, life), ok)


def c_zi_wei(x: Sample) -> Iterable[Point]:
    klass = int(x.chart.five_elements_class)
    cells = book.zi_wei_tables().get((klass, x.day), [])
    engine = int(x.chart.palace_of("zi_wei").branch)
    # A day missing from the tables or listed twice is a corrupt cell: unclear.
    return _one((klass, x.day), cells == [engine], len(cells) == 1)


def c_tian_fu(x: Sample) -> Iterable[Point]:
    z = int(x.chart.palace_of("zi_wei").branch)
    return _one(z, int(x.chart.palace_of("tian_fu").branch) == book.tian_fu(z))


MAJOR_KEYS = {
    "紫微": "zi_wei",
    "天机": "tian_ji",
    "太阳": "tai_yang",
    "武曲": "wu_qu",
    "天同": "tian_tong",
    "廉贞": "lian_zhen",
    "天府": "tian_fu",
    "太阴": "tai_yin",
    "贪狼": "tan_lang",
    "巨门": "ju_men",
    "天相": "tian_xiang",
    "天梁": "tian_liang",
    "七杀": "qi_sha",
    "破军": "po_jun",
}  # the book's names → the engine's keys


def c_majors(x: Sample) -> Iterable[Point]:
    z = int(x.chart.palace_of("zi_wei").branch)
    w = x.stars
    return _one(z, all(w[MAJOR_KEYS[name]] == {br} for name, br in book.majors(z).items()))


def _stars(point: Hashable, x: Sample, expected: dict[str, int]) -> Iterable[Point]:
    w = x.stars
    return _one(point, all(w.get(k) == {v} for k, v in expected.items()))


def c_chang_qu(x: Sample) -> Iterable[Point]:
    return _stars(x.hour, x, {"wen_chang": book.wen_chang(x.hour), "wen_qu": book.wen_qu(x.hour)})


def c_fu_bi(x: Sample) -> Iterable[Point]:
    return _stars(x.month, x, {"zuo_fu": book.zuo_fu(x.month), "you_bi": book.you_bi(x.month)})


def c_kui_yue(x: Sample) -> Iterable[Point]:
    """Ordered: 天魁 on the verse's first animal, 天钺 on its second."""
    w = x.stars
    kui, yue = book.kui_yue()[x.year_stem]
    ok = w["tian_kui"] == {kui} and w["tian_yue"] == {yue}
    # F's 「丙丁猪狗位」 is corrupt: 狗 (戌) is no 贵人 palace in any table, and 神峰通考 卷四
    # L313 has 「丙丁猪鸡位」: unclear for 丙 丁.
    return _one(x.year_stem, ok, x.year_stem not in (2, 3))


def c_tian_ma(x: Sample) -> Iterable[Point]:
    return _stars(x.year_branch, x, {"tian_ma": book.tian_ma(x.year_branch)})


def c_lu_cun(x: Sample) -> Iterable[Point]:
    return _stars(x.year_stem, x, {"lu_cun": book.lu_cun(x.year_stem)})


def c_yang_tuo(x: Sample) -> Iterable[Point]:
    yang, tuo = book.qing_yang_tuo_luo(x.year_stem)
    return _stars(x.year_stem, x, {"qing_yang": yang, "tuo_luo": tuo})


def c_huo_ling(x: Sample) -> Iterable[Point]:
    huo, ling = book.huo_ling(x.year_branch, x.hour)
    w = x.stars
    ok = w["huo_xing"] == {huo} and w["ling_xing"] == {ling}
    # The verse gives only the 子-hour palaces, not the direction: unclear.
    return _one((x.year_branch, x.hour), ok, False)


def c_sihua(x: Sample) -> Iterable[Point]:
    found: dict[int, str] = {}
    for palace in x.chart.palaces:
        for placed in palace.stars:
            if placed.mutagen is not None:
                found[int(placed.mutagen)] = placed.star.names.hans
    expected = book.sihua()[x.year_stem]
    ok = tuple(found.get(i) for i in range(4)) == expected
    # F L43 「壬梁紫府武」: 府 is read as a misprint of 辅 by the tradition the engine follows.
    return _one(x.year_stem, ok, x.year_stem != 8)


def c_kong_jie(x: Sample) -> Iterable[Point]:
    return _stars(
        x.hour, x, {"di_jie": book.di_jie(x.hour), "di_kong": book.tian_kong_hour(x.hour)}
    )


def c_shang_shi(x: Sample) -> Iterable[Point]:
    names = book.palace_names(int(x.chart.life_branch))
    by_name = {n: br for br, n in names.items()}
    return _stars(
        (int(x.chart.life_branch), x.male, x.year_branch % 2),
        x,
        {"tian_shang": by_name["奴仆"], "tian_shi": by_name["疾厄"]},
    )


def c_bo_shi(x: Sample) -> Iterable[Point]:
    expected = book.bo_shi(x.year_stem, x.male)
    ok = all(p.bo_shi.position == expected[int(p.branch)] for p in x.chart.palaces)
    return _one((x.year_stem, x.male), ok)


def c_xing_yao(x: Sample) -> Iterable[Point]:
    return _stars(
        x.month, x, {"tian_xing": book.tian_xing(x.month), "tian_yao": book.tian_yao(x.month)}
    )


def c_tai_zuo(x: Sample) -> Iterable[Point]:
    return _stars(
        (x.month, x.day),
        x,
        {"san_tai": book.san_tai(x.month, x.day), "ba_zuo": book.ba_zuo(x.month, x.day)},
    )


def c_ku_xu(x: Sample) -> Iterable[Point]:
    yb = x.year_branch
    return _stars(yb, x, {"tian_ku": book.tian_ku(yb), "tian_xu": book.tian_xu(yb)})


def c_long_feng(x: Sample) -> Iterable[Point]:
    yb = x.year_branch
    return _stars(yb, x, {"long_chi": book.long_chi(yb), "feng_ge": book.feng_ge(yb)})


def c_tai_fu(x: Sample) -> Iterable[Point]:
    return _stars(x.hour, x, {"tai_fu": book.tai_fu(x.hour)})


def c_feng_gao(x: Sample) -> Iterable[Point]:
    return _stars(x.hour, x, {"feng_gao": book.feng_gao(x.hour)})


def c_chang_sheng(x: Sample) -> Iterable[Point]:
    klass = int(x.chart.five_elements_class)
    expected = book.chang_sheng(klass, x.male)
    ok = all(p.chang_sheng.position == expected[int(p.branch)] for p in x.chart.palaces)
    return _one((klass, x.male, x.year_stem % 2), ok)


def c_luan_xi(x: Sample) -> Iterable[Point]:
    yb = x.year_branch
    return _stars(yb, x, {"hong_luan": book.hong_luan(yb), "tian_xi": book.tian_xi(yb)})


def c_four_flying(x: Sample) -> Iterable[Point]:
    expected = book.four_flying(x.year_branch)
    keys = {"丧门": "sang_men", "吊客": "diao_ke", "白虎": "bai_hu", "官府": "guan_fu"}
    ok = all(at(x.chart, br).sui_qian.key == keys[name] for name, br in expected.items())
    return _one(x.year_branch, ok)


def c_dou_jun(x: Sample) -> Iterable[Point]:
    """斗君 for twelve flowing years; the engine's 斗君 is its 流月 正月 palace (and, under
    the 全书 school, a star 斗君 in the yearly horoscope)."""
    for flow in range(2000, 2012):
        first = calendar.lunar_year_months(flow)[0].first_day
        h = x.chart.horoscope(first)
        yb = int(h.yearly.branch)
        expected = book.dou_jun(yb, x.month, x.hour)
        yield (yb, x.month, x.hour), int(h.monthly.branch) == expected, True


def c_dou_jun_leap(x: Sample) -> Iterable[Point]:
    """斗君 for a leap-month birth, in the twelve years after the birth year."""
    born = x.chart.lunar_date.year
    for flow in range(born + 1, born + 13):
        first = calendar.lunar_year_months(flow)[0].first_day
        h = x.chart.horoscope(first)
        expected = book.dou_jun(int(h.yearly.branch), x.month, x.hour)
        yield (x.lunar_month, x.day), int(h.monthly.branch) == expected, True


def c_dou_jun_star(x: Sample) -> Iterable[Point]:
    """The birth year's 斗君 as a natal star (the 全书 school places it)."""
    expected = book.dou_jun(x.year_branch, x.month, x.hour)
    return _one((x.year_branch, x.month, x.hour), x.stars.get("dou_jun") == {expected})


def c_tian_de(x: Sample) -> Iterable[Point]:
    return _stars(x.year_branch, x, {"tian_de": book.tian_de(x.year_branch)})


def c_yue_de(x: Sample) -> Iterable[Point]:
    return _stars(x.year_branch, x, {"yue_de": book.yue_de(x.year_branch)})


def c_jie_shen_year(x: Sample) -> Iterable[Point]:
    return _stars(x.year_branch, x, {"nian_jie": book.jie_shen(x.year_branch)})


def c_jie_shen_name(x: Sample) -> Iterable[Point]:
    # F L81 is clear: the book's 解神 is read from the birth year.  Whatever a chart shows
    # under that name must stand there, and nowhere else (the default's 解神 is the
    # month-based 月解 of a modern rhyme list, which the book lacks).
    return _one((x.year_branch, x.month), named(x.chart, "解神") == {book.jie_shen(x.year_branch)})


def c_fei_tian(x: Sample) -> Iterable[Point]:
    w = x.stars
    expected = book.fei_tian_san_sha(x.year_branch)
    placed = {
        "fei_tian_" + k: v
        for k, v in zip(("zou_shu", "jiang_jun", "zhi_fu"), expected.values(), strict=True)
    }
    ok = all(w.get(k) == {v} for k, v in placed.items())
    # The verse names three palaces and three stars but not which goes where: unclear order.
    if not ok and all(k in w for k in placed):
        return _one(x.year_branch, False, False)
    return _one(x.year_branch, ok)


def c_jie_lu(x: Sample) -> Iterable[Point]:
    """Counted as the book counts it: one item on two palaces.  The palaces the chart marks,
    whether as one item 截路空亡 or as two stars 截路 and 空亡, are the verse's two."""
    expected = book.jie_lu_kong_wang()[x.year_stem]
    marked = named(x.chart, "截路空亡") | named(x.chart, "截路") | named(x.chart, "空亡")
    return _one(x.year_stem, marked == set(expected))


def c_xun_kong(x: Sample) -> Iterable[Point]:
    return _one(x.pillar, named(x.chart, "旬空") == set(book.xun_kong_of(x.pillar)))


def c_decade_direction(x: Sample) -> Iterable[Point]:
    life = int(x.chart.life_branch)
    _, step = book.decade_start(life, x.year_stem % 2 == 0, x.male)
    klass = int(x.chart.five_elements_class)
    first = next(p for p in x.chart.palaces if p.decadal.start == klass)
    second = next(p for p in x.chart.palaces if p.decadal.start == klass + 10)
    ok = (int(second.branch) - int(first.branch)) % 12 == step % 12
    return _one((x.male, x.year_stem % 2), ok)


def _first_decade(x: Sample) -> int:
    klass = int(x.chart.five_elements_class)
    return int(next(p for p in x.chart.palaces if p.decadal.start == klass).branch)


def c_decade_start(x: Sample) -> Iterable[Point]:
    """Reading A of F L92: the first decade on the Life palace (the reading taken)."""
    life = int(x.chart.life_branch)
    start, _ = book.decade_start(life, x.year_stem % 2 == 0, x.male)
    return _one((life, x.male, x.year_stem % 2), _first_decade(x) == start)


def c_decade_start_literal(x: Sample) -> Iterable[Point]:
    """Reading B of F L92, the words taken literally: counted apart, as unclear."""
    life = int(x.chart.life_branch)
    start, _ = book.decade_start_literal(life, x.year_stem % 2 == 0, x.male)
    return _one((life, x.male, x.year_stem % 2), _first_decade(x) == start, False)


def c_small_limit(x: Sample) -> Iterable[Point]:
    start, step = book.small_limit(x.year_branch, x.male)
    ok = 1 in at(x.chart, start).ages and 2 in at(x.chart, (start + step) % 12).ages
    return _one((x.year_branch, x.male), ok)


def c_child(x: Sample) -> Iterable[Point]:
    klass = int(x.chart.five_elements_class)
    names = {n: br for br, n in book.palace_names(int(x.chart.life_branch)).items()}
    year = x.chart.lunar_date.year
    for age in range(1, min(klass, 7)):
        h = x.chart.horoscope(calendar.lunar_to_solar(year + age - 1, x.lunar_month, 1))
        # Ages past the sixth, and how 童限 meets the first decade, the verse leaves open.
        yield (klass, age), int(h.decadal.branch) == names[book.CHILD[age - 1]], True


def c_life_master(x: Sample) -> Iterable[Point]:
    life = int(x.chart.life_branch)
    return _one(life, x.chart.life_master.names.hans == book.LIFE_MASTER[book.B[life]])


def c_body_master(x: Sample) -> Iterable[Point]:
    yb = x.year_branch
    return _one(yb, x.chart.body_master.names.hans == book.BODY_MASTER[book.B[yb]])


def c_jin_suo(x: Sample) -> Iterable[Point]:
    expected = book.jin_suo_tie_she(x.year_branch, x.month, x.day, x.hour)
    return _one(
        (x.year_branch, x.month, x.day, x.hour), x.stars.get("jin_suo_tie_she") == {expected}
    )


def on_leap(check: Check, by_hour: bool = False) -> Check:
    """``check`` for leap-month births, by (leap month, day[, hour]): the book counts a leap
    month, all of it, as the next month (F L4 「凡有闰月具要依此为例」), which
    ``Sample.month`` already is; the engine's default splits it at day 16."""

    def leap_check(x: Sample) -> Iterator[Point]:
        point = (x.lunar_month, x.day, x.hour) if by_hour else (x.lunar_month, x.day)
        for _, ok, clear in check(x):
            yield point, ok, clear

    return leap_check


def c_brightness(x: Sample) -> Iterable[Point]:
    table = book.brightness()
    for palace in x.chart.palaces:
        br = int(palace.branch)
        for placed in palace.stars:
            name = placed.star.names.hans
            if name not in book.BRIGHT_CHARS.values():
                continue
            engine = placed.brightness.names.hans if placed.brightness is not None else None
            ours = table.get((name, br))
            if engine is None and ours is None:
                continue
            yield (name, br), engine == ours, True


LEAP_SPACE = "leap month × day (1900–2100)"
LEAP_HOUR_SPACE = "leap month × day × hour (1900–2100)"
LEAP_NOTE = (
    "「凡有闰月具要依此为例」 (F L4): the whole leap month counts as the next month; the "
    "engine's default counts days 1–15 as the month repeated"
)

RULES: tuple[Rule, ...] = (
    Rule("life_body", "安身命例", "3–4", "month × hour", 144, "base", c_life_body),
    Rule(
        "leap_month",
        "安身命例: 闰月",
        "4",
        "leap month × day × hour (1900–2100)",
        0,
        "leap",
        c_leap,
        "「闰月正月生者要在二月内起安身命」: the whole leap month counts as the next month",
    ),
    Rule("palaces", "安十二宫例", "6–7", "Life branch", 12, "base", c_palaces),
    Rule("palace_stems", "起五行寅例", "8–9", "year stem", 10, "base", c_stems),
    Rule("nayin", "六十花甲子纳音歌", "10–16", "Life palace pillar", 60, "base", c_nayin),
    Rule(
        "zi_wei",
        "紫微 day tables",
        "165–307",
        "class × day",
        150,
        "days",
        c_zi_wei,
        "two cells are corrupt: 木三局 lists 初九 under 寅 (and 辰) and no 初五; "
        "金四局 has no 三十; the engine follows the verse 「局数除日数 …」",
    ),
    Rule("tian_fu", "安天府图", "317–319", "紫微 branch", 12, "days", c_tian_fu),
    Rule("majors", "安南北斗诸星诀", "17–19", "紫微 branch", 12, "days", c_majors),
    Rule("chang_qu", "安文昌文曲星诀", "20–23", "hour", 12, "base", c_chang_qu),
    Rule("fu_bi", "安左辅右弼星诀", "24–26", "month", 12, "base", c_fu_bi),
    Rule(
        "fu_bi_leap",
        "安左辅右弼星诀: 闰月",
        "4, 24–26",
        LEAP_SPACE,
        0,
        "leap",
        on_leap(c_fu_bi),
        LEAP_NOTE,
    ),
    Rule(
        "kui_yue",
        "安天魁天钺诀",
        "27–28",
        "year stem",
        10,
        "base",
        c_kui_yue,
        "compared in order, 天魁 on the first animal: 「六辛逢虎马」 gives 辛 魁 寅 钺 午, the "
        "engine 魁 午 钺 寅 (神峰通考 卷四 L313's 「庚辛逢马虎」 order; the 全书 school follows "
        "the book); 「丙丁猪狗位」 is corrupt (戌 is no 贵人 palace; 神峰通考: 「丙丁猪鸡位」): "
        "both schools have 亥 酉",
    ),
    Rule("tian_ma", "安天马星诀", "30–31", "year branch", 12, "base", c_tian_ma),
    Rule("lu_cun", "安禄存星诀", "33–34", "year stem", 10, "base", c_lu_cun),
    Rule("yang_tuo", "安擎羊陀罗二星诀", "35–37", "year stem", 10, "base", c_yang_tuo),
    Rule(
        "huo_ling",
        "安火铃二星诀",
        "38–39",
        "year branch × hour",
        144,
        "base",
        c_huo_ling,
        "the verse gives the 子-hour palaces only; read forward by the hour, as the engine does",
    ),
    Rule(
        "sihua",
        "安禄权科忌四星变化诀",
        "40–44",
        "year stem",
        10,
        "base",
        c_sihua,
        "「壬梁紫府武」: 府 (天府) in the text, 左辅 in the engine (府 for 辅?)",
    ),
    Rule("kong_jie", "天空地劫诀", "45–47", "hour", 12, "base", c_kong_jie),
    Rule(
        "shang_shi",
        "安天伤天使诀",
        "48–50",
        "Life branch × gender × year polarity",
        48,
        "base",
        c_shang_shi,
    ),
    Rule("bo_shi", "安十二宫太岁杀禄诀", "51–55", "year stem × gender", 20, "base", c_bo_shi),
    Rule("xing_yao", "安天刑天姚星诀", "56–57", "month", 12, "base", c_xing_yao),
    Rule(
        "xing_yao_leap",
        "安天刑天姚星诀: 闰月",
        "4, 56–57",
        LEAP_SPACE,
        0,
        "leap",
        on_leap(c_xing_yao),
        LEAP_NOTE,
    ),
    Rule("tai_zuo", "安三台八座二星诀", "58–59", "month × day", 360, "days", c_tai_zuo),
    Rule(
        "tai_zuo_leap",
        "安三台八座二星诀: 闰月",
        "4, 58–59",
        LEAP_SPACE,
        0,
        "leap",
        on_leap(c_tai_zuo),
        LEAP_NOTE,
    ),
    Rule("ku_xu", "安天哭天虚星诀", "60–61", "year branch", 12, "base", c_ku_xu),
    Rule("long_feng", "安龙池凤阁诀", "62–63", "year branch", 12, "base", c_long_feng),
    Rule("tai_fu", "安台辅封诀", "64–65", "hour", 12, "base", c_tai_fu),
    Rule("feng_gao", "安封诰诀", "66–67", "hour", 12, "base", c_feng_gao),
    Rule(
        "chang_sheng",
        "安长生…",
        "68–69",
        "class × gender × year polarity",
        20,
        "base",
        c_chang_sheng,
        "「男命顺数、女命逆数」: by gender alone; the engine goes by 阳男阴女",
    ),
    Rule("luan_xi", "安红鸾天喜诀", "70–71", "year branch", 12, "base", c_luan_xi),
    Rule(
        "four_flying",
        "安丧门白虎吊客官府四飞星诀",
        "73–75",
        "year branch",
        12,
        "base",
        c_four_flying,
    ),
    Rule(
        "dou_jun",
        "安斗君诀",
        "76–78",
        "flowing year branch × month × hour",
        1728,
        "flow",
        c_dou_jun,
        "the engine's 流月 正月 palace (and, under the 全书 school, the natal star 斗君)",
    ),
    Rule(
        "dou_jun_leap",
        "安斗君诀: 闰月",
        "4, 76–78",
        "leap month × day (子 hour; twelve flowing years)",
        0,
        "leap0",
        c_dou_jun_leap,
        "the engine's 流月 正月 palace; " + LEAP_NOTE,
    ),
    Rule(
        "dou_jun_star",
        "安斗君诀: the birth year's 斗君 as a star",
        "76–78",
        "year branch × month × hour",
        1728,
        "base",
        c_dou_jun_star,
        "not placed by iztro",
        placed=False,
    ),
    Rule(
        "dou_jun_star_leap",
        "安斗君诀: the birth year's 斗君, 闰月",
        "4, 76–78",
        LEAP_HOUR_SPACE,
        0,
        "leap",
        on_leap(c_dou_jun_star, by_hour=True),
        "not placed by iztro; " + LEAP_NOTE,
        placed=False,
    ),
    Rule(
        "tian_de",
        "安天德月德解神诀: 天德",
        "79–80",
        "year branch",
        12,
        "base",
        c_tian_de,
        "the verse counts to 「流年太岁」, the flowing year; both schools place 天德 once, "
        "from the birth year, and it is compared so",
    ),
    Rule(
        "yue_de",
        "安天德月德解神诀: 月德",
        "80",
        "year branch",
        12,
        "base",
        c_yue_de,
        "「月德星从子上起子」: the engine counts from 巳; the verse counts to 「流年太岁」, the "
        "flowing year, both schools from the birth year",
    ),
    Rule(
        "jie_shen",
        "安天德月德解神诀: 解神 = engine 年解",
        "81",
        "year branch",
        12,
        "base",
        c_jie_shen_year,
    ),
    Rule(
        "jie_shen_name",
        "安天德月德解神诀: the star shown as 解神",
        "81",
        "year branch × month",
        144,
        "base",
        c_jie_shen_name,
        "the engine shows as 解神 a month rule (月解, from a modern rhyme list) the book lacks; "
        "the 全书 school shows the book's 解神 (the engine's 年解) under that name instead",
    ),
    Rule(
        "fei_tian",
        "安飞天三杀诀",
        "82–85",
        "year branch",
        12,
        "base",
        c_fei_tian,
        "not placed by iztro; the verse does not say which of the three goes where",
        placed=False,
    ),
    Rule(
        "jie_lu",
        "安截路空亡诀",
        "86–87",
        "year stem",
        10,
        "base",
        c_jie_lu,
        "one item on two palaces, counted so; the engine names the palaces apart, 截路 the "
        "first and 空亡 the second, the 全书 school 截路空亡 both",
    ),
    Rule(
        "xun_kong",
        "安旬中空亡诀",
        "88–90",
        "year pillar",
        60,
        "base",
        c_xun_kong,
        "both void palaces in the book; the engine marks one",
    ),
    Rule(
        "decade_direction",
        "安大限诀: direction",
        "91–92",
        "gender × year polarity",
        4,
        "base",
        c_decade_direction,
    ),
    Rule(
        "decade_start",
        "安大限诀: first palace, reading A",
        "92",
        "Life branch × gender × year polarity",
        48,
        "base",
        c_decade_start,
        "reading A, taken: the first decade on the Life palace, the next one 「命前一宫」 (the "
        "父母宫) going 顺, 「命后一宫」 (the 兄弟宫) going 逆; the 道藏 紫微斗数 起大限例 says "
        "「陽男隂女從命宫順數十年行一宫」, and the 局 number (水二局 …) is the age the Life "
        "palace's decade starts",
    ),
    Rule(
        "decade_start_literal",
        "安大限诀: first palace, reading B",
        "92",
        "Life branch × gender × year polarity",
        48,
        "base",
        c_decade_start_literal,
        "reading B, the words taken literally: the first decade itself on the 父母宫 (顺) or "
        "the 兄弟宫 (逆); not taken, see reading A",
    ),
    Rule("small_limit", "安小限诀", "93–94", "year branch × gender", 24, "base", c_small_limit),
    Rule(
        "child_limit",
        "安童限诀",
        "95–96",
        "class × age before the first decade",
        15,
        "child",
        c_child,
        "「一命二财三疾厄，四妻五福六官禄」 compared for the ages before the first decade; "
        "the rest (「余年一派顺流行，十五命宫看端的」) the verse leaves open",
    ),
    Rule("life_master", "安命主", "97–99", "Life branch", 12, "base", c_life_master),
    Rule("body_master", "安身主", "100–101", "year branch", 12, "base", c_body_master),
    Rule(
        "jin_suo",
        "论安命金锁铁蛇关",
        "102–104",
        "year branch × month × day × hour (as the charts reach them)",
        0,
        "base+days",
        c_jin_suo,
        "not placed by iztro",
        placed=False,
    ),
    Rule(
        "jin_suo_leap",
        "论安命金锁铁蛇关: 闰月",
        "4, 102–104",
        LEAP_HOUR_SPACE,
        0,
        "leap",
        on_leap(c_jin_suo, by_hour=True),
        "not placed by iztro; " + LEAP_NOTE,
        placed=False,
    ),
    Rule(
        "brightness",
        "庙旺得地利益平和不得地落陷 table",
        "383–433",
        "star × branch (cells either side grades)",
        0,
        "base+days",
        c_brightness,
        "禄存 graded in the book, not in the engine; some cells differ",
    ),
)


def _samples(school: str, rule: Rule) -> tuple[Sample, ...]:
    if rule.grid == "flow":  # 12 months × 12 hours, one year; 12 flowing years each
        return tuple(x for x in grid(school, "base") if x.pillar == 0 and x.male)
    if rule.grid == "leap0":  # every leap month × day, 子 hour
        return tuple(x for x in grid(school, "leap") if x.hour == 0)
    if rule.grid == "child":  # every class, both directions
        return tuple(
            x for x in grid(school, "base") if x.pillar < 10 and x.hour == 0 and x.month <= 12
        )
    return tuple(x for name in rule.grid.split("+") for x in grid(school, name))


def run(school: str, rules: Iterable[Rule] = RULES) -> list[Tally]:
    tallies = []
    for rule in rules:
        t = Tally(rule)
        for x in _samples(school, rule):
            for point, ok, clear in rule.check(x):
                if ok:
                    t.agree.add(point)
                else:
                    t.disagree.add(point)
                    if not clear:
                        t.unclear.add(point)
                    elif not t.example:
                        t.example = _describe(x)
        tallies.append(t)
    return tallies


def _describe(x: Sample) -> str:
    c = x.chart
    return (
        f"{c.solar_date} (lunar {'leap ' if x.is_leap else ''}{x.lunar_month}-{x.day}, "
        f"{book.B[x.hour]} hour, {'male' if x.male else 'female'})"
    )


def table(tallies: list[Tally]) -> str:
    rows = [
        "| rule | verse (F line) | space | points | agree | disagree | of which unclear | note |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for t in tallies:
        r = t.rule
        dis = len(t.disagree)
        rows.append(
            f"| {r.title} | {r.lines} | {r.space} | {t.points} | {t.agreeing} | {dis} | "
            f"{len(t.unclear)} | {r.note}{' (e.g. ' + t.example + ')' if t.example else ''} |"
        )
    return "\n".join(rows)


def summary(tallies: list[Tally]) -> str:
    n = len(tallies)
    full = sum(1 for t in tallies if not t.disagree)
    clear_off = [t.rule.key for t in tallies if t.disagree - t.unclear]
    unclear = [t.rule.key for t in tallies if t.unclear and not (t.disagree - t.unclear)]
    return (
        f"{n} rules; {full} agree on every point; {len(clear_off)} depart where the verse is "
        f"clear ({', '.join(clear_off) or 'none'}); {len(unclear)} differ only where the text "
        f"is unclear or corrupt ({', '.join(unclear) or 'none'})"
    )


HEADER = """# The book beside the engine: 紫微斗数全书 卷二 against the engine

Generated by `tools/book_conformance.py --write`; `tests/book/test_book_conformance.py`
runs the same comparison and fails if this page is out of date.  Do not edit by hand.

F = `../shared/sources/ziwei-quanshu.juan2.newdu-full.txt` (the complete 卷二).  Each rule
is written from its verse as its own small function (`tools/book_rules.py`, which never
imports the engine) and compared with real charts over the whole space the rule depends
on: 60 lunar years 1984–2043 × 12 months × 12 hours × both genders (17,280 charts), every
day of 12 months of 10 years (the 紫微 tables, 三台 八座, 金锁铁蛇关), every day and hour of
every leap month 1900–2100 (the Life palace and every other rule that reads the month, each
in a row of its own marked 闰月), twelve flowing years for 斗君.  *points* counts the
distinct points of the rule's space the charts reach, each point the inputs as the verse
states them (金锁铁蛇关: year branch, month, day and hour, not their sum mod 12); a point
disagrees if any chart there disagrees.  *of which unclear* counts disagreements where the
verse is ambiguous or the text corrupt (the note says which reading the engine follows); the
全书 school is held to agreement on every other point.  The same run is saved as a record,
`src/mingshu/library/articles/_conformance.json`, from which the library article ZW-BK-01,
*The book beside the engine* (`mingshu library show ZW-BK-01`), prints its tables.

The 全书 school in one chart: the issue's example, a birth on the first day of a leap eighth
month, whose Life palace the book puts in the ninth month's place.

```python
>>> from mingshu import ziwei
>>> book = ziwei.ZiweiSettings(school="quanshu")
>>> [str(ziwei.by_lunar("1900-08-01", 0, "male", leap=True, settings=s).life_branch)
...  for s in (ziwei.ZiweiSettings(), book)]
['酉', '戌']

```
"""


def document(results: dict[str, list[Tally]]) -> str:
    parts = [HEADER]
    for school, tallies in results.items():
        label = {
            "iztro": 'Default school (`school="iztro"`, iztro 2.6.0 parity)',
            "quanshu": 'The 全书 school (`ZiweiSettings(school="quanshu")`, `--school quanshu`)',
        }[school]
        parts.append(f"## {label}\n\n{summary(tallies)}.\n\n{table(tallies)}\n")
    return "\n".join(parts)


def record(results: dict[str, list[Tally]]) -> str:
    """The run as JSON, per school and rule: what ZW-BK-01's tables read (counts only; the
    page above carries the notes and examples)."""
    data = {
        "about": "written by tools/book_conformance.py --write; do not edit by hand",
        "book": "紫微斗数全书 卷二",
        "file": "ziwei-quanshu.juan2.newdu-full.txt",
        "schools": {
            school: [
                {
                    "key": t.rule.key,
                    "title": t.rule.title,
                    "lines": t.rule.lines,
                    "space": t.rule.space,
                    "points": t.points,
                    "agree": t.agreeing,
                    "disagree": len(t.disagree),
                    "unclear": len(t.unclear),
                }
                for t in tallies
            ]
            for school, tallies in results.items()
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write",
        action="store_true",
        help="regenerate docs/book-conformance.md and the library's record of the run",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = {s: run(s) for s in SCHOOLS if school_available(s)}
    text = document(results)
    elapsed = time.perf_counter() - start
    if args.write:
        with replacing(DOC, "doc") as out:
            out.write(text)
        with replacing(RECORD, "record") as out:
            out.write(record(results))
    print(text)
    print(f"\nrun took {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
