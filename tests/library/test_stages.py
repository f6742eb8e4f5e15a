"""The growth-stage kinds and checks of the library: the default grid is lunar-python's
(EightChar's own offsets and stage names, an outside authority), the other conventions are
the counts docs/bazi-rules.md §2.5 states, and each claim check finds counterexamples when
given a wrong rule."""

from __future__ import annotations

import pytest
from lunar_python import EightChar

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
OFFSET = EightChar._EightChar__CHANG_SHENG_OFFSET  # lunar-python's own table
BIRTHS = "亥午寅酉寅酉巳子申卯"
PAIRS = [
    ["chang_sheng", "si"],
    ["mu_yu", "bing"],
    ["guan_dai", "shuai"],
    ["lin_guan", "di_wang"],
    ["mu", "yang"],
    ["jue", "tai"],
]
BOTH_WAYS = PAIRS + [[b, a] for a, b in PAIRS]


def lunar_stage(stem: int, branch: int) -> str:
    """lunar-python's EightChar.__getDiShi, restated from its offsets."""
    sign = 1 if stem % 2 == 0 else -1
    return str(EightChar.CHANG_SHENG[(OFFSET[STEMS[stem]] + sign * branch) % 12])


def test_the_default_grid_is_lunar_pythons() -> None:
    grid = table("stage_grid", {})
    assert len(grid.rows) == 10 and len(grid.columns) == 13
    for stem, row in enumerate(grid.rows):
        assert row[1:] == tuple(lunar_stage(stem, b) for b in range(12))


def test_the_grid_marks_a_stage_once_per_row_and_refuses_unknown_keys() -> None:
    grid = table("stage_grid", {"mark": "di_wang", "yin": "forward"})
    assert sorted(r for r, _c in grid.marked) == list(range(10))
    assert all(grid.rows[r][c] == "帝旺" for r, c in grid.marked)
    # yin forward: 乙 shares 甲's row (docs/bazi-rules.md §2.5, 阴阳同生同死)
    assert grid.rows[1][1:] == grid.rows[0][1:]
    with pytest.raises(InputError):
        table("stage_grid", {"mark": "di_wangg"})
    with pytest.raises(InputError, match="stage_earth"):
        table("stage_grid", {"earth": "wood_earth"})


def test_the_births_table_marks_what_the_settings_move() -> None:
    births = table("stage_births", {})
    assert [row[1] for row in births.rows] == [
        "Pig",
        "Horse",
        "Tiger",
        "Rooster",
        "Tiger",
        "Rooster",
        "Snake",
        "Rat",
        "Monkey",
        "Rabbit",
    ]
    # 水土同宫: 戊 born at 申; with yin backward 己 at 卯 (docs/bazi-rules.md §2.5)
    assert births.rows[4][3] == "Monkey" and births.rows[5][3] == "Rabbit"
    # the yang stems other than 戊 never move; each yin stem moves under yin forward
    unmoved = {r for r in (0, 2, 6, 8)}
    assert not {r for r, _c in births.marked} & unmoved
    assert {(r, 2) for r in (1, 3, 5, 7, 9)} <= births.marked


def test_problems_agree_with_lunar_python() -> None:
    assert problem_answer({"ask": "stage", "stem": "乙", "branch": "horse"}) == "Birth (长生)"
    assert lunar_stage(1, 6) == "长生"
    assert problem_answer({"ask": "stage_branches", "stem": "辛", "stage": "lin_guan"}) == (
        "Rooster"
    )
    assert lunar_stage(7, 9) == "临官"
    assert (
        problem_answer(
            {"ask": "stage_branches", "stem": "辛", "stage": "chang_sheng", "yin": "forward"}
        )
        == "Snake"
    )
    with pytest.raises(InputError):
        problem_answer({"ask": "stage_branches", "stem": "辛", "stage": "birth"})


def test_the_checks_pass_the_true_rule_and_fail_a_wrong_one() -> None:
    args = {"settings": {}, "births": BIRTHS, "yin_runs": "backward"}
    assert run_check("stages_counted_from_birth", args) == (0, 120)
    # yin stems walked forward from their own Births: wrong but at Birth and six steps on
    assert run_check("stages_counted_from_birth", {**args, "yin_runs": "forward"}) == (50, 120)
    wrong_birth = {**args, "births": "寅" + BIRTHS[1:]}
    assert run_check("stages_counted_from_birth", wrong_birth) == (12, 120)
    assert run_check("stages_of_partners", {"settings": {}, "pairs": BOTH_WAYS}) == (0, 60)
    assert run_check("stages_of_partners", {"settings": {}, "pairs": PAIRS}) == (30, 60)
    same = {"settings": {}, "same": [["戊", "丙"], ["己", "丁"]]}
    assert run_check("stages_same_cycle", same) == (0, 24)
    assert (
        run_check("stages_same_cycle", {**same, "settings": {"stage_earth": "water_earth"}})[0]
        == 24
    )
    differ = {"settings": {}, "other_settings": {"stage_yin": "forward"}, "differ": "乙丁己辛癸"}
    assert run_check("stage_cells_differ", differ) == (0, 120)
    assert run_check("stage_cells_differ", {**differ, "differ": "乙丁己辛"}) == (12, 120)
    office = {"stage": "lin_guan", "star": "lu_shen", "variant": "standard", "stems": STEMS}
    assert run_check("stage_is_star", office) == (0, 10)
    assert run_check("stage_is_star", {**office, "stage": "di_wang"}) == (10, 10)
    blade = {"stage": "di_wang", "star": "yang_ren", "variant": "r1", "stems": "乙丁己辛癸"}
    assert run_check("stage_is_star", blade) == (5, 5)
    with pytest.raises(InputError):
        run_check("stages_counted_from_birth", {**args, "births": "亥午"})
    with pytest.raises(InputError):
        run_check("stages_same_cycle", {"settings": {"late_rat_hour": "split"}, "same": []})
