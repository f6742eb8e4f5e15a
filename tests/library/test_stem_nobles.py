"""The checks behind the four stem nobles (太极 国印 金舆 福星): the tables against the books'
own words, and checks that fail when a table or the engine's search is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from animals import ANIMALS
from mingshu.bazi import BaziSettings, shensha
from mingshu.library import claim_checks
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"

# 星學大成 卷一 論福星貴人歌, read by hand: 甲丙 虎 鼠, 戊猴 己未 丁亥, 乙癸 牛, 庚馬 辛巳 壬龍.
FORTUNE_VERSE = {
    "甲": "寅子", "丙": "寅子", "戊": "申", "己": "未", "丁": "亥",
    "乙": "丑", "癸": "丑", "庚": "午", "辛": "巳", "壬": "辰",
}  # fmt: skip
# The Emolument (臨官) of each stem, as 三命通會 卷三 論金轝 counts from it (甲 祿 寅).
EMOLUMENT = "寅卯巳午巳午申酉亥子"


def _names(chars: str) -> str:
    return ", ".join(ANIMALS[BRANCHES.index(c)] for c in sorted(chars, key=BRANCHES.index))


def test_the_fortune_star_column_is_the_verse() -> None:
    got = table("star_cells", {"tables": [["fu_xing", "xingxue", "F"]]})
    assert [r[1] for r in got.rows] == [_names(FORTUNE_VERSE[s]) for s in STEMS]


def test_the_counted_stars_stand_two_and_eight_after_the_emolument() -> None:
    got = table(
        "star_cells", {"tables": [["jin_yu", "standard", "J"], ["guo_yin", "standard", "G"]]}
    )
    for s, (_stem, carriage, seal) in enumerate(got.rows):
        lu = BRANCHES.index(EMOLUMENT[s])
        assert (carriage, seal) == (ANIMALS[(lu + 2) % 12], ANIMALS[(lu + 8) % 12])


def test_the_table_checks_hold_and_fail_on_the_wrong_count() -> None:
    run = claim_checks.run_check
    assert run("emolument_steps", {"table": "jin_yu.standard", "steps": 2}) == (0, 10)
    assert run("emolument_steps", {"table": "jin_yu.standard", "steps": 3}) == (10, 10)
    apart = {"a": "guo_yin.standard", "b": "jin_yu.standard"}
    assert run("tables_apart", {**apart, "steps": 6}) == (0, 10)
    assert run("tables_apart", {**apart, "steps": 4}) == (10, 10)
    assert run("element_pairs_share", {"table": "tai_ji.standard"}) == (0, 5)
    assert run("element_pairs_share", {"table": "fu_xing.xingxue"}) == (5, 5)


def test_own_branch_pillars_against_a_reading_of_the_verse() -> None:
    own = [
        s + b
        for i, s in enumerate(STEMS)
        for b in BRANCHES[i % 2 :: 2]  # the six branches of the stem's polarity
        if b in FORTUNE_VERSE[s]
    ]
    run = claim_checks.run_check
    assert run("own_branch_pillars", {"table": "fu_xing.xingxue", "pillars": own}) == (0, 60)
    assert run("own_branch_pillars", {"table": "fu_xing.xingxue", "pillars": own[1:]}) == (1, 60)


def test_the_search_check_fails_when_the_engine_uses_another_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = claim_checks.run_check
    real = shensha.stars_in
    programs = BaziSettings(star_variants={"tai_ji": "si_ku"}, star_bases={"jin_yu": "day_stem"})

    def planted(*pillars: Any, settings: Any = None) -> Any:
        return real(*pillars, settings=programs)

    monkeypatch.setattr(shensha, "stars_in", planted)
    for star in ("tai_ji", "jin_yu"):
        bad, _cases = run("stem_star_in_four_pillars", {"star": star})
        assert bad > 0, star
