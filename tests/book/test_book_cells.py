"""Each Zi Wei citation checked cell by cell: the passage is read from the repository's
excerpts (sources/), the rule is taken out of its words here, and the chart's cells are
compared with it (issue 25, Zi Wei section).

The cells expected come from the passages, never from the engine's tables: a start palace
and a direction parsed from the verse, the pairs of a nobleman verse read in order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingshu import calendar, ziwei
from mingshu.library.sources import Sources
from mingshu.ziwei import STARS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Sources(ROOT / "sources")
F = "ziwei-quanshu.juan2.newdu-full.txt"
SHENFENG = "shenfeng-tongkao.juan4.md"
DAOZANG = "ziwei-doushu.daozang.txt"
B = "子丑寅卯辰巳午未申酉戌亥"
S = "甲乙丙丁戊己庚辛壬癸"
ANIMAL = dict(
    zip("鼠牛虎兔免龙蛇马羊猴鸡狗猪", (0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11), strict=True)
)
BOOK = ziwei.ZiweiSettings(school="quanshu")
BY_KEY = {s.key: s for s in STARS}


def f(n: int) -> str:
    return SOURCES.get(F).line(n).strip()


def step(word: str) -> int:
    return {"顺": 1, "逆": -1}[word]


def chart(date: str, *, leap: bool = False, settings: ziwei.ZiweiSettings | None = None) -> object:
    return ziwei.by_lunar(date, 0, "male", leap=leap, settings=settings or ziwei.ZiweiSettings())


def at(c: object, key: str) -> int:
    return B.index(str(c.palace_of(key).branch))  # type: ignore[attr-defined]


def shown(c: object, name: str) -> set[int]:
    """The branches of the palaces showing a star named ``name`` (简体)."""
    return {
        B.index(str(p.branch))
        for p in c.palaces  # type: ignore[attr-defined]
        for s in p.stars
        if s.star.names.hans == name
    }


# --------------------------------------------------------------------------- 右弼, F L26
def test_you_bi_cites_the_line_that_states_it() -> None:
    # L25's verse ends 「逆至正月」, which states no rule; L26 states it.
    assert "逆至正月便调停" in f(25)
    m = re.search(r"右弼从(.)宫(.)转如正月便成\1宫安之，二月在(.)宫", f(26))
    assert m, f(26)
    start, direction, second = B.index(m[1]), step(m[2]), B.index(m[3])
    assert second == (start + direction) % 12  # the line's own example agrees with its rule
    s = BY_KEY["you_bi"]
    assert s.verse_at == f"{F}:26" and s.verse in f(26)
    for month in range(1, 13):
        c = chart(f"1984-{month:02d}-01")
        assert at(c, "you_bi") == (start + direction * (month - 1)) % 12, month


# ------------------------------------------------------------ the month stars in leap months
def _month_rules() -> dict[str, tuple[int, int]]:
    """(start palace of 正月, direction) of each month star, from F L25–26 and L57."""
    zuo = re.search(r"左辅正月起于(.)，(.)逢生月", f(25))
    you = re.search(r"右弼从(.)宫(.)转", f(26))
    xing = re.search(r"天刑星从(.)上起正月(.)至本生月", f(57))
    yao = re.search(r"天姚星从(.)上起正月(.)至本生月", f(57))
    assert zuo and you and xing and yao
    return {k: (B.index(m[1]), step(m[2])) for k, m in
            (("zuo_fu", zuo), ("you_bi", you), ("tian_xing", xing), ("tian_yao", yao))}  # fmt: skip


def _book_cells(month: int, day: int) -> dict[str, int]:
    rules = _month_rules()
    cells = {k: (start + d * (month - 1)) % 12 for k, (start, d) in rules.items()}
    # F L59: 三台 from 左辅 with 初一, 顺数 to the day; 八座 from 右弼, 逆数.
    tai = re.search(r"三台寻左辅将初一日加在左辅宫，(.)数至本生日", f(59))
    zuo = re.search(r"八座寻右弼将初一加右弼宫(.)数至本生日", f(59))
    assert tai and zuo
    cells["san_tai"] = (cells["zuo_fu"] + step(tai[1]) * (day - 1)) % 12
    cells["ba_zuo"] = (cells["you_bi"] + step(zuo[1]) * (day - 1)) % 12
    return cells


def _leap_as() -> int:
    """F L4: how many months on a leap month is worked (正月 → 二月: one)."""
    m = re.search(r"闰月(.)月生者要在(.)月内起安身命，凡有闰月具要依此为例", f(4))
    assert m
    months = "正二三四五六七八九十"
    return months.index(m[2]) - months.index(m[1])


def test_month_stars_in_a_leap_month_follow_the_book_only_in_the_quanshu_school() -> None:
    # The example: lunar 1984 leap 10th month, day 1.  The book works it as month 11.
    book = _book_cells(10 + _leap_as(), 1)
    assert [B[book[k]] for k in ("zuo_fu", "tian_xing", "san_tai")] == ["寅", "未", "寅"]
    school = chart("1984-10-01", leap=True, settings=BOOK)
    default = chart("1984-10-01", leap=True)
    for key, branch in book.items():
        assert at(school, key) == branch, key
        assert at(default, key) != branch, key  # days 1–15: the month repeated
    assert [B[at(default, k)] for k in ("zuo_fu", "tian_xing", "san_tai")] == ["丑", "午", "丑"]
    # From day 16 the default counts the next month too, and the two agree.
    late = _book_cells(10 + _leap_as(), 16)
    for c in (chart("1984-10-16", leap=True), chart("1984-10-16", leap=True, settings=BOOK)):
        assert {k: at(c, k) for k in late} == late


@pytest.mark.parametrize("key", ["zuo_fu", "you_bi", "tian_xing", "tian_yao", "san_tai", "ba_zuo"])
def test_the_month_stars_say_how_they_read_a_leap_month(key: str) -> None:
    source = BY_KEY[key].source
    assert "凡有闰月具要依此为例" in f(4) and "「凡有闰月具要依此为例」" in source, key
    assert "days 1–15" in source and "全书 school follows the book" in source, key


# ------------------------------------------------------------------------ 天魁 天钺, F L28
def _pairs(text: str) -> dict[int, tuple[int, int]]:
    """Stem → (first animal, second animal) of a nobleman verse, in the verse's order."""
    out = {}
    for stems, animals in re.findall(
        r"([甲乙丙丁戊己庚辛壬癸六]+)[兼逢]?([^\s，乡位藏方]{2})", text
    ):
        for st in stems.replace("六", ""):
            out[S.index(st)] = (ANIMAL[animals[0]], ANIMAL[animals[1]])
    return out


