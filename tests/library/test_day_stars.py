"""The kinds and checks behind the day-pillar stars (魁罡 十恶大败 阴差阳错 孤鸾 日德): the
lists against the books' own days, and checks that fail on a wrong list or search."""

from __future__ import annotations

from typing import Any

import pytest

from mingshu.bazi import BaziSettings, shensha
from mingshu.errors import InputError
from mingshu.library import claim_checks
from mingshu.library.tables import table

# 三命通會 卷六 魁罡: 此格有四日庚辰壬辰戊戌庚戌; 卷三 陰陽差錯煞: the twelve days.
KUI_GANG = ["庚辰", "壬辰", "戊戌", "庚戌"]
YIN_CHA = [
    "丙子",
    "丁丑",
    "戊寅",
    "辛卯",
    "壬辰",
    "癸巳",
    "丙午",
    "丁未",
    "戊申",
    "辛酉",
    "壬戌",
    "癸亥",
]
# 三命通會 卷三 論十惡大敗, 元白經's list of days (the year list gives 己丑, not 乙丑).
SHI_E = ["甲辰", "乙巳", "丙申", "丁亥", "戊戌", "己丑", "庚辰", "辛巳", "壬申", "癸亥"]


def test_pillar_sets_lists_the_books_days() -> None:
    got = table("pillar_sets", {"tables": [["kui_gang", "four"], ["shi_e_da_bai", "standard"]]})
    assert [(r[2], set(r[3].split())) for r in got.rows] == [
        ("4", set(KUI_GANG)),
        ("10", set(SHI_E)),
    ]
    assert got.marked == frozenset({(0, 1), (1, 1)})
    with pytest.raises(InputError):
        table("pillar_sets", {"tables": [["tian_yi", "v1"]]})


def test_shared_pillars_names_the_days_on_two_lists() -> None:
    got = table("shared_pillars", {"stars": ["kui_gang", "yin_cha_yang_cuo"]})
    assert [r[0] for r in got.rows] == sorted(set(KUI_GANG) & set(YIN_CHA))


def test_the_list_checks_hold_and_fail() -> None:
    run = claim_checks.run_check
    assert run("emolument_void_days", {"table": "shi_e_da_bai.standard"}) == (0, 60)
    assert run("emolument_void_days", {"table": "yin_cha_yang_cuo.standard"})[0] > 0
    assert run("clash_pairs", {"table": "yin_cha_yang_cuo.standard"}) == (0, 12)
    assert run("clash_pairs", {"table": "kui_gang.four"}) == (2, 4)  # 壬辰 and 戊戌 unpaired


def test_the_day_check_fails_on_a_wrong_list_or_an_hour_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = claim_checks.run_check
    assert run("day_pillar_star", {"star": "kui_gang", "pillars": KUI_GANG}) == (0, 3600)
    assert run("day_pillar_star", {"star": "kui_gang", "pillars": KUI_GANG[:3]})[0] == 60
    real = shensha.stars_in
    hours = BaziSettings(star_bases={"kui_gang": "day_pillar+hour_pillar"})

    def planted(*pillars: Any, settings: Any = None) -> Any:
        return real(*pillars, settings=hours)

    monkeypatch.setattr(shensha, "stars_in", planted)
    assert run("day_pillar_star", {"star": "kui_gang", "pillars": KUI_GANG})[0] > 0


# ------------------------------------------------------------ the late Rat hour in a problem


@pytest.mark.parametrize(("setting", "sect"), [("next_day", 1), ("split", 2)])
def test_star_hits_takes_the_late_rat_hour_setting(setting: str, sect: int) -> None:
    """A birth at 23:30 the night before a 庚辰 day: lunar-python's EightChar sect 1 (the
    next day from 23:00) gives the day 庚辰, a Kui Gang day; sect 2 (the day kept until
    midnight) gives 己卯, which is not. The problem's setting must follow."""
    from lunar_python import Solar

    from mingshu.library.problems import problem_answer

    eight = Solar.fromYmdHms(2000, 1, 22, 23, 30, 0).getLunar().getEightChar()
    eight.setSect(sect)
    day = eight.getDay()
    query = {
        "ask": "star_hits",
        "star": "kui_gang",
        "birth": {"date": "2000-01-22", "time": "23:30", "gender": "male"},
        "late_rat_hour": setting,
    }
    expected = f"day {day}" if day in KUI_GANG else "not in the chart"
    assert problem_answer(query) == expected


def test_star_hits_refuses_an_unknown_late_rat_hour() -> None:
    query = {
        "ask": "star_hits",
        "star": "kui_gang",
        "birth": {"date": "2000-01-22", "time": "23:30", "gender": "male"},
        "late_rat_hour": "midnight",
    }
    from mingshu.library.problems import problem_answer

    with pytest.raises(InputError) as e:
        problem_answer(query)
    assert e.value.field == "late_rat_hour"
