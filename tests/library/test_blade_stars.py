"""The Emolument and Blade article's engine parts: the tables against the books' own lists,
the ``star_tables`` kind, and the claim checks it added, each shown to fail on a planted
wrong table or a wrong argument."""

from __future__ import annotations

import itertools

import pytest

from animals import ANIMALS
from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library import engine as E
from mingshu.library.claim_checks import run_check
from mingshu.library.tables import table

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
YANG, YIN = list("甲丙戊庚壬"), list("乙丁己辛癸")

# Sanming Tonghui juan 3, 論十干祿: 甲祿寅乙祿卯庚祿申辛祿酉壬祿亥癸祿子丙祿巳丁祿午戊寄巳
# 己寄午 (the Siku text writes 己 for 巳 in 丙祿己 and 戊寄己).
EMOLUMENT = "寅卯巳午巳午申酉亥子"
# Xingxue Dacheng juan 23, 陽刃煞: 甲刃在卯 乙刃在辰 丙刃在午 丁刃在未 戊刃在午 己刃在未
# 庚刃在酉 辛刃在戌 壬刃在子 癸刃在丑 (the text writes 邜 for 卯 and 巳 for 己).
BLADE = "卯辰午未午未酉戌子丑"


def _animals(chars: str) -> list[str]:
    return [ANIMALS[BRANCHES.index(c)] for c in chars]


def test_the_tables_are_the_books_lists() -> None:
    out = table(
        "star_tables",
        {
            "tables": [
                ["lu_shen", "standard", "Emolument"],
                ["yang_ren", "r1", "R1"],
                ["yang_ren", "r2", "R2"],
                ["fei_ren", "r1", "Flying"],
            ],
            "against": "R1",
        },
    )
    assert out.columns == ("Day stem", "Emolument", "R1", "R2", "Flying")
    assert [r[1] for r in out.rows] == _animals(EMOLUMENT)
    assert [r[2] for r in out.rows] == _animals(BLADE)
    # 子平: 甲丙戊庚壬五陽干有刃乙丁己辛癸五陰干無刃 (Sanming Tonghui juan 3)
    assert [r[3] for r in out.rows] == [
        a if s in YANG else "—" for s, a in zip(STEMS, _animals(BLADE), strict=True)
    ]
    # 對衝為飛刃: the branch six on from the Blade
    assert [r[4] for r in out.rows] == [ANIMALS[(BRANCHES.index(c) + 6) % 12] for c in BLADE]
    assert out.marked == {(STEMS.index(s), 3) for s in YANG}


def test_branch_keyed_tables_have_a_row_per_branch() -> None:
    out = table("star_tables", {"tables": [["hua_gai", "standard", "Canopy"]]})
    assert out.columns == ("Branch", "Canopy") and len(out.rows) == 12
    # 三合: 申子辰 → 辰, the group's tomb
    assert out.rows[0] == ("Rat", "Dragon") and out.marked == frozenset()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"tables": [["lu_shen", "standard", "A"], ["hua_gai", "standard", "B"]]}, "tables"),
        ({"tables": [["lu_shen", "standard"]]}, "tables"),
        ({"tables": "lu_shen"}, "tables"),
        ({"tables": [["lu_shen", "standard", "A"]], "against": "B"}, "against"),
        ({"tables": [["lu_shen", "nine", "A"]]}, "variant"),
    ],
)
def test_bad_star_tables_parameters_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        table("star_tables", options)
    assert e.value.field == field


def _plant(monkeypatch: pytest.MonkeyPatch, star: str, stem: int) -> None:
    """Move one cell of every table of ``star`` one branch on."""
    real = E.bazi_cell

    def cell(key: str, variant: str, value: int) -> tuple[int, ...]:
        got = real(key, variant, value)
        return tuple((b + 1) % 12 for b in got) if key == star and value == stem else got

    monkeypatch.setattr(E, "bazi_cell", cell)


