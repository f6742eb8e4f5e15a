"""The BaZi table and problem kinds of BZ-SS-00 / BZ-SS-10 and MS-LIB-01's self-check kinds:
each against an outside or slow, obviously-correct reference, and planted errors fail."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mingshu.bazi.settings import BaziSettings
from mingshu.errors import InputError
from mingshu.library import bazi_stars as B
from mingshu.library import check as check_module
from mingshu.library import load
from mingshu.library.check import check
from mingshu.library.model import _ROOT
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table

BIRTH_1984 = {"date": "1984-03-02", "time": "08:30", "gender": "female"}


def test_variant_disagreement_matches_the_spec_tables() -> None:
    # the spec (../shared/spec/bazi-rules.md) §4.1: V1 and V2 differ only at 庚; §4.5: R2 leaves the five yin
    # stems empty, so it differs from R1 on five stems.
    rows = {
        (r[0], r[2]): r
        for r in table("variant_disagreement", {"stars": ["tian_yi", "yang_ren"]}).rows
    }
    assert rows["Heavenly Nobleman", "v2"][3:] == ("1 of 10", "Yang Metal")
    assert rows["Goat Blade", "r2"][3] == "5 of 10"


def test_chart_hits_on_the_docs_chart() -> None:
    # docs/bazi.md quick start: 1990-05-15 10:30 male is 庚午 辛巳 庚辰 辛巳; 庚 under the
    # 神峰通考 verse ("庚辛逢马虎") gives 寅午, and 午 is the year branch.
    b = {"date": "1990-05-15", "time": "10:30", "gender": "male"}
    assert problem_answer({"ask": "star_hits", "star": "tian_yi", "birth": b}) == "not in the chart"
    v2 = {"ask": "star_hits", "star": "tian_yi", "birth": b, "variants": {"tian_yi": "v2"}}
    assert problem_answer(v2) == "year Horse"
    assert problem_answer({"ask": "tables_finding", "star": "tian_yi", "birth": b}) == "v2"


def test_pillars_and_birth_give_the_same_hits() -> None:
    by_birth = table("chart_hits", {"birth": BIRTH_1984, "stars": ["tian_yi", "yi_ma"]})
    by_pillars = table(
        "chart_hits", {"pillars": "甲子 丙寅 乙未 庚辰", "stars": ["tian_yi", "yi_ma"]}
    )
    assert by_birth.rows == by_pillars.rows
    # 乙 day stem → 子申 (year 子); 甲 year stem → 丑未 (day 未); 子 year → horse 寅 (month).
    assert by_birth.rows[0][1:] == ("Rat (by day stem)", "—", "Goat (by year stem)", "—")
    assert by_birth.rows[1][1:] == ("—", "Tiger (by year branch)", "—", "—")


def test_basis_pillar_setting_adds_the_self_hits() -> None:
    ask = {"ask": "star_hits", "star": "jiang_xing", "birth": BIRTH_1984}
    assert problem_answer(ask) == "not in the chart"
    assert problem_answer({**ask, "include_basis_pillar": True}) == "year Rat"
    plus_self = {**ask, "bases": {"jiang_xing": "year_branch+day_branch+self"}}
    assert problem_answer(plus_self) == "year Rat"
    hit = {"ask": "hit_basis", "star": "tian_yi", "birth": BIRTH_1984}
    assert problem_answer({**hit, "pillar": "day"}) == "year stem"
    assert problem_answer({**hit, "pillar": "hour"}) == "none"


def test_own_branch_keys_by_the_three_harmony_stages() -> None:
    # §4.6: the General Star is the group's 帝旺 (子午卯酉), the Canopy its 墓 (辰戌丑未);
    # a star can sit in its own basis pillar only there.
    rows = dict(table("own_branch_keys", {"stars": ["jiang_xing", "hua_gai", "yi_ma"]}).rows)
    assert rows == {
        "General Star": "Rat, Rabbit, Horse, Rooster",
        "Canopy": "Ox, Dragon, Goat, Dog",
        "Traveling Horse": "none",
    }


def test_basis_pillar_runs_catch_a_wrong_setting() -> None:
    # With the setting on where the reference leaves the basis pillar out, the General Star
    # and the Canopy disagree with the hand-read table on every layout the setting changes.
    on = BaziSettings(include_basis_pillar=True)
    runs = B.basis_pillar_runs(on, on)
    assert runs["jiang_xing"][0] == B.basis_pillar_runs()["jiang_xing"][2] > 0
    assert runs["yi_ma"][0] == 0


def test_unknown_star_or_pillars_is_an_input_error() -> None:
    with pytest.raises(InputError) as e:
        table("star_sites", {"stars": ["no_such_star"]})
    assert e.value.field == "star"
    with pytest.raises(InputError) as e:
        problem_answer({"ask": "star_hits", "star": "tian_yi", "pillars": "甲子 丙寅"})
    assert e.value.field == "pillars"
    with pytest.raises(InputError) as e:
        table("basis_pillar_effect", {"stars": ["tian_yi"]})
    assert e.value.field == "stars"


def test_crosscheck_problem_and_unknown_file() -> None:
    assert problem_answer({"ask": "crosscheck", "file": "configs"}) == (
        "200 passed, 0 known differences, 0 failed"
    )
    with pytest.raises(InputError) as e:
        problem_answer({"ask": "crosscheck", "file": "nope"})
    assert e.value.field == "file"


@pytest.mark.parametrize(
    ("article", "old", "new", "message"),
    [
        ("BZ-SS-10", '[Canopy, "11,520"', '[Canopy, "11,521"', "row 3 column 2"),
        (
            "BZ-SS-10",
            "  - [Traveling Horse, —, Tiger (by year branch)",
            "  - [Traveling Horse, Tiger (by year branch), —",
            "row 2 column 2",
        ),
        (
            "BZ-SS-00",
            "[Heavenly Nobleman, v1, v2, 1 of 10",
            "[Heavenly Nobleman, v1, v2, 2 of 10",
            "row 1 column 4",
        ),
        (
            "MS-LIB-01",
            '[astro-types, "150", "144", "6"',
            '[astro-types, "150", "150", "0"',
            "row 4 column 3",
        ),
    ],
)
def test_planted_wrong_cell_fails(
    tmp_path: Path,
    sources: Path,
    monkeypatch: pytest.MonkeyPatch,
    article: str,
    old: str,
    new: str,
    message: str,
) -> None:
    monkeypatch.setattr(check_module, "_run_claims", lambda *a: {})  # tables only
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    path = folder / f"{article}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    errors = check(load(folder), sources=sources, only=[article]).errors
    assert any(f"{article}" in e and message in e for e in errors), errors


def test_planted_wrong_answer_fails(
    tmp_path: Path, sources: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check_module, "_run_claims", lambda *a: {})  # problems only
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    path = folder / "BZ-SS-10.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('answer: "year stem"', 'answer: "day stem"', 1), encoding="utf-8")
    errors = check(load(folder), sources=sources, only=["BZ-SS-10"]).errors
    assert any("prints 'day stem', the engine says 'year stem'" in e for e in errors), errors


def test_table_difference_claim_catches_a_wrong_stem() -> None:
    from mingshu.library.claim_checks import variants_agree

    every_but = [s for s in "甲乙丙丁戊己庚辛壬癸"]
    assert variants_agree("tian_yi", "v1", "v2", [s for s in every_but if s != "庚"]) == (0, 10)
    assert variants_agree("tian_yi", "v1", "v2", [s for s in every_but if s != "辛"]) == (2, 10)


def test_known_differences_cover_every_named_reason() -> None:
    from mingshu.crosscheck import iztro

    reasons = {str(getattr(iztro, n)).split(":")[0] for n in dir(iztro) if n.startswith("KNOWN_")}
    rows = table("known_differences", {}).rows
    assert {r[0] for r in rows} == reasons
    # The reasons' charts add up to the known differences of the per-file table.
    per_file = table("iztro_crosscheck", {}).rows
    assert sum(int(r[1]) for r in rows) == sum(int(r[3]) for r in per_file)


def test_hit_naming_claim_catches_a_wrong_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # The claim compares each hit with the settings' own choice; plant another choice of
    # Literary Star table and the layouts holding the star become counterexamples.
    from mingshu.bazi import settings as S
    from mingshu.library.claims import load_claims

    monkeypatch.setattr(S, "DEFAULT", S.BaziSettings(star_variants={"wen_chang": "w2"}))
    bad, n = load_claims()["star_hits_name_table_and_basis"].run()
    assert 0 < bad < n


def test_every_basis_has_words() -> None:
    """Each basis a BaZi table may name (bazi.stars.BASES) has its words in the articles."""
    from mingshu.bazi.stars import BASES
    from mingshu.library.engine import BASIS_WORDS

    assert set(BASIS_WORDS) == set(BASES)
