"""The three-harmony family's engine parts: the group checks against the books' own
statements, the nayin reading of the Peach Blossom, the ``trine_ring`` diagram and the
``bazi_branches_for`` problem, each shown to fail on a planted cell or bad input."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library import engine as E
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.svg import diagram

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"

# Sanming Tonghui juan 2, 論咸池: 寅午戌卯 巳酉丑午 申子辰酉 亥卯未子, 即長生第二位沐浴之宫.
PEACH = {"寅午戌": "卯", "巳酉丑": "午", "申子辰": "酉", "亥卯未": "子"}


def test_the_peach_blossom_is_the_chapters_table() -> None:
    for group, star in PEACH.items():
        for member in group:
            (got,) = E.bazi_cell("tao_hua", "standard", BRANCHES.index(member))
            assert got == BRANCHES.index(star)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("group_step", {"star": "tao_hua", "variant": "standard", "steps": 1}),
        ("group_stage", {"star": "tao_hua", "variant": "standard", "stage": "mu_yu"}),
    ],
)
def test_the_group_checks_hold_and_fail_on_a_planted_cell(
    name: str, args: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_check(name, args) == (0, 12)
    real = E.bazi_cell

    def cell(star: str, variant: str, value: int) -> tuple[int, ...]:
        got = real(star, variant, value)
        return tuple((b + 1) % 12 for b in got) if star == "tao_hua" and value == 0 else got

    monkeypatch.setattr(E, "bazi_cell", cell)
    assert run_check(name, args)[0] == 1


def test_a_wrong_step_or_stage_has_counterexamples() -> None:
    assert run_check("group_step", {"star": "tao_hua", "variant": "standard", "steps": 2})[0] == 12
    stage = {"star": "tao_hua", "variant": "standard", "stage": "guan_dai"}
    assert run_check("group_stage", stage)[0] == 12
    with pytest.raises(InputError) as e:
        run_check("group_stage", {**stage, "stage": "bath"})
    assert e.value.field == "args"


def test_the_nayin_reading_keeps_one_pillar_in_five() -> None:
    # 按此煞須天干納音於地同類方是: 寅午戌 (Fire) in 卯 only on 丁卯 (爐中火); likewise 乙酉 泉中水,
    # 甲午 沙中金, 壬子 桑柘木 (the nayin of the sixty pillars, Sanming Tonghui juan 1).
    strict = {
        "star": "tao_hua",
        "variant": "same_nayin",
        "pillars": ["丁卯", "乙酉", "甲午", "壬子"],
    }
    assert run_check("month_pillars_found", strict) == (0, 720)
    # the default table takes all five pillars on the branch, so the strict list is wrong for it
    assert run_check("month_pillars_found", {**strict, "variant": "standard"})[0] == 48
    # 丁卯 alone: the nine year branches of the other three groups each lose their one pillar
    assert run_check("month_pillars_found", {**strict, "pillars": ["丁卯"]})[0] == 9


def test_the_trine_ring_draws_the_group_and_the_stars() -> None:
    svg, alt = diagram("trine_ring", {"branch": "horse", "stars": ["tao_hua", "yi_ma"]})
    assert svg.startswith("<svg") and "Tiger, Horse, Dog" in alt
    assert "Peach Blossom on Rabbit, 1 on from the head" in alt
    assert "Traveling Horse on Monkey, 6 on from the head" in alt


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"branch": "horse", "stars": ["lu_shen"]}, "stars"),
        ({"branch": "horse", "stars": []}, "stars"),
        ({"branch": "horse", "stars": ["gou_jiao"]}, "stars"),
        ({"branch": "unicorn", "stars": ["tao_hua"]}, "branch"),
    ],
)
def test_bad_trine_ring_parameters_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        diagram("trine_ring", options)
    assert e.value.field == field


def test_the_branches_problem_answers_every_branch() -> None:
    ask = {"ask": "bazi_branches_for", "star": "tao_hua", "branch": "rabbit"}
    assert problem_answer(ask) == "Tiger or Horse or Dog"
    assert problem_answer({**ask, "branch": "tiger"}) == "none"
    with pytest.raises(InputError) as e:
        problem_answer({**ask, "star": "lu_shen"})
    assert e.value.field == "star"
