"""Derived items, luck pillars, 流年 and 小运 of random charts against lunar-python 1.4.8, and
the two exact start-age methods against tyme4py 1.5.0."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta

import bazi_oracle
import pytest
from tyme4py.eightchar import ChildLimit
from tyme4py.eightchar.provider.impl import China95ChildLimitProvider, DefaultChildLimitProvider
from tyme4py.enums import Gender as TymeGender
from tyme4py.solar import SolarTime

from mingshu import bazi

SECTS = {1: bazi.LateRatHour.NEXT_DAY, 2: bazi.LateRatHour.SPLIT}
METHODS = {1: bazi.StartAge.DAYS_SHICHEN, 2: bazi.StartAge.MINUTES}


def _moments(n: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    first = datetime(1900, 2, 10)
    span = int((datetime(2100, 11, 30) - first).total_seconds())
    out = [first + timedelta(seconds=rng.randrange(span)) for _ in range(n)]
    out += [m.replace(hour=23) for m in out[: n // 10]]  # the late Rat hour, often
    return sorted(out)


def _pillar_items(ec: object, prefix: str) -> tuple[object, ...]:
    get = lambda name: getattr(ec, f"get{prefix}{name}")()  # noqa: E731
    return (
        get("ShiShenGan"),
        tuple(get("ShiShenZhi")),
        tuple(get("HideGan")),
        get("NaYin"),
        get("DiShi"),
        get("XunKong"),
    )


def _our_items(d: bazi.PillarDetail) -> tuple[object, ...]:
    return (
        "日主" if d.ten_god is None else str(d.ten_god),
        tuple(str(h.ten_god) for h in d.hidden),
        tuple(str(h.stem) for h in d.hidden),
        str(d.nayin),
        str(d.stage),
        "".join(str(b) for b in d.void),
    )


@pytest.mark.parametrize("sect", [1, 2])
def test_derived_items_match_lunar_python(sect: int) -> None:
    differences = []
    for m in _moments(800, seed=sect):
        ec = bazi_oracle.eight_char(m, sect)
        c = bazi.chart_at(m, "male", bazi.BaziSettings(late_rat_hour=SECTS[sect]))
        expected = [_pillar_items(ec, p) for p in ("Year", "Month", "Day", "Time")] + [
            ec.getTaiYuan(),
            ec.getTaiXi(),
            ec.getMingGong(),
            ec.getShenGong(),
        ]
        got = [_our_items(d) for d in c.details] + [
            str(c.tai_yuan),
            str(c.tai_xi),
            str(c.ming_gong),
            str(c.shen_gong),
        ]
        if got != expected:
            differences.append((m, got, expected))
    assert differences == []


def _luck_facts(c: bazi.Chart) -> tuple[object, ...]:
    lk = c.luck
    return (
        lk.forward,
        tuple(lk.start)[:4],
        f"{lk.start_moment:%Y-%m-%d %H:%M:%S}",
        tuple((str(s.pillar), s.start_year, s.start_age, s.end_year) for s in lk.steps),
    )


def _lunar_luck(ec: object, gender: int, sect: int) -> tuple[object, ...]:
    yun = ec.getYun(gender, sect)  # type: ignore[attr-defined]
    steps = yun.getDaYun(11)[1:]
    return (
        yun.isForward(),
        (yun.getStartYear(), yun.getStartMonth(), yun.getStartDay(), yun.getStartHour()),
        yun.getStartSolar().toYmdHms(),
        tuple((s.getGanZhi(), s.getStartYear(), s.getStartAge(), s.getEndYear()) for s in steps),
    )


@pytest.mark.parametrize("method", [1, 2])
def test_luck_matches_lunar_python_get_yun(method: int) -> None:
    differences = []
    for i, m in enumerate(_moments(500, seed=10 + method)):
        sect = 1 + i % 2  # the luck start does not depend on the sect; vary it anyway
        ec = bazi_oracle.eight_char(m, sect)
        for gender, name in ((1, "male"), (0, "female")):
            settings = bazi.BaziSettings(late_rat_hour=SECTS[sect], start_age=METHODS[method])
            c = bazi.chart_at(m, name, settings)
            if _luck_facts(c) != _lunar_luck(ec, gender, method):
                differences.append((m, name, _luck_facts(c), _lunar_luck(ec, gender, method)))
    assert differences == []


def test_liu_nian_and_xiao_yun_match_lunar_python() -> None:
    differences = []
    for m in _moments(150, seed=21):
        ec = bazi_oracle.eight_char(m, 2)
        for gender, name in ((1, "male"), (0, "female")):
            c = bazi.chart_at(
                m,
                name,
                bazi.BaziSettings(late_rat_hour=bazi.LateRatHour.SPLIT, start_age=METHODS[1]),
            )
            for da_yun in ec.getYun(gender, 1).getDaYun(4):
                for ln, xy in zip(da_yun.getLiuNian(), da_yun.getXiaoYun(), strict=True):
                    a = c.annual(ln.getYear())
                    got = (a.age, str(a.pillar), str(a.xiao_yun))
                    expected = (ln.getAge(), ln.getGanZhi(), xy.getGanZhi())
                    if got != expected:
                        differences.append((m, name, ln.getYear(), got, expected))
    assert differences == []


@pytest.fixture
def tyme_provider() -> Iterator[None]:
    """tyme4py keeps its start-age provider in a class attribute: restore it afterwards."""
    original = ChildLimit.provider
    yield
    ChildLimit.provider = original


@pytest.mark.parametrize(
    ("method", "provider"),
    [
        (bazi.StartAge.SECONDS, DefaultChildLimitProvider()),
        (bazi.StartAge.CHINA95, China95ChildLimitProvider()),
    ],
    ids=["seconds", "china95"],
)
def test_exact_start_methods_match_tyme4py(
    method: bazi.StartAge, provider: object, tyme_provider: None
) -> None:
    ChildLimit.provider = provider  # type: ignore[assignment]
    differences = []
    for m in _moments(300, seed=31):
        t = SolarTime(m.year, m.month, m.day, m.hour, m.minute, m.second)
        for tyme_gender, name in ((TymeGender.MAN, "male"), (TymeGender.WOMAN, "female")):
            limit = ChildLimit(t, tyme_gender)
            end = limit.get_end_time()
            expected = (
                limit.get_year_count(),
                limit.get_month_count(),
                limit.get_day_count(),
                limit.get_hour_count(),
                limit.get_minute_count(),
                (end.get_year(), end.get_month(), end.get_day(), end.get_hour(), end.get_minute()),
            )
            s = bazi.chart_at(m, name, bazi.BaziSettings(start_age=method)).luck
            e = s.start_moment
            got = (*s.start, (e.year, e.month, e.day, e.hour, e.minute))
            if got != expected:
                differences.append((m, name, got, expected))
    assert differences == []
