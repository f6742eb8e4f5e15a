"""The ten-god kinds and checks of the library: the grid is lunar-python's table
(LunarUtil.SHI_SHEN, an outside authority), the rule table names one god per cell, and each
claim check finds counterexamples when given a wrong rule."""

from __future__ import annotations

import pytest
from lunar_python.util import LunarUtil

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
RULE = {
    "same": ["bi_jian", "jie_cai"],
    "produces": ["shi_shen", "shang_guan"],
    "controls": ["pian_cai", "zheng_cai"],
    "controlled_by": ["qi_sha", "zheng_guan"],
    "produced_by": ["pian_yin", "zheng_yin"],
}


def test_the_grid_is_lunar_pythons_table() -> None:
    grid = table("ten_gods", {})
    assert grid.columns[1:] == tuple(STEMS)
    for day, row in zip(STEMS, grid.rows, strict=True):
        assert row[1:] == tuple(LunarUtil.SHI_SHEN[day + other] for other in STEMS)


def test_the_grid_marks_one_god_once_per_row() -> None:
    grid = table("ten_gods", {"mark": "qi_sha"})
    assert sorted(r for r, _c in grid.marked) == list(range(10))
    assert all(grid.rows[r][c] == "七杀" for r, c in grid.marked)
    with pytest.raises(InputError):
        table("ten_gods", {"mark": "qi_shaa"})


def test_the_rule_table_has_one_god_per_cell() -> None:
    rows = table("ten_god_rule", {}).rows
    assert all("/" not in cell for row in rows for cell in row)
    assert rows[3] == (
        "It controls the Day Master",
        "Seven Killings (七杀)",
        "Direct Officer (正官)",
    )


def test_problems_agree_with_lunar_python() -> None:
    assert problem_answer({"ask": "ten_god", "day_stem": "丙", "stem": "辛"}).endswith(
        f"({LunarUtil.SHI_SHEN['丙辛']})"
    )
    assert problem_answer({"ask": "stem_of_ten_god", "day_stem": "丙", "god": "zheng_guan"}) == (
        "Yin Water"
    )
    assert LunarUtil.SHI_SHEN["丙癸"] == "正官"


def test_the_checks_pass_the_true_rule_and_fail_a_wrong_one() -> None:
    assert run_check("ten_gods_by_phase", {"rule": RULE}) == (0, 100)
    swapped = {**RULE, "controls": ["zheng_cai", "pian_cai"]}
    assert run_check("ten_gods_by_phase", {"rule": swapped}) == (20, 100)
    assert run_check("ten_gods_each_once", {}) == (0, 20)
    mirror = [["bi_jian", "bi_jian"], ["jie_cai", "jie_cai"], ["shi_shen", "pian_yin"]]
    mirror += [["shang_guan", "zheng_yin"], ["pian_cai", "qi_sha"], ["zheng_cai", "zheng_guan"]]
    assert run_check("ten_gods_mirror", {"pairs": mirror}) == (0, 100)
    crossed = [*mirror[:2], ["shi_shen", "zheng_yin"], ["shang_guan", "pian_yin"], *mirror[4:]]
    assert run_check("ten_gods_mirror", {"pairs": crossed}) == (40, 100)
    with pytest.raises(InputError):
        run_check("ten_gods_by_phase", {"rule": {"same": ["bi_jian", "jie_cai"]}})
