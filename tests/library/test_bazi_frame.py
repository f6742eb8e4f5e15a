"""The Life palace and conception kinds and checks of the library: answers agree with
lunar-python's EightChar (getMingGong, getTaiYuan, getTaiXi, an outside authority) on real
births, the book's example (Sanming Tonghui juan 2) comes out, and each claim check finds
counterexamples when given a wrong rule."""

from __future__ import annotations

import pytest
from lunar_python import Solar

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check
from mingshu.library.engine import branch_name
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


def test_the_answers_agree_with_lunar_python_on_a_year_of_births() -> None:
    # the 15th of each month of 2024 at the middle of each two-hour period
    for month in range(1, 13):
        for hour in range(12):
            clock = (hour * 2) % 24
            eight = Solar.fromYmdHms(2024, month, 15, clock, 30, 0).getLunar().getEightChar()
            m, t = eight.getMonthZhi(), eight.getTimeZhi()
            query = {"ask": "ming_gong", "year_stem": eight.getYearGan()}
            query |= {"month": BRANCHES.index(m), "hour": BRANCHES.index(t)}
            palace = eight.getMingGong()
            assert problem_answer(query) == f"{palace} ({branch_name(BRANCHES.index(palace[1]))})"
            tai = problem_answer({"ask": "tai_yuan", "month": eight.getMonth()})
            assert tai == eight.getTaiYuan()
            assert problem_answer({"ask": "tai_xi", "day": eight.getDay()}) == eight.getTaiXi()


def test_the_books_example_and_the_table() -> None:
    # Sanming Tonghui juan 2, 論坐命宫: a 甲子 year, third month, Dog hour → 丁卯
    query = {"ask": "ming_gong", "year_stem": "甲", "month": "dragon", "hour": "dog"}
    assert problem_answer(query) == "丁卯 (Rabbit)"
    grid = table("ming_gong", {"mark": "rabbit"})
    assert len(grid.marked) == 12 and all(grid.rows[r][c] == "卯" for r, c in grid.marked)
    assert problem_answer({"ask": "ming_gong_hours", "month": "tiger", "branch": "ox"}) == "Tiger"
    tai = table("tai_pillars", {"months": ["甲寅"], "days": ["庚辰"]})
    assert tai.rows == (
        ("Month pillar", "甲寅", "胎元", "乙巳"),
        ("Day pillar", "庚辰", "胎息", "乙酉"),
    )
    with pytest.raises(InputError):
        table("tai_pillars", {"months": "甲寅"})
    with pytest.raises(InputError):
        problem_answer({"ask": "tai_xi", "day": "甲丑"})


def test_the_checks_pass_the_true_rule_and_fail_a_wrong_one() -> None:
    walk = {"month_one": "子", "target": "卯", "tiger_stems": "丙戊庚壬甲"}
    assert run_check("ming_gong_walk", walk) == (0, 1440)
    assert run_check("ming_gong_walk", {**walk, "target": "寅"}) == (1440, 1440)
    assert run_check("ming_gong_walk", {**walk, "tiger_stems": "甲戊庚壬丙"}) == (576, 1440)
    assert run_check("ming_gong_never_ziwei_life", {}) == (0, 144)
    assert run_check("tai_yuan_steps", {"stem_step": 1, "branch_step": 3, "months_back": 9}) == (
        0,
        60,
    )
    assert (
        run_check("tai_yuan_steps", {"stem_step": 1, "branch_step": 3, "months_back": 10})[0] == 60
    )
    pairs = {"stems": ["甲己", "乙庚", "丙辛", "丁壬", "戊癸"]}
    pairs |= {"branches": ["子丑", "寅亥", "卯戌", "辰酉", "巳申", "午未"]}
    assert run_check("tai_xi_partners", pairs) == (0, 60)
    crossed = {**pairs, "branches": ["子亥", "寅丑", "卯戌", "辰酉", "巳申", "午未"]}
    assert run_check("tai_xi_partners", crossed) == (20, 60)
    with pytest.raises(InputError):
        run_check("tai_xi_partners", {**pairs, "stems": ["甲己"]})
