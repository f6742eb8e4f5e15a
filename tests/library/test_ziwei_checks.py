"""The Zi Wei engine checks of the claims (`ziwei_year_table`, `ziwei_offset`,
`ziwei_not_placed`), which walk charts under a setting the space was not swept with: held to
rules read off the sources by hand here (Quan Shu juan 2 安天德月德解神诀: 天德 from 酉 at the
Rat year, forward; iztro 2.6.0: 劫杀 巳寅亥申 by the year's trine, placed only under 中州),
and each able to fail."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library.claim_checks import run_check

CASES = 60 * 12 * 2 * 2  # sixty years, twelve months, two hours, two sexes


def test_year_table_holds_the_verse_and_fails_a_planted_cell() -> None:
    tian_de = "酉戌亥子丑寅卯辰巳午未申"
    assert run_check("ziwei_year_table", {"star": "tian_de", "table": tian_de}) == (0, CASES)
    planted = "戌" + tian_de[1:]  # a Rat year on Dog: one year branch in twelve wrong
    assert run_check("ziwei_year_table", {"star": "tian_de", "table": planted}) == (
        CASES // 12,
        CASES,
    )


def test_a_star_the_setting_does_not_place_counts_against_the_table() -> None:
    jie_sha = "巳寅亥申" * 3
    args = {"star": "jie_sha", "table": jie_sha}
    assert run_check("ziwei_year_table", {**args, "algorithm": "zhongzhou"}) == (0, CASES)
    assert run_check("ziwei_year_table", args) == (CASES, CASES)
    assert run_check("ziwei_not_placed", {"stars": ["jie_sha"]}) == (0, CASES)
    assert run_check("ziwei_not_placed", {"stars": ["jie_sha"], "algorithm": "zhongzhou"}) == (
        CASES,
        CASES,
    )


def test_offset_and_its_polarity_filter() -> None:
    # 天刑 from 酉, 天姚 from 丑, by the same month: four apart on every chart.
    args = {"star": "tian_yao", "other": "tian_xing"}
    assert run_check("ziwei_offset", {**args, "offset": 4}) == (0, CASES)
    assert run_check("ziwei_offset", {**args, "offset": 3}) == (CASES, CASES)
    # 天德 is the year's branch + 9 (酉 for 子); half the charts are of yang years.
    year = {"star": "tian_de", "other": "year", "offset": 9}
    assert run_check("ziwei_offset", {**year, "polarity": "yang_year"}) == (0, CASES // 2)
    assert run_check("ziwei_offset", {**year, "polarity": "yin_male_yang_female"}) == (
        0,
        CASES // 2,
    )


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("ziwei_year_table", {"star": "tian_de", "table": "酉戌亥"}),
        ("ziwei_year_table", {"star": "tian_de", "table": "酉" * 12, "by": "month"}),
        ("ziwei_year_table", {"star": "tian_de", "table": "X" * 12}),
        ("ziwei_offset", {"star": "tian_de", "other": "year", "offset": 9, "polarity": "odd"}),
        ("ziwei_not_placed", {"stars": ["jie_sha"], "algorithm": "nanpai"}),
        ("ziwei_not_placed", {"stars": ["jie_sha"], "colour": "red"}),
    ],
)
def test_bad_arguments_are_input_errors(name: str, args: dict[str, object]) -> None:
    with pytest.raises(InputError) as e:
        run_check(name, args)
    assert e.value.field == "args"
