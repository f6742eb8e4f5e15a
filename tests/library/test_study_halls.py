"""The checks behind the Study Hall and the Hall of Letters (学堂 词馆): the tables against the
books' own lines, and checks that fail when a table, a stage or the search is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from animals import ANIMALS
from mingshu.bazi import BaziSettings, shensha
from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"

# 神峰通考 卷四 学堂, the ten lines 甲日生遇亥月 或亥时 … 癸日生遇卯月 或卯时, read by hand.
SHENFENG = "亥午寅酉寅酉巳子申卯"
# 三命通會 卷三 學堂會祿: 金 長生巳 臨官申, 水土 長生申 臨官亥, 木 長生亥 臨官寅, 火 長生寅 臨官巳.
NAYIN = {"Wood": "亥寅", "Fire": "寅巳", "Earth": "申亥", "Metal": "巳申", "Water": "申亥"}


def test_the_day_stem_study_hall_is_the_shenfeng_tongkao_list() -> None:
    got = table("star_cells", {"tables": [["xue_tang", "modern", "S"]]})
    assert [r[1] for r in got.rows] == [ANIMALS[BRANCHES.index(c)] for c in SHENFENG]


def test_nayin_tables_are_keyed_by_element() -> None:
    got = table(
        "star_cells", {"tables": [["xue_tang", "classical", "S"], ["ci_guan", "classical", "L"]]}
    )
    assert got.columns[0] == "Element"
    want = [(e, *(ANIMALS[BRANCHES.index(c)] for c in NAYIN[e])) for e in NAYIN]
    assert list(got.rows) == want


def test_stage_cells_holds_and_fails() -> None:
    run = claim_checks.run_check
    assert run("stage_cells", {"table": "xue_tang.modern", "stage": "chang_sheng"}) == (0, 10)
    assert run("stage_cells", {"table": "xue_tang.modern", "stage": "lin_guan"}) == (10, 10)
    nayin = {"table": "xue_tang.classical", "stage": "chang_sheng"}
    assert run("stage_cells", {**nayin, "earth": "water_earth"}) == (0, 5)
    assert run("stage_cells", nayin) == (1, 5)  # Earth born at the Tiger with Fire
    with pytest.raises(InputError):
        run("stage_cells", {**nayin, "earth": "metal_earth"})
    with pytest.raises(InputError):
        run("stage_cells", {**nayin, "stage": "coming_of_age"})


def test_the_pillar_search_check_fails_when_the_engine_searches_every_pillar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = claim_checks.run_check
    two = {"star": "xue_tang", "pillars": ["month", "hour"]}
    assert run("stem_star_in_pillars", two)[0] == 0
    real = shensha.stars_in
    every = BaziSettings(star_variants={"xue_tang": "all_pillars"})

    def planted(*pillars: Any, settings: Any = None) -> Any:
        return real(*pillars, settings=every)

    monkeypatch.setattr(shensha, "stars_in", planted)
    assert run("stem_star_in_pillars", two)[0] > 0
    with pytest.raises(InputError):
        run("stem_star_in_pillars", {"star": "xue_tang", "pillars": ["week"]})
