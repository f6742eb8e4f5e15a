"""The kinds and checks behind the month's Virtues (天德 月德 and their 合): the table and
the backward problem against the books' own lists, and checks that fail when a table or the
engine's search is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from animals import ANIMALS
from mingshu.bazi import BaziSettings, shensha
from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library import problems as P
from mingshu.library.tables import table

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
STEMS = "甲乙丙丁戊己庚辛壬癸"
STEM_NAMES = [
    f"{p} {e}" for e in ("Wood", "Fire", "Earth", "Metal", "Water") for p in ("Yang", "Yin")
]

# 協紀辨方書 卷五, 天德 quoting 堪輿經, by month from the first (the Tiger month); the four
# trigrams are the corners the Sanming Tonghui juan 3 places in 申 亥 寅 巳 (坤 乾 艮 巽).
KANYU_JING = "丁坤壬辛乾甲癸艮丙乙巽庚"
TRIGRAMS = {"坤": "申", "乾": "亥", "艮": "寅", "巽": "巳"}


def _name(char: str) -> str:
    char = TRIGRAMS.get(char, char)
    return STEM_NAMES[STEMS.index(char)] if char in STEMS else ANIMALS[BRANCHES.index(char)]


def test_star_cells_prints_the_almanac_list_month_by_month() -> None:
    got = table(
        "star_cells",
        {"tables": [["tian_de", "stems", "HV"], ["yue_de", "stems", "MV"]], "start": "tiger"},
    )
    assert got.columns == ("Branch", "HV", "MV")
    assert [r[0] for r in got.rows] == list(ANIMALS[2:] + ANIMALS[:2])
    assert [r[1] for r in got.rows] == [_name(c) for c in KANYU_JING]
    # 三命通會 卷三: 辰未戌丑四月天徳亦同屬焉 (the Monthly Virtue's stems)
    assert {got.rows[r][0] for r, c in got.marked} == {"Dragon", "Goat", "Dog", "Ox"}


def test_star_cells_refuses_tables_keyed_differently() -> None:
    with pytest.raises(InputError) as e:
        table("star_cells", {"tables": [["tian_de", "stems", "a"], ["tian_yi", "v1", "b"]]})
    assert e.value.field == "tables"


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # 三命通會 卷三: 亥卯未會午出丙入垣於甲 → Yang Wood in the Pig, Rabbit, Goat months
        ({"star": "yue_de", "target": "Yang Wood"}, "Rabbit or Goat or Pig"),
        ({"star": "yue_de", "target": "乙"}, "none"),
        # 堪輿經: 二月坤, and its 合 巽 (三命通會 卷三: 二月坤與巽合)
        ({"star": "tian_de", "target": "monkey"}, "Rabbit"),
        ({"star": "tian_de_he", "target": "snake"}, "Rabbit"),
        ({"star": "tian_de_he", "target": "snake", "variant": "no_zhong"}, "none"),
    ],
)
def test_bazi_keys_for_names_every_month(query: dict[str, str], answer: str) -> None:
    assert P.problem_answer({"ask": "bazi_keys_for", **query}) == answer


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"star": "yue_de", "target": "Purple"}, "target"),
        ({"star": "yue_de", "target": "甲", "variant": "v9"}, "variant"),
        ({"star": "no_such_star", "target": "甲"}, "star"),
    ],
)
def test_bazi_keys_for_bad_input_names_the_field(query: dict[str, str], field: str) -> None:
    with pytest.raises(InputError) as e:
        P.problem_answer({"ask": "bazi_keys_for", **query})
    assert e.value.field == field


def test_the_table_checks_hold_and_fail_on_the_wrong_table() -> None:
    run = claim_checks.run_check
    assert run("month_virtue_from_group", {"table": "yue_de.stems"}) == (0, 12)
    assert run("heavenly_virtue_from_group", {"table": "tian_de.stems"}) == (0, 12)
    # the Heavenly Virtue rule read on the Monthly Virtue's table fails in its eight months
    assert run("heavenly_virtue_from_group", {"table": "yue_de.stems"}) == (8, 12)
    assert run("month_virtue_from_group", {"table": "tian_de.stems"})[0] == 8
    grave = ["辰", "未", "戌", "丑"]
    agree = {"a": "tian_de.stems", "b": "yue_de.stems", "same_at": grave}
    assert run("tables_agree", agree) == (0, 12)
    assert run("tables_agree", {**agree, "same_at": grave[:3]}) == (1, 12)
    partner = {"table": "tian_de_he.no_zhong", "of": "tian_de.stems"}
    assert run("combination_partners", {**partner, "empty_at": ["子", "卯", "午", "酉"]}) == (
        0,
        12,
    )
    assert run("combination_partners", partner) == (4, 12)  # the empty middle months
    assert run("combination_partners", {"table": "yue_de_he.stems", "of": "tian_de.stems"})[0]


def test_the_search_check_fails_when_the_engine_uses_another_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = claim_checks.run_check
    assert run("month_star_in_four_pillars", {"star": "tian_de_he"}) == (0, 3600)
    real = shensha.stars_in
    almanac = BaziSettings(star_variants={"tian_de_he": "no_zhong"})

    def planted(*pillars: Any, settings: Any = None) -> Any:
        return real(*pillars, settings=almanac)

    monkeypatch.setattr(shensha, "stars_in", planted)
    bad, cases = run("month_star_in_four_pillars", {"star": "tian_de_he"})
    assert cases == 3600 and bad > 0


@pytest.mark.parametrize(
    "tables",
    [
        [["shi_e_da_bai", "yuan_bai", "a"]],  # keyed by the sixty year pillars
        [["tong_zi", "bazi_chart", "a"]],  # keyed by year and month branch
        [["kui_gang", "four", "a"]],  # a list of pillars, not a look-up
    ],
)
def test_star_cells_refuses_tables_it_cannot_key(tables: list[list[str]]) -> None:
    with pytest.raises(InputError) as e:
        table("star_cells", {"tables": tables})
    assert e.value.field == "tables"
