"""The Void (空亡): the decade rule against the Sanming Tonghui's example, the engine check,
the ``void_decades`` table and the ``void_pillars`` problem."""

from __future__ import annotations

import pytest

from mingshu.cycles import Pillar
from mingshu.library import claim_checks
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer
from mingshu.library.tables import table


def test_the_first_decade_has_no_dog_and_no_pig() -> None:
    # 如甲子旬遁至酉而十干足所以無戌亥 (Sanming Tonghui juan 3, 論空亡)
    out = table("void_decades", {})
    assert out.rows[0] == ("甲子 … 癸酉", "Dog", "Pig")
    assert len(out.rows) == 6
    # 甲寅旬 … 甲辰旬 … (八字金書 in the same chapter names the decades by their 甲 heads)
    assert [r[0][:2] for r in out.rows] == ["甲子", "甲戌", "甲申", "甲午", "甲辰", "甲寅"]
    assert problem_answer({"ask": "void_pillars", "branch": "pig"}).split(" or ") == [
        "甲子",
        "乙丑",
        "丙寅",
        "丁卯",
        "戊辰",
        "己巳",
        "庚午",
        "辛未",
        "壬申",
        "癸酉",
    ]


def test_the_void_checks_hold_and_fail_on_a_planted_void(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run_check("void_is_decade_leftover", {}) == (0, 60)
    real = claim_checks._year_and_day_pillars
    few = list(real())[:2000]
    monkeypatch.setattr(claim_checks, "_year_and_day_pillars", lambda: iter(few))
    assert run_check("void_of_day_and_year", {}) == (0, 2000)
    # a Void one branch off: both checks must see it
    monkeypatch.setattr(
        Pillar,
        "void_branches",
        property(lambda p: tuple(b.next(1) for b in real_void(p))),
    )
    assert run_check("void_is_decade_leftover", {})[0] == 60
    assert run_check("void_of_day_and_year", {})[0] > 0


real_void = Pillar.void_branches.fget  # type: ignore[attr-defined]
