"""The table and problem kinds of the minor stars' articles (ZW-AUX-01 … 04, 07), against
the Quan Shu juan 2 placement verses worked out by hand here (not by the engine)."""

from __future__ import annotations

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import problems as P
from mingshu.library import tables as T

B = {c: i for i, c in enumerate("子丑寅卯辰巳午未申酉戌亥")}
STEMS = "甲乙丙丁戊己庚辛壬癸"

# 安禄存星诀: 甲寅 乙卯 丙戊巳 丁己午 庚申 辛酉 壬亥 癸子 (juan 2, newdu L34)
LU_CUN = [B[c] for c in "寅卯巳午巳午申酉亥子"]
# 安天魁天钺诀 (L28), 天魁 first in each phrase: 甲戊庚牛羊 乙己鼠猴 六辛虎马 壬癸兔蛇; 丙丁
# as 猪鸡 (the verse's 猪狗 names 戌, which no nobleman table uses).
KUI_BOOK = [B[c] for c in "丑子亥亥丑子丑寅卯卯"]
YUE_BOOK = [B[c] for c in "未申酉酉未申未午巳巳"]
# 安火铃二星诀 (L39): 寅午戌 丑卯, 申子辰 寅戌, 巳酉丑 卯戌, 亥卯未 酉戌 (火 first, 铃 second)
HUO_START = {0: "寅", 1: "卯", 2: "丑", 3: "酉"}  # by year branch % 4: 申子辰 0, 巳酉丑 1 …
LING_START = {0: "戌", 1: "戌", 2: "卯", 3: "戌"}


def _row(stem: int) -> str:
    from mingshu.cycles import Stem

    return f"{STEMS[stem]} {Stem(stem).names.english}"


def test_year_stem_stars_lu_cun_and_its_flankers_follow_the_verse() -> None:
    t = T.table("year_stem_stars", {"stars": ["lu_cun", "qing_yang", "tuo_luo"]})
    assert t.columns == ("Year stem", "Lu Cun", "Qing Yang", "Tuo Luo")
    assert t.marked == frozenset()
    for stem, row in enumerate(t.rows):
        lu = LU_CUN[stem]
        assert row == (_row(stem), ANIMALS[lu], ANIMALS[(lu + 1) % 12], ANIMALS[(lu - 1) % 12])


def test_year_stem_stars_marks_the_row_where_the_schools_part() -> None:
    t = T.table(
        "year_stem_stars", {"stars": ["tian_kui", "tian_yue"], "schools": ["iztro", "quanshu"]}
    )
    assert t.columns[1:] == (
        "Tian Kui (iztro)",
        "Tian Kui (quanshu)",
        "Tian Yue (iztro)",
        "Tian Yue (quanshu)",
    )
    for stem, row in enumerate(t.rows):
        kui, yue = ANIMALS[KUI_BOOK[stem]], ANIMALS[YUE_BOOK[stem]]
        assert row[2] == kui and row[4] == yue  # the 全书 school reads the verse
    # iztro swaps 辛's pair (Horse, Tiger), and only that row is marked
    assert t.rows[7][1] == "Horse" and t.rows[7][3] == "Tiger"
    assert t.marked == {(7, c) for c in (1, 2, 3, 4)}
    with pytest.raises(InputError):
        T.table("year_stem_stars", {"stars": ["tian_kui"], "schools": ["zhongzhou?"]})


def test_year_branch_hour_counts_forward_from_the_verse_start() -> None:
    for star, start in (("huo_xing", HUO_START), ("ling_xing", LING_START)):
        t = T.table("year_branch_hour", {"star": star, "hours": [0, 5, 11]})
        assert t.columns == ("Year", "Rat hour", "Snake hour", "Pig hour")
        for y, row in enumerate(t.rows):
            s = B[start[y % 4]]
            assert row == (f"{ANIMALS[y]} year", *(ANIMALS[(s + h) % 12] for h in (0, 5, 11)))


def test_hour_palace_of_zuo_fu_is_two_past_the_life_palace() -> None:
    # The Life palace: month 1 on Tiger, back by the hour; Zuo Fu: month 1 on Dragon. So Zuo
    # Fu stands 2 + hour branches forward of the Life palace, and the palaces run backward
    # from Life: Life, Siblings, Spouse, Children, Wealth, Health, Travel, Friends, Career,
    # Property, Spirit, Parents.
    order = [
        "Life",
        "Siblings",
        "Spouse",
        "Children",
        "Wealth",
        "Health",
        "Travel",
        "Friends",
        "Career",
        "Property",
        "Spirit",
        "Parents",
    ]
    want = [order[-(2 + h) % 12] for h in range(12)]
    for month in (1, 7):
        t = T.table("hour_palace_halves", {"star": "zuo_fu", "month": month})
        assert [r[1] for r in t.rows] + [r[3] for r in t.rows] == want


def test_minor_problem_kinds_name_every_answer() -> None:
    # You Bi: month 1 on Dog, back one a month: 10 − (m − 1) ≡ 0 (Rat) at month 11
    assert P.solve({"ask": "months_of", "star": "you_bi", "branch": "rat"}).solutions == (
        "month 11",
    )
    assert P.solve({"ask": "months_of", "star": "zuo_fu", "branch": "rat"}).text == "month 9"
    # Zuo Fu in the Life palace: 2 + hour ≡ 0, the Dog hour, whatever the month
    got = P.solve({"ask": "hours_in_palace", "star": "zuo_fu", "palace": "Life", "month": 5})
    assert got.solutions == ("Dog",)
    # Zuo Fu in the Spirit palace: the Rat hour, and the late Rat hour charted as Rat
    got = P.solve({"ask": "hours_in_palace", "star": "zuo_fu", "palace": "Spirit", "month": 2})
    assert got.text == "Rat or the late Rat hour"
    # Ling Xing, a Tiger year (寅午戌: 卯), the Snake hour: Rabbit + 5 = Monkey
    q = {"ask": "year_hour_star", "star": "ling_xing", "year": "tiger", "hour": "snake"}
    assert P.solve(q).text == "Monkey"
    # Huo Xing, a Rat year (申子辰: 寅) on Tiger: the Rat hour, and the late Rat hour
    q = {"ask": "year_hours_of", "star": "huo_xing", "year": "rat", "branch": "tiger"}
    assert P.solve(q).text == "Rat or the late Rat hour"
