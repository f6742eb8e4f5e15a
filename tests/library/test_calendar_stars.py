"""The kinds and checks behind the Heavenly Pardon, Heavenly Doctor, Child Spirit and Six
Hardships (天赦 天医 童子煞 六厄): tables against the books' own words, and checks that fail
on a wrong table or search."""

from __future__ import annotations

from typing import Any

import pytest

from mingshu.bazi import BaziSettings, shensha
from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library import problems as P
from mingshu.library.tables import table

# 三命通會 卷三: 有天赦日春戊寅夏甲午秋戊申冬甲子 (spring = the Tiger, Rabbit, Dragon months).
PARDON = ["戊寅"] * 3 + ["甲午"] * 3 + ["戊申"] * 3 + ["甲子"] * 3


def test_star_cells_prints_pillar_cells() -> None:
    got = table("star_cells", {"tables": [["tian_she", "standard", "P"]], "start": "tiger"})
    assert [r[1] for r in got.rows] == PARDON


def test_bazi_keys_for_takes_a_pillar() -> None:
    ask = {"ask": "bazi_keys_for", "star": "tian_she"}
    assert P.problem_answer({**ask, "target": "甲子"}) == "Rat or Ox or Pig"
    assert P.problem_answer({**ask, "target": "乙丑"}) == "none"


def test_the_table_checks_hold_and_fail() -> None:
    run = claim_checks.run_check
    doctor = {"table": "tian_yi_doctor.li_li"}
    assert run("branch_steps", {**doctor, "steps": 8}) == (0, 12)
    assert run("branch_steps", {**doctor, "steps": 7}) == (12, 12)
    pardon = {"table": "tian_she.standard", "stems": ["甲", "戊"]}
    assert run("pardon_by_season", pardon) == (0, 12)
    assert run("pardon_by_season", {**pardon, "stems": ["甲"]}) == (6, 12)  # the 戊 seasons


def test_the_search_checks_fail_on_a_wrong_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    run = claim_checks.run_check
    assert run("month_day_pillar_star", {"star": "tian_she"}) == (0, 3600)
    assert run("branch_star_in_other_pillars", {"star": "liu_e"}) == (0, 20736)
    real = shensha.stars_in
    by_day = BaziSettings(star_bases={"liu_e": "day_branch"})

    def planted(*pillars: Any, settings: Any = None) -> Any:
        found = real(*pillars, settings=by_day)
        if pillars[1].branch == 0:  # a Rat month loses its Pardon
            found = tuple(r._replace(hits=()) if r.star.key == "tian_she" else r for r in found)
        return found

    monkeypatch.setattr(shensha, "stars_in", planted)
    assert run("month_day_pillar_star", {"star": "tian_she"})[0] > 0
    assert run("branch_star_in_other_pillars", {"star": "liu_e"})[0] > 0


@pytest.mark.parametrize(
    ("check", "args"),
    [
        ("month_star_in_four_pillars", {"star": "tian_she"}),  # its cells are pillars
        ("month_star_in_four_pillars", {"star": "tian_yi"}),  # read from a stem
        ("combination_partners", {"table": "tian_yi.v1", "of": "tian_de.stems"}),
        ("tables_apart", {"a": "liu_e.standard", "b": "tian_yi.v1", "steps": 1}),
        ("stage_cells", {"table": "liu_e.standard", "stage": "si"}),
        ("branch_steps", {"table": "tian_yi.v1", "steps": 1}),
        ("tables_agree", {"a": "kui_gang.four", "b": "tian_de.stems", "same_at": []}),
    ],
)
def test_a_check_given_the_wrong_kind_of_table_names_its_args(
    check: str, args: dict[str, object]
) -> None:
    with pytest.raises(InputError) as e:
        claim_checks.run_check(check, args)
    assert e.value.field == "args"
