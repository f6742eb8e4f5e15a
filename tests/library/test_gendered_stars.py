"""The Hook and Noose and Yuan Chen: the gendered tables against the Sanming Tonghui's own
examples, the engine check over both directions, and the ``star_roles`` problem."""

from __future__ import annotations

import itertools

import pytest

from mingshu.errors import InputError
from mingshu.library import bazi_stars, claim_checks
from mingshu.library.claim_checks import run_check
from mingshu.library.problems import problem_answer

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


def test_the_tables_give_the_chapters_examples() -> None:
    from mingshu.bazi import stars

    gou = stars.star("gou_jiao").variant("gendered")
    # 假令甲子陽命人卯為勾酉為絞乙丑陰命人辰為絞戌為勾 (Sanming Tonghui juan 3, 論勾絞): a yang
    # man of 甲子 counts forward, a yang man of 乙丑 (a yin year) backward; 勾 comes first.
    assert [int(t) for _k, t in gou.lookup[BRANCHES.index("子")]] == [3, 9]
    assert [int(t) for _k, t in gou.lookup_backward[BRANCHES.index("丑")]] == [10, 4]
    yuan = stars.star("yuan_chen").variant("standard")
    # 假如甲子生男與甲午對衝即乙未為正乙丑生男與乙未對衝即甲午為正 (論元辰)
    assert [int(t) for _k, t in yuan.lookup[BRANCHES.index("子")]] == [BRANCHES.index("未")]
    assert [int(t) for _k, t in yuan.lookup_backward[BRANCHES.index("丑")]] == [
        BRANCHES.index("午")
    ]


def test_key_steps_holds_and_fails() -> None:
    args = {"star": "yuan_chen", "variant": "standard", "steps": [7], "backward": False}
    assert run_check("key_steps", args) == (0, 12)
    assert run_check("key_steps", {**args, "backward": True})[0] == 12
    assert run_check("key_steps", {**args, "steps": [7, 5]})[0] == 12
    with pytest.raises(InputError) as e:
        run_check("key_steps", {**args, "star": "gu_chen", "backward": True})
    assert e.value.field == "args"


def test_the_engine_check_fails_when_the_engine_ignores_the_direction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mingshu.bazi import shensha

    real = shensha.stars_in

    def forward_only(*pillars: object, backward: bool = False, **kw: object) -> object:
        return real(*pillars, **kw)  # type: ignore[arg-type]

    # the first 600 arrangements keep it short; the claim runs them all
    real_layouts = claim_checks._branch_layouts
    monkeypatch.setattr(
        claim_checks, "_branch_layouts", lambda: itertools.islice(real_layouts(), 600)
    )
    assert run_check("gendered_in_pillars", {"star": "yuan_chen"}) == (0, 1200)
    monkeypatch.setattr(shensha, "stars_in", forward_only)
    assert run_check("gendered_in_pillars", {"star": "yuan_chen"})[0] > 0
    with pytest.raises(InputError):
        run_check("gendered_in_pillars", {"star": "gu_chen"})


def test_star_roles_names_the_hook_by_gender() -> None:
    birth = {"date": "2020-03-20", "time": "14:00"}
    ask = {"ask": "star_roles", "star": "gou_jiao"}
    # 庚子: a yang year; a man counts forward (卯 the Hook), a woman backward (卯 the Noose)
    assert problem_answer({**ask, "birth": {**birth, "gender": "male"}}) == "month Rabbit (Hook)"
    assert problem_answer({**ask, "birth": {**birth, "gender": "female"}}) == (
        "month Rabbit (Noose)"
    )
    assert bazi_stars.p_star_roles({"star": "yuan_chen", "pillars": "甲子 丙寅 甲子 丙寅"}) == (
        "not in the chart"
    )