def _shenfeng_verse() -> str:
    line = SOURCES.get(SHENFENG).line(313)
    m = re.search(r"吉神类天乙贵人 (.*) 此是贵人方", line)
    assert m, line
    return m[1]


def test_kui_yue_read_in_order_from_both_verses() -> None:
    quan = _pairs(f(28).split("此是贵人方")[0])
    shen = _pairs(_shenfeng_verse())
    assert len(quan) == len(shen) == 10
    辛, 庚, 丙, 丁 = S.index("辛"), S.index("庚"), S.index("丙"), S.index("丁")
    assert quan[辛] == (B.index("寅"), B.index("午")) and shen[辛] == (B.index("午"), B.index("寅"))
    years = {stem: 1984 + stem for stem in range(10)}  # 1984 甲子 … 1993 癸酉
    for stem, year in years.items():
        default, school = chart(f"{year}-03-01"), chart(f"{year}-03-01", settings=BOOK)
        engine = (at(default, "tian_kui"), at(default, "tian_yue"))
        book = (at(school, "tian_kui"), at(school, "tian_yue"))
        if stem in (丙, 丁):  # F's 猪狗: 狗 is corrupt; both keep 神峰通考's 猪鸡
            assert quan[stem][0] == engine[0] == book[0] and engine == book == shen[stem]
        elif stem == 辛:  # the order: F 虎马 (the 全书 school), 神峰通考 马虎 (the engine)
            assert book == quan[stem] and engine == shen[stem]
        else:  # F's cells; 神峰通考's 庚 (马虎) is not followed
            assert engine == book == quan[stem], S[stem]
    assert shen[庚] != quan[庚]


def test_the_kui_citation_quotes_the_whole_verse_and_says_which_cells() -> None:
    verse = _shenfeng_verse()
    for key in ("tian_kui", "tian_yue"):
        source = BY_KEY[key].source
        assert f"「{verse.replace(' ', ' ')}」" in source, key  # the whole verse, not one cell
        assert "for 辛" in source and "丙丁" in source and "庚 (马虎)" in source, key
        assert f"「{f(28).split('，此是贵人方')[0]}」" in source, key


