"""The nayin kinds and checks of the library: the thirty rows are lunar-python's table
(LunarUtil.NAYIN, an outside authority), the group table follows from it, and each claim
check finds counterexamples when given a wrong rule."""

from __future__ import annotations

import pytest
from lunar_python.util import LunarUtil

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
SIXTY = [STEMS[n % 10] + BRANCHES[n % 12] for n in range(60)]
PHASE = {"金": "Metal", "木": "Wood", "水": "Water", "火": "Fire", "土": "Earth"}


def lunar_phase(pillar: str) -> str:
    return PHASE[LunarUtil.NAYIN[pillar][-1]]


def test_the_thirty_are_lunar_pythons_table() -> None:
    rows = table("nayin_thirty", {"mark": "wood"})
    assert len(rows.rows) == 30
    for i, row in enumerate(rows.rows):
        first, second = SIXTY[2 * i], SIXTY[2 * i + 1]
        assert row[1] == f"{first} {second}"
        assert row[3] == lunar_phase(first) == lunar_phase(second)
    assert {rows.rows[r][3] for r, _c in rows.marked} == {"Wood"}
    assert len(rows.marked) == 6
    with pytest.raises(InputError):
        table("nayin_thirty", {"mark": "iron"})


def test_the_group_table_has_lunar_pythons_phase_for_every_pillar() -> None:
    grid = table("nayin_groups", {})
    groups = ("子丑午未", "寅卯申酉", "辰巳戌亥")
    for r, row in enumerate(grid.rows):
        for c, group in enumerate(groups, start=1):
            found = {lunar_phase(p) for p in SIXTY if STEMS.index(p[0]) // 2 == r and p[1] in group}
            assert row[c] == " / ".join(sorted(found)) and len(found) == 1


def test_problems_agree_with_lunar_python() -> None:
    assert problem_answer({"ask": "nayin", "pillar": "壬寅"}).endswith(", Metal")
    assert LunarUtil.NAYIN["壬寅"] == "金箔金"
    assert problem_answer({"ask": "nayin_pillars", "element": "metal", "stem": "甲"}) == (
        "甲子 or 甲午"
    )
    fire = problem_answer({"ask": "nayin_pillars", "element": "火"}).split(" or ")
    assert fire == [p for p in SIXTY if lunar_phase(p) == "Fire"] and len(fire) == 12
    with pytest.raises(InputError):
        problem_answer({"ask": "nayin", "pillar": "甲丑"})


BOOK = "金金火火木木土土金金火火水水土土金金木木水水土土火火木木水水" * 2  # juan 1, 甲子 …
COUNT = {"子午": "庚", "丑未": "辛", "寅申": "戊", "卯酉": "己", "辰戌": "丙", "巳亥": "丁"}
COUNTED = {"7": "金", "3": "火", "9": "木", "1": "土", "5": "水"}
NUMBERS = {"甲己子午": 9, "乙庚丑未": 8, "丙辛寅申": 7, "丁壬卯酉": 6, "戊癸辰戌": 5, "巳亥": 4}
DIGITS = {"1": "水", "6": "水", "2": "火", "7": "火", "3": "木", "8": "木"}
DIGITS |= {"4": "金", "9": "金", "5": "土", "0": "土"}
SUMS = {"甲乙": 1, "丙丁": 2, "戊己": 3, "庚辛": 4, "壬癸": 5}
SUMS |= {"子丑午未": 1, "寅卯申酉": 2, "辰巳戌亥": 3}
SUMMED = {"1": "木", "2": "金", "3": "水", "4": "火", "5": "土"}


def test_the_checks_pass_the_true_rule_and_fail_a_wrong_one() -> None:
    # Sanming Tonghui juan 1's headings (甲子金 … 癸亥水) agree with lunar-python
    phases = "".join({v: k for k, v in PHASE.items()}[lunar_phase(p)] for p in SIXTY)
    assert phases == BOOK
    assert run_check("nayin_book_phases", {"phases": BOOK}) == (0, 60)
    assert run_check("nayin_book_phases", {"phases": "木" + BOOK[1:]}) == (1, 60)
    assert run_check("nayin_by_stem_count", {"targets": COUNT, "phases": COUNTED}) == (0, 60)
    swapped = {**COUNTED, "7": "火", "3": "金"}
    assert run_check("nayin_by_stem_count", {"targets": COUNT, "phases": swapped}) == (24, 60)
    args = {"numbers": NUMBERS, "total": 49, "phases": DIGITS}
    assert run_check("nayin_by_numbers", args) == (0, 30)
    assert run_check("nayin_by_numbers", {**args, "total": 50})[0] > 0
    assert run_check("nayin_by_sum", {"numbers": SUMS, "phases": SUMMED}) == (0, 60)
    wrong = {**SUMMED, "1": "金", "2": "木"}
    assert run_check("nayin_by_sum", {"numbers": SUMS, "phases": wrong}) == (24, 60)
    assert run_check("nayin_opposite_branch_same_phase", {}) == (0, 30)
    assert run_check("ziwei_class_is_nayin", {}) == (0, 60)
    with pytest.raises(InputError):
        run_check("nayin_book_phases", {"phases": BOOK[:59]})
    with pytest.raises(InputError):
        run_check("nayin_by_sum", {"numbers": {"甲乙": 1}, "phases": SUMMED})
