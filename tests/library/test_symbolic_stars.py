"""The Heavenly Nobleman, Traveling Horse and Heavenly Kitchen articles' engine parts: the
Sanming Tonghui walk and the group head against the books' own words, the new table,
problem and diagram kinds, and claims that fail when a table is planted wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.library import claim_checks, load, svg
from mingshu.library import claims as C
from mingshu.library import engine as E
from mingshu.library import problems as P
from mingshu.library.check import check
from mingshu.library.model import _ROOT
from mingshu.space.claims import check as run_sql

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


def _by_stem(text: str) -> dict[int, int]:
    """'己子 庚丑 …' → {stem: branch}."""
    return {STEMS.index(cell[0]): BRANCHES.index(cell[1]) for cell in text.split()}


def test_the_walk_from_rat_hands_out_the_branches_the_chapter_names() -> None:
    # Sanming Tonghui juan 3, 論天乙貴人, read clause by clause: 甲徳在子 … 故己為貴人 (己 on
    # 子), 乙徳在丑 … 庚以牛, 丙徳在寅 … 辛以虎, 丁徳在卯 … 壬以兔, 戊 跳辰 … 癸以巳, 己 跳午
    # 在未 … 甲以羊, 庚徳在申 … 乙以猴, 辛徳在酉 … 丙以雞, 壬 跳戌 … 丁以猪, 癸 跳子 … 戊以牛.
    assert E.nobleman_walk(0, 1) == _by_stem("己子 庚丑 辛寅 壬卯 癸巳 甲未 乙申 丙酉 丁亥 戊丑")
    # The walk from 申, backward: 己以猴, 庚以羊, 辛以馬, 壬以蛇, (跳辰) 癸以兔, (跳寅) 甲以牛,
    # 乙以鼠, 丙以猪, (跳戌) 丁以雞, (跳申) 戊以羊.
    assert E.nobleman_walk(8, -1) == _by_stem("己申 庚未 辛午 壬巳 癸卯 甲丑 乙子 丙亥 丁酉 戊未")


def test_group_heads_and_horses_are_those_of_the_spec() -> None:
    # docs/bazi-rules.md §4.21: 申子辰 → 驿马 寅, 寅午戌 → 申, 巳酉丑 → 亥, 亥卯未 → 巳.
    for group, horse in (("申子辰", "寅"), ("寅午戌", "申"), ("巳酉丑", "亥"), ("亥卯未", "巳")):
        for member in group:
            b = BRANCHES.index(member)
            assert E.group_head(b) == BRANCHES.index(group[0])
            assert (E.group_head(b) + 6) % 12 == BRANCHES.index(horse)


def test_problem_kinds_answer_from_the_engine() -> None:
    ask = P.problem_answer
    hits = {"ask": "bazi_star_hits", "star": "tian_yi", "day_stem": "Yang Metal"}
    chart = {**hits, "branches": ["goat", "tiger", "horse", "ox"], "basis": "day_stem"}
    assert ask(chart) == "year Goat, hour Ox"
    assert ask({**chart, "variant": "v2"}) == "month Tiger, day Horse"
    assert ask({**chart, "branches": ["rat", "rat", "rat", "rat"]}) == "not in the chart"
    assert ask({"ask": "bazi_stems_for", "star": "tian_yi", "branch": "rabbit"}) == (
        "Yang Water or Yin Water"
    )
    assert ask({"ask": "year_star_years", "star": "tian_chu", "branch": "rat", "by": "stem"}) == (
        "Yang Fire"
    )
    both = ask({"ask": "horse_of_birth", "date": "2024-02-05", "time": "12:00"})
    assert both == "BaZi Tiger (year Dragon), Zi Wei Snake (year Rabbit)"
    same = {"ask": "horse_of_birth", "date": "2024-02-05", "year_boundary": "spring_begins"}
    assert ask(same) == "BaZi Tiger (year Dragon), Zi Wei Tiger (year Dragon)"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        (
            {
                "ask": "bazi_star_hits",
                "star": "tian_yi",
                "day_stem": "Yin Metal",
                "branches": ["rat", "rat", "rat", "rat"],
            },
            "day_stem",
        ),
        (
            {"ask": "bazi_star_hits", "star": "tian_yi", "day_stem": "Yang Wood", "branches": []},
            "branches",
        ),
        (
            {
                "ask": "bazi_star_hits",
                "star": "tian_de",
                "day_stem": "Yang Wood",
                "branches": ["rat"] * 4,
            },
            "star",
        ),
        ({"ask": "bazi_stems_for", "star": "tian_yi", "variant": "v9", "branch": "ox"}, "variant"),
        ({"ask": "year_star_years", "star": "tian_ma", "branch": "pig", "by": "month"}, "by"),
        ({"ask": "horse_of_birth", "date": "2024-02-05", "year_boundary": "x"}, "year_boundary"),
    ],
)
def test_bad_problem_input_names_the_field(query: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        P.problem_answer(query)
    assert e.value.field == field


def test_horse_ring_draws_the_group_and_its_horse() -> None:
    picture, alt = svg.diagram("horse_ring", {"branch": "rat"})
    assert "the group Monkey, Rat, Dragon with its head Monkey" in alt
    assert "crosses the ring to Tiger" in alt
    assert "width='312'" in picture  # fits a 360 px screen


def test_planted_wrong_cells_and_answers_fail(tmp_path: Path, sources: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    edits = {
        "BZ-SS-01": (
            '[Yang Metal, "Ox, Goat", "Tiger, Horse"',
            '[Yang Metal, "Ox, Goat", "Ox, Goat"',
        ),
        "BZ-SS-03": (
            '[Pig, "Pig, Rabbit, Goat", Snake, Snake]',
            '[Pig, "Pig, Rabbit, Goat", Snake, Pig]',
        ),
        "BZ-SS-04": ("[Yin Fire, Yin Earth, Horse, Snake", "[Yin Fire, Yin Earth, Horse, Horse"),
    }
    answers = {
        "BZ-SS-01": ('answer: "Yang Water or Yin Water"', 'answer: "Yang Water"'),
        "BZ-SS-03": ('answer: "Ox or Snake or Rooster"', 'answer: "Snake"'),
        "BZ-SS-04": ('answer: "month Snake"', 'answer: "year Horse, hour Horse"'),
    }
    for article, *pairs in zip(edits, edits.values(), answers.values(), strict=True):
        path = folder / f"{article}.md"
        text = path.read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, (article, old)
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    errors = check(load(folder), space=None, sources=sources, only=list(edits)).errors
    for article, where in (("BZ-SS-01", "row 7 column 3"), ("BZ-SS-03", "row 12 column 4")):
        assert any(e.startswith(f"{article} line") and where in e for e in errors), errors
    assert any("BZ-SS-04" in e and "row 4 column 4" in e for e in errors), errors
    for article, said in (("BZ-SS-01", "'Yang Water'"), ("BZ-SS-03", "'Snake'")):
        assert any(e.startswith(f"{article}: problem") and f"prints {said}" in e for e in errors)
    assert any("BZ-SS-04: problem" in e and "the engine says 'month Snake'" in e for e in errors)


def _plant(monkeypatch: pytest.MonkeyPatch, variants: tuple[str, ...], stem: int) -> None:
    """Move the cells of ``variants`` for ``stem`` one branch on."""
    real = E.bazi_cell

    def cell(star: str, variant: str, value: int) -> tuple[int, ...]:
        got = real(star, variant, value)
        return tuple((b + 1) % 12 for b in got) if variant in variants and value == stem else got

    monkeypatch.setattr(E, "bazi_cell", cell)


@pytest.mark.parametrize(
    "key",
    [
        "nobleman_v1_is_sanming_walk",
        "nobleman_v2_differs_at_yang_metal_only",
        "kitchen_k1_k2_agree_at_wood_only",
    ],
)
def test_a_planted_wrong_table_makes_the_engine_claim_fail(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert C.load_claims()[key].run()[0] == 0
    _plant(monkeypatch, ("v1", "k1"), STEMS.index("甲"))
    assert C.load_claims()[key].run()[0] > 0


def test_a_planted_wrong_table_makes_the_zi_wei_claims_fail(
    space: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = ("kui_yue_are_the_nobleman_pair", "tian_chu_is_the_xingxue_verse")
    split = space / "leap-split"
    assert [r.counterexamples for r in run_sql(split, [C.sql_claims()[k] for k in keys])] == [
        0,
        0,
    ]
    _plant(monkeypatch, ("v1", "k2"), STEMS.index("庚"))  # the library test space is 2000
    planted = [C.sql_claims()[k] for k in keys]
    assert all((r.counterexamples or 0) > 0 for r in run_sql(split, planted))


def test_each_bazi_claim_runs_once_per_process(
    tmp_path: Path, sources: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    calls: list[str] = []

    def counted() -> tuple[int, int]:
        calls.append("run")
        return 1, 10  # a false claim: the check must say so both times

    monkeypatch.setitem(claim_checks.CHECKS, "planted_once", counted)
    with (folder / "BZ-SS-04.claims.toml").open("a", encoding="utf-8") as out:
        out.write(
            '\n[[claim]]\nkey = "planted_once"\nkind = "engine"\nstatement = "planted"\n'
            'check = "planted_once"\nunit = "day stems"\ncases = "every day stem"\n'
        )
    path = folder / "BZ-SS-04.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("{claim}`kitchen_k1_k2_agree_at_wood_only`", "{claim}`planted_once`", 1)
    )
    for _ in range(2):
        errors = check(load(folder), space=None, sources=sources, only=["BZ-SS-04"]).errors
        assert any("claim planted_once is false: 1 counterexamples in 10" in e for e in errors)
    assert calls == ["run"]


def test_a_birth_without_its_time_or_gender_is_named_not_a_key_error() -> None:
    from mingshu.library.tables import table

    with pytest.raises(InputError) as raised:
        table("chart_hits", {"stars": ["tian_yi"], "birth": {"date": "1990-01-01"}})
    assert raised.value.field == "birth" and "time, gender missing" in raised.value.message