# Each: a check with the arguments the book's words give (it holds), and the star whose
# planted cell must make it fail.
HOLDING = [
    ("table_offset", {"star": "yang_ren", "variant": "r1", "base": "lu_shen",
                      "base_variant": "standard", "steps": 1, "at": list(STEMS)}, "yang_ren"),
    ("table_offset", {"star": "fei_ren", "variant": "r1", "base": "yang_ren",
                      "base_variant": "r1", "steps": 6, "at": list(STEMS)}, "fei_ren"),
    ("table_is_stage", {"star": "lu_shen", "variant": "standard", "stage": "lin_guan",
                        "at": list(STEMS)}, "lu_shen"),
    ("cells_empty", {"star": "yang_ren", "variant": "r2", "at": YIN}, None),
    ("cells_within", {"star": "yang_ren", "variant": "r1", "at": YIN,
                      "branches": list("辰戌丑未")}, "yang_ren"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args", "planted"), HOLDING)
def test_the_checks_hold_and_fail_on_a_planted_cell(
    name: str, args: dict[str, object], planted: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_check(name, args)[0] == 0
    if planted is not None:
        _plant(monkeypatch, planted, STEMS.index("乙"))
        assert run_check(name, args)[0] > 0


def test_the_four_pillar_check_fails_on_a_planted_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    # The whole run is the article's claim (mingshu library check); here the first 3,000
    # layouts, which hold Yin Wood days with Dragon (its R1 Blade) in the hour.
    real = claim_checks._pillar_layouts
    monkeypatch.setattr(claim_checks, "_pillar_layouts", lambda: itertools.islice(real(), 3000))
    args = {"stars": ["lu_shen", "yang_ren", "fei_ren"]}
    assert run_check("stem_stars_in_four_pillars", args) == (0, 3000)
    _plant(monkeypatch, "yang_ren", STEMS.index("乙"))
    assert run_check("stem_stars_in_four_pillars", args)[0] > 0


@pytest.mark.parametrize(
    ("name", "args"),
    [
        # one stem too many or too few in the list, or the wrong step
        ("table_offset", {"star": "yang_ren", "variant": "r1", "base": "lu_shen",
                          "base_variant": "standard", "steps": 2, "at": list(STEMS)}),
        ("table_is_stage", {"star": "yang_ren", "variant": "r1", "stage": "di_wang",
                            "at": list(STEMS)}),
        ("cells_empty", {"star": "yang_ren", "variant": "r2", "at": YIN[:4]}),
        ("cells_within", {"star": "yang_ren", "variant": "r1", "at": list(STEMS),
                          "branches": list("辰戌丑未")}),
        # 子平's Day Blades are three (Yuanhai Ziping: 日刃有戊午、丙午、壬子也); two is wrong
        ("day_pillars_holding", {"star": "yang_ren", "variant": "r2",
                                 "pillars": ["丙午", "戊午"]}),
    ],
)  # fmt: skip
def test_a_wrong_statement_has_counterexamples(name: str, args: dict[str, object]) -> None:
    assert run_check(name, args)[0] > 0


def test_the_day_blades_are_the_yuanhai_zipings() -> None:
    # 日刃有戊午、丙午、壬子也 (Yuanhai Ziping, 論日刃)
    args = {"star": "yang_ren", "variant": "r2", "pillars": ["戊午", "丙午", "壬子"]}
    assert run_check("day_pillars_holding", args) == (0, 60)


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("table_is_stage", {"star": "lu_shen", "variant": "standard", "stage": "peak",
                            "at": []}, "args"),
        ("cells_empty", {"star": "yang_ren", "variant": "r2", "at": ["子"]}, "args"),
        ("stem_stars_in_four_pillars", {"stars": ["hua_gai"]}, "args"),
        ("day_pillars_holding", {"star": "lu_shen", "variant": "standard",
                                 "pillars": ["甲丑"]}, "args"),
    ],
)  # fmt: skip
def test_bad_check_arguments_name_the_field(name: str, args: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        run_check(name, args)
    assert e.value.field == field
