"""Heaven's Net and Earth's Snare: the nayin table against the Sanming Tonghui's words, the
engine checks for both tables, the element rows of ``star_tables`` and the
``year_pillars_for`` problem."""

from __future__ import annotations

import pytest

from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table


def test_the_table_is_the_chapters() -> None:
    # 何以戌亥為天羅辰巳為地網 … 火命人有天羅水土命人有地網餘金木二命無之 (Sanming Tonghui
    # juan 3, 論天羅地網)
    out = table("star_tables", {"tables": [["tian_luo_di_wang", "classical", "Looks for"]]})
    assert out.columns == ("Year nayin", "Looks for")
    assert dict(out.rows) == {
        "Wood": "—",
        "Fire": "Dog, Pig",
        "Earth": "Dragon, Snake",
        "Metal": "—",
        "Water": "Dragon, Snake",
    }
    assert run_check("cells_empty", {"star": "tian_luo_di_wang", "variant": "classical",
                                     "at": ["木", "金"]}) == (0, 5)  # fmt: skip
    assert run_check("cells_empty", {"star": "tian_luo_di_wang", "variant": "classical",
                                     "at": ["木"]})[0] == 1  # fmt: skip
    with pytest.raises(InputError) as e:
        run_check("cells_empty", {"star": "tian_luo_di_wang", "variant": "classical",
                                  "at": ["wood"]})  # fmt: skip
    assert e.value.field == "args"


def test_the_fire_years_are_the_twelve_fire_nayin_pillars() -> None:
    # the nayin of the sixty (Sanming Tonghui juan 1): 爐中火 丙寅丁卯, 山頭火 甲戌乙亥, 霹靂火
    # 戊子己丑, 山下火 丙申丁酉, 覆燈火 甲辰乙巳, 天上火 戊午己未
    fire = [
        "丙寅",
        "丁卯",
        "甲戌",
        "乙亥",
        "戊子",
        "己丑",
        "丙申",
        "丁酉",
        "甲辰",
        "乙巳",
        "戊午",
        "己未",
    ]
    ask = {"ask": "year_pillars_for", "star": "tian_luo_di_wang", "branch": "pig"}
    assert problem_answer(ask).split(" or ") == fire
    with pytest.raises(InputError) as e:
        problem_answer({**ask, "star": "tao_hua"})
    assert e.value.field == "star"
    own = ["甲戌", "乙亥", "丙辰", "丁巳", "壬辰", "癸巳"]
    args = {"star": "tian_luo_di_wang", "variant": "classical", "pillars": own}
    assert run_check("year_pillars_giving_own_branch", args) == (0, 60)
    assert run_check("year_pillars_giving_own_branch", {**args, "pillars": own[:5]})[0] == 1


def test_the_engine_checks_fail_when_the_engine_swaps_the_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import itertools

    from mingshu.bazi import BaziSettings, shensha

    pairs = claim_checks._branch_layouts
    years = claim_checks._year_pillar_layouts
    monkeypatch.setattr(claim_checks, "_branch_layouts", lambda: itertools.islice(pairs(), 3000))
    monkeypatch.setattr(
        claim_checks, "_year_pillar_layouts", lambda: itertools.islice(years(), 0, 103680, 30)
    )
    modern = {"star": "tian_luo_di_wang", "variant": "modern"}
    assert run_check("pairs_in_pillars", modern) == (0, 3000)
    assert run_check("nayin_star_in_pillars", {"star": "tian_luo_di_wang"}) == (0, 3456)
    # each table's check against an engine that reads the other table
    real = shensha.stars_in
    swapped = {"classical": "modern", "modern": "classical"}

    def other_table(*pillars: object, settings: BaziSettings | None = None, **kw: object) -> object:
        used = (settings or BaziSettings()).variant_of("tian_luo_di_wang")
        other = BaziSettings(star_variants={"tian_luo_di_wang": swapped[used]})
        return real(*pillars, settings=other, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(shensha, "stars_in", other_table)
    assert run_check("pairs_in_pillars", modern)[0] > 0
    assert run_check("nayin_star_in_pillars", {"star": "tian_luo_di_wang"})[0] > 0
    with pytest.raises(InputError):
        run_check("nayin_star_in_pillars", {"star": "tao_hua"})
    with pytest.raises(InputError):
        run_check("pairs_in_pillars", {**modern, "variant": "classical"})