# ----------------------------------------------------------------------------- 解神, F L81
def test_the_quanshu_chart_shows_the_books_jie_shen_only() -> None:
    m = re.search(r"解神从(.)上起子，(.)数至当生年太岁上", f(81))
    assert m
    start, direction = B.index(m[1]), step(m[2])
    for year in range(1984, 1996):
        branch = (year - 1984) % 12  # 1984 is a 子 year
        expected = (start + direction * branch) % 12
        for month in (1, 5, 9):
            school = chart(f"{year}-{month:02d}-01", settings=BOOK)
            assert shown(school, "解神") == {expected}, (year, month)
            assert shown(school, "年解") == set()
            default = chart(f"{year}-{month:02d}-01")
            assert shown(default, "年解") == {expected}  # the book's 解神 under iztro's name
    # The default's 解神 is the month rule: in some month it is not the book's palace.
    assert shown(chart("1984-01-01"), "解神") != {start}


# ----------------------------------------------------------------------- 天德 月德, F L80
def test_tian_de_counts_to_the_flowing_year_and_the_data_says_so() -> None:
    m = re.search(r"天德星从(.)上起子，(.)数至流年太岁上是也", f(80))
    assert m and "月德星从子上起子，顺数至流年太岁上是也" in f(80)
    start, direction = B.index(m[1]), step(m[2])
    for key in ("tian_de", "yue_de"):
        source = BY_KEY[key].source
        assert "「顺数至流年太岁上」" in source and "from the birth year" in source, key
    # The engine places 天德 once, by the birth year (a natal star), in both schools.
    for settings in (None, BOOK):
        c = chart("1990-03-01", settings=settings)  # 庚午
        assert at(c, "tian_de") == (start + direction * B.index("午")) % 12


# ----------------------------------------------------------------------- 截路空亡, F L87
def test_jie_lu_kong_wang_stands_on_the_books_two_palaces_in_both_schools() -> None:
    pairs = {}
    for a, c, x, y in re.findall(r"(.)(.)(.)(.)宫", f(87)):
        for st in (a, c):
            pairs[S.index(st)] = {B.index(x), B.index(y)}
    assert len(pairs) == 10
    for stem in range(10):
        date = f"{1984 + stem}-03-01"
        default, school = chart(date), chart(date, settings=BOOK)
        assert shown(default, "截路") | shown(default, "空亡") == pairs[stem], S[stem]
        assert shown(school, "截路空亡") == pairs[stem], S[stem]


# ------------------------------------------------------------------------------ 大限, F L92
def test_the_first_decade_reading_a_from_the_daozang() -> None:
    """F L92 read literally puts the first decade before the Life palace (reading B); the
    道藏 紫微斗数 起大限例 counts from the Life palace itself (reading A, the engine's)."""
    assert "阳男阴女从命前一宫起顺行 是父母宫" in f(92)
    daozang = SOURCES.get(DAOZANG)
    assert "起大限例" in daozang.line(288)
    m = re.search(r"陽男隂女從(..)順數十年行一宫", daozang.line(289))
    assert m and m[1] == "命宫"
    for date, gender in (("1984-03-01", "male"), ("1985-03-01", "female")):  # 阳男, 阴女
        c = ziwei.by_lunar(date, 0, gender)
        klass = int(c.five_elements_class)
        first = next(p for p in c.palaces if p.decadal.start == klass)
        assert first.branch == c.life_branch


# ------------------------------------------------------------------ 斗君 in a leap month, F L77
def test_dou_jun_of_a_leap_birth_counts_the_next_month_under_the_book() -> None:
    m = re.search(r"于流年太岁宫起正月(.)至本生月，又从本生月起子(.)数至本生时安斗君", f(77))
    assert m
    back, forward = step(m[1]), step(m[2])
    born = 10 + _leap_as()  # lunar 1984, leap 10th month, day 1: the book's 11th month
    for settings, month in ((BOOK, born), (None, 10)):  # the default: the month repeated
        c = chart("1984-10-01", leap=True, settings=settings)
        for year in range(1985, 1997):
            h = c.horoscope(calendar.lunar_to_solar(year, 1, 1))  # type: ignore[attr-defined]
            flow = B.index(str(h.yearly.branch))
            hour = 0  # 子
            expected = (flow + back * (month - 1) + forward * hour) % 12
            assert B.index(str(h.monthly.branch)) == expected, (settings, year)
