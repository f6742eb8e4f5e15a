"""人元司令 (against 三命通會 卷二's text and against tyme4py) and the 中气 命宫 variant."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

import pytest
from tyme4py.solar import SolarDay

from mingshu import bazi
from mingshu.bazi.month_qi import si_ling
from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError

JIE = datetime(2024, 2, 4, 16, 27, 7)  # 立春 2024, Beijing time


@pytest.mark.parametrize(
    ("branch", "day", "stem"),
    [
        # 「正月建寅寅中有艮土用事五日丙火長生五日甲木二十日」 (艮土 read as 戊)
        (Branch.YIN, 0, Stem.WU),
        (Branch.YIN, 4, Stem.WU),
        (Branch.YIN, 5, Stem.BING),
        (Branch.YIN, 9, Stem.BING),
        (Branch.YIN, 10, Stem.JIA),
        (Branch.YIN, 29, Stem.JIA),
        # 「二月建卯卯中有甲木用事七日乙木二十三日」
        (Branch.MAO, 6, Stem.JIA),
        (Branch.MAO, 7, Stem.YI),
        # 「三月建辰辰中有乙木用事七日壬水墓庫五日戊土一十八日」
        (Branch.CHEN, 7, Stem.REN),
        (Branch.CHEN, 12, Stem.WU),
        # 「七月建申申中有坤土用事五日壬水長生五日庚金二十日」 (坤土 read as 己)
        (Branch.SHEN, 2, Stem.JI),
        (Branch.SHEN, 5, Stem.REN),
        # 「十二月建丑丑中有癸水用事七日庚金墓庫五日巳土一十八日」
        (Branch.CHOU, 11, Stem.GENG),
        (Branch.CHOU, 12, Stem.JI),
    ],
)
def test_sanming_table_follows_the_chapter(branch: Branch, day: int, stem: Stem) -> None:
    assert si_ling(branch, JIE, JIE + timedelta(days=day)).stem is stem


def _tyme(d: date) -> tuple[str, int]:
    h = SolarDay(d.year, d.month, d.day).get_hide_heaven_stem_day()
    return h.get_hide_heaven_stem().get_heaven_stem().get_name(), h.get_day_index()


def test_tyme4py_table_agrees_with_tyme4py() -> None:
    rnd = random.Random(12)
    checked = 0
    while checked < 300:
        d = date(1950, 1, 1) + timedelta(days=rnd.randrange(365 * 100))
        c = bazi.chart(
            d.isoformat(), "12:00", "male", settings=bazi.BaziSettings(si_ling="tyme4py")
        )
        if d in (c.previous_jie[1].date(), c.next_jie[1].date()):
            continue  # tyme4py counts by date; on the 节 day the month depends on the hour
        sl = c.si_ling()
        assert (str(sl.stem), sl.day_in_stage) == _tyme(d), d
        checked += 1


def test_unknown_table_and_birth_before_the_jie() -> None:
    with pytest.raises(InputError) as e:
        bazi.BaziSettings(si_ling="yuanhai")
    assert e.value.field == "si_ling"
    with pytest.raises(InputError):
        si_ling(Branch.YIN, JIE, JIE - timedelta(days=1))


def test_ming_gong_from_the_zhong_qi() -> None:
    zq = bazi.BaziSettings(ming_gong_month="zhong_qi")
    # After 立春 (02-04) but before 雨水 (02-19 12:13): the 中气 month is still 丑.
    early = bazi.chart("2024-02-10", "10:30", "male", settings=zq)
    assert early.pillars.month.branch is Branch.YIN
    assert early.ming_gong == bazi.ming_gong(Stem.JIA, Branch.CHOU, Branch.SI)
    assert bazi.chart("2024-02-10", "10:30", "male").ming_gong == bazi.ming_gong(
        Stem.JIA, Branch.YIN, Branch.SI
    )
    late = bazi.chart("2024-02-20", "10:30", "male", settings=zq)
    assert late.ming_gong == bazi.ming_gong(Stem.JIA, Branch.YIN, Branch.SI)
